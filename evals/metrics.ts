import type { CategoryFigures, EvalMetrics, ScenarioResult } from "./types.js";

/** Tags whose forbidden hits are isolation leaks (another user's or tenant's data). */
export const isIsolationScenario = (tags: readonly string[]) => tags.some((t) => t.startsWith("isolation"));
/** Tags whose forbidden hits are deletion failures (something forgotten, deleted or said while opted out). */
export const isDeletionScenario = (tags: readonly string[]) => tags.some((t) => t === "deletion" || t === "forget" || t === "opt-out");

/**
 * The suite's figures from the scenario rows: needed-fact recall (passed expect groups / all
 * groups), stale/wrong rate (probes with a forbidden hit / probes), memory tokens per probe (mean,
 * p95) and per session turn, the largest prompt against its limit, isolation leaks, deletion
 * failures, and the same per category (tag).
 *
 * @example
 * const m = computeMetrics(results); // { recall: 0.97, stale_rate: 0, probes: 90, … }
 */
export function computeMetrics(results: readonly ScenarioResult[]): EvalMetrics {
  const probes = results.flatMap((r) => r.probes);
  const expectGroups = results.reduce((n, r) => n + r.expect_groups, 0);
  const expectPassed = results.reduce((n, r) => n + r.expect_passed, 0);
  // A scenario that stopped early still counts the probes it did not reach.
  const probeCount = results.reduce((n, r) => n + r.probe_count, 0);
  const staleProbes = probes.filter((p) => p.stale).length;
  const tokens = probes.map((p) => p.tokens);
  const turns = results.reduce((n, r) => n + r.turns, 0);
  const turnTokenSum = results.reduce((n, r) => n + r.tokens_per_turn_mean * r.turns, 0);
  const leaks = results.filter((r) => isIsolationScenario(r.tags)).reduce((n, r) => n + r.stale_probes, 0);
  const deletionFailures = results.filter((r) => isDeletionScenario(r.tags)).reduce((n, r) => n + r.stale_probes, 0);

  const byCategory: Record<string, CategoryFigures> = {};
  for (const r of results) {
    for (const tag of r.tags.length > 0 ? r.tags : ["untagged"]) {
      const c = (byCategory[tag] ??= { scenarios: 0, scenarios_passed: 0, probes: 0, expect_groups: 0, recall: 0, stale_probes: 0 });
      c.scenarios++;
      if (r.passed) c.scenarios_passed++;
      c.probes += r.probe_count;
      c.expect_groups += r.expect_groups;
      c.recall += r.expect_passed; // turned into a ratio below
      c.stale_probes += r.stale_probes;
    }
  }
  for (const c of Object.values(byCategory)) c.recall = c.expect_groups === 0 ? 1 : round(c.recall / c.expect_groups, 4);

  return {
    recall: expectGroups === 0 ? 1 : round(expectPassed / expectGroups, 4),
    stale_rate: probeCount === 0 ? 0 : round(staleProbes / probeCount, 4),
    probes: probeCount,
    scenarios: results.length,
    scenarios_passed: results.filter((r) => r.passed).length,
    expect_groups: expectGroups,
    expect_passed: expectPassed,
    stale_probes: staleProbes,
    tokens_per_probe_mean: tokens.length === 0 ? 0 : round(tokens.reduce((a, b) => a + b, 0) / tokens.length, 1),
    tokens_per_probe_p95: percentile(tokens, 95),
    tokens_per_turn_mean: turns === 0 ? 0 : round(turnTokenSum / turns, 1),
    turns,
    max_prompt_tokens: results.reduce((m, r) => Math.max(m, r.max_prompt_tokens), 0),
    prompt_limit: results.reduce((m, r) => Math.max(m, r.prompt_limit), 0),
    over_budget_turns: results.reduce((n, r) => n + r.over_budget_turns, 0),
    isolation_leaks: leaks,
    deletion_failures: deletionFailures,
    errors: results.filter((r) => r.error !== null).length,
    by_category: Object.fromEntries(Object.entries(byCategory).sort(([a], [b]) => a.localeCompare(b))),
  };
}

/** Nearest-rank percentile (0 for no samples). */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

function round(v: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}
