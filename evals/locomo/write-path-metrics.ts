/**
 * The figures of the LoCoMo write-path benchmark, from per-user extraction rows and per-question
 * rows: extraction turn recall and precision against the observation evidence, the share of
 * questions whose injected block holds an evidence memory or the answer's words, tokens, and the
 * same for the two baselines. Field names are snake_case: the `--json` file is a format
 * (docs/benchmarks.md).
 */

/** One user of one conversation: what the write path did with their turns. */
export interface ExtractionRow {
  conversation: number;
  speaker: string;
  /** The user's turns sent through the graph. */
  user_turns: number;
  /** Their turns cited by their own observations. */
  positive_turns: string[];
  /** Their turns at least one written memory (or profile field, or rule) is attributed to. */
  extracted_turns: string[];
  /** Rows written (any status, past sessions excluded) in all and by kind, profile fields and rules proposed. */
  memories_written: number;
  memories_by_kind: Record<string, number>;
  profile_writes: number;
  rules_proposed: number;
  /** Written rows whose message id is none of the user's turns (missing attribution). */
  unattributed_memories: number;
  /** Positive turns whose job got no candidate; candidates all refused; only folded into an existing memory. */
  positive_without_candidates: number;
  positive_all_refused: number;
  positive_deduped_only: number;
  refused_by_reason: Record<string, number>;
  /** Draining the extraction worker: wall clock, and CPU time of the process (steady on a busy machine). */
  extraction_ms: number;
  extraction_cpu_ms: number;
}

/** What one retriever put in one question's block. */
export interface BlockOutcome {
  /** A line attributed to an evidence turn is in the block. */
  evidence_hit: boolean;
  /** Share of the answer's content words in the block's lines (null: the answer has none). */
  answer_share: number | null;
  tokens: number;
}

/** One question, asked as one speaker. */
export interface QuestionRow {
  conversation: number;
  index: number;
  category: number;
  speaker: string;
  speaker_rule: string;
  /** At least one evidence turn is the asked speaker's own (others' turns never become their memories). */
  evidence_of_speaker: boolean;
  product: BlockOutcome & { evidence_session_hit: boolean };
  raw_turns_store: BlockOutcome;
  raw_turns_bm25: BlockOutcome;
}

export interface ExtractionFigures {
  users: number;
  user_turns: number;
  positive_turns: number;
  extracted_turns: number;
  true_positive_turns: number;
  /** true positives / positives, and / extracted turns (micro-averaged over users). */
  recall: number;
  precision: number;
  memories_written: number;
  memories_by_kind: Record<string, number>;
  profile_writes: number;
  rules_proposed: number;
  unattributed_memories: number;
  positive_without_candidates: number;
  positive_all_refused: number;
  positive_deduped_only: number;
  refused_by_reason: Record<string, number>;
}

export interface RetrieverFigures {
  /** Questions whose block holds a line from an evidence turn. */
  evidence_in_block: number;
  /** Questions (whose answer has content words) with all of them in the block. */
  answer_words_all: number;
  /** Mean share of the answer's content words in the block. */
  answer_words_mean: number;
  tokens_mean: number;
  tokens_p50: number;
}

export interface QuestionFigures {
  questions: number;
  /** Questions whose answer has content words (the answer-words denominator). */
  answer_questions: number;
  /** Questions with an evidence turn of the asked speaker. */
  evidence_of_speaker: number;
  speaker_rules: Record<string, number>;
  product: RetrieverFigures & { evidence_session_in_block: number };
  raw_turns_store: RetrieverFigures;
  raw_turns_bm25: RetrieverFigures;
  by_category: Record<string, { questions: number; product: number; raw_turns_store: number; raw_turns_bm25: number }>;
}

export interface ThroughputFigures {
  user_turns: number;
  extraction_seconds: number;
  /** User turns extracted per second by one worker (drain time only: the response path is not in it). */
  turns_per_second_per_worker: number;
  /** The same per CPU second of the worker's process: what the worker costs, whatever else the machine runs. */
  extraction_cpu_seconds: number;
  turns_per_cpu_second: number;
}

export interface SplitFigures {
  conversations: number[];
  extraction: ExtractionFigures;
  questions: QuestionFigures;
  throughput: ThroughputFigures;
}

/** Figures over the rows of some conversations. */
export function splitFigures(conversations: readonly number[], extraction: readonly ExtractionRow[], questions: readonly QuestionRow[]): SplitFigures {
  const inSplit = new Set(conversations);
  const e = extraction.filter((r) => inSplit.has(r.conversation));
  const q = questions.filter((r) => inSplit.has(r.conversation));
  const userTurns = sum(e.map((r) => r.user_turns));
  const seconds = sum(e.map((r) => r.extraction_ms)) / 1000;
  const cpuSeconds = sum(e.map((r) => r.extraction_cpu_ms)) / 1000;
  return {
    conversations: [...conversations],
    extraction: extractionFigures(e),
    questions: questionFigures(q),
    throughput: {
      user_turns: userTurns,
      extraction_seconds: round(seconds, 1),
      turns_per_second_per_worker: seconds > 0 ? round(userTurns / seconds, 1) : 0,
      extraction_cpu_seconds: round(cpuSeconds, 1),
      turns_per_cpu_second: cpuSeconds > 0 ? round(userTurns / cpuSeconds, 1) : 0,
    },
  };
}

export function extractionFigures(rows: readonly ExtractionRow[]): ExtractionFigures {
  let positives = 0;
  let extracted = 0;
  let tp = 0;
  const refused: Record<string, number> = {};
  const kinds: Record<string, number> = {};
  for (const r of rows) {
    for (const [k, n] of Object.entries(r.memories_by_kind)) kinds[k] = (kinds[k] ?? 0) + n;
    const got = new Set(r.extracted_turns);
    positives += r.positive_turns.length;
    extracted += got.size;
    tp += r.positive_turns.filter((id) => got.has(id)).length;
    for (const [k, n] of Object.entries(r.refused_by_reason)) refused[k] = (refused[k] ?? 0) + n;
  }
  return {
    users: rows.length,
    user_turns: sum(rows.map((r) => r.user_turns)),
    positive_turns: positives,
    extracted_turns: extracted,
    true_positive_turns: tp,
    recall: share(tp, positives),
    precision: share(tp, extracted),
    memories_written: sum(rows.map((r) => r.memories_written)),
    memories_by_kind: Object.fromEntries(Object.entries(kinds).sort()),
    profile_writes: sum(rows.map((r) => r.profile_writes)),
    rules_proposed: sum(rows.map((r) => r.rules_proposed)),
    unattributed_memories: sum(rows.map((r) => r.unattributed_memories)),
    positive_without_candidates: sum(rows.map((r) => r.positive_without_candidates)),
    positive_all_refused: sum(rows.map((r) => r.positive_all_refused)),
    positive_deduped_only: sum(rows.map((r) => r.positive_deduped_only)),
    refused_by_reason: Object.fromEntries(Object.entries(refused).sort()),
  };
}

export function questionFigures(rows: readonly QuestionRow[]): QuestionFigures {
  const byCategory: QuestionFigures["by_category"] = {};
  for (const c of [...new Set(rows.map((r) => r.category))].sort()) {
    const cat = rows.filter((r) => r.category === c);
    byCategory[String(c)] = {
      questions: cat.length,
      product: rate(cat, (r) => r.product.evidence_hit),
      raw_turns_store: rate(cat, (r) => r.raw_turns_store.evidence_hit),
      raw_turns_bm25: rate(cat, (r) => r.raw_turns_bm25.evidence_hit),
    };
  }
  const rules: Record<string, number> = {};
  for (const r of rows) rules[r.speaker_rule] = (rules[r.speaker_rule] ?? 0) + 1;
  return {
    questions: rows.length,
    answer_questions: rows.filter((r) => r.product.answer_share !== null).length,
    evidence_of_speaker: rows.filter((r) => r.evidence_of_speaker).length,
    speaker_rules: rules,
    product: { ...retrieverFigures(rows.map((r) => r.product)), evidence_session_in_block: rate(rows, (r) => r.product.evidence_session_hit) },
    raw_turns_store: retrieverFigures(rows.map((r) => r.raw_turns_store)),
    raw_turns_bm25: retrieverFigures(rows.map((r) => r.raw_turns_bm25)),
    by_category: byCategory,
  };
}

export function retrieverFigures(blocks: readonly BlockOutcome[]): RetrieverFigures {
  const shares = blocks.map((b) => b.answer_share).filter((s): s is number => s !== null);
  const tokens = blocks.map((b) => b.tokens).sort((a, b) => a - b);
  return {
    evidence_in_block: rate(blocks, (b) => b.evidence_hit),
    answer_words_all: share(shares.filter((s) => s === 1).length, shares.length),
    answer_words_mean: shares.length === 0 ? 0 : round(sum(shares) / shares.length, 3),
    tokens_mean: tokens.length === 0 ? 0 : round(sum(tokens) / tokens.length, 1),
    tokens_p50: tokens.length === 0 ? 0 : tokens[Math.ceil(tokens.length / 2) - 1],
  };
}

function rate<T>(rows: readonly T[], hit: (r: T) => boolean): number {
  return share(rows.filter(hit).length, rows.length);
}

function share(n: number, d: number): number {
  return d === 0 ? 0 : round(n / d, 3);
}

function sum(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

function round(v: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}

/** Time per phase of the write-path benchmark (milliseconds in a run, seconds in the result). */
export interface PhaseTimes {
  turns: number;
  extraction: number;
  sweeps: number;
  questions: number;
  baselines: number;
  cpu: number;
}

/** What one conversation's run produced (a child process sends it back as is). */
export interface ConversationRun {
  extraction: ExtractionRow[];
  questions: QuestionRow[];
  warnings: string[];
  /** Milliseconds per phase (see `phase_seconds`). */
  phases: PhaseTimes;
}

