/**
 * The CI gate of issue 8: the offline pipeline on the public scenario set (evals/scenarios) must
 * reach needed-fact recall ≥ 0.95 with no stale or wrong memory, no isolation leak, no deletion
 * failure and no scenario error. The JSON and HTML reports are left in test-artifacts/ for CI.
 */
import { beforeAll, describe, expect, it } from "@jest/globals";
import { join } from "node:path";
import { runEvals } from "../../evals/run-evals.js";
import { GATE_THRESHOLDS } from "../../evals/gate.js";
import { summaryLines, writeEvalReports } from "../../evals/report/write-reports.js";
import type { EvalReport } from "../../evals/types.js";

let report: EvalReport;

beforeAll(async () => {
  report = await runEvals({ scenarios: join(process.cwd(), "evals", "scenarios") });
  writeEvalReports(report, { json: join("test-artifacts", "eval-public.json"), html: join("test-artifacts", "eval-public.html") });
}, 900_000);

/** What failed, for the assertion message: each failing probe with what was missing or forbidden. */
const failures = () => summaryLines(report).join("\n");

describe("eval gate: the public set, offline pipeline", () => {
  it("ran every public scenario through the offline pipeline without an error", () => {
    expect(report.pipeline).toBe("offline");
    expect(report.scenarios).toBeGreaterThanOrEqual(30);
    expect({ errors: report.errors, details: report.results.filter((r) => r.error).map((r) => `${r.id}: ${r.error}`) }).toEqual({ errors: 0, details: [] });
  });

  it(`needed-fact recall is at least ${GATE_THRESHOLDS.min_recall}`, () => {
    if (report.recall < GATE_THRESHOLDS.min_recall) throw new Error(`recall ${report.recall} < ${GATE_THRESHOLDS.min_recall}\n${failures()}`);
  });

  it("no probe injects a stale, wrong, secret or leaked string", () => {
    if (report.stale_probes > 0) throw new Error(`${report.stale_probes} stale probe(s)\n${failures()}`);
  });

  it("no isolation leak and no deletion failure", () => {
    expect({ isolation_leaks: report.isolation_leaks, deletion_failures: report.deletion_failures }).toEqual({ isolation_leaks: 0, deletion_failures: 0 });
  });

  it("the gate's verdict agrees", () => {
    expect(report.gate.failures).toEqual([]);
    expect(report.gate.passed).toBe(true);
  });
});
