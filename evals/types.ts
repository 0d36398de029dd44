/**
 * The shapes of an eval run's results: the JSON report is an {@link EvalReport}. Field names are
 * snake_case (a file format); the top-level `recall`, `stale_rate`, `probes`, `scenarios`,
 * `tokens_per_probe_mean` and `results` are fixed by issue 8, the rest is detail.
 */
import type { ExpectGroupResult } from "./runner/check-probe.js";

/** One probe: what was injected for its query and which strings were found. */
export interface ProbeResult {
  /** 0-based position in the scenario's `probes`. */
  index: number;
  after_session: number;
  tenant: string;
  user: string;
  at: string;
  query: string;
  expect: ExpectGroupResult[];
  forbid: string[];
  /** Forbidden strings found in the context. */
  forbid_hits: string[];
  passed: boolean;
  /** A forbidden string appeared: a stale, wrong, leaked or undeleted memory. */
  stale: boolean;
  /** Memory tokens injected for the query (profile, rules, memories, past sessions, summary). */
  tokens: number;
  sections: { profile: number; rules: number; memories: number; past_sessions: number; summary: number };
  /** The injected memory context (truncated to a few thousand characters; windows around any hit are kept). */
  context: string;
  context_chars: number;
  /** The retention sweep ran at the probe's clock (it is skipped when a later event has an earlier clock). */
  retention_swept: boolean;
}

/** Counts summed over a scenario's write reports (extraction jobs). */
export interface WriteTotals {
  added: number;
  deduped: number;
  superseded: number;
  deleted: number;
  refused: number;
  profile_fields_changed: number;
  rules_proposed: number;
  forget_unmatched: number;
}

/** One scenario's row. */
export interface ScenarioResult {
  id: string;
  description: string;
  file: string;
  tags: string[];
  /** Every expect group passed, nothing forbidden appeared, no error. */
  passed: boolean;
  /** Set when the scenario could not run to the end (its remaining groups count as failed). */
  error: string | null;
  /** Errors the pipeline recovered from (extraction, summariser, session indexing, jobs that failed). */
  warnings: string[];
  sessions: number;
  turns: number;
  tool_turns: number;
  actions: number;
  /** Probes the scenario declares (rows in `probes` are those that ran). */
  probe_count: number;
  expect_groups: number;
  expect_passed: number;
  recall: number;
  stale_probes: number;
  /** Memory tokens in the prompt of each session turn: mean and max. */
  tokens_per_turn_mean: number;
  tokens_per_turn_max: number;
  /** Largest whole prompt of a session turn, and the limit it had (sum of the section budgets). */
  max_prompt_tokens: number;
  prompt_limit: number;
  /** Turns whose prompt went over the limit. */
  over_budget_turns: number;
  summaries: number;
  sessions_indexed: number;
  writes: WriteTotals;
  retention: { runs: number; expired: number; archived: number; deactivated: number };
  runtime_ms: number;
  probes: ProbeResult[];
  /** What memory held for each user at the end (only with `includeFinalState`): for debugging a scenario. */
  final_state?: FinalUserState[];
}

/** One user's memory at the end of a scenario. */
export interface FinalUserState {
  tenant: string;
  user: string;
  opted_out: boolean;
  /** `[kind/status] text` of every memory (past sessions included). */
  memories: string[];
  profile: Record<string, unknown> | null;
  /** `[state] text` of the user's rules. */
  rules: string[];
}

/** Figures of one category (a scenario tag). */
export interface CategoryFigures {
  scenarios: number;
  scenarios_passed: number;
  probes: number;
  expect_groups: number;
  recall: number;
  stale_probes: number;
}

/** The CI gate's verdict (`evals/gate.ts`). */
export interface GateResult {
  passed: boolean;
  thresholds: { min_recall: number; max_stale_probes: number; max_isolation_leaks: number; max_deletion_failures: number; max_errors: number };
  /** Why it failed, one line each (empty when passed). */
  failures: string[];
}

/** The metrics of one pipeline over a suite. */
export interface EvalMetrics {
  /** Needed-fact recall: passed expect groups / all groups. */
  recall: number;
  /** Probes with a forbidden hit / probes. */
  stale_rate: number;
  probes: number;
  scenarios: number;
  scenarios_passed: number;
  expect_groups: number;
  expect_passed: number;
  stale_probes: number;
  /** Memory tokens injected per probe. */
  tokens_per_probe_mean: number;
  tokens_per_probe_p95: number;
  /** Memory tokens in the prompt per session turn. */
  tokens_per_turn_mean: number;
  turns: number;
  /** Largest prompt of any session turn, its limit, and turns over their limit. */
  max_prompt_tokens: number;
  prompt_limit: number;
  over_budget_turns: number;
  /** Forbidden hits in scenarios tagged `isolation*` (another user's or tenant's data). */
  isolation_leaks: number;
  /** Forbidden hits in scenarios tagged `deletion`, `forget` or `opt-out`. */
  deletion_failures: number;
  /** Scenarios that could not run to the end. */
  errors: number;
  by_category: Record<string, CategoryFigures>;
}

/** The LoCoMo retrieval benchmark inside the report (`evals/locomo/retrieval-bench.ts`). */
export interface LocomoSection {
  path: string;
  result: import("./locomo/retrieval-bench.js").LocomoResult | null;
  /** Why it did not run (missing file, …). */
  error: string | null;
}

/** The JSON report of `npm run eval`. */
export interface EvalReport extends EvalMetrics {
  /** `offline` (rule extractor, offline summariser and responder) or `llm:<provider:model>`. */
  pipeline: string;
  scenarios_dir: string;
  started_at: string;
  runtime_ms: number;
  gate: GateResult;
  results: ScenarioResult[];
  locomo: LocomoSection | null;
  /** Further pipelines run beside the first (e.g. the offline baseline of an LLM run), each reported on its own. */
  other_runs: Array<Omit<EvalReport, "other_runs" | "locomo">>;
  /** `config`: the overrides of a run that did not use the defaults (`RunEvalsOptions.config`). */
  environment: { node: string; platform: string; embeddings: string; engine: string; config?: Record<string, unknown> };
}
