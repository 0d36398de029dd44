/**
 * Secrets and special-category data through every write path, end to end: 250+ realistic strings
 * in natural sentences (test/fixtures/sensitive-corpus.json and secrets-in-sentences.json) sent
 * as user turns through the memory agent graph (`withMemory`: load, summary, past-session
 * indexing, extraction inline and queued + worker, with the offline rules and with a model that
 * proposes to keep everything), through `manage_memory` called by the agent inside the graph,
 * through import-jsonl (library and CLI), through the HTTP API (memory edits, profile edits, with
 * the request log on) and through `controls.import`. Afterwards a scan of every table of the
 * schema — except the checkpointer's, which keep the raw conversation by design — finds none of
 * them, and nothing printed (console, stdout, stderr, the CLI's output) contains any.
 *
 * Forbidden values are what the filter's detectors point at in each sentence (the secret itself;
 * for special categories the words that make it one); PINs only as whole tokens. Sentences the
 * filter once missed (FORMER_GAPS) also carry the exact words that must never be stored, and have
 * their own test through the keep-everything model. The HTTP edits and `controls.import` write to
 * their own tenants, so each path's own check sees only what that path stored.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, jest } from "@jest/globals";
import { HumanMessage } from "@langchain/core/messages";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Database } from "../../src/db/database.js";
import { quoteIdent } from "../../src/db/identifier.js";
import { detectSensitive } from "../../src/sensitive/detect-sensitive.js";
import { importJsonlFile } from "../../src/extraction/write/index.js";
import { createMemoryAgentNode, memoryToolsFor, memoryWorker, withMemory, writeTargetsOf } from "../../src/graph/index.js";
import { createMemory, type LangGraphMemory } from "../../src/memory.js";
import { createMemoryServer, type MemoryServer } from "../../src/server/index.js";
import { MANAGE_MEMORY_TOOL_NAME, type ManageMemoryInput } from "../../src/tools/index.js";
import { openTestDatabase, testEngines } from "../helpers/db.js";
import { RecordingChatModel } from "../helpers/fake-chat-model.js";
import { copycatModel } from "../helpers/extraction-models.js";
import { FULL, report, size } from "./helpers/sizes.js";

interface Entry {
  id: string;
  category: string;
  text: string;
}
const load = (name: string) => (JSON.parse(readFileSync(join(process.cwd(), "test/fixtures", name), "utf8")) as { sensitive: Entry[] }).sensitive;
const ALL: Entry[] = [...load("sensitive-corpus.json"), ...load("secrets-in-sentences.json")];

/**
 * Realistic sentences the filter once missed (docs/security.md; its detectors were extended by
 * phrasing, not by these strings): each with the words that must never be stored. They are part
 * of the corpus like every other sentence, and their own test checks these exact words.
 */
const FORMER_GAPS: Record<string, string[]> = {
  "password-s027": ["Pinguin6388"], // "…, password Pinguin6388?" (no "is"/":")
  "password-s031": ["Marmelade6402"], // "changed my Netflix password to …"
  "password-s033": ["5318"], // "the alarm code for the office is 5318"
  "sexual_orientation-s088": ["both men"],
  "political_opinion-s095": ["Social Democrats"],
  "ethnicity-s099": ["Black woman"],
  "ethnicity-s100": ["half Korean"],
};
const CORPUS = ALL;
/** Tenants of the HTTP edits, `controls.import` and the former gaps (each path's own check reads its own tenant). */
const HTTP_TENANT = "sec-http";
const IMPORT_TENANT = "sec-import";
const GAPS_TENANT = "sec-gaps";
const GAPS = ALL.filter((e) => e.id in FORMER_GAPS);

/** The words each sentence must never leave behind in storage. */
function forbiddenOf(entry: Entry): string[] {
  const detected = detectSensitive(entry.text)
    .map((f) => entry.text.slice(f.start, f.end).trim())
    .filter((v) => v.replace(/[^\p{L}\p{N}]/gu, "").length >= 4);
  return [...new Set([...(FORMER_GAPS[entry.id] ?? []), ...detected])];
}
/** Long values anywhere; short ones (PINs, short words) as a whole token, case-insensitively for words. */
function contains(haystack: string, value: string): boolean {
  if (value.length >= 8) return haystack.includes(value);
  const escaped = value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, /^\d+$/.test(value) ? "u" : "iu").test(haystack);
}
/** Numbers a request log carries itself (times, pids, ports, durations) are not user content: a PIN must not match them. */
const withoutLogNumbers = (text: string) => text.replace(/"(time|pid|responseTime|remotePort|reqId)":"?[\w.-]+"?/g, "").replace(/127\.0\.0\.1:\d+/g, "127.0.0.1");
const withoutIds = (text: string) => text.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, "<id>");

const GRAPH_TURNS_PER_THREAD = 6;
const SERVE_ENGINE = testEngines().includes("postgres") ? "postgres" : "pglite";
/**
 * Corpus sentences sent as user turns through the graph with the model that keeps everything
 * (under the flag: all of them), and with the offline rules; threads alternate inline and queued
 * extraction. The cheaper paths below take the whole corpus in every run.
 */
const LLM_GRAPH_SENTENCES = size(48, 10_000);
const RULES_GRAPH_SENTENCES = size(24, 48);
/** How many go through manage_memory inside the graph (all of them go through the tool directly). */
const TOOL_GRAPH_SENTENCES = size(24, 48);

let printed: string[] = [];
beforeEach(() => {
  const capture = (...args: unknown[]) => void printed.push(args.map((a) => (typeof a === "string" ? a : (JSON.stringify(a) ?? String(a)))).join(" "));
  for (const method of ["log", "info", "warn", "error", "debug", "trace"] as const) jest.spyOn(console, method).mockImplementation(capture);
  const write = (chunk: unknown) => (printed.push(String(chunk)), true);
  jest.spyOn(process.stdout, "write").mockImplementation(write as typeof process.stdout.write);
  jest.spyOn(process.stderr, "write").mockImplementation(write as typeof process.stderr.write);
});
afterEach(() => {
  jest.restoreAllMocks();
});

describe.each(testEngines())("secrets through every write path on %s", (engine) => {
  let db: Database;
  let rules: LangGraphMemory;
  let llm: LangGraphMemory;
  const copycat = copycatModel();
  const dir = mkdtempSync(join(tmpdir(), "lgm-secrets-"));
  const figures: Record<string, number> = {};

  beforeAll(async () => {
    db = await openTestDatabase(engine);
    rules = await createMemory({ db });
    llm = await createMemory({ db, model: copycat });
  });
  afterAll(async () => {
    await llm?.close();
    await rules?.close();
    await db?.close();
    rmSync(dir, { recursive: true, force: true });
    jest.restoreAllMocks();
    report(`secrets through every path (${engine})`, { sentences: ALL.length, formerGaps: GAPS.length, ...figures });
  });
  afterEach(() => {
    const all = withoutLogNumbers(printed.join("\n"));
    printed = [];
    expect(CORPUS.flatMap((e) => forbiddenOf(e).filter((v) => contains(all, v)).map((v) => `${e.id}: ${v}`))).toEqual([]);
  });

  /** Every row of every table but the checkpointer's, as text; with `only`, the rows of that tenant. */
  async function storedText(only?: string): Promise<string> {
    const { rows: tables } = await db.query<{ t: string; has_tenant: boolean }>(
      `SELECT c.relname AS t, EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'tenant_id' AND NOT a.attisdropped) AS has_tenant
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind = 'r' ORDER BY 1`,
      [db.schema],
    );
    const parts: string[] = [];
    for (const { t, has_tenant: hasTenant } of tables) {
      if (["checkpoints", "checkpoint_items", "checkpoint_writes"].includes(t)) continue;
      if (only !== undefined && !hasTenant) continue;
      const where = only !== undefined ? "t.tenant_id = $1" : "TRUE";
      const { rows } = await db.query<{ r: string }>(`SELECT t::text AS r FROM ${quoteIdent(t)} t WHERE ${where}`, only !== undefined ? [only] : []);
      parts.push(...rows.map((r) => r.r));
    }
    return withoutIds(parts.join("\n"));
  }
  /** The forbidden values of `entries` found in storage ("<id>: <value>"). */
  async function storedValues(entries: Entry[], only?: string): Promise<string[]> {
    const stored = await storedText(only);
    return entries.flatMap((e) => forbiddenOf(e).filter((v) => contains(stored, v)).map((v) => `${e.id}: ${v}`));
  }
  async function expectNothingStored(entries: Entry[]): Promise<void> {
    expect(await storedValues(entries)).toEqual([]);
  }
  /** What the HTTP edits left in storage (checked by its own test). */
  let storedByHttpEdits: string[] | undefined;

  const llmSentences = CORPUS.slice(0, LLM_GRAPH_SENTENCES);
  // The rules extractor takes sentences from the end, so a default run covers more of the corpus.
  const rulesSentences = CORPUS.slice(-RULES_GRAPH_SENTENCES);

  it(`the corpus: ${ALL.length} sentences (≥ 100), each with a value the checks below look for — the ${GAPS.length} former gaps included`, () => {
    expect(ALL.length).toBeGreaterThanOrEqual(100);
    expect(new Set(ALL.map((e) => e.id)).size).toBe(ALL.length);
    expect(CORPUS.filter((e) => forbiddenOf(e).length === 0).map((e) => e.id)).toEqual([]);
    // The filter itself recognises every sentence now, the former gaps included.
    expect(CORPUS.filter((e) => detectSensitive(e.text).length === 0).map((e) => e.id)).toEqual([]);
  });

  it(`the memory agent graph: ${llmSentences.length} sentences as user turns with a model that keeps everything, ${rulesSentences.length} with the offline rules, extraction inline and queued`, async () => {
    let runs = 0;
    const modelCallsBefore = copycat.calls.length;
    for (const [label, memory, list] of [["llm", llm, llmSentences], ["rules", rules, rulesSentences]] as const) {
      const tools = memoryToolsFor(memory);
      const graphs = {
        inline: withMemory({ memory, agent: createMemoryAgentNode({ memory, tools, model: null }), tools, extraction: "inline", debounceMs: 0 }).compile({ checkpointer: memory.checkpointer }),
        queue: withMemory({ memory, agent: createMemoryAgentNode({ memory, tools, model: null }), tools, extraction: "queue", debounceMs: 0 }).compile({ checkpointer: memory.checkpointer }),
      };
      for (let start = 0; start < list.length; start += GRAPH_TURNS_PER_THREAD) {
        const extraction = (start / GRAPH_TURNS_PER_THREAD) % 2 ? "queue" : "inline";
        const thread = `${label}-${extraction}-${start}`;
        const config = { configurable: { thread_id: thread, tenant_id: "sec-co", user_id: `graph-${thread}` } };
        for (const [i, entry] of list.slice(start, start + GRAPH_TURNS_PER_THREAD).entries()) {
          // Half of them as a request to remember, the way users ask.
          const text = i % 2 ? `Please remember this: ${entry.text}` : entry.text;
          await graphs[extraction].invoke({ messages: [new HumanMessage({ id: `${thread}-${i}`, content: text })] }, config);
          runs++;
        }
      }
      await memoryWorker(memory).drain();
    }
    // Not vacuous: the model was asked (inline and by the worker), and the checkpointer keeps the
    // conversation itself (by design; docs/security.md).
    expect(copycat.calls.length - modelCallsBefore).toBeGreaterThanOrEqual(Math.ceil(llmSentences.length / GRAPH_TURNS_PER_THREAD));
    const { rows } = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM checkpoint_items");
    expect(rows[0].n).toBeGreaterThan(0);
    const { rows: jobs } = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM memory_jobs WHERE tenant_id = 'sec-co' AND state <> 'done'");
    expect(jobs[0].n).toBe(0);
    figures.graphTurns = runs;
    figures.graphTurnsKeepEverythingModel = llmSentences.length;
    await expectNothingStored([...new Set([...llmSentences, ...rulesSentences])]);
  }, 900_000);

  it(`manage_memory, called by the agent inside the graph and directly: create and update refuse all ${CORPUS.length}`, async () => {
    const tools = memoryToolsFor(rules);
    let n = 0;
    const agentModel = new RecordingChatModel({
      defaultResponse: (call) => {
        const last = call.messages[call.messages.length - 1];
        if (last.getType() === "tool") return "Done.";
        const entry = CORPUS[n++ % CORPUS.length];
        return { toolCalls: [{ name: "manage_memory", args: { action: "create", content: `User said: ${entry.text}`, kind: "fact" } }] };
      },
    });
    const agent = createMemoryAgentNode({ memory: rules, tools, model: agentModel });
    const graph = withMemory({ memory: rules, agent, tools, extraction: false }).compile({ checkpointer: rules.checkpointer });
    const config = { configurable: { thread_id: "tools-thread", tenant_id: "sec-co", user_id: "tools" } };
    const inGraph = Math.min(TOOL_GRAPH_SENTENCES, CORPUS.length);
    const results: string[] = [];
    for (let i = 0; i < inGraph; i++) {
      const out = await graph.invoke({ messages: [new HumanMessage({ id: `tools-${i}`, content: "Save what I told you." })] }, config);
      results.push(String(out.messages[out.messages.length - 2].content));
    }
    expect(results.map((r) => JSON.parse(r).status)).toEqual(CORPUS.slice(0, inGraph).map(() => "refused"));
    // Directly: create each sentence, and update an existing memory's text to it.
    const manage: StructuredToolInterface = tools.find((t) => t.name === MANAGE_MEMORY_TOOL_NAME)!;
    const callManage = async (input: ManageMemoryInput) => JSON.parse(String(await manage.invoke(input, config))) as { status: string; id?: string };
    const created = await callManage({ action: "create", content: "User has a cat named Miso." });
    expect(created).toMatchObject({ status: "created", id: expect.any(String) });
    for (const entry of CORPUS) {
      const made = await callManage({ action: "create", content: entry.text });
      const updated = await callManage({ action: "update", id: created.id, content: entry.text });
      expect([entry.id, made.status, updated.status]).toEqual([entry.id, "refused", "refused"]);
    }
    figures.toolCalls = inGraph + CORPUS.length * 2;
    await expectNothingStored(CORPUS);
  }, 600_000);

  it("import-jsonl, the library and the CLI: every sentence refused; the CLI prints no value", async () => {
    const file = join(dir, `corpus-${engine}.jsonl`);
    writeFileSync(file, CORPUS.map((e, i) => JSON.stringify({ ts: new Date(Date.UTC(2025, 0, 1, 0, i)).toISOString(), type: "note", content: e.text, tags: ["x"] })).join("\n") + "\n");
    const result = await importJsonlFile(file, { store: rules.store, scope: { tenantId: "sec-co", userId: "import" }, targets: writeTargetsOf(rules) });
    expect(result).toMatchObject({ entries: CORPUS.length, imported: 0, refused: CORPUS.length });
    if (engine === "pglite") {
      // The CLI in its own process, on its own embedded folder; its output is checked like ours.
      const env = { ...process.env };
      delete env.NODE_OPTIONS;
      const out = execFileSync(process.execPath, ["--import", "tsx", "src/cli/run.ts", "import-jsonl", file, "--tenant", "sec-co", "--user", "cli", "--database-url", `pglite:${join(dir, "cli-db")}`], {
        env,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
      });
      printed.push(out);
      expect(out).toContain(`imported 0, duplicates 0, refused ${CORPUS.length}`);
    }
    figures.imported = CORPUS.length;
    await expectNothingStored(CORPUS);
  }, 300_000);

  it("the HTTP API (memory and profile edits, search, with the request log on): nothing sensitive logged", async () => {
    const alice = { tenantId: HTTP_TENANT, userId: "http" };
    const token = "http-token-0123456789abcdef0123";
    const server: MemoryServer = await createMemoryServer({ memory: rules, tokens: { [token]: alice }, logger: true });
    const base = await server.listen({ port: 0 });
    const statuses: Record<string, number> = {};
    try {
      const memory = await rules.store.add(alice, { kind: "fact", text: "Has a cat named Miso." });
      const call = async (method: string, url: string, body?: unknown) => {
        const res = await fetch(`${base.replace(/\/$/, "")}${url}`, {
          method,
          headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        await res.text(); // (responses echo what is stored: the storage scan covers them)
        statuses[`${method} ${url.split("?")[0].replace(/[0-9a-f-]{36}/, ":id")} ${res.status}`] = (statuses[`${method} ${url.split("?")[0].replace(/[0-9a-f-]{36}/, ":id")} ${res.status}`] ?? 0) + 1;
        return res.status;
      };
      for (const entry of CORPUS) {
        await call("PATCH", `/api/memories/${memory.id}`, { text: entry.text });
        await call("PATCH", "/api/profile", { notes: entry.text });
        if (FULL) await call("GET", `/api/memories?q=${encodeURIComponent(entry.text.slice(0, 120))}`);
      }
    } finally {
      await server.close();
    }
    figures.httpRequests = CORPUS.length * (FULL ? 3 : 2);
    // Every request was answered; every edit was refused with 422 (SENSITIVE_CONTENT).
    expect(Object.keys(statuses).filter((k) => / 5\d\d$/.test(k))).toEqual([]);
    expect([statuses["PATCH /api/memories/:id 422"], statuses["PATCH /api/profile 422"]]).toEqual([CORPUS.length, CORPUS.length]);
    storedByHttpEdits = await storedValues(CORPUS, HTTP_TENANT);
    figures.httpEditValuesStored = storedByHttpEdits.length;
    // The request log is checked with everything printed (afterEach).
  }, 600_000);

  it("HTTP edits (PATCH /api/memories/:id, PATCH /api/profile) store nothing sensitive: the memory and the profile are as before", async () => {
    expect(storedByHttpEdits).toEqual([]);
    const memories = await rules.store.export({ tenantId: HTTP_TENANT, userId: "http" });
    expect(memories.map((m) => m.text)).toEqual(["Has a cat named Miso."]);
    expect(await rules.profiles.getDocument({ tenantId: HTTP_TENANT, userId: "http" })).toBeNull();
  });

  // The request log does not depend on the engine: one child process, on the quicker engine to start.
  (engine === SERVE_ENGINE ? it : it.skip)("the HTTP server's request log (`serve --log`, its own process): no value logged, whatever the requests carry", async () => {
    const tokens = join(dir, `tokens-${engine}.json`);
    const token = "log-token-0123456789abcdef01234567";
    writeFileSync(tokens, JSON.stringify({ [token]: { tenantId: HTTP_TENANT, userId: "http-log" } }));
    const env = { ...process.env };
    delete env.NODE_OPTIONS;
    const target = engine === "pglite" ? ["--database-url", `pglite:${join(dir, "serve-db")}`] : ["--database-url", process.env.DATABASE_URL!, "--schema", db.schema];
    const child = spawn(process.execPath, ["--import", "tsx", "src/cli/run.ts", "serve", "--port", "0", "--log", "--tokens-file", tokens, ...target], { env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr!.on("data", (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    try {
      for (let i = 0; i < 600 && !/on (http:\/\/\S+)/.test(out); i++) await new Promise((r) => setTimeout(r, 50));
      const base = /on (http:\/\/\S+)/.exec(out)![1];
      let requests = 0;
      for (const entry of CORPUS) {
        const send = async (method: string, url: string, body?: unknown) => {
          requests++;
          const res = await fetch(`${base.replace(/\/$/, "")}${url}`, {
            method,
            headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
            body: body === undefined ? undefined : JSON.stringify(body),
          });
          await res.text();
        };
        await send("GET", `/api/memories?q=${encodeURIComponent(entry.text.slice(0, 200))}`);
        await send("PATCH", "/api/profile", { notes: entry.text.slice(0, 2000) });
        if (FULL) await send("PATCH", "/api/memories/00000000-0000-4000-8000-000000000000", { text: entry.text });
        if (FULL) await send("POST", "/api/delete-all", { token: entry.text.slice(0, 100) });
      }
      figures.loggedRequests = requests;
      expect(out).toMatch(/"statusCode":200/); // the log is on, and logged these requests
    } finally {
      child.kill("SIGTERM");
      await exited;
    }
    printed.push(out);
  }, 300_000);

  it("controls.import of an export that carries the sentences: each refused and counted, nothing stored", async () => {
    const scope = { tenantId: IMPORT_TENANT, userId: "restore" };
    const doc = {
      format: "langgraph-memory/user-export",
      version: 1,
      exportedAt: new Date().toISOString(),
      tenantId: "other",
      userId: "other",
      memories: CORPUS.map((e, i) => ({ id: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`, kind: "fact", text: e.text, createdAt: "2025-01-01T00:00:00Z" })),
      profile: null,
      rules: [],
      settings: null,
    };
    const result = await rules.controls.import(scope, doc);
    expect(result).toMatchObject({ memories: { imported: 0, skipped: 0 }, refused: { memories: CORPUS.length } });
    const stored = await storedValues(CORPUS, IMPORT_TENANT);
    figures.controlsImportRefused = result.refused.memories;
    figures.controlsImportValuesStored = stored.length;
    expect(stored).toEqual([]);
  });

  it("former gaps — sentences the filter once missed are not stored by the keep-everything model", async () => {
    const user = { tenantId: GAPS_TENANT, userId: "gaps" };
    const tools = memoryToolsFor(llm);
    const graph = withMemory({ memory: llm, agent: createMemoryAgentNode({ memory: llm, tools, model: null }), tools, extraction: "inline" }).compile({ checkpointer: llm.checkpointer });
    const calls = copycat.calls.length;
    expect(GAPS).toHaveLength(Object.keys(FORMER_GAPS).length);
    for (const [i, entry] of GAPS.entries()) {
      await graph.invoke({ messages: [new HumanMessage({ id: `gap-${i}`, content: entry.text })] }, { configurable: { thread_id: "gaps", tenant_id: user.tenantId, user_id: user.userId } });
    }
    // Not vacuous: the model that keeps everything was asked about each turn.
    expect(copycat.calls.length - calls).toBeGreaterThanOrEqual(GAPS.length);
    const stored = await storedValues(GAPS, GAPS_TENANT);
    figures.gapValuesStored = stored.length;
    expect(stored).toEqual([]);
  });
});
