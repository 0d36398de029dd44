import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { Budgets } from "../src/config.js";
import type { EvalConfigOverrides } from "./runner/run-scenario.js";
import { ErrorCodes, MemoryError } from "../src/errors.js";
import { chatModelFromSpec } from "../src/models/chat-model.js";
import { defaultLocomoPath } from "./locomo/dataset.js";
import { runLocomo } from "./locomo/retrieval-bench.js";
import { evaluateGate } from "./gate.js";
import { computeMetrics } from "./metrics.js";
import { DatabaseTemplate } from "./runner/database-template.js";
import { runScenario } from "./runner/run-scenario.js";
import { loadScenarios, type LoadedScenario } from "./scenario-schema.js";
import type { EvalReport, LocomoSection, ScenarioResult } from "./types.js";

/** What {@link runEvals} runs. */
export interface RunEvalsOptions {
  /** A folder of scenario files (`loadScenarios`), or scenarios already loaded. */
  scenarios: string | readonly LoadedScenario[];
  /**
   * The LLM pipeline: a `provider:model` spec or a chat model — its extractor, summariser and
   * responder replace the offline ones. Unset: the offline pipeline (also when `MODEL` is set).
   */
  model?: string | BaseChatModel;
  /** Label of the LLM pipeline when `model` is an instance (default its `_llmType()`). */
  modelLabel?: string;
  /** With `model`: also run the offline pipeline, reported on its own in `other_runs` (default false). */
  withOfflineBaseline?: boolean;
  /** Only scenarios whose id is listed. */
  only?: readonly string[];
  /** Scenarios run at once, each on its own database (default 1: PGlite shares this process's one thread). */
  concurrency?: number;
  /** Run the retention sweep at each session's and probe's clock, as a scheduled `gc` would (default true). */
  retention?: boolean;
  /** Section budgets (default the configuration's). */
  budgets?: Partial<Budgets>;
  /**
   * Configuration overrides for every scenario's memory (retrieval, write policy, retention), to
   * compare a setting with the defaults, e.g. `{ retrieval: { standingKinds: ["fact"] } }`.
   * Reported in `environment.config`; the CI gate runs the defaults.
   */
  config?: EvalConfigOverrides;
  /** Also run the LoCoMo retrieval benchmark: `true` for the default data path, or a path. */
  locomo?: boolean | string;
  /** Each scenario's row as it finishes (progress output). */
  onScenario?: (result: ScenarioResult, done: number, total: number) => void;
  /** Progress lines of the LoCoMo run. */
  onLocomoProgress?: (message: string) => void;
}

/**
 * Run an eval suite through the real memory pipeline — every scenario on a fresh embedded
 * database, sessions through a `withMemory` graph with the worker drained after each turn, probes
 * built by the agent's own load step and `memoryContext` — and return the report: needed-fact
 * recall, stale/wrong rate, tokens per probe and per turn, prompt size against its limit,
 * isolation leaks, deletion failures, per-category figures, per-scenario rows and the CI gate.
 * Offline by default; with `model`, the LLM pipeline (labelled `llm:<model>`).
 *
 * @example
 * const report = await runEvals({ scenarios: "evals/scenarios" });
 * console.log(report.recall, report.stale_rate, report.gate.passed);
 */
export async function runEvals(options: RunEvalsOptions): Promise<EvalReport> {
  const started = new Date();
  const t0 = performance.now();
  const dir = typeof options.scenarios === "string" ? options.scenarios : "(given)";
  let scenarios = typeof options.scenarios === "string" ? await loadScenarios(options.scenarios) : [...options.scenarios];
  if (options.only && options.only.length > 0) {
    const wanted = new Set(options.only);
    const unknown = [...wanted].filter((id) => !scenarios.some((s) => s.id === id));
    if (unknown.length > 0) throw new MemoryError(ErrorCodes.INVALID_INPUT, `only: no scenario with id ${unknown.map((u) => JSON.stringify(u)).join(", ")} in ${dir}`);
    scenarios = scenarios.filter((s) => wanted.has(s.id));
  }
  const concurrency = options.concurrency ?? 1;
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 16) throw new MemoryError(ErrorCodes.INVALID_INPUT, "concurrency: an integer from 1 to 16");

  const template = await DatabaseTemplate.create();
  const pipelines: Array<{ label: string; model: BaseChatModel | null }> = [];
  if (options.model !== undefined) {
    const model = typeof options.model === "string" ? await chatModelFromSpec(options.model) : options.model;
    if (!model) throw new MemoryError(ErrorCodes.INVALID_INPUT, "model: give a provider:model spec (e.g. openai:gpt-4o-mini) or a chat model");
    const label = typeof options.model === "string" ? options.model : (options.modelLabel ?? model._llmType());
    pipelines.push({ label: `llm:${label}`, model });
    if (options.withOfflineBaseline) pipelines.push({ label: "offline", model: null });
  } else {
    pipelines.push({ label: "offline", model: null });
  }

  const runs = [];
  for (const pipeline of pipelines) {
    const p0 = performance.now();
    const results = await runAll(scenarios, concurrency, (s) => runScenario(s, { template, model: pipeline.model, retention: options.retention, budgets: options.budgets, config: options.config }), options.onScenario);
    const metrics = computeMetrics(results);
    runs.push({
      pipeline: pipeline.label,
      scenarios_dir: dir,
      started_at: started.toISOString(),
      runtime_ms: Math.round(performance.now() - p0),
      ...metrics,
      gate: evaluateGate(metrics),
      results,
      environment: {
        node: process.version,
        platform: `${process.platform}-${process.arch}`,
        embeddings: "local",
        engine: "pglite",
        ...(options.config ? { config: options.config } : {}),
      },
    });
  }

  let locomo: LocomoSection | null = null;
  if (options.locomo) {
    const path = typeof options.locomo === "string" ? options.locomo : defaultLocomoPath();
    try {
      locomo = { path, result: await runLocomo({ dataPath: path, databaseUrl: "memory://", log: options.onLocomoProgress }), error: null };
    } catch (err) {
      locomo = { path, result: null, error: err instanceof Error ? err.message : String(err) };
    }
  }

  const [first, ...others] = runs;
  return { ...first, runtime_ms: Math.round(performance.now() - t0), locomo, other_runs: others };
}

/** Run `fn` over the scenarios with at most `limit` at once; rows come back in the scenarios' order. */
async function runAll(
  scenarios: readonly LoadedScenario[],
  limit: number,
  fn: (s: LoadedScenario) => Promise<ScenarioResult>,
  onDone?: RunEvalsOptions["onScenario"],
): Promise<ScenarioResult[]> {
  const out: ScenarioResult[] = new Array(scenarios.length);
  let next = 0;
  let done = 0;
  const lane = async () => {
    while (next < scenarios.length) {
      const i = next++;
      out[i] = await fn(scenarios[i]);
      onDone?.(out[i], ++done, scenarios.length);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, scenarios.length) }, lane));
  return out;
}
