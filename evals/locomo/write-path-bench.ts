/**
 * The LoCoMo write-path benchmark (`npm run bench:locomo-memory`, issue 16): conversations
 * nobody here wrote, sent through the real write path (extraction, write policy, supersede, store)
 * with each speaker in turn as the user, then measured against the data set's own labels —
 * extraction turn recall and precision against the observation evidence, and for each question,
 * asked as the speaker it is about, whether the injected memory block holds an evidence memory and
 * the answer's words — beside two baselines at the same token budget. docs/benchmarks.md
 * describes the method and the JSON fields.
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { BudgetsSchema, type Budgets } from "../../src/config.js";
import { ErrorCodes, MemoryError } from "../../src/errors.js";
import { chatModelFromSpec } from "../../src/models/chat-model.js";
import { DatabaseTemplate } from "../runner/database-template.js";
import { answerWordShare } from "./content-words.js";
import {
  askedQuestions,
  defaultLocomoPath,
  loadLocomo,
  observedTurns,
  selectConversations,
  type LocomoConversation,
  type LocomoQuestion,
  type LocomoSplit,
} from "./dataset.js";
import { RawTurnBm25Baseline, RawTurnStoreBaseline, type BaselineBlock } from "./raw-turn-baselines.js";
import { SpeakerReplay, sessionThreadId, type BlockProbe } from "./speaker-replay.js";
import { runInChildren } from "./write-path-children.js";
import { splitFigures, type ConversationRun, type PhaseTimes, type ExtractionFigures, type ExtractionRow, type QuestionFigures, type QuestionRow, type SplitFigures, type ThroughputFigures } from "./write-path-metrics.js";

export interface LocomoWritePathOptions {
  /** The data file (default {@link defaultLocomoPath}); ignored when `data` is given. */
  dataPath?: string;
  /** Conversations already loaded (tests, scripts). */
  data?: readonly LocomoConversation[];
  /** train (0–4), test (5–9) or all (default). */
  split?: LocomoSplit;
  /** Only these conversation positions (within the split). */
  conversations?: readonly number[];
  /** The LLM pipeline: a `provider:model` spec or a chat model. Unset or null: the offline pipeline. */
  model?: string | BaseChatModel | null;
  /** Label of a model instance (default its `_llmType()`). */
  modelLabel?: string;
  /** Section budgets (default the product's). */
  budgets?: Partial<Budgets>;
  /** Run the retention sweep at each session's clock (default true, as a scheduled `gc` would). */
  retention?: boolean;
  /**
   * Conversations run at once, each in its own child process (PGlite runs on its process's one
   * thread). Default 1: in this process. Needs `dataPath` and a model spec (not an instance).
   */
  concurrency?: number;
  /** The migrated database every speaker's run restores (default: built once here, and handed to child processes). */
  template?: DatabaseTemplate;
  /** Add every extraction and question row to the result (`extraction_rows`, `question_rows`). */
  includeRows?: boolean;
  /** Progress lines. */
  log?: (message: string) => void;
}

/** The figures of one conversation. */
export interface ConversationFigures {
  conversation: number;
  sample_id: string;
  split: "train" | "test";
  extraction: ExtractionFigures;
  questions: QuestionFigures;
  throughput: ThroughputFigures;
}

/** The JSON result of `npm run bench:locomo-memory` (docs/benchmarks.md). */
export interface LocomoWritePathResult {
  benchmark: "locomo-memory";
  /** Always true here (an LLM run without a model writes `{ pipeline, measured: false, reason }` instead). */
  measured: true;
  data_path: string;
  /** `offline` (rule extractor) or `llm:<provider:model>`. */
  pipeline: string;
  split: LocomoSplit;
  conversations: number[];
  /** The split to quote: `test` whenever it ran (never tune on it). */
  headline_split: "train" | "test" | "all";
  budgets: { memories: number; past_sessions: number; profile: number; baseline_tokens: number };
  embedder: string;
  engine: string;
  /** Conversations run at once (child processes when more than 1). */
  concurrency: number;
  /** Figures per split that ran: `train` and/or `test`, and `all` when both did. */
  splits: Partial<Record<"train" | "test" | "all", SplitFigures>>;
  by_conversation: ConversationFigures[];
  /**
   * Where the run's time went (wall clock, summed over processes): the graph's turns, draining
   * extraction, sweeps, questions, the baselines; and `cpu`, the CPU time of the conversations' runs.
   */
  phase_seconds: PhaseTimes;
  /** Errors the pipeline recovered from (count, and the first few). */
  warnings: { count: number; first: string[] };
  runtime_ms: number;
  extraction_rows?: ExtractionRow[];
  question_rows?: QuestionRow[];
}

/** A minute after the last turn of the conversation: when its questions are asked. */
export function questionTime(conversation: LocomoConversation): Date {
  const last = conversation.sessions[conversation.sessions.length - 1];
  return new Date(last.date.getTime() + last.turns.length * 1000 + 60_000);
}


/** What {@link runConversation} needs besides the conversation. */
export interface ConversationRunContext {
  template: DatabaseTemplate;
  model: BaseChatModel | null;
  budgets: Budgets;
  retention?: boolean;
  log?: (message: string) => void;
}

/**
 * Run the benchmark and return its figures.
 *
 * @example
 * const result = await runLocomoWritePath({ split: "test" });
 * console.log(result.splits.test?.extraction.recall, result.splits.test?.questions.product.evidence_in_block);
 */
export async function runLocomoWritePath(options: LocomoWritePathOptions = {}): Promise<LocomoWritePathResult> {
  const started = performance.now();
  const dataPath = options.data ? "(given)" : (options.dataPath ?? defaultLocomoPath());
  const split = options.split ?? "all";
  const conversations = selectConversations(options.data ?? loadLocomo(dataPath), split, options.conversations);
  if (conversations.length === 0) throw new MemoryError(ErrorCodes.INVALID_INPUT, `--split ${split}: the data has no conversation in it`);
  const budgets = BudgetsSchema.parse(options.budgets ?? {});
  const concurrency = Math.min(options.concurrency ?? 1, conversations.length);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 16) throw new MemoryError(ErrorCodes.INVALID_INPUT, "--concurrency: an integer from 1 to 16");
  if (concurrency > 1 && (options.data || (options.model !== undefined && options.model !== null && typeof options.model !== "string"))) {
    throw new MemoryError(ErrorCodes.INVALID_INPUT, "concurrency > 1 runs conversations in child processes: give the data as dataPath and the model as a provider:model spec");
  }
  const { model, pipeline } = await resolvePipeline(options);
  const log = options.log ?? (() => undefined);

  // One migrated database for the whole run: every speaker's database is restored from it.
  const template = options.template ?? (await DatabaseTemplate.create());
  let runs: ConversationRun[];
  if (concurrency === 1) {
    runs = [];
    for (const [n, conversation] of conversations.entries()) {
      runs.push(await runConversation(conversation, { template, model, budgets, retention: options.retention, log: (m) => log(`\rlocomo-memory: conversation ${conversation.index} (${n + 1}/${conversations.length}), ${m}                `) }));
    }
  } else {
    runs = await runInChildren(
      conversations.map((c) => c.index),
      concurrency,
      {
        dataPath,
        model: typeof options.model === "string" ? options.model : null,
        budgets: options.budgets ?? {},
        retention: options.retention ?? true,
        templateDump: new Uint8Array(await template.toDump().arrayBuffer()),
      },
      (done, total) => log(`\rlocomo-memory: ${done}/${total} conversations done (${concurrency} processes)   `),
    );
  }
  log("\n");

  const extractionRows = runs.flatMap((r) => r.extraction);
  const questionRows = runs.flatMap((r) => r.questions);
  const warnings = runs.flatMap((r) => r.warnings);
  const phase = (k: keyof ConversationRun["phases"]) => Math.round(runs.reduce((a, r) => a + r.phases[k], 0) / 1000);
  const indices = conversations.map((c) => c.index);
  const ofSplit = (s: "train" | "test") => conversations.filter((c) => c.split === s).map((c) => c.index);
  const splits: LocomoWritePathResult["splits"] = {};
  for (const s of ["train", "test"] as const) if (ofSplit(s).length > 0) splits[s] = splitFigures(ofSplit(s), extractionRows, questionRows);
  if (splits.train && splits.test) splits.all = splitFigures(indices, extractionRows, questionRows);
  return {
    benchmark: "locomo-memory",
    measured: true,
    data_path: dataPath,
    pipeline,
    split,
    conversations: indices,
    headline_split: splits.test ? "test" : "train",
    budgets: { memories: budgets.memories, past_sessions: budgets.pastSessions, profile: budgets.profile, baseline_tokens: baselineTokensOf(budgets) },
    embedder: "local-hash-v1/512",
    engine: "pglite",
    concurrency,
    splits,
    by_conversation: conversations.map((c) => ({ conversation: c.index, sample_id: c.sampleId, split: c.split, ...splitFigures([c.index], extractionRows, questionRows) })),
    phase_seconds: { turns: phase("turns"), extraction: phase("extraction"), sweeps: phase("sweeps"), questions: phase("questions"), baselines: phase("baselines"), cpu: phase("cpu") },
    warnings: { count: warnings.length, first: warnings.slice(0, 10) },
    runtime_ms: Math.round(performance.now() - started),
    ...(options.includeRows ? { extraction_rows: extractionRows, question_rows: questionRows } : {}),
  };
}

/** The baselines' budget: what the memory block may spend on retrieved content (memories + past sessions). */
export function baselineTokensOf(budgets: Budgets): number {
  return budgets.memories + budgets.pastSessions;
}

/**
 * One conversation: the raw-turn baselines built, then each speaker in turn played as the user
 * through the write path and asked the questions about them, with the baselines asked the same.
 */
export async function runConversation(conversation: LocomoConversation, context: ConversationRunContext): Promise<ConversationRun> {
  const { template, model, budgets } = context;
  const baselineTokens = baselineTokensOf(budgets);
  const at = questionTime(conversation);
  const out: ConversationRun = { extraction: [], questions: [], warnings: [], phases: { turns: 0, extraction: 0, sweeps: 0, questions: 0, baselines: 0, cpu: 0 } };
  const cpu0 = process.cpuUsage();
  const b0 = performance.now();
  const rawStore = await RawTurnStoreBaseline.open(conversation, template);
  const bm25 = new RawTurnBm25Baseline(conversation);
  out.phases.baselines += performance.now() - b0;
  try {
    for (const speaker of conversation.speakers) {
      context.log?.(speaker);
      const replay = await SpeakerReplay.open(conversation, speaker, { template, model, budgets, retention: context.retention });
      try {
        await replay.play();
        if (context.retention ?? true) await replay.sweep();
        out.extraction.push(extractionRow(conversation, replay));
        for (const q of askedQuestions(conversation).filter((x) => x.speaker === speaker)) {
          const product = await replay.ask(q.question, at);
          const q0 = performance.now();
          const store = await rawStore.ask(speaker, q.question, at, baselineTokens);
          const lexical = bm25.ask(speaker, q.question, baselineTokens);
          out.phases.baselines += performance.now() - q0;
          out.questions.push(questionRow(conversation, q, replay, product, store, lexical));
        }
        out.warnings.push(...replay.warnings);
        out.phases.turns += replay.turnMs;
        out.phases.extraction += replay.extractionMs;
        out.phases.sweeps += replay.sweepMs;
        out.phases.questions += replay.askMs;
      } finally {
        await replay.close();
      }
    }
  } finally {
    await rawStore.close();
  }
  const cpu = process.cpuUsage(cpu0);
  out.phases.cpu = (cpu.user + cpu.system) / 1000;
  return out;
}

async function resolvePipeline(options: LocomoWritePathOptions): Promise<{ model: BaseChatModel | null; pipeline: string }> {
  if (options.model === undefined || options.model === null) return { model: null, pipeline: "offline" };
  if (typeof options.model !== "string") return { model: options.model, pipeline: `llm:${options.modelLabel ?? options.model._llmType()}` };
  const model = await chatModelFromSpec(options.model);
  if (!model) throw new MemoryError(ErrorCodes.INVALID_INPUT, "--model: give a provider:model spec (e.g. openai:gpt-4o-mini)");
  return { model, pipeline: `llm:${options.model}` };
}

function extractionRow(conversation: LocomoConversation, replay: SpeakerReplay): ExtractionRow {
  const speaker = replay.speaker;
  const own = new Set([...conversation.turns.values()].filter((t) => t.speaker === speaker).map((t) => t.diaId));
  const positives = observedTurns(conversation, speaker);
  const memories = [...replay.written.values()].filter((m) => !m.session);
  const attributed = [...memories.map((m) => m.messageId), ...replay.otherWrites.map((w) => w.messageId)];
  const extracted = new Set(attributed.filter((id): id is string => id !== null && own.has(id)));
  const refused: Record<string, number> = {};
  let withoutCandidates = 0;
  let allRefused = 0;
  let dedupedOnly = 0;
  for (const o of replay.outcomes.values()) {
    for (const [k, n] of Object.entries(o.refusedByReason)) refused[k] = (refused[k] ?? 0) + n;
    if (!positives.has(o.diaId) || extracted.has(o.diaId)) continue;
    if (o.candidates === 0) withoutCandidates++;
    else if (o.refused >= o.candidates) allRefused++;
    else if (o.deduped > 0 && o.added + o.superseded === 0) dedupedOnly++;
  }
  return {
    conversation: conversation.index,
    speaker,
    user_turns: replay.userTurns,
    positive_turns: [...positives],
    extracted_turns: [...extracted],
    memories_written: memories.length,
    memories_by_kind: memories.reduce<Record<string, number>>((acc, m) => {
      acc[m.kind] = (acc[m.kind] ?? 0) + 1;
      return acc;
    }, {}),
    profile_writes: replay.otherWrites.filter((w) => w.target === "profile").length,
    rules_proposed: replay.otherWrites.filter((w) => w.target === "rule").length,
    unattributed_memories: memories.filter((m) => m.messageId === null || !own.has(m.messageId)).length,
    positive_without_candidates: withoutCandidates,
    positive_all_refused: allRefused,
    positive_deduped_only: dedupedOnly,
    refused_by_reason: refused,
    extraction_ms: Math.round(replay.extractionMs),
    extraction_cpu_ms: Math.round(replay.extractionCpuMs),
  };
}

function questionRow(conversation: LocomoConversation, q: LocomoQuestion, replay: SpeakerReplay, product: BlockProbe, store: BaselineBlock, lexical: BaselineBlock): QuestionRow {
  const evidence = new Set(q.evidence);
  const evidenceSessions = new Set(q.evidence.map((id) => sessionThreadId(conversation, q.speaker, conversation.turns.get(id)!.session)));
  const productHit = product.memoryIds.some((id) => {
    const m = replay.written.get(id);
    return m?.messageId != null && evidence.has(m.messageId);
  });
  const words = (text: string) => (q.answer === null ? null : answerWordShare(q.answer, itemLines(text)));
  return {
    conversation: conversation.index,
    index: q.index,
    category: q.category,
    speaker: q.speaker,
    speaker_rule: q.speakerRule,
    evidence_of_speaker: q.evidence.some((id) => conversation.turns.get(id)!.speaker === q.speaker),
    product: {
      evidence_hit: productHit,
      answer_share: words(product.text),
      tokens: product.tokens,
      evidence_session_hit: product.pastSessionThreads.some((t) => evidenceSessions.has(t)),
    },
    raw_turns_store: { evidence_hit: store.diaIds.some((id) => evidence.has(id)), answer_share: words(store.text), tokens: store.tokens },
    raw_turns_bm25: { evidence_hit: lexical.diaIds.some((id) => evidence.has(id)), answer_share: words(lexical.text), tokens: lexical.tokens },
  };
}

/** The item lines of a rendered block (`- …`): its fixed headers, caveat and tags say nothing about the user. */
function itemLines(text: string): string {
  return text
    .split("\n")
    .filter((l) => l.startsWith("- "))
    .join("\n");
}
