import { findRanges } from "../runner/check-probe.js";
import type { EvalReport, LocomoSection, ProbeResult, ScenarioResult } from "../types.js";
import { barChart, histogram } from "./svg-charts.js";

/**
 * The eval report as one self-contained HTML page: inline CSS and SVG, no script, no network.
 * Summary cards and the gate verdict first, then per-category bars, the failing scenarios (each
 * failing probe with its context, forbidden hits highlighted red and expected hits green), the
 * passing ones folded, and the LoCoMo retrieval benchmark when it ran.
 *
 * @example
 * writeFileSync("eval.html", renderHtmlReport(await runEvals({ scenarios: "evals/scenarios" })));
 */
export function renderHtmlReport(report: EvalReport): string {
  const runs = [report, ...report.other_runs];
  const body = [
    header(report),
    ...runs.map((run, i) => runSection(run, i === 0 ? null : `Pipeline ${run.pipeline} (reported on its own)`)),
    report.locomo ? locomoSection(report.locomo) : "",
    footer(report),
  ].join("\n");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>npm run eval — ${esc(report.pipeline)} — recall ${pct(report.recall)}</title>
<style>${CSS}</style>
</head>
<body>
${body}
</body>
</html>
`;
}

type Run = Omit<EvalReport, "other_runs" | "locomo">;

function header(r: EvalReport): string {
  return `<header><h1>Memory evals <span class="muted">— does memory work across sessions?</span></h1>
<p class="muted">Scenarios from <code>${esc(r.scenarios_dir)}</code> · started ${esc(r.started_at)} · ${(r.runtime_ms / 1000).toFixed(1)} s · Node ${esc(r.environment.node)} · ${esc(r.environment.engine)}, ${esc(r.environment.embeddings)} embeddings</p></header>`;
}

function runSection(run: Run, title: string | null): string {
  const gate = run.gate;
  const cards = [
    card("Needed-fact recall", pct(run.recall), `${run.expect_passed}/${run.expect_groups} expect groups`, run.recall >= gate.thresholds.min_recall),
    card("Stale / wrong rate", pct(run.stale_rate), `${run.stale_probes}/${run.probes} probes with a forbidden hit`, run.stale_probes === 0),
    card("Isolation leaks", String(run.isolation_leaks), "other users' or tenants' data", run.isolation_leaks === 0),
    card("Deletion failures", String(run.deletion_failures), "forgotten or opted-out content", run.deletion_failures === 0),
    card("Scenarios passed", `${run.scenarios_passed}/${run.scenarios}`, `${run.probes} probes${run.errors ? `, ${run.errors} errors` : ""}`, run.scenarios_passed === run.scenarios),
    card("Memory tokens / probe", String(run.tokens_per_probe_mean), `p95 ${run.tokens_per_probe_p95}`, null),
    card("Memory tokens / turn", String(run.tokens_per_turn_mean), `${run.turns} session turns`, null),
    card("Largest prompt", String(run.max_prompt_tokens), `limit ${run.prompt_limit}${run.over_budget_turns ? `, ${run.over_budget_turns} turns over` : ""}`, run.over_budget_turns === 0),
  ].join("");
  const verdict = gate.passed
    ? `<div class="gate pass">CI gate: <b>passed</b> — recall ≥ ${gate.thresholds.min_recall}, no stale hit, no leak, no deletion failure.</div>`
    : `<div class="gate fail">CI gate: <b>failed</b><ul>${gate.failures.map((f) => `<li>${esc(f)}</li>`).join("")}</ul></div>`;
  const failing = run.results.filter((s) => !s.passed);
  const passing = run.results.filter((s) => s.passed);
  return `<section>
<h2>${title ? esc(title) : `Pipeline <code>${esc(run.pipeline)}</code>`}</h2>
${verdict}
<div class="cards">${cards}</div>
<div class="charts">
<figure><figcaption>Recall by category (bar) · stale probes (red count)</figcaption>${categoryChart(run)}</figure>
<figure><figcaption>Memory tokens injected per probe</figcaption>${histogram(run.results.flatMap((s) => s.probes.map((p) => p.tokens)), { width: 420, height: 180, bins: 12, label: "tokens" })}</figure>
</div>
<h3>${failing.length === 0 ? "No failing scenario" : `Failing scenarios (${failing.length})`}</h3>
${failing.map((s) => scenarioBlock(s, true)).join("\n")}
<h3>Passing scenarios (${passing.length})</h3>
${passing.length ? `<table class="rows"><thead><tr><th>scenario</th><th>tags</th><th>probes</th><th>recall</th><th>tokens/probe</th><th>turns</th><th>time</th></tr></thead><tbody>${passing.map(passRow).join("")}</tbody></table>` : "<p class=muted>none</p>"}
${passing.map((s) => scenarioBlock(s, false)).join("\n")}
</section>`;
}

function categoryChart(run: Run): string {
  const rows = Object.entries(run.by_category).map(([tag, c]) => ({
    label: `${tag} (${c.scenarios_passed}/${c.scenarios})`,
    value: c.recall,
    note: c.stale_probes > 0 ? `${c.stale_probes} stale` : "",
    bad: c.recall < run.gate.thresholds.min_recall || c.stale_probes > 0,
  }));
  return barChart(rows, { width: 560, max: 1, format: (v) => pct(v) });
}

function passRow(s: ScenarioResult): string {
  const tokens = s.probes.length ? Math.round(s.probes.reduce((n, p) => n + p.tokens, 0) / s.probes.length) : 0;
  return `<tr><td><a href="#${anchor(s.id)}">${esc(s.id)}</a></td><td>${esc(s.tags.join(", "))}</td><td>${s.probe_count}</td><td>${pct(s.recall)}</td><td>${tokens}</td><td>${s.turns}</td><td>${(s.runtime_ms / 1000).toFixed(1)} s</td></tr>`;
}

function scenarioBlock(s: ScenarioResult, open: boolean): string {
  const head = `<span class="badge ${s.passed ? "ok" : "bad"}">${s.passed ? "pass" : "fail"}</span> <b>${esc(s.id)}</b> <span class="muted">${esc(s.tags.join(" · "))} · recall ${pct(s.recall)} · ${s.stale_probes} stale · ${s.sessions} sessions, ${s.turns} turns</span>`;
  const probes = (open ? [...s.probes].sort((a, b) => Number(a.passed) - Number(b.passed)) : s.probes).map((p) => probeBlock(p, open && !p.passed)).join("");
  const problems = [
    s.error ? `<p class="error">Error: ${esc(s.error)}</p>` : "",
    s.warnings.length ? `<p class="warn">Recovered errors: ${s.warnings.map(esc).join("; ")}</p>` : "",
  ].join("");
  const facts = `<p class="muted small">writes: ${s.writes.added} added, ${s.writes.superseded} superseded, ${s.writes.deduped} deduped, ${s.writes.deleted} deleted, ${s.writes.refused} refused, ${s.writes.profile_fields_changed} profile fields, ${s.writes.rules_proposed} rules · ${s.summaries} rolling summaries, ${s.sessions_indexed} sessions indexed · retention ran ${s.retention.runs}× (${s.retention.expired} expired, ${s.retention.archived} archived, ${s.retention.deactivated} deactivated) · largest prompt ${s.max_prompt_tokens}/${s.prompt_limit}</p>`;
  return `<details id="${anchor(s.id)}" class="scenario"${open ? " open" : ""}><summary>${head}</summary><p>${esc(s.description)}</p>${problems}${facts}${probes}</details>`;
}

function probeBlock(p: ProbeResult, open: boolean): string {
  const groups = p.expect
    .map((g) => `<li class="${g.hit ? "ok" : "bad"}">${g.hit ? "✓" : "✗"} any of ${g.alternatives.map((a) => `<code>${esc(a)}</code>`).join(" ")}${g.hit ? ` — found <code>${esc(g.hit)}</code>` : " — none found"}</li>`)
    .join("");
  const forbid = p.forbid.length
    ? `<li class="${p.stale ? "bad" : "ok"}">${p.stale ? "✗" : "✓"} forbidden ${p.forbid.map((f) => `<code class="${p.forbid_hits.includes(f) ? "hit" : ""}">${esc(f)}</code>`).join(" ")}${p.stale ? ` — found ${p.forbid_hits.map((f) => `<code class="hit">${esc(f)}</code>`).join(" ")}` : ""}</li>`
    : "";
  const hits = p.expect.flatMap((g) => (g.hit ? [g.hit] : []));
  const context = p.context ? highlight(p.context, hits, p.forbid_hits) : `<span class="muted">(nothing injected)</span>`;
  const truncated = p.context_chars > p.context.length ? ` <span class="muted">(${p.context_chars} characters, shortened)</span>` : "";
  return `<details class="probe ${p.passed ? "" : "failed"}"${open ? " open" : ""}><summary>${p.passed ? "✓" : "✗"} probe ${p.index + 1} after session ${p.after_session} · ${esc(p.tenant)}/${esc(p.user)} · ${esc(p.at.slice(0, 10))} · <i>${esc(p.query)}</i> <span class="muted">${p.tokens} tokens</span></summary>
<ul class="checks">${groups}${forbid}</ul>
<div class="context-label">Injected memory context${truncated}</div><pre class="context">${context}</pre></details>`;
}

/** The context with expected hits in green and forbidden hits in red (forbidden wins where they overlap). */
function highlight(text: string, good: readonly string[], bad: readonly string[]): string {
  const marks = [
    ...findRanges(text, bad).map((r) => ({ ...r, cls: "bad" })),
    ...findRanges(text, good).map((r) => ({ ...r, cls: "good" })),
  ].sort((a, b) => a.start - b.start || (a.cls === "bad" ? -1 : 1));
  let out = "";
  let at = 0;
  for (const m of marks) {
    if (m.start < at) continue;
    out += esc(text.slice(at, m.start)) + `<mark class="${m.cls}">${esc(text.slice(m.start, m.end))}</mark>`;
    at = m.end;
  }
  return out + esc(text.slice(at));
}

function locomoSection(l: LocomoSection): string {
  if (!l.result) return `<section><h2>LoCoMo retrieval benchmark</h2><p class="error">Not run: ${esc(l.error ?? "unknown error")}</p><p class="muted">Data: <code>${esc(l.path)}</code></p></section>`;
  const r = l.result;
  const overall = barChart(
    [
      { label: "recall@5", value: r.recall_at_5 },
      { label: "recall@10", value: r.recall_at_10 },
      { label: "recall@25", value: r.recall_at_25 },
      { label: "all evidence @10", value: r.all_evidence_at_10 },
      { label: "plain BM25 @10 (reference)", value: 0.569, note: "reference" },
    ],
    { width: 520, max: 1, format: (v) => v.toFixed(3) },
  );
  const byCat = barChart(
    Object.entries(r.by_category).map(([c, v]) => ({ label: `category ${c} (${v.questions} q)`, value: v.recall_at_10 })),
    { width: 520, max: 1, format: (v) => v.toFixed(3) },
  );
  return `<section><h2>LoCoMo retrieval benchmark</h2>
<p>Evidence retrieval of the long-term store on LoCoMo (Maharana et al., 2024): every turn of each conversation stored as one user's episode, each question of categories 1–4 searched in that scope. ${r.questions} questions, ${r.memories} memories, embedder <code>${esc(r.embedder)}</code>, lexical weight ${r.lexical_weight}, ±${r.context_turns} context turns, ${esc(r.engine)}; search p50 ${r.search_p50_ms} ms; ${(r.total_ms / 1000).toFixed(1)} s in all. Data read in place from <code>${esc(l.path)}</code>.</p>
<div class="charts"><figure><figcaption>Evidence recall</figcaption>${overall}</figure><figure><figcaption>Recall@10 by question category</figcaption>${byCat}</figure></div></section>`;
}

function footer(r: EvalReport): string {
  return `<footer class="muted small">Generated by <code>npm run eval</code> (pipeline ${esc(r.pipeline)}). Recall = passed expect groups / all groups; a probe is stale when any forbidden string appears in its context (case-insensitive). The JSON report holds every row; see docs/evals.md.</footer>`;
}

function card(title: string, value: string, note: string, good: boolean | null): string {
  const cls = good === null ? "" : good ? " good" : " bad";
  return `<div class="card${cls}"><div class="card-title">${esc(title)}</div><div class="card-value">${esc(value)}</div><div class="card-note">${esc(note)}</div></div>`;
}

const pct = (v: number) => `${(v * 100).toFixed(1)}%`;
const anchor = (id: string) => `s-${id.replace(/[^a-z0-9_-]/gi, "-")}`;

export function esc(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

const CSS = `
:root { --ok: #1a7f37; --bad: #cf222e; --ink: #1f2328; --muted: #656d76; --line: #d0d7de; --bg: #f6f8fa; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); margin: 0 auto; max-width: 1180px; padding: 24px; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 18px; margin: 28px 0 10px; border-bottom: 1px solid var(--line); padding-bottom: 4px; } h3 { font-size: 15px; margin: 22px 0 8px; }
.muted { color: var(--muted); } .small { font-size: 12px; }
code { font: 12px ui-monospace, SFMono-Regular, Menlo, monospace; background: var(--bg); padding: 0 3px; border-radius: 3px; }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(170px, 1fr)); gap: 10px; margin: 12px 0; }
.card { border: 1px solid var(--line); border-radius: 8px; padding: 10px 12px; background: #fff; }
.card.good { border-left: 5px solid var(--ok); } .card.bad { border-left: 5px solid var(--bad); }
.card-title { font-size: 12px; color: var(--muted); } .card-value { font-size: 24px; font-weight: 600; } .card-note { font-size: 12px; color: var(--muted); }
.gate { padding: 10px 14px; border-radius: 8px; margin: 10px 0; } .gate ul { margin: 6px 0 0 18px; padding: 0; }
.gate.pass { background: #dafbe1; border: 1px solid #aceebb; } .gate.fail { background: #ffebe9; border: 1px solid #ffcecb; }
.charts { display: flex; flex-wrap: wrap; gap: 18px; } figure { margin: 0; } figcaption { font-size: 12px; color: var(--muted); margin-bottom: 4px; }
details.scenario { border: 1px solid var(--line); border-radius: 8px; margin: 8px 0; padding: 6px 10px; background: #fff; }
details.scenario > summary { cursor: pointer; } details.probe { margin: 6px 0 6px 12px; border-left: 3px solid var(--line); padding-left: 10px; }
details.probe.failed { border-left-color: var(--bad); } details.probe > summary { cursor: pointer; }
.badge { display: inline-block; font-size: 11px; font-weight: 600; padding: 1px 6px; border-radius: 10px; color: #fff; }
.badge.ok { background: var(--ok); } .badge.bad { background: var(--bad); }
ul.checks { list-style: none; padding: 0; margin: 6px 0; } ul.checks li.ok { color: var(--ok); } ul.checks li.bad { color: var(--bad); }
code.hit { background: #ffcecb; }
.context-label { font-size: 12px; color: var(--muted); } pre.context { white-space: pre-wrap; word-break: break-word; background: var(--bg); border: 1px solid var(--line); border-radius: 6px; padding: 8px; font-size: 12px; max-height: 420px; overflow: auto; }
mark.bad { background: #ff8182; color: #000; font-weight: 600; } mark.good { background: #aceebb; color: #000; }
table.rows { border-collapse: collapse; width: 100%; font-size: 13px; } table.rows th, table.rows td { border-bottom: 1px solid var(--line); padding: 3px 6px; text-align: left; }
.error { color: var(--bad); } .warn { color: #9a6700; }
footer { margin-top: 30px; border-top: 1px solid var(--line); padding-top: 8px; }
svg text { font: 11px system-ui, sans-serif; fill: var(--ink); }
`;
