// The eval harness of langgraph-memory (issue 8, docs/evals.md): scenario format, runner, metrics,
// reports and the CI gate. Not part of the library's public API: `src/` never imports it.
export { runEvals, type RunEvalsOptions } from "./run-evals.js";
export { runScenario, type ScenarioRunOptions } from "./runner/run-scenario.js";
export { checkProbe, findRanges, type ProbeCheck, type ExpectGroupResult } from "./runner/check-probe.js";
export { computeMetrics, isDeletionScenario, isIsolationScenario } from "./metrics.js";
export { evaluateGate, GATE_THRESHOLDS } from "./gate.js";
export { renderHtmlReport } from "./report/html-report.js";
export { writeEvalReports, summaryLines } from "./report/write-reports.js";
export { loadScenarios, parseScenario, type LoadedScenario, type Scenario } from "./scenario-schema.js";
export type * from "./types.js";
