/**
 * `bench summary`: how much of a long conversation the prompt still shows at the end, at the
 * default budgets — the rolling summary (prose + key facts + recent messages) beside trim-only at
 * the same budget and the full history (the ceiling), and with a chat model beside LangChain v1's
 * `summarizationMiddleware` on the same model and budget. Two parts: a generated thread with
 * planted facts, and each LoCoMo conversation as one thread. docs/benchmarks.md explains each figure.
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { loadLocomo, selectConversations, type LocomoSplit } from "../locomo/dataset.js";
import { runLocomoThreads, type LocomoThreadFigures } from "./locomo-thread-bench.js";
import { runPlantedFacts, type PlantedFactsResult } from "./planted-facts-bench.js";
import {
  DEFAULT_BUDGETS,
  fullHistoryStrategy,
  langchainSummarizationStrategy,
  rollingSummaryStrategy,
  trimOnlyStrategy,
  type ThreadStrategy,
} from "./thread-strategies.js";

export const SUMMARY_BENCH_PARTS = ["planted", "locomo"] as const;
export type SummaryBenchPart = (typeof SUMMARY_BENCH_PARTS)[number];

export interface SummaryBenchOptions {
  parts?: readonly SummaryBenchPart[];
  /** Planted thread length (default 200) and seed (default 7). */
  turns?: number;
  seed?: number;
  /** LoCoMo: the data file, the split (default all: train and test reported apart) and positions. */
  dataPath?: string;
  split?: LocomoSplit;
  conversations?: readonly number[];
  /** With a model: the chat-model summariser, and LangChain's middleware on the same model. */
  model?: BaseChatModel;
  modelSpec?: string;
  log?: (line: string) => void;
}

export interface SummaryBenchResult {
  benchmark: "summary";
  pipeline: string;
  budgets: { recent_messages: number; summary_tokens: number };
  planted?: PlantedFactsResult;
  locomo?: { train?: LocomoThreadFigures[]; test?: LocomoThreadFigures[] };
  runtime_ms: number;
}

/** The strategies of one run: the product path, then the baselines (and LangChain's middleware with a model). */
export function strategiesFor(model?: BaseChatModel): Array<(system: string) => ThreadStrategy> {
  const list: Array<(system: string) => ThreadStrategy> = [(s) => rollingSummaryStrategy(s, { model }), (s) => trimOnlyStrategy(s), (s) => fullHistoryStrategy(s)];
  if (model) list.splice(1, 0, (s) => langchainSummarizationStrategy(s, model));
  return list;
}

/** Run the benchmark. */
export async function runSummaryBench(options: SummaryBenchOptions = {}): Promise<SummaryBenchResult> {
  const started = Date.now();
  const parts = options.parts ?? SUMMARY_BENCH_PARTS;
  const strategies = strategiesFor(options.model);
  const result: SummaryBenchResult = {
    benchmark: "summary",
    pipeline: options.model ? `llm:${options.modelSpec ?? "model"}` : "offline",
    budgets: { recent_messages: DEFAULT_BUDGETS.recentMessages, summary_tokens: Math.floor(DEFAULT_BUDGETS.recentMessages * 0.2) },
    runtime_ms: 0,
  };
  if (parts.includes("planted")) {
    options.log?.("planted facts…\n");
    result.planted = await runPlantedFacts({ turns: options.turns ?? 200, seed: options.seed ?? 7, strategies });
  }
  if (parts.includes("locomo")) {
    const all = loadLocomo(options.dataPath);
    const split = options.split ?? "all";
    const chosen = selectConversations(all, split, options.conversations);
    result.locomo = {};
    for (const name of ["test", "train"] as const) {
      const inSplit = chosen.filter((c) => c.split === name);
      if (inSplit.length === 0) continue;
      options.log?.(`LoCoMo ${name} split…\n`);
      const rows: LocomoThreadFigures[] = [];
      for (const make of strategies) rows.push(await runLocomoThreads(inSplit, make, options.log));
      result.locomo[name] = rows;
    }
  }
  result.runtime_ms = Date.now() - started;
  return result;
}
