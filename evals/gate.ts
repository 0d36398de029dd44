import type { EvalMetrics, GateResult } from "./types.js";

/** The CI gate of issue 8: recall at least 0.95, and no stale hit, no leak, no deletion failure (and no scenario error). */
export const GATE_THRESHOLDS = {
  min_recall: 0.95,
  max_stale_probes: 0,
  max_isolation_leaks: 0,
  max_deletion_failures: 0,
  max_errors: 0,
} as const;

/**
 * The gate's verdict on a run's metrics, with one line per reason it failed.
 *
 * @example
 * const gate = evaluateGate(report);
 * if (!gate.passed) console.error(gate.failures.join("\n"));
 */
export function evaluateGate(m: Pick<EvalMetrics, "recall" | "stale_probes" | "isolation_leaks" | "deletion_failures" | "errors" | "expect_groups" | "expect_passed" | "probes">): GateResult {
  const t = GATE_THRESHOLDS;
  const failures: string[] = [];
  if (m.recall < t.min_recall) failures.push(`needed-fact recall ${m.recall} is under ${t.min_recall} (${m.expect_passed}/${m.expect_groups} expect groups)`);
  if (m.stale_probes > t.max_stale_probes) failures.push(`${m.stale_probes} of ${m.probes} probes injected a forbidden (stale, wrong, secret or leaked) string`);
  if (m.isolation_leaks > t.max_isolation_leaks) failures.push(`${m.isolation_leaks} isolation leak(s): another user's or tenant's data in a probe's context`);
  if (m.deletion_failures > t.max_deletion_failures) failures.push(`${m.deletion_failures} deletion failure(s): forgotten, deleted or opted-out content in a probe's context`);
  if (m.errors > t.max_errors) failures.push(`${m.errors} scenario(s) could not run to the end`);
  return { passed: failures.length === 0, thresholds: { ...t }, failures };
}
