import { availableParallelism } from "node:os";
import type { Benchmark } from "../../src/cli/bench/benchmark.js";
import { parseCommandArgs } from "../../src/cli/common-options.js";
import { NOT_MEASURED, modelToMeasure, type NotMeasured } from "../../src/cli/model-to-measure.js";
import { table, writeJson } from "../../src/cli/bench/stats.js";
import { runLocomoWritePath, type LocomoWritePathResult } from "../locomo/write-path-bench.js";
import { LOCOMO_SPLITS, type LocomoSplit } from "../locomo/dataset.js";
import type { SplitFigures } from "../locomo/write-path-metrics.js";

const HELP = `usage: langgraph-memory bench locomo-memory [--split train|test|all] [--json FILE] [--data PATH]
       [--model provider:model] [--conversations 0,3,…] [--concurrency N] [--rows]

The write path on LoCoMo (Maharana et al., 2024), conversations nobody here wrote: each session a
thread at its own date, each speaker in turn the user (the other one the assistant's canned
replies), every turn through the real graph, extraction worker, write policy and store. Then,
against the data set's labels: extraction turn recall and precision vs the observation evidence;
for each question of categories 1–4, asked as the speaker it is about, whether the injected
memory block holds a memory from an evidence turn and the answer's content words; tokens per
question; extraction throughput — beside two baselines at the same token budget (every turn
stored raw in the store; plain BM25 over raw turns). docs/benchmarks.md explains each figure.

  --split S          train (conversations 0–4), test (5–9, the headline) or all (default)
  --json FILE        write the JSON result (fields in docs/benchmarks.md)
  --data PATH        the data file (default ../shared/data/locomo/locomo10.json, read in place)
  --model SPEC       the LLM extractor (and summariser) of this chat model; without a key, or a
                     model that cannot be built: "${NOT_MEASURED}", exit 0
  --conversations L  only these conversation positions (comma-separated, within the split)
  --concurrency N    conversations at once, one child process each (default: cores, at most 4)
  --rows             add every extraction and question row to the JSON`;

export const benchmark: Benchmark = {
  summary: "LoCoMo write path: extraction vs observations, evidence and answer words in the memory block, baselines",
  async run(argv) {
    const { values } = parseCommandArgs(argv, {
      split: { type: "string" },
      json: { type: "string" },
      data: { type: "string" },
      model: { type: "string" },
      conversations: { type: "string" },
      concurrency: { type: "string" },
      rows: { type: "boolean" },
    });
    if (values.help) {
      console.log(HELP);
      return 0;
    }
    if (values["database-url"] || values.schema) {
      console.error("locomo-memory runs every speaker on its own fresh embedded database: --database-url and --schema do not apply");
      return 2;
    }
    const split = (values.split ?? "all") as LocomoSplit;
    if (!LOCOMO_SPLITS.includes(split)) {
      console.error(`--split: train, test or all, got ${JSON.stringify(values.split)}`);
      return 2;
    }
    const conversations = values.conversations?.split(",").map((s) => s.trim()).filter(Boolean).map(Number);
    if (conversations?.some((n) => !Number.isInteger(n) || n < 0)) {
      console.error("--conversations: comma-separated conversation positions, e.g. 0,3");
      return 2;
    }
    const concurrency = values.concurrency === undefined ? Math.max(1, Math.min(4, availableParallelism())) : Number(values.concurrency);
    if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 16) {
      console.error("--concurrency: an integer from 1 to 16");
      return 2;
    }
    if (values.model) {
      // Built here once to know whether it can be; child processes build their own from the spec.
      const built = await modelToMeasure(values.model);
      if ("reason" in built) {
        console.log(NOT_MEASURED);
        console.error(`(${built.reason})`);
        if (values.json) writeJson(values.json, { pipeline: `llm:${values.model}`, measured: false, reason: built.reason } satisfies NotMeasured);
        return 0;
      }
    }
    const result = await runLocomoWritePath({
      dataPath: values.data,
      split,
      conversations,
      model: values.model,
      concurrency,
      includeRows: values.rows,
      log: (m) => process.stderr.write(m),
    });
    for (const line of resultLines(result)) console.log(line);
    if (values.json) writeJson(values.json, result);
    return 0;
  },
};

/** The printed tables: one per split that ran, the headline split first. */
export function resultLines(r: LocomoWritePathResult): string[] {
  const lines: string[] = [];
  const order = [r.headline_split, ...(["test", "train", "all"] as const).filter((s) => s !== r.headline_split)];
  for (const name of order) {
    const s = r.splits[name];
    if (!s) continue;
    lines.push("", `LoCoMo write path — ${name} split (conversations ${s.conversations.join(", ")})${name === r.headline_split ? " — headline" : ""}, pipeline ${r.pipeline}`);
    lines.push(...splitLines(s, r.budgets.baseline_tokens));
  }
  const p = r.phase_seconds;
  lines.push("", `${(r.runtime_ms / 1000).toFixed(0)} s in all, ${r.concurrency} at once (summed over processes: graph turns ${p.turns} s, extraction ${p.extraction} s, sweeps ${p.sweeps} s, questions ${p.questions} s, baselines ${p.baselines} s; CPU ${p.cpu} s)`);
  if (r.warnings.count > 0) lines.push(`${r.warnings.count} recovered error(s), e.g. ${r.warnings.first[0]}`);
  return lines;
}

function splitLines(s: SplitFigures, baselineTokens: number): string[] {
  const e = s.extraction;
  const q = s.questions;
  return [
    `extraction vs observation evidence: recall ${e.recall}, precision ${e.precision} — ${e.true_positive_turns} of ${e.positive_turns} observed turns, ${e.extracted_turns} of ${e.user_turns} user turns extracted, ${e.memories_written} memories written`,
    `  observed turns missed: ${e.positive_without_candidates} without a candidate, ${e.positive_all_refused} all refused, ${e.positive_deduped_only} only folded into an existing memory; ${e.unattributed_memories} memories without a turn`,
    table(
      ["block", "questions", "evidence in block", "answer words all", "answer words mean", "tokens mean", "tokens p50"],
      [
        ["memory block (load step, default budgets)", q.questions, q.product.evidence_in_block, q.product.answer_words_all, q.product.answer_words_mean, q.product.tokens_mean, q.product.tokens_p50],
        [`raw turns in the store (≤ ${baselineTokens} tokens)`, q.questions, q.raw_turns_store.evidence_in_block, q.raw_turns_store.answer_words_all, q.raw_turns_store.answer_words_mean, q.raw_turns_store.tokens_mean, q.raw_turns_store.tokens_p50],
        [`BM25 over raw turns (≤ ${baselineTokens} tokens)`, q.questions, q.raw_turns_bm25.evidence_in_block, q.raw_turns_bm25.answer_words_all, q.raw_turns_bm25.answer_words_mean, q.raw_turns_bm25.tokens_mean, q.raw_turns_bm25.tokens_p50],
      ],
    ),
    `  past session of an evidence turn in the block: ${q.product.evidence_session_in_block}; evidence in block by category: ${Object.entries(q.by_category).map(([c, v]) => `${c}=${v.product}/${v.raw_turns_store}/${v.raw_turns_bm25}`).join(" ")} (block/raw store/BM25)`,
    `  extraction throughput: ${s.throughput.turns_per_second_per_worker} turns/s per worker (${s.throughput.user_turns} turns, ${s.throughput.extraction_seconds} s draining; ${s.throughput.turns_per_cpu_second} turns per CPU second)`,
  ];
}
