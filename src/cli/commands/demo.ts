import { rmSync } from "node:fs";
import { join } from "node:path";
import { HumanMessage } from "@langchain/core/messages";
import { createPgClient } from "../../db/pg-clients.js";
import type { CliCommand } from "../cli-command.js";
import { parseCommandArgs } from "../common-options.js";
import { resolveConfig, type Budgets } from "../../config.js";
import type { BuildContextResult, ContextUsage } from "../../context/build-context.js";
import type { InspectedMemory, MemoryInspection } from "../../controls/memory-controls.js";
import { quoteIdent, validateSchemaName } from "../../db/identifier.js";
import type { WriteReport } from "../../extraction/write/write-report.js";
import { createMemoryAgentNode, memoryWorker, withMemory, type MemoryTurnEvent } from "../../graph/index.js";
import { createMemory, type LangGraphMemory } from "../../memory.js";
import { sessionMemoryId } from "../../sessions/session-memory-id.js";
import type { MemoryUsage, ProfileDocument, RetrievedMemory, SessionSummary } from "../../state/types.js";
import { cliCommand } from "../../core/cli-name.js";
import { countOf } from "../../core/plural.js";
import { dropSchemaSql } from "../../db/db-queries.js";

// ── The session engine shared by `demo` and `chat` ─────────────────────────────────────────────

/** What one turn did, for the transcript: what was loaded and injected, the answer, what was written. */
export interface TurnOutcome {
  threadId: string;
  user: string;
  answer: string;
  loaded: { memories: RetrievedMemory[]; pastSessions: RetrievedMemory[]; profile: ProfileDocument | null; rules: string[]; usage: MemoryUsage | null };
  prompt: ContextUsage | null;
  summary: { summary: SessionSummary; coveredMessages: number } | null;
  sessionIndexed: "summary" | "short_session" | null;
  written: InspectedMemory[];
  superseded: Array<{ previous: InspectedMemory; current: InspectedMemory | null }>;
  deleted: InspectedMemory[];
  profileChanges: Array<{ field: string; from: unknown; to: unknown }>;
  reports: WriteReport[];
}

/**
 * A user's conversations through the full pipeline (load → summarize → agent → schedule_extraction,
 * then the worker), with everything a transcript shows captured per turn.
 */
export class MemorySession {
  readonly scope: { tenantId: string; userId: string };
  private readonly graph;
  private lastContext: BuildContextResult | null = null;
  private events: MemoryTurnEvent[] = [];
  private reports: WriteReport[] = [];
  private readonly threads = new Set<string>();

  constructor(
    readonly memory: LangGraphMemory,
    scope: { tenantId: string; userId: string },
    budgets: Partial<Budgets> = {},
    options: { maxSummaryTokens?: number } = {},
  ) {
    this.scope = scope;
    this.graph = withMemory({
      memory,
      budgets,
      summarization: options.maxSummaryTokens ? { maxSummaryTokens: options.maxSummaryTokens } : undefined,
      agent: createMemoryAgentNode({ memory, budgets, onContext: (context) => (this.lastContext = context) }),
      extraction: "queue",
      debounceMs: 0,
      onEvent: (e) => this.events.push(e),
      onError: (err, stage) => console.error(`  ! ${stage}: ${(err as Error)?.message ?? err}`),
    }).compile({ checkpointer: memory.checkpointer });
  }

  config(threadId: string) {
    return { configurable: { thread_id: threadId, tenant_id: this.scope.tenantId, user_id: this.scope.userId } };
  }

  /** One user message on a thread: answer, then extraction by the worker (queued, then drained). */
  async turn(threadId: string, text: string): Promise<TurnOutcome> {
    this.threads.add(threadId);
    this.events = [];
    this.reports = [];
    this.lastContext = null;
    const before = await this.memory.controls.inspect(this.scope);
    const out = await this.graph.invoke({ messages: [new HumanMessage(text)] }, this.config(threadId));
    await memoryWorker(this.memory, { onReport: (r) => this.reports.push(r) }).drain();
    const after = await this.memory.controls.inspect(this.scope);
    const last = out.messages[out.messages.length - 1];
    const summaryEvent = this.events.find((e): e is Extract<MemoryTurnEvent, { type: "summary_changed" }> => e.type === "summary_changed");
    const indexed = this.events.find((e): e is Extract<MemoryTurnEvent, { type: "session_indexed" }> => e.type === "session_indexed");
    return {
      threadId,
      user: text,
      answer: typeof last.content === "string" ? last.content : JSON.stringify(last.content),
      loaded: { memories: out.memories ?? [], pastSessions: out.pastSessions ?? [], profile: out.profile ?? null, rules: (out.rules ?? []).map((r) => r.text), usage: out.memoryUsage ?? null },
      prompt: (this.lastContext as BuildContextResult | null)?.usage ?? null,
      summary: summaryEvent ? { summary: summaryEvent.summary, coveredMessages: summaryEvent.coveredMessages } : null,
      sessionIndexed: indexed?.via ?? null,
      ...this.diff(before, after),
      reports: this.reports,
    };
  }

  /** The thread's rolling summary, if it has one. */
  async summary(threadId: string): Promise<SessionSummary | null> {
    const state = await this.graph.getState(this.config(threadId));
    return (state.values as { summary?: SessionSummary | null }).summary ?? null;
  }

  private diff(before: MemoryInspection, after: MemoryInspection) {
    const sessions = new Set([...this.threads].map((t) => sessionMemoryId(this.scope, t)));
    const old = new Map(before.memories.map((m) => [m.id, m]));
    const now = new Map(after.memories.map((m) => [m.id, m]));
    const written = after.memories.filter((m) => !old.has(m.id) && m.status === "active" && !sessions.has(m.id));
    const superseded = after.memories
      .filter((m) => m.status === "superseded" && old.get(m.id)?.status === "active")
      .map((m) => ({ previous: m, current: m.supersededBy ? (now.get(m.supersededBy) ?? null) : null }));
    const deleted = before.memories.filter((m) => !now.has(m.id));
    const from = before.profile?.document ?? {};
    const to = after.profile?.document ?? {};
    const profileChanges = [...new Set([...Object.keys(from), ...Object.keys(to)])]
      .filter((f) => JSON.stringify(from[f]) !== JSON.stringify(to[f]))
      .map((field) => ({ field, from: from[field], to: to[field] }));
    return { written, superseded, deleted, profileChanges };
  }
}

// ── Rendering ───────────────────────────────────────────────────────────────────────────────────

const q = (text: string, max = 110) => {
  const t = text.replace(/\s+/g, " ").trim();
  return `"${t.length > max ? `${t.slice(0, max - 1)}…` : t}"`;
};
const date = (iso: string | undefined) => (iso ? iso.slice(0, 10) : "");
const value = (v: unknown) => (v === undefined ? "∅" : typeof v === "string" ? `"${v}"` : JSON.stringify(v));

/** The transcript lines of a turn (indented under the user's message). */
export function renderTurn(t: TurnOutcome, name: string): string[] {
  const lines: string[] = [];
  lines.push(`${name} › ${t.user}`);
  const u = t.loaded.usage;
  const injected = u ? `${u.total} tokens injected (profile ${u.profile} · rules ${u.rules} · memories ${u.memories} · past sessions ${u.pastSessions})` : "nothing injected";
  lines.push(`  ↳ load_memory   ${injected}`);
  for (const m of t.loaded.memories) lines.push(`      retrieved  [${m.kind}] ${q(m.text)} (${date(m.createdAt)}, score ${m.score.toFixed(2)})`);
  for (const s of t.loaded.pastSessions) lines.push(`      past session ${q(s.text, 90)} (${date(s.createdAt)}, score ${s.score.toFixed(2)})`);
  const profile = Object.entries(t.loaded.profile ?? {});
  if (profile.length > 0) lines.push(`      profile    ${profile.map(([k, v]) => `${k} ${value(v)}`).join(", ")}`);
  for (const r of t.loaded.rules) lines.push(`      rule       ${q(r)}`);
  if (t.summary) {
    const s = t.summary.summary;
    const entities = Object.entries(s.entities).filter(([, v]) => v.length > 0).map(([k, v]) => `${k}: ${v.slice(0, 4).join(", ")}`);
    lines.push(`  ↳ summarize     history passed 70% of the recent-messages budget: the oldest turns folded into a ${s.tokens}-token rolling summary`);
    lines.push(`      summary    ${q(s.text, 140)}`);
    if (entities.length > 0) lines.push(`      entities   ${entities.join(" · ")}`);
  }
  if (t.prompt) {
    const p = t.prompt;
    lines.push(`  ↳ agent         prompt ${p.prompt} tokens = system ${p.system} + memory ${p.total - p.summary} + summary ${p.summary} + recent messages ${p.recentMessages}${p.summarizedMessages ? ` (${p.summarizedMessages} older messages replaced by the summary)` : ""}`);
  }
  lines.push(`assistant › ${t.answer}`);
  const changes: string[] = [];
  for (const m of t.written) changes.push(`      written    [${m.kind}] ${q(m.text)}`);
  for (const s of t.superseded) changes.push(`      superseded [${s.previous.kind}] ${q(s.previous.text)} → ${s.current ? q(s.current.text) : "(newer memory)"}`);
  for (const m of t.deleted) {
    const what = m.kind === "episode" && m.source.threadId && m.origin === "extracted" && m.text.startsWith("User:") ? `past session of thread "${m.source.threadId}"` : `[${m.kind}] ${q(m.text)}`;
    changes.push(`      deleted    ${what} (on request; the audit records the deletion, never the text)`);
  }
  for (const c of t.profileChanges) changes.push(`      profile    ${c.field}: ${value(c.from)} → ${value(c.to)}`);
  for (const r of t.reports) {
    for (const [category, n] of Object.entries(r.refusedByCategory)) changes.push(`      refused    ${n} candidate${n === 1 ? "" : "s"}: ${category} (never stored, never sent to a model)`);
    const other = Object.entries(r.refusedByReason).filter(([reason]) => reason !== "sensitive");
    for (const [reason, n] of other) changes.push(`      refused    ${n} candidate${n === 1 ? "" : "s"}: ${reason}`);
    if (r.rulesProposed) changes.push(`      proposed   ${r.rulesProposed} rule${r.rulesProposed === 1 ? "" : "s"} (awaiting review)`);
    if (r.forgetAllRequested) changes.push(`      forget-all request recorded (needs the user's confirmation)`);
  }
  if (t.sessionIndexed) changes.push(`      session    thread "${t.threadId}" indexed as a past session (${t.sessionIndexed === "summary" ? "long thread" : "short session"}, offline summary of its conversation)`);
  lines.push(changes.length > 0 ? `  ↳ extraction    queued by schedule_extraction, run by the worker after the answer:` : `  ↳ extraction    queued by schedule_extraction, run by the worker: nothing to remember`);
  lines.push(...changes);
  return lines;
}

// ── The scripted demo ───────────────────────────────────────────────────────────────────────────

interface DemoSession {
  title: string;
  thread: string;
  turns: string[];
}

const KYOTO = [
  "Let's plan my Kyoto trip for the first week of April: I land at Kansai airport on April 2 and fly home from Tokyo on April 9, so the Kyoto part is four nights.",
  "For the first day I want to see Fushimi Inari early in the morning before the crowds, then walk down to Tofuku-ji and have lunch near Kyoto station.",
  "On day two we should do Arashiyama: the bamboo grove at opening time, the Okochi Sanso villa, and a boat ride on the Hozu river if the weather is fine.",
  "Day three is a day trip to Nara with the deer park, Todai-ji and Kasuga Taisha; book the Kintetsu limited express from Kyoto at 8:30 for two adults.",
  "For the last day keep the morning free for the Nishiki market and a tea ceremony in Gion at 14:00, then the shinkansen to Tokyo at 18:10 on April 6.",
  "The ryokan near Gion costs 38,000 yen per night with dinner; my budget for the whole Kyoto part is 200,000 yen, so please keep a running total.",
];

/** The script: a preference, a corrected fact, a task outcome, a refused secret, a long session, a deletion. */
export const DEMO_SCRIPT: DemoSession[] = [
  { title: "a preference and some facts", thread: "getting-started", turns: ["Hi, I'm Alice. Please always use metric units.", "I live in Berlin and I work at Acme as a data engineer."] },
  { title: "a fact corrected", thread: "moving", turns: ["I moved to Lisbon last month.", "How far is Porto from Lisbon by train?"] },
  {
    title: "a task outcome, and a secret that is refused",
    thread: "deploy-incident",
    turns: ["The billing deploy failed with a stale cache error; clearing the build cache fixed it.", "Remember that my GitHub token is ghp_16C7e42F292c6912E7710c838347Ae178B4a."],
  },
  { title: "a long session that triggers a rolling summary", thread: "kyoto-trip", turns: KYOTO },
  {
    title: "a new session: memory, past sessions, and a deletion on request",
    thread: "follow-up",
    turns: ["What did we plan for the Kyoto trip?", "The billing deploy fails again with a cache error. What fixed it last time?", "Please forget that I work at Acme.", "Where do I work these days? And which city did I move to?"],
  },
];

/** The demo's recent-messages budget: small, so the long session summarises within a few turns (its summary may take 150 tokens). */
export const DEMO_BUDGETS: Partial<Budgets> = { recentMessages: 350 };
export const DEMO_SUMMARY_TOKENS = 150;

const HELP = `usage: langgraph-memory demo [--data-dir DIR] [--database-url postgres://… --schema NAME]

A scripted conversation of one user over five sessions, through the full memory pipeline
(load_memory → summarize → agent → schedule_extraction → worker), printed as a transcript: what was
retrieved and injected (with token counts), each answer, and what was written, superseded, refused
and deleted. Offline by default (the agent is the labelled offline responder; extraction uses the
rule-based extractor); set MODEL to use a real chat model.

Runs on a fresh embedded database each time: DIR (default .langgraph-memory/demo, or
$LANGGRAPH_MEMORY_DATA_DIR/demo) is deleted first. With --database-url (server Postgres) the schema
(default langgraph_memory_demo) is dropped and recreated. DATABASE_URL is ignored: the demo never
touches your data unless you name a database.`;

export const command: CliCommand = {
  summary: "a scripted multi-session conversation showing what memory writes, supersedes, retrieves and injects",
  async run(argv) {
    const { values } = parseCommandArgs(argv, { "data-dir": { type: "string" } });
    if (values.help) {
      console.log(HELP);
      return 0;
    }
    const started = Date.now();
    const base = resolveConfig({}).dataDir;
    let databaseUrl: string;
    let where: string;
    let schema: string | undefined;
    if (values["database-url"]) {
      databaseUrl = values["database-url"];
      if (!/^postgres(ql)?:\/\//.test(databaseUrl)) {
        console.error("--database-url: the demo takes a server Postgres URL (postgres://…); for the embedded database use --data-dir");
        return 2;
      }
      schema = validateSchemaName(values.schema ?? "langgraph_memory_demo");
      const client = createPgClient({ connectionString: databaseUrl });
      await client.connect();
      try {
        await client.query(dropSchemaSql(quoteIdent(schema)));
      } finally {
        await client.end();
      }
      where = `server Postgres, schema ${schema} (fresh)`;
    } else {
      const dir = values["data-dir"] ?? join(base, "demo");
      rmSync(dir, { recursive: true, force: true });
      databaseUrl = `pglite:${dir}`;
      where = `embedded PGlite in ${dir}/ (fresh)`;
    }

    const memory = await createMemory({ databaseUrl, schema });
    try {
      const alice = { tenantId: "acme", userId: "alice" };
      const session = new MemorySession(memory, alice, DEMO_BUDGETS, { maxSummaryTokens: DEMO_SUMMARY_TOKENS });
      const out = (line = "") => console.log(line);
      out("langgraph-memory demo — one user, five sessions, the full memory pipeline");
      out(`  database   ${where}`);
      out(`  chat model ${memory.model ? memory.config.model : "none — the offline responder answers from the injected memory (set MODEL for a real model)"}`);
      out(`  extraction ${memory.model ? `${memory.config.model}` : "rule-based offline extractor"}, queued after each answer and run by the worker`);
      out(`  embeddings ${memory.config.embeddings} · recent-messages budget ${DEMO_BUDGETS.recentMessages} tokens, summary ≤ ${DEMO_SUMMARY_TOKENS} (demo settings, so a summary comes soon; defaults ${memory.config.budgets.recentMessages} and ${memory.config.budgets.recentMessages * 0.2})`);
      out(`  user       ${alice.tenantId}/${alice.userId}`);
      for (const [i, s] of DEMO_SCRIPT.entries()) {
        out();
        out(`━━ Session ${i + 1} · thread "${s.thread}" · ${s.title} ${"━".repeat(Math.max(3, 70 - s.title.length - s.thread.length))}`);
        for (const text of s.turns) {
          out();
          for (const line of renderTurn(await session.turn(s.thread, text), "alice")) out(line);
        }
      }

      const final = await memory.controls.inspect(alice);
      const audit = await memory.controls.deletionLog(alice);
      out();
      out(`━━ What memory holds for acme/alice now ${"━".repeat(52)}`);
      const byStatus = (status: string) => final.memories.filter((m) => m.status === status);
      out(`  profile     ${Object.entries(final.profile?.document ?? {}).map(([k, v]) => `${k} ${value(v)}`).join(", ") || "(empty)"}`);
      const sessionIds = new Set(DEMO_SCRIPT.map((s) => sessionMemoryId(alice, s.thread)));
      for (const m of byStatus("active").filter((m) => !sessionIds.has(m.id))) out(`  active      [${m.kind}] ${q(m.text, 90)}`);
      for (const m of byStatus("superseded")) out(`  superseded  [${m.kind}] ${q(m.text, 90)} (kept as history)`);
      for (const m of byStatus("active").filter((m) => sessionIds.has(m.id))) out(`  session     ${q(m.text, 90)} (${m.source.threadId})`);
      const deletedCount = audit.reduce((n, e) => n + e.itemCount, 0);
      out(`  deleted     ${deletedCount} item${deletedCount === 1 ? "" : "s"} on request — the deletion audit records that, never the text`);
      out(`  jobs        ${countOf((await memory.jobs.list(alice)).filter((j) => j.state === "done").length, "extraction job")} done`);
      out();
      out(`done in ${((Date.now() - started) / 1000).toFixed(1)} s. Try it yourself: ${cliCommand("chat --user you")}`);
      return 0;
    } finally {
      await memory.close();
    }
  },
};
