/**
 * The eval harness's pure parts: how a probe's context is judged, the suite's metrics, the CI
 * gate, and the HTML report (self-contained, failures first, hits highlighted).
 */
import { describe, expect, it } from "@jest/globals";
import { checkProbe, findRanges } from "../../evals/runner/check-probe.js";
import { contextExcerpt } from "../../evals/runner/context-excerpt.js";
import { computeMetrics } from "../../evals/metrics.js";
import { evaluateGate, GATE_THRESHOLDS } from "../../evals/gate.js";
import { renderHtmlReport } from "../../evals/report/html-report.js";
import type { EvalReport, ProbeResult, ScenarioResult } from "../../evals/types.js";

describe("checkProbe", () => {
  it("passes a group when any alternative appears, case-insensitive; a forbidden string makes the probe stale", () => {
    const c = checkProbe("User prefers METRIC units. User lives in Lisbon.", [["km", "metric"], ["porto"]], ["Miles", "lisbon"]);
    expect(c.expect).toEqual([
      { alternatives: ["km", "metric"], hit: "metric" },
      { alternatives: ["porto"], hit: null },
    ]);
    expect(c.forbidHits).toEqual(["lisbon"]);
    expect(c).toMatchObject({ passedGroups: 1, stale: true, passed: false });
  });

  it("an empty context passes a forbid-only probe and fails every expect group", () => {
    expect(checkProbe("", [], ["Initech"])).toMatchObject({ passed: true, stale: false });
    expect(checkProbe("", [["x"]], [])).toMatchObject({ passed: false, passedGroups: 0 });
  });

  it("finds and merges the ranges to highlight", () => {
    expect(findRanges("Prenzlauer Berg, Berlin; berlin", ["berlin", "Berg, Ber"])).toEqual([
      { start: 11, end: 23 },
      { start: 25, end: 31 },
    ]);
  });

  it("keeps a window around a hit that a truncated context would lose", () => {
    const text = `${"a ".repeat(300)}the door code is 4471${" b".repeat(300)}`;
    const excerpt = contextExcerpt(text, ["4471"], 100);
    expect(excerpt.startsWith("a a")).toBe(true);
    expect(excerpt).toContain("door code is 4471");
    expect(excerpt.length).toBeLessThan(text.length);
    expect(contextExcerpt("short", ["x"], 100)).toBe("short");
  });
});

function probe(p: Partial<ProbeResult>): ProbeResult {
  return {
    index: 0,
    after_session: 1,
    tenant: "default",
    user: "u",
    at: "2026-01-01T00:00:00.000Z",
    query: "q",
    expect: [],
    forbid: [],
    forbid_hits: [],
    passed: true,
    stale: false,
    tokens: 0,
    sections: { profile: 0, rules: 0, memories: 0, past_sessions: 0, summary: 0 },
    context: "",
    context_chars: 0,
    retention_swept: true,
    ...p,
  };
}

function scenario(s: Partial<ScenarioResult> & { probes: ProbeResult[] }): ScenarioResult {
  const groups = s.probes.reduce((n, p) => n + p.expect.length, 0);
  const passed = s.probes.reduce((n, p) => n + p.expect.filter((g) => g.hit).length, 0);
  return {
    id: "s",
    description: "d",
    file: "",
    tags: [],
    passed: s.probes.every((p) => p.passed),
    error: null,
    warnings: [],
    sessions: 1,
    turns: 2,
    tool_turns: 0,
    actions: 0,
    probe_count: s.probes.length,
    expect_groups: groups,
    expect_passed: passed,
    recall: groups ? passed / groups : 1,
    stale_probes: s.probes.filter((p) => p.stale).length,
    tokens_per_turn_mean: 10,
    tokens_per_turn_max: 12,
    max_prompt_tokens: 300,
    prompt_limit: 9500,
    over_budget_turns: 0,
    summaries: 0,
    sessions_indexed: 0,
    writes: { added: 0, deduped: 0, superseded: 0, deleted: 0, refused: 0, profile_fields_changed: 0, rules_proposed: 0, forget_unmatched: 0 },
    retention: { runs: 0, expired: 0, archived: 0, deactivated: 0 },
    runtime_ms: 5,
    ...s,
  };
}

const hit = (alt: string) => ({ alternatives: [alt], hit: alt });
const miss = (alt: string) => ({ alternatives: [alt], hit: null });

describe("computeMetrics and the gate", () => {
  const results = [
    scenario({ id: "a", tags: ["preference"], probes: [probe({ expect: [hit("metric"), miss("celsius")], passed: false, tokens: 100 }), probe({ expect: [hit("km")], tokens: 40 })] }),
    scenario({ id: "b", tags: ["isolation-users"], probes: [probe({ forbid: ["Emacs"], forbid_hits: ["Emacs"], stale: true, passed: false, tokens: 60 })] }),
    scenario({ id: "c", tags: ["deletion", "forget"], probes: [probe({ expect: [hit("6pm")], forbid: ["Martyrs"], forbid_hits: ["Martyrs"], stale: true, passed: false, tokens: 20 })] }),
  ];

  it("recall is passed groups over all groups; stale rate is probes with a forbidden hit over probes", () => {
    const m = computeMetrics(results);
    expect(m).toMatchObject({ recall: 0.75, expect_groups: 4, expect_passed: 3, probes: 4, stale_probes: 2, stale_rate: 0.5, scenarios: 3, scenarios_passed: 0 });
    expect(m.tokens_per_probe_mean).toBe(55);
    expect(m.tokens_per_probe_p95).toBe(100);
    expect(m.isolation_leaks).toBe(1);
    expect(m.deletion_failures).toBe(1);
    expect(m.by_category.forget).toMatchObject({ scenarios: 1, probes: 1, recall: 1, stale_probes: 1 });
    expect(m.by_category.preference).toMatchObject({ recall: 0.6667 });
  });

  it("the gate fails under recall 0.95, on any stale hit, leak, deletion failure or error", () => {
    expect(GATE_THRESHOLDS).toMatchObject({ min_recall: 0.95, max_stale_probes: 0, max_isolation_leaks: 0, max_deletion_failures: 0 });
    const gate = evaluateGate(computeMetrics(results));
    expect(gate.passed).toBe(false);
    expect(gate.failures).toHaveLength(4);
    const clean = [scenario({ probes: [probe({ expect: [hit("a"), hit("b")] })] })];
    expect(evaluateGate(computeMetrics(clean))).toMatchObject({ passed: true, failures: [] });
    const justUnder = computeMetrics([scenario({ probes: [probe({ expect: [...Array.from({ length: 19 }, () => hit("x")), miss("y"), miss("z")], passed: false })] })]);
    expect(justUnder.recall).toBeLessThan(0.95);
    expect(evaluateGate(justUnder).failures).toEqual([expect.stringContaining("recall")]);
    expect(evaluateGate({ ...computeMetrics(clean), errors: 1 }).passed).toBe(false);
  });
});

describe("the HTML report", () => {
  const results = [
    scenario({ id: "passes", probes: [probe({ expect: [hit("metric")], context: "User prefers metric units." })] }),
    scenario({
      id: "moves",
      tags: ["correction"],
      probes: [probe({ query: "Where <do> I live?", expect: [hit("lisbon")], forbid: ["Prenzlauer"], forbid_hits: ["Prenzlauer"], stale: true, passed: false, context: "User lives in Lisbon. User: I live in Prenzlauer Berg." })],
    }),
  ];
  const metrics = computeMetrics(results);
  const report: EvalReport = {
    ...metrics,
    pipeline: "offline",
    scenarios_dir: "evals/scenarios",
    started_at: "2026-01-01T00:00:00.000Z",
    runtime_ms: 1234,
    gate: evaluateGate(metrics),
    results,
    locomo: null,
    other_runs: [],
    environment: { node: "v20", platform: "linux-x64", embeddings: "local", engine: "pglite" },
  };
  const html = renderHtmlReport(report);

  it("is self-contained: inline CSS and SVG, no script, no external resource", () => {
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain("<style>");
    expect(html).toContain("<svg");
    expect(html).not.toMatch(/<script|<link |src="http|href="http|@import|url\(/i);
  });

  it("puts failures first, highlights the offending context and escapes text", () => {
    expect(html.indexOf("moves")).toBeLessThan(html.indexOf('id="s-passes"'));
    expect(html).toContain('<mark class="bad">Prenzlauer</mark>');
    expect(html).toContain('<mark class="good">Lisbon</mark>');
    expect(html).toContain("Where &lt;do&gt; I live?");
    expect(html).toContain("CI gate: <b>failed</b>");
    expect(html).toContain("50.0%");
  });
});
