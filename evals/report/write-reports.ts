import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { EvalReport } from "../types.js";
import { renderHtmlReport } from "./html-report.js";

/** Write the JSON and/or HTML report (creating folders). */
export function writeEvalReports(report: EvalReport, files: { json?: string; html?: string }): void {
  if (files.json) {
    mkdirSync(dirname(files.json), { recursive: true });
    writeFileSync(files.json, JSON.stringify(report, null, 2) + "\n");
  }
  if (files.html) {
    mkdirSync(dirname(files.html), { recursive: true });
    writeFileSync(files.html, renderHtmlReport(report));
  }
}

/** The plain-text summary the CLI prints: one line per figure, then the gate and each failing probe. */
export function summaryLines(report: EvalReport): string[] {
  const lines: string[] = [];
  for (const run of [report, ...report.other_runs]) {
    lines.push(`pipeline ${run.pipeline}: ${run.scenarios} scenarios (${run.scenarios_passed} passed), ${run.probes} probes, ${run.turns} session turns`);
    lines.push(`  needed-fact recall      ${run.recall} (${run.expect_passed}/${run.expect_groups} expect groups)`);
    lines.push(`  stale/wrong rate        ${run.stale_rate} (${run.stale_probes} probes with a forbidden hit)`);
    lines.push(`  isolation leaks         ${run.isolation_leaks}`);
    lines.push(`  deletion failures       ${run.deletion_failures}`);
    lines.push(`  memory tokens / probe   mean ${run.tokens_per_probe_mean}, p95 ${run.tokens_per_probe_p95}`);
    lines.push(`  memory tokens / turn    mean ${run.tokens_per_turn_mean}`);
    lines.push(`  largest prompt          ${run.max_prompt_tokens} tokens (limit ${run.prompt_limit}, ${run.over_budget_turns} turns over)`);
    if (run.errors) lines.push(`  errors                  ${run.errors} scenario(s) did not finish`);
    lines.push(`  CI gate                 ${run.gate.passed ? "passed" : `FAILED: ${run.gate.failures.join("; ")}`}`);
    for (const s of run.results.filter((r) => !r.passed)) {
      lines.push(`  ✗ ${s.id}${s.error ? ` (error: ${s.error})` : ""}`);
      for (const p of s.probes.filter((x) => !x.passed)) {
        const missing = p.expect.filter((g) => g.hit === null).map((g) => g.alternatives.join("|"));
        lines.push(`      probe ${p.index + 1} "${p.query}"${missing.length ? ` missing [${missing.join("], [")}]` : ""}${p.forbid_hits.length ? ` forbidden found: ${p.forbid_hits.join(", ")}` : ""}`);
      }
    }
  }
  if (report.locomo) {
    const l = report.locomo;
    lines.push(l.result ? `LoCoMo: ${l.result.questions} questions, recall@5 ${l.result.recall_at_5}, @10 ${l.result.recall_at_10}, @25 ${l.result.recall_at_25} (${l.result.embedder})` : `LoCoMo: not run (${l.error})`);
  }
  return lines;
}
