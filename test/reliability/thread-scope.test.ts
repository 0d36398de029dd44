/**
 * A thread belongs to the tenant and user that started it (issue 17, item 1), on both engines and
 * under row-level security. globex/bob holds a thread with his own words (where he lives, his
 * employer); then other scopes — acme/alice, alice of bob's tenant, bob's colleague, bob's user id
 * in another tenant, and a call without a scope — try that thread id on every path that takes one:
 * the checkpointer (getTuple, list, put, putWrites), the graph (invoke, getState, updateState)
 * under our checkpointer and under MemorySaver (the memory nodes alone then), the load node, the
 * summary and finish steps, past sessions (indexSessionNow, indexSession, the session indexer and
 * its job), extraction (extractAndStore, the inline node, the schedule node, the extraction graph,
 * a queued job the worker claims), the memory tools, and delete-all. Every attempt must fail with
 * THREAD_SCOPE_MISMATCH, bob's thread and memories must stay as they were, and no other scope's
 * prompt or memory may hold bob's words. A thread started without a scope is nobody's: no scoped
 * call adopts it. A fast-check property does the same with random tenants, users and thread ids.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { randomBytes } from "node:crypto";
import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";
import { MemorySaver, emptyCheckpoint } from "@langchain/langgraph";
import fc from "fast-check";
import pg from "pg";
import type { Database } from "../../src/db/database.js";
import { openDatabase } from "../../src/db/open.js";
import { grantMemoryRoles } from "../../src/controls/database-roles.js";
import { isMemoryError } from "../../src/errors.js";
import { EXTRACTION_QUEUE } from "../../src/extraction/node/extraction-payload.js";
import { createMemoryExtractionNode } from "../../src/extraction/node/memory-extraction-node.js";
import { createScheduleExtractionNode } from "../../src/extraction/node/schedule-extraction-node.js";
import { serializeMessage } from "../../src/extraction/node/serialize-messages.js";
import { extractAndStore } from "../../src/extraction/write/extract-and-store.js";
import { createExtractionGraph, createMemoryTurnSteps, memoryPrompt, memoryWorker, withMemory } from "../../src/graph/index.js";
import { createMemory, type LangGraphMemory } from "../../src/memory.js";
import { createLoadMemoryNode } from "../../src/graph/load-memory-node.js";
import { indexSession } from "../../src/sessions/index-session.js";
import { indexSessionNow } from "../../src/sessions/index-session-now.js";
import { createSessionIndexer, SESSION_INDEX_QUEUE } from "../../src/sessions/session-indexer.js";
import { emptyEntities } from "../../src/state/types.js";
import { createMemoryTools } from "../../src/tools/memory-tools.js";
import { openTestDatabase, testEngines } from "../helpers/db.js";
import { nastyString } from "./helpers/hostile.js";
import { report, size } from "./helpers/sizes.js";

type Scope = { tenantId: string; userId: string };
const bob: Scope = { tenantId: "globex", userId: "bob" };
/** Everyone who is not bob: another tenant's user, bob's tenant's alice, bob's colleague, bob's user id elsewhere. */
const ATTACKERS: Scope[] = [
  { tenantId: "acme", userId: "alice" },
  { tenantId: "globex", userId: "alice" },
  { tenantId: "globex", userId: "carol" },
  { tenantId: "acme", userId: "bob" },
];
/** Bob's words: none of them may reach another scope's prompt or memory. */
const BOB_SAYS = ["I live in Gdansk near the Zyxwharf.", "My employer is Quorvex Industries.", "Please always call me Bobster from now on."];
const BOB_MARKERS = ["Zyxwharf", "Quorvex", "Bobster"];

const cfg = (threadId: string, scope?: Scope): RunnableConfig => ({
  configurable: { thread_id: threadId, ...(scope ? { tenant_id: scope.tenantId, user_id: scope.userId } : {}) },
});

/** Tries and refusals, for the figures in docs/security.md. */
class Tally {
  tried = 0;
  refused = 0;
  readonly failures: string[] = [];
  readonly byPath = new Map<string, number>();

  /** `attempt` must fail with THREAD_SCOPE_MISMATCH. */
  async refusedOn(path: string, who: string, attempt: () => Promise<unknown>): Promise<void> {
    this.tried++;
    this.byPath.set(path, (this.byPath.get(path) ?? 0) + 1);
    let error: unknown;
    try {
      await attempt();
    } catch (err) {
      error = err;
    }
    if (isMemoryError(error, "THREAD_SCOPE_MISMATCH")) this.refused++;
    else this.failures.push(`${path} as ${who}: ${error === undefined ? "accepted" : `${(error as { code?: string }).code ?? ""} ${(error as Error)?.message ?? error}`}`);
  }
}

const who = (s?: Scope) => (s ? `${s.tenantId}/${s.userId}` : "no scope");

describe.each(testEngines())("a thread belongs to its tenant and user on %s", (engine) => {
  let db: Database;
  let memory: LangGraphMemory;
  const prompts: Array<{ scope: string; text: string }> = [];
  const tally = new Tally();
  const propertyTally = new Tally();

  /** The memory agent: its prompt is recorded with the run's scope. */
  const agent = async (state: Parameters<typeof memoryPrompt>[0], config: RunnableConfig) => {
    const c = config.configurable as Record<string, string>;
    prompts.push({ scope: `${c.tenant_id}/${c.user_id}`, text: memoryPrompt(state).map((m) => String(m.content)).join("\n") });
    return { messages: [new AIMessage(`Noted (${state.messages.length} messages so far).`)] };
  };
  const graphOn = (checkpointer: MemorySaver | LangGraphMemory["checkpointer"]) =>
    withMemory({ memory, agent, extraction: "queue", debounceMs: 0, shortSessions: { minTurns: 1 }, onError: () => undefined }).compile({ checkpointer });

  /** What another scope could have gained: rows outside bob's scope holding bob's words, and prompts of other scopes quoting them. */
  async function leaks(): Promise<string[]> {
    const found: string[] = [];
    for (const marker of BOB_MARKERS) {
      const { rows } = await db.query<{ t: string; u: string }>(
        "SELECT tenant_id AS t, user_id AS u FROM memories WHERE (tenant_id, user_id) IS DISTINCT FROM ($1, $2) AND (text || ' ' || coalesce(context, '') || ' ' || metadata::text) LIKE $3",
        [bob.tenantId, bob.userId, `%${marker}%`],
      );
      for (const r of rows) found.push(`memory of ${r.t}/${r.u} holds ${marker}`);
      for (const p of prompts) if (p.scope !== who(bob) && p.text.includes(marker)) found.push(`prompt of ${p.scope} quotes ${marker}`);
    }
    return found;
  }

  /** Bob's thread as it is stored: checkpoints, newest id, owner row, his memories. */
  async function bobsThread(threadId: string) {
    const cps = await db.query<{ n: number; newest: string | null }>("SELECT count(*)::int AS n, max(checkpoint_id) AS newest FROM checkpoints WHERE thread_id = $1", [threadId]);
    const owner = await memory.checkpointer.getThread(threadId);
    const mems = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM memories WHERE tenant_id = $1 AND user_id = $2", [bob.tenantId, bob.userId]);
    return { checkpoints: cps.rows[0].n, newest: cps.rows[0].newest, owner: owner && { tenantId: owner.tenantId, userId: owner.userId }, bobMemories: mems.rows[0].n };
  }

  beforeAll(async () => {
    db = await openTestDatabase(engine);
    memory = await createMemory({ db, model: null });
  });
  afterAll(async () => {
    report(`threads bound to their owner (${engine})`, {
      probes: { tried: tally.tried, refused: tally.refused, paths: tally.byPath.size },
      property: { tried: propertyTally.tried, refused: propertyTally.refused },
    });
    await memory?.close();
    await db?.close();
  });

  it("every path refuses bob's thread to every other scope, with nothing read or written", async () => {
    const thread = "bob-thread";
    const graph = graphOn(memory.checkpointer);
    for (const text of BOB_SAYS) await graph.invoke({ messages: [new HumanMessage(text)] }, cfg(thread, bob));
    expect(await memoryWorker(memory).drain()).toMatchObject({ failed: 0 });
    // Bob's own past session holds his words (what an attacker would try to get copied).
    expect((await db.query("SELECT 1 FROM memories WHERE tenant_id = 'globex' AND user_id = 'bob' AND text LIKE '%Quorvex%'")).rowCount).toBeGreaterThan(0);
    const before = await bobsThread(thread);
    expect(before.owner).toEqual(bob);
    const newest = before.newest!;
    const bobMessages: BaseMessage[] = BOB_SAYS.map((t, i) => new HumanMessage({ id: `bob-${i}`, content: t }));
    const [manage, search] = createMemoryTools({ store: memory.store });
    const steps = createMemoryTurnSteps({ memory, extraction: "inline" });
    const extractionGraph = createExtractionGraph(memory);
    const cpConfig = (s?: Scope) => ({ configurable: { ...cfg(thread, s).configurable, checkpoint_ns: "", checkpoint_id: newest } });

    // The checkpointer, and the graph on it: also without a scope (bob's thread is not nobody's).
    for (const s of [...ATTACKERS, undefined]) {
      await tally.refusedOn("checkpointer.getTuple", who(s), () => memory.checkpointer.getTuple(cfg(thread, s)));
      await tally.refusedOn("checkpointer.getTuple(checkpoint_id)", who(s), () => memory.checkpointer.getTuple(cpConfig(s)));
      await tally.refusedOn("checkpointer.list(thread)", who(s), async () => {
        for await (const _ of memory.checkpointer.list(cfg(thread, s))) void _;
      });
      await tally.refusedOn("checkpointer.put", who(s), () => memory.checkpointer.put(cpConfig(s), { ...emptyCheckpoint(), id: "1ffffff0-0000-6000-8000-000000000000" }, { source: "update", step: 99, parents: {} }, {}));
      await tally.refusedOn("checkpointer.putWrites", who(s), () => memory.checkpointer.putWrites(cpConfig(s), [["messages", [new HumanMessage("planted")]]], "task-planted"));
      await tally.refusedOn("graph.getState", who(s), () => graph.getState(cfg(thread, s)));
      await tally.refusedOn("graph.updateState", who(s), () => graph.updateState(cfg(thread, s), { messages: [new HumanMessage("planted")] }));
      await tally.refusedOn("graph.getStateHistory", who(s), async () => {
        for await (const _ of graph.getStateHistory(cfg(thread, s))) void _;
      });
      // list() without a thread id: never bob's threads (no error: just not there).
      const listed: string[] = [];
      for await (const t of memory.checkpointer.list({ configurable: s ? { tenant_id: s.tenantId, user_id: s.userId } : {} })) listed.push(t.config.configurable!.thread_id);
      tally.tried++;
      if (listed.includes(thread)) tally.failures.push(`checkpointer.list() as ${who(s)} returned bob's thread`);
      else tally.refused++;
    }

    for (const s of ATTACKERS) {
      const c = cfg(thread, s);
      await tally.refusedOn("graph.invoke (our checkpointer)", who(s), () => graph.invoke({ messages: [new HumanMessage("What do you know about me?")] }, c));
      await tally.refusedOn("load node", who(s), () => createLoadMemoryNode({ store: memory.store })({ messages: [new HumanMessage("Where do I live?")] }, c));
      await tally.refusedOn("summarize step", who(s), () => steps.summarize({ messages: bobMessages }, c));
      await tally.refusedOn("finish step", who(s), () => steps.finish({ messages: bobMessages }, c));
      await tally.refusedOn("indexSessionNow", who(s), () => indexSessionNow({ store: memory.store, messages: bobMessages, config: c }));
      await tally.refusedOn("indexSession", who(s), () =>
        indexSession(memory.store, s, { threadId: thread, summary: { text: BOB_SAYS.join(" "), entities: emptyEntities(), coversThroughMessageId: "bob-2" } }),
      );
      await tally.refusedOn("session indexer hook", who(s), () =>
        createSessionIndexer({ store: memory.store })(
          { text: "x", entities: emptyEntities(), coversThroughMessageId: "bob-2", tokens: 1 },
          { threadId: thread, tenantId: s.tenantId, userId: s.userId, previous: null, coveredMessageIds: ["bob-0"], coveredMessages: bobMessages },
        ),
      );
      await tally.refusedOn("extractAndStore", who(s), () => extractAndStore(bobMessages, { store: memory.store, scope: s, threadId: thread }));
      await tally.refusedOn("extraction node (inline)", who(s), () => createMemoryExtractionNode({ store: memory.store })({ messages: bobMessages }, c));
      await tally.refusedOn("schedule_extraction node", who(s), () => createScheduleExtractionNode({ store: memory.store, debounceMs: 0 })({ messages: bobMessages }, c));
      await tally.refusedOn("extraction graph", who(s), () => extractionGraph.invoke({ v: 1, threadId: thread, messages: bobMessages.map((m) => serializeMessage(m)) }, cfg("stateless", s)));
      await tally.refusedOn("manage_memory tool", who(s), () => manage.invoke({ action: "create", content: "User lives in Gdansk near the Zyxwharf." }, c));
      await tally.refusedOn("search_memory tool", who(s), () => search.invoke({ query: "where does the user live" }, c));
    }

    // Queued work: a job that names bob's thread in another scope is refused by the worker at once.
    for (const s of ATTACKERS) {
      const key = randomBytes(4).toString("hex");
      await memory.jobs.enqueue({ queue: EXTRACTION_QUEUE, scope: s, groupKey: thread, idempotencyKey: `x-${key}`, payload: { v: 1, threadId: thread, messages: bobMessages.map((m) => serializeMessage(m)) } });
      await memory.jobs.enqueue({ queue: SESSION_INDEX_QUEUE, scope: s, groupKey: `session:${thread}`, idempotencyKey: `s-${key}`, payload: { threadId: thread, messages: BOB_SAYS.map((text, i) => ({ id: `bob-${i}`, role: "user", text })) } });
    }
    const drained = await memoryWorker(memory).drain();
    expect(drained).toMatchObject({ completed: 0, retried: 0, failed: 2 * ATTACKERS.length });
    for (const s of ATTACKERS) {
      for (const job of await memory.jobs.list(s)) {
        tally.tried++;
        if (job.state === "failed" && job.attempts === 1 && job.lastError?.code === "THREAD_SCOPE_MISMATCH") tally.refused++;
        else tally.failures.push(`${job.queue} job as ${who(s)}: ${job.state} after ${job.attempts} attempts (${job.lastError?.code})`);
      }
    }

    // Delete-all of another user deletes only that user's threads.
    for (const s of ATTACKERS) {
      await memory.controls.deleteAll(s, (await memory.controls.requestDeleteAll(s)).token);
      tally.tried++;
      if ((await bobsThread(thread)).checkpoints === before.checkpoints) tally.refused++;
      else tally.failures.push(`deleteAll as ${who(s)} deleted bob's checkpoints`);
    }

    expect(tally.failures).toEqual([]);
    expect(await leaks()).toEqual([]);
    expect(await bobsThread(thread)).toEqual(before);
    // Bob's thread still works for bob, and nothing an attacker sent is in it.
    const state = await graph.getState(cfg(thread, bob));
    expect(state.values.messages.map((m: BaseMessage) => String(m.content))).not.toContain("planted");
    await graph.invoke({ messages: [new HumanMessage("Thanks!")] }, cfg(thread, bob));
  });

  it("under another checkpointer (MemorySaver) the memory nodes record and check the owner themselves", async () => {
    const saver = new MemorySaver();
    const graph = graphOn(saver);
    const thread = "bob-thread-on-memorysaver";
    for (const text of BOB_SAYS) await graph.invoke({ messages: [new HumanMessage(text)] }, cfg(thread, bob));
    const promptsBefore = prompts.length;
    for (const s of ATTACKERS) {
      await tally.refusedOn("graph.invoke (MemorySaver)", who(s), () => graph.invoke({ messages: [new HumanMessage("What do you know about me?")] }, cfg(thread, s)));
    }
    // The agent never ran for them: the load node refused before anything was read.
    expect(prompts.length).toBe(promptsBefore);
    expect(await memoryWorker(memory).drain()).toMatchObject({ failed: 0 });
    expect(tally.failures).toEqual([]);
    expect(await leaks()).toEqual([]);
  });

  it("a thread started without a scope is nobody's: no scoped call adopts it", async () => {
    const thread = "plain-thread";
    const plain = withMemory({ memory, agent, extraction: false }).compile({ checkpointer: memory.checkpointer });
    // Plain checkpointer use (no tenant_id / user_id), as LangGraph's own tests and apps without memory do.
    await memory.checkpointer.put(cfg(thread), { ...emptyCheckpoint(), id: "1f000000-0000-6000-8000-000000000001", channel_values: { messages: [new HumanMessage("Zyxwharf is where the unscoped user lives.")] }, channel_versions: { messages: 1 } }, { source: "input", step: -1, parents: {} }, { messages: 1 });
    expect(await memory.checkpointer.getTuple(cfg(thread))).toBeDefined();
    for (const s of ATTACKERS) {
      await tally.refusedOn("adopt: checkpointer.getTuple", who(s), () => memory.checkpointer.getTuple(cfg(thread, s)));
      await tally.refusedOn("adopt: checkpointer.put", who(s), () => memory.checkpointer.put(cfg(thread, s), { ...emptyCheckpoint(), id: "1f000000-0000-6000-8000-000000000002" }, { source: "input", step: -1, parents: {} }, {}));
      await tally.refusedOn("adopt: graph.invoke", who(s), () => plain.invoke({ messages: [new HumanMessage("hi")] }, cfg(thread, s)));
      await tally.refusedOn("adopt: load node", who(s), () => createLoadMemoryNode({ store: memory.store })({ messages: [new HumanMessage("hi")] }, cfg(thread, s)));
    }
    expect(tally.failures).toEqual([]);
    expect(await memory.checkpointer.getThread(thread)).toMatchObject({ tenantId: null, userId: null });
    // The unscoped caller keeps its thread; deleteThread (the operator's path) frees the id.
    expect(await memory.checkpointer.getTuple(cfg(thread))).toBeDefined();
    await memory.checkpointer.deleteThread(thread);
    await plain.invoke({ messages: [new HumanMessage("a new start")] }, cfg(thread, ATTACKERS[0]));
    expect((await memory.checkpointer.getThread(thread))).toMatchObject({ tenantId: "acme", userId: "alice" });
  });

  it("the owner is recorded once and never changes", async () => {
    await expect(db.query("UPDATE thread_owners SET tenant_id = 'acme', user_id = 'alice' WHERE thread_id = 'bob-thread'")).rejects.toMatchObject({ code: "THREAD_SCOPE_MISMATCH" });
    expect((await db.query("SELECT tenant_id, user_id FROM thread_owners WHERE thread_id = 'bob-thread'")).rows).toEqual([{ tenant_id: "globex", user_id: "bob" }]);
  });

  it("property: random tenants, users and thread ids — a foreign thread is never readable nor writable", async () => {
    const id = nastyString(24).filter((s) => s.trim().length > 0 && !s.includes("\u0000"));
    const scope = fc.record({ tenantId: id, userId: id });
    const loadNode = createLoadMemoryNode({ store: memory.store, markUsed: false });
    const plain = withMemory({ memory, agent, extraction: false, summarization: false, pastSessions: false }).compile({ checkpointer: memory.checkpointer });
    const saver = withMemory({ memory, agent, extraction: false, summarization: false, pastSessions: false }).compile({ checkpointer: new MemorySaver() });
    let run = 0;
    await fc.assert(
      fc.asyncProperty(scope, scope, id, fc.constantFrom("our checkpointer", "MemorySaver"), async (owner, other, rawThread, where) => {
        fc.pre(owner.tenantId !== other.tenantId || owner.userId !== other.userId);
        const thread = `${rawThread}#${++run}`;
        const graph = where === "our checkpointer" ? plain : saver;
        await graph.invoke({ messages: [new HumanMessage("Zyxwharf belongs to the owner.")] }, cfg(thread, owner));
        const attempts: Array<[string, () => Promise<unknown>]> = [
          ["graph.invoke", () => graph.invoke({ messages: [new HumanMessage("tell me")] }, cfg(thread, other))],
          ["load node", () => loadNode({ messages: [new HumanMessage("tell me")] }, cfg(thread, other))],
          ["indexSession", () => indexSession(memory.store, other, { threadId: thread, summary: { text: "Zyxwharf.", entities: emptyEntities(), coversThroughMessageId: null } })],
          ["extractAndStore", () => extractAndStore([new HumanMessage("I live near the Zyxwharf.")], { store: memory.store, scope: other, threadId: thread })],
        ];
        if (where === "our checkpointer") {
          attempts.push(["checkpointer.getTuple", () => memory.checkpointer.getTuple(cfg(thread, other))]);
          attempts.push(["checkpointer.getTuple (no scope)", () => memory.checkpointer.getTuple(cfg(thread))]);
          attempts.push(["checkpointer.put", () => memory.checkpointer.put(cfg(thread, other), { ...emptyCheckpoint(), id: "1f100000-0000-6000-8000-000000000000" }, { source: "input", step: -1, parents: {} }, {})]);
        }
        for (const [path, attempt] of attempts) await propertyTally.refusedOn(path, where, attempt);
        if (where === "our checkpointer") {
          for await (const t of memory.checkpointer.list({ configurable: { tenant_id: other.tenantId, user_id: other.userId } })) {
            if (t.config.configurable!.thread_id === thread) propertyTally.failures.push("list() returned a foreign thread");
          }
          // The owner still reads it.
          expect(await memory.checkpointer.getTuple(cfg(thread, owner))).toBeDefined();
        }
        expect(propertyTally.failures).toEqual([]);
      }),
      { numRuns: size(12, 60) },
    );
    const { rows } = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM memories WHERE text LIKE '%Zyxwharf%' AND NOT (tenant_id = 'globex' AND user_id = 'bob')");
    expect(rows[0].n).toBe(0);
  });
});

const URL = process.env.DATABASE_URL;
const describeServer = URL ? describe : describe.skip;

describeServer("a thread belongs to its owner under row-level security (server Postgres, non-superuser app role)", () => {
  const suffix = `${process.pid}_${randomBytes(3).toString("hex")}`;
  const appRole = `lgm_app_threads_${suffix}`;
  let admin: Database;
  let app: Database;
  let su: pg.Client;
  let memory: LangGraphMemory;
  const tally = new Tally();

  beforeAll(async () => {
    admin = await openTestDatabase("postgres");
    su = new pg.Client({ connectionString: URL });
    await su.connect();
    await su.query(`CREATE ROLE ${appRole} LOGIN NOBYPASSRLS`);
    await grantMemoryRoles(admin, { app: [appRole] });
    const u = new globalThis.URL(URL!);
    u.username = appRole;
    u.password = "";
    app = await openDatabase(u.toString(), { schema: admin.schema, autoMigrate: false });
    memory = await createMemory({ db: app, model: null });
  });
  afterAll(async () => {
    report("threads bound to their owner (server Postgres, app role under RLS)", { tried: tally.tried, refused: tally.refused });
    await memory?.close();
    await app?.close();
    await admin?.close();
    await su.query(`DROP OWNED BY ${appRole}`).catch(() => undefined);
    await su.query(`DROP ROLE IF EXISTS ${appRole}`);
    await su.end();
  });

  it("as the app role, every other scope is refused bob's thread on the checkpointer, graph, load, past-session and extraction paths", async () => {
    expect((await app.query<{ a: boolean }>("SELECT row_security_active('memories') AS a")).rows[0].a).toBe(true);
    const prompts: string[] = [];
    const agent = async (state: Parameters<typeof memoryPrompt>[0], config: RunnableConfig) => {
      if ((config.configurable as Record<string, string>).user_id !== "bob") prompts.push(memoryPrompt(state).map((m) => String(m.content)).join("\n"));
      return { messages: [new AIMessage("Noted.")] };
    };
    const thread = "bob-thread-rls";
    for (const checkpointer of [memory.checkpointer, new MemorySaver()]) {
      const graph = withMemory({ memory, agent, extraction: "inline", shortSessions: { minTurns: 1 } }).compile({ checkpointer });
      const t = `${thread}-${checkpointer instanceof MemorySaver ? "ms" : "pg"}`;
      for (const text of BOB_SAYS) await graph.invoke({ messages: [new HumanMessage(text)] }, cfg(t, bob));
      const bobMessages = BOB_SAYS.map((text, i) => new HumanMessage({ id: `bob-${i}`, content: text }));
      for (const s of ATTACKERS) {
        await tally.refusedOn("rls: graph.invoke", who(s), () => graph.invoke({ messages: [new HumanMessage("What do you know about me?")] }, cfg(t, s)));
        await tally.refusedOn("rls: load node", who(s), () => createLoadMemoryNode({ store: memory.store })({ messages: [new HumanMessage("Where do I live?")] }, cfg(t, s)));
        await tally.refusedOn("rls: indexSessionNow", who(s), () => indexSessionNow({ store: memory.store, messages: bobMessages, config: cfg(t, s) }));
        await tally.refusedOn("rls: extractAndStore", who(s), () => extractAndStore(bobMessages, { store: memory.store, scope: s, threadId: t }));
        if (!(checkpointer instanceof MemorySaver)) {
          await tally.refusedOn("rls: checkpointer.getTuple", who(s), () => memory.checkpointer.getTuple(cfg(t, s)));
          await tally.refusedOn("rls: graph.getState", who(s), () => graph.getState(cfg(t, s)));
        }
      }
    }
    // The app role cannot re-own a thread by hand either.
    await expect(app.query("UPDATE thread_owners SET tenant_id = 'acme', user_id = 'alice' WHERE thread_id = $1", [`${thread}-pg`])).rejects.toMatchObject({ code: "THREAD_SCOPE_MISMATCH" });
    expect(tally.failures).toEqual([]);
    expect(prompts.join("\n")).not.toMatch(new RegExp(BOB_MARKERS.join("|")));
    const { rows } = await admin.query<{ n: number }>("SELECT count(*)::int AS n FROM memories WHERE NOT (tenant_id = 'globex' AND user_id = 'bob') AND text ~ $1", [BOB_MARKERS.join("|")]);
    expect(rows[0].n).toBe(0);
    // Bob's own memories were written as the app role, under his scope.
    expect((await admin.query("SELECT 1 FROM memories WHERE tenant_id = 'globex' AND user_id = 'bob'")).rowCount).toBeGreaterThan(0);
  });
});
