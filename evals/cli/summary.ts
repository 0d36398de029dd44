import { parseArgs } from "node:util";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { Benchmark } from "../../src/cli/bench/benchmark.js";
import { NOT_MEASURED, modelToMeasure, type NotMeasured } from "../../src/cli/model-to-measure.js";
import { table, writeJson } from "../../src/cli/bench/stats.js";
import { LOCOMO_SPLITS, type LocomoSplit } from "../locomo/dataset.js";
import { runSummaryBench, SUMMARY_BENCH_PARTS, type SummaryBenchPart, type SummaryBenchResult } from "../summary/summary-bench.js";

const HELP = `usage: langgraph-memory bench summary [--json FILE] [--parts planted,locomo] [--turns N] [--seed N]
       [--split train|test|all] [--conversations 0,3,…] [--data PATH] [--model provider:model]

Fidelity of the rolling summary at the default budgets: what the prompt buildContext gives at the
end of a long thread still shows. Part 1: a generated thread (seeded) plants names, numbers,
references, dates, decisions, commitments and open tasks at known turns, with chit-chat and tool
rounds between — the share of planted facts visible in the final prompt, and its tokens. Part 2:
each LoCoMo conversation as one long thread — per question, whether the final prompt holds an
evidence turn or all of the answer's content words. Beside trim-only at the same budget and the
full history (the ceiling); with --model, beside LangChain v1's summarizationMiddleware on the
same model and budget. docs/benchmarks.md explains each figure.

  --json FILE        write the JSON result
  --parts LIST       planted, locomo or both (default both)
  --turns N          planted thread length (default 200)
  --seed N           planted thread seed (default 7)
  --split S          LoCoMo train (0–4), test (5–9, the headline) or all (default; reported apart)
  --conversations L  only these LoCoMo conversation positions (comma-separated)
  --data PATH        the LoCoMo file (default ../shared/data/locomo/locomo10.json)
  --model SPEC       the chat-model summariser of this model; without a key, or a model that
                     cannot be built: "${NOT_MEASURED}", exit 0`;

export const benchmark: Benchmark = {
  summary: "rolling-summary fidelity: planted facts and LoCoMo answers visible at the end of a long thread, vs trim-only and full history",
  async run(argv) {
    const { values } = parseArgs({
      args: argv,
      options: {
        json: { type: "string" },
        parts: { type: "string" },
        turns: { type: "string" },
        seed: { type: "string" },
        split: { type: "string" },
        conversations: { type: "string" },
        data: { type: "string" },
        model: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
    });
    if (values.help) {
      console.log(HELP);
      return 0;
    }
    const parts = (values.parts ?? SUMMARY_BENCH_PARTS.join(",")).split(",").map((s) => s.trim()).filter(Boolean);
    if (parts.length === 0 || parts.some((p) => !(SUMMARY_BENCH_PARTS as readonly string[]).includes(p))) {
      console.error(`--parts: a comma-separated list of ${SUMMARY_BENCH_PARTS.join(", ")}`);
      return 2;
    }
    const turns = Number(values.turns ?? 200);
    const seed = Number(values.seed ?? 7);
    if (!Number.isInteger(turns) || turns < 20 || turns > 5000) {
      console.error("--turns: an integer from 20 to 5000");
      return 2;
    }
    if (!Number.isInteger(seed)) {
      console.error("--seed: an integer");
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
    let model: BaseChatModel | undefined;
    if (values.model) {
      const built = await modelToMeasure(values.model);
      if ("reason" in built) {
        console.log(NOT_MEASURED);
        console.error(`(${built.reason})`);
        if (values.json) writeJson(values.json, { pipeline: `llm:${values.model}`, measured: false, reason: built.reason } satisfies NotMeasured);
        return 0;
      }
      model = built.model;
    }
    const result = await runSummaryBench({
      parts: parts as SummaryBenchPart[],
      turns,
      seed,
      dataPath: values.data,
      split,
      conversations,
      model,
      modelSpec: values.model,
      log: (m) => process.stderr.write(m),
    });
    for (const line of summaryLines(result)) console.log(line);
    if (values.json) writeJson(values.json, result);
    return 0;
  },
};

/** The printed tables. */
export function summaryLines(r: SummaryBenchResult): string[] {
  const lines: string[] = [];
  if (r.planted) {
    const p = r.planted;
    lines.push(`Planted facts — ${p.turns}-turn thread, seed ${p.seed}, ${p.facts} facts; pipeline ${r.pipeline}, recent-messages budget ${r.budgets.recent_messages}`);
    const kinds = Object.keys(p.strategies[0]?.by_kind ?? {});
    lines.push(
      table(
        ["strategy", "visible", "share", ...kinds, "prompt tokens"],
        p.strategies.map((s) => [s.strategy, `${s.visible}/${s.facts}`, s.visible_share, ...kinds.map((k) => `${s.by_kind[k as keyof typeof s.by_kind].visible}/${s.by_kind[k as keyof typeof s.by_kind].facts}`), s.prompt_tokens]),
      ),
    );
    const product = p.strategies[0];
    if (product?.closed_tasks) {
      const c = product.closed_tasks;
      lines.push(`  open tasks closed on the way: ${c.closed}; marked closed in the key facts ${c.marked_closed}, still listed open ${c.still_listed_open}`);
    }
    if (product && product.fallbacks > 0) lines.push(`  ${product.fallbacks} summariser error(s): the offline summariser stood in`);
  }
  for (const name of ["test", "train"] as const) {
    const rows = r.locomo?.[name];
    if (!rows || rows.length === 0) continue;
    lines.push("", `LoCoMo as one long thread — ${name} split (conversations ${rows[0].conversations.join(", ")})${name === "test" ? " — headline" : ""}`);
    lines.push(
      table(
        ["strategy", "questions", "evidence turn", "answer words all", "either", "share", "prompt tokens mean"],
        rows.map((s) => [s.strategy, s.questions, s.evidence_in_prompt, s.answer_words_all, s.answer_visible, s.answer_visible_share, s.prompt_tokens_mean]),
      ),
    );
    const product = rows[0];
    const trim = rows.find((s) => s.strategy.startsWith("trim"));
    if (product && trim && trim.answer_visible > 0) lines.push(`  ${product.strategy} / trim only: ${(product.answer_visible / trim.answer_visible).toFixed(2)}×`);
  }
  lines.push("", `${(r.runtime_ms / 1000).toFixed(1)} s`);
  return lines;
}
