import { Embeddings } from "@langchain/core/embeddings";
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { END, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import type { Database } from "../../src/db/database.js";
import { MemoryRepository } from "../../src/store/memory-store.js";
import { LocalHashingEmbeddings } from "../../src/embeddings/hashing-embeddings.js";
import { MemoryControls } from "../../src/controls/memory-controls.js";
import { ManualClock } from "../../src/jobs/clock.js";
import { JobQueue } from "../../src/jobs/job-queue.js";
import { PostgresCheckpointer } from "../../src/checkpointer/postgres-checkpointer.js";
import { createLoadMemoryNode } from "../../src/graph/load-memory-node.js";
import { formatMemoryContext } from "../../src/context/format-memories.js";
import { formatProfile } from "../../src/context/format-profile.js";
import { formatRules } from "../../src/context/format-rules.js";
import { countTextTokens } from "../../src/tokens/count-text.js";
import { extractAndStore } from "../../src/extraction/write/index.js";
import { openTestDatabase, testEngines } from "../helpers/db.js";

/** Records every text it embeds, so a test can prove the embedder was (or was not) called. */
class RecordingEmbeddings extends Embeddings {
  calls: string[] = [];
  readonly embedderId = "recording-hash/512";
  private readonly inner = new LocalHashingEmbeddings();
  constructor() {
    super({});
  }
  async embedDocuments(texts: string[]): Promise<number[][]> {
    this.calls.push(...texts);
    return this.inner.embedDocuments(texts);
  }
  async embedQuery(text: string): Promise<number[]> {
    this.calls.push(text);
    return this.inner.embedQuery(text);
  }
}

const DAY = 86_400_000;
const UNKNOWN_ID = "00000000-0000-4000-8000-000000000000";

describe.each(testEngines())("MemoryControls on %s", (engine) => {
  let db: Database;
  let embeddings: RecordingEmbeddings;
  let store: MemoryRepository;
  let clock: ManualClock;
  let controls: MemoryControls;
  const alice = { tenantId: "acme", userId: "alice" };
  const bob = { tenantId: "acme", userId: "bob" };
  const count = async (sql: string, params: unknown[] = []) => (await db.query<{ n: number }>(sql, params)).rows[0].n;

  beforeAll(async () => {
    db = await openTestDatabase(engine);
    embeddings = new RecordingEmbeddings();
    store = new MemoryRepository(db, { embeddings });
    clock = new ManualClock(new Date());
    controls = new MemoryControls(db, { store, clock });
  });
  afterAll(async () => {
    await db.close();
  });
  afterEach(async () => {
    await db.exec(
      "DELETE FROM memories; DELETE FROM profiles; DELETE FROM profile_history; DELETE FROM procedural_rules; DELETE FROM memory_settings; " +
        "DELETE FROM memory_confirmations; DELETE FROM memory_deletion_audit; DELETE FROM memory_jobs_inbox; DELETE FROM memory_jobs;",
    );
    clock = new ManualClock(new Date());
    controls = new MemoryControls(db, { store, clock });
  });

  /** A user with a bit of everything: a supersede chain, an expired and a deactivated memory, a profile with history, rules. */
  async function seed(scope = alice) {
    const old = await store.add(scope, { kind: "fact", text: "Lives in Lyon.", source: { threadId: "t1", messageId: "m1", origin: "extracted" }, confidence: 0.9, createdAt: "2026-01-02T10:00:00.000Z" });
    const { current } = await store.supersede(scope, old.id, { kind: "fact", text: "Lives in Paris near the canal.", source: { threadId: "t2", messageId: "m5", origin: "extracted" }, confidence: 0.95, createdAt: "2026-02-03T10:00:00.000Z" });
    const pref = await store.add(scope, { kind: "preference", text: "Prefers metric units.", context: "we talked about recipes", metadata: { topic: "units" }, createdAt: "2026-01-05T09:30:00.000Z" });
    const gone = await store.add(scope, { kind: "episode", text: "Missed the 8:15 train on Monday.", expiresAt: "2026-01-10T00:00:00.000Z", createdAt: "2026-01-06T07:00:00.000Z" });
    const quiet = await store.add(scope, { kind: "episode", text: "Asked about the weather once.", source: { origin: "inferred" }, confidence: 0.4 });
    await store.update(scope, quiet.id, { deactivated: true });
    await store.markUsed(scope, [pref.id]);
    await controls.profiles.applyPatch(scope, { name: "Alice", units: "metric" }, { kind: "user_edit" });
    await controls.profiles.applyPatch(scope, { timezone: "Europe/Paris" }, { kind: "extraction", threadId: "t2", messageId: "m6" });
    const rule = await controls.rules.propose(scope, { text: "Answer with diffs, not full files.", source: "feedback", origin: { kind: "extraction", threadId: "t2" } });
    await controls.rules.approve(scope, rule.id, { reviewer: "alice" });
    await controls.rules.propose(scope, { text: "Use short sentences.", taskType: "writing", source: "learned", origin: { kind: "extraction" } });
    return { old, current, pref, gone, quiet, ruleId: rule.id };
  }

  it("inspect: memories with kind, status, dates, source thread and the supersede chain; profile with field sources; rules", async () => {
    const { old, current, pref, gone, quiet } = await seed();
    await store.add(bob, { kind: "fact", text: "Bob's secret." });
    const seen = await controls.inspect(alice);
    expect(seen.optedOut).toBe(false);
    expect(seen.memories).toHaveLength(5);
    const byId = new Map(seen.memories.map((m) => [m.id, m]));
    expect(byId.get(old.id)).toMatchObject({ kind: "fact", status: "superseded", supersededBy: current.id, source: { threadId: "t1", messageId: "m1" }, createdAt: "2026-01-02T10:00:00.000Z" });
    expect(byId.get(current.id)).toMatchObject({ status: "active", supersedes: [old.id], source: { threadId: "t2" }, origin: "extracted" });
    expect(byId.get(pref.id)!.lastUsedAt).not.toBeNull();
    expect(byId.get(gone.id)!.status).toBe("expired");
    expect(byId.get(quiet.id)!.status).toBe("inactive");
    expect(seen.memories.some((m) => m.text.includes("Bob"))).toBe(false);
    expect(seen.profile!.fields).toEqual(
      expect.arrayContaining([
        { field: "name", value: "Alice", source: expect.objectContaining({ kind: "user_edit" }) },
        { field: "timezone", value: "Europe/Paris", source: expect.objectContaining({ kind: "extraction", threadId: "t2", messageId: "m6" }) },
      ]),
    );
    expect(seen.rules.map((r) => [r.text, r.state, r.taskType])).toEqual([
      ["Answer with diffs, not full files.", "approved", null],
      ["Use short sentences.", "proposed", "writing"],
    ]);
    expect((await controls.getMemory(alice, current.id)).supersedes).toEqual([old.id]);
  });

  it("edit one memory: new text, re-embedded (the stored vector changes), now user-stated", async () => {
    const m = await store.add(alice, { kind: "preference", text: "Likes tea in the morning.", source: { origin: "inferred" }, confidence: 0.6 });
    const before = (await db.query<{ e: number[] }>("SELECT embedding AS e FROM memories WHERE id = $1", [m.id])).rows[0].e;
    embeddings.calls = [];
    const edited = await controls.editMemory(alice, m.id, { text: "Likes espresso in the morning." });
    expect(embeddings.calls).toContain("Likes espresso in the morning.");
    expect(edited).toMatchObject({ text: "Likes espresso in the morning.", origin: "user_stated", confidence: 1, status: "active" });
    const after = (await db.query<{ e: number[] }>("SELECT embedding AS e FROM memories WHERE id = $1", [m.id])).rows[0].e;
    expect(after).not.toEqual(before);
    const [expected] = await store.vectorsFor([{ text: "Likes espresso in the morning." }]);
    expect(after.every((x, i) => Math.abs(x - expected[i]) < 1e-6)).toBe(true);
    expect((await store.search(alice, "espresso"))[0].id).toBe(m.id);
    expect(await count("SELECT count(*)::int AS n FROM memories WHERE fts @@ plainto_tsquery('english', 'tea')")).toBe(0);
  });

  it("delete one memory: row, embedding and full-text entry gone (checked in SQL), older versions too, audited without content", async () => {
    const { old, current, pref } = await seed();
    const bobs = await store.add(bob, { kind: "fact", text: "Bob lives in Paris too." });
    const result = await controls.deleteMemory(alice, current.id, { actor: "alice" });
    expect(result).toEqual({ deleted: 2 });
    expect(await count("SELECT count(*)::int AS n FROM memories WHERE id = ANY($1::uuid[])", [[current.id, old.id]])).toBe(0);
    expect(await count("SELECT count(*)::int AS n FROM memories WHERE user_id = 'alice' AND fts @@ plainto_tsquery('english', 'canal')")).toBe(0);
    expect(await count("SELECT count(*)::int AS n FROM memories WHERE user_id = 'alice' AND fts @@ plainto_tsquery('english', 'Lyon')")).toBe(0);
    expect(await count("SELECT count(*)::int AS n FROM memories WHERE id = $1", [pref.id])).toBe(1);
    expect(await count("SELECT count(*)::int AS n FROM memories WHERE id = $1", [bobs.id])).toBe(1);
    const log = await controls.deletionLog(alice);
    expect(log).toEqual([expect.objectContaining({ itemKind: "memory", itemCount: 2, via: "controls.deleteMemory", actor: "alice", tenantId: "acme", userId: "alice" })]);
    const auditText = JSON.stringify((await db.query("SELECT * FROM memory_deletion_audit")).rows);
    expect(auditText).not.toMatch(/Paris|Lyon|canal/);
    // Only this version: the one it replaced stays.
    const a = await store.add(alice, { kind: "fact", text: "Version one." });
    const { current: b } = await store.supersede(alice, a.id, { kind: "fact", text: "Version two." });
    expect(await controls.deleteMemory(alice, b.id, { includePrevious: false })).toEqual({ deleted: 1 });
    expect(await count("SELECT count(*)::int AS n FROM memories WHERE id = $1", [a.id])).toBe(1);
  });

  it("another user's ids are indistinguishable from unknown ids (NOT_FOUND), and change nothing", async () => {
    const bobs = await store.add(bob, { kind: "fact", text: "Bob's private fact." });
    for (const id of [bobs.id, UNKNOWN_ID]) {
      const errors = await Promise.all([
        controls.getMemory(alice, id).catch((e) => e),
        controls.editMemory(alice, id, { text: "hijacked" }).catch((e) => e),
        controls.deleteMemory(alice, id).catch((e) => e),
      ]);
      for (const e of errors) expect(e).toMatchObject({ code: "NOT_FOUND" });
      expect(errors[0].message).toBe(`no memory ${id} for this user`);
      expect(errors[2].message).toBe(`no memory ${id} for this user`);
    }
    expect((await store.get(bob, bobs.id))!.text).toBe("Bob's private fact.");
    await expect(controls.deleteMemory(alice, "42")).rejects.toMatchObject({ code: "INVALID_INPUT" });
    await expect(controls.deleteProfile(alice)).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(controls.inspect({ tenantId: "acme" } as never)).rejects.toMatchObject({ code: "SCOPE_REQUIRED" });
    expect(await controls.deletionLog(alice)).toEqual([]);
  });

  it("delete all needs a fresh token of this user: wrong, other user's, expired and used tokens are CONFIRMATION_INVALID", async () => {
    await seed();
    await seed(bob);
    const bobsToken = (await controls.requestDeleteAll(bob)).token;
    const memories = await count("SELECT count(*)::int AS n FROM memories");
    const bad = ["", "x", "A".repeat(32), bobsToken, undefined as unknown as string];
    for (const token of bad) await expect(controls.deleteAll(alice, token)).rejects.toMatchObject({ code: "CONFIRMATION_INVALID" });
    const stale = await controls.requestDeleteAll(alice);
    expect(stale.expiresAt.getTime()).toBe(clock.now().getTime() + 10 * 60_000);
    clock.advance(10 * 60_000);
    await expect(controls.deleteAll(alice, stale.token)).rejects.toMatchObject({ code: "CONFIRMATION_INVALID" });
    expect(await count("SELECT count(*)::int AS n FROM memories")).toBe(memories);
    // The token hash is stored, never the token.
    expect(await count("SELECT count(*)::int AS n FROM memory_confirmations WHERE token_hash = $1", [stale.token])).toBe(0);

    const { token } = await controls.requestDeleteAll(alice);
    const counts = await controls.deleteAll(alice, token, { actor: "alice" });
    expect(counts).toMatchObject({ memories: 5, profile: 1, profileHistory: 3, rules: 2 });
    await expect(controls.deleteAll(alice, token)).rejects.toMatchObject({ code: "CONFIRMATION_INVALID" });
    for (const table of ["memories", "profiles", "profile_history", "procedural_rules", "memory_confirmations"]) {
      expect(await count(`SELECT count(*)::int AS n FROM ${table} WHERE tenant_id = 'acme' AND user_id = 'alice'`)).toBe(0);
    }
    expect(await count("SELECT count(*)::int AS n FROM memories WHERE user_id = 'bob'")).toBe(5);
    expect((await controls.inspect(bob)).profile).not.toBeNull();
    // Bob's data is Bob's to delete, with his own token.
    expect((await controls.deleteAll(bob, (await controls.requestDeleteAll(bob)).token)).memories).toBe(5);
    const kinds = (await controls.deletionLog(alice)).map((e) => [e.itemKind, e.itemCount, e.via]);
    expect(kinds).toEqual(
      expect.arrayContaining([
        ["memory", 5, "controls.deleteAll"],
        ["profile", 1, "controls.deleteAll"],
        ["profile_history", 3, "controls.deleteAll"],
        ["rule", 2, "controls.deleteAll"],
      ]),
    );
  });

  it("delete all also removes the user's queued jobs (their payloads hold messages) and conversation threads", async () => {
    const jobs = new JobQueue(db, { notify: false });
    await jobs.enqueue({ queue: "extract", scope: alice, groupKey: "t1", idempotencyKey: "t1:m1", payload: { messages: ["my card is 4111…"] } });
    await jobs.enqueue({ queue: "extract", scope: bob, groupKey: "t9", idempotencyKey: "t9:m1", payload: { messages: ["hi"] } });
    const checkpointer = PostgresCheckpointer.fromDatabase(db);
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("agent", async () => ({ messages: [new AIMessage("noted")] }))
      .addEdge(START, "agent")
      .addEdge("agent", END)
      .compile({ checkpointer });
    for (const [thread, user] of [["ta1", "alice"], ["ta2", "alice"], ["tb1", "bob"]]) {
      await graph.invoke({ messages: [new HumanMessage("remember my address is 12 Canal Street")] }, { configurable: { thread_id: thread, tenant_id: "acme", user_id: user } });
    }
    expect(await count("SELECT count(*)::int AS n FROM threads WHERE user_id = 'alice'")).toBe(2);

    // Through the checkpointer's public API…
    const viaApi = new MemoryControls(db, { store, clock, threads: checkpointer });
    const counts = await viaApi.deleteAll(alice, (await viaApi.requestDeleteAll(alice)).token);
    expect(counts).toMatchObject({ jobs: 1, threads: 2 });
    expect(await checkpointer.getTuple({ configurable: { thread_id: "ta1" } })).toBeUndefined();
    expect(await count("SELECT count(*)::int AS n FROM threads WHERE user_id = 'alice'")).toBe(0);
    expect(await count("SELECT count(*)::int AS n FROM checkpoints WHERE thread_id IN ('ta1', 'ta2')")).toBe(0);
    expect(await count("SELECT count(*)::int AS n FROM memory_jobs WHERE user_id = 'alice'")).toBe(0);
    expect(await count("SELECT count(*)::int AS n FROM memory_jobs WHERE user_id = 'bob'")).toBe(1);
    expect((await controls.deletionLog(alice)).map((e) => e.itemKind).sort()).toEqual(["job", "thread"]);

    // …or with plain SQL on the checkpointer's tables (the default).
    const counts2 = await controls.deleteAll(bob, (await controls.requestDeleteAll(bob)).token);
    expect(counts2).toMatchObject({ jobs: 1, threads: 1 });
    for (const table of ["threads", "checkpoints", "checkpoint_writes"]) {
      expect(await count(`SELECT count(*)::int AS n FROM ${table} WHERE thread_id = 'tb1'`)).toBe(0);
    }
    expect(await checkpointer.getTuple({ configurable: { thread_id: "tb1" } })).toBeUndefined();
    await checkpointer.close();
  });

  it("export → delete all → import round-trips exactly but for ids (each item gets one of the user's own): dates, texts, chains, profile history, rules, settings", async () => {
    const { current } = await seed();
    await controls.optOut(alice);
    await controls.optIn(alice); // settings now stored
    const exported = await controls.export(alice);
    expect(exported).toMatchObject({ format: "langgraph-memory/user-export", version: 1, tenantId: "acme", userId: "alice" });
    expect(exported.memories).toHaveLength(5);
    expect(exported.profile!.history).toHaveLength(3);
    expect(exported.rules).toHaveLength(2);
    expect(exported.settings).toMatchObject({ optedOut: false });
    expect(JSON.parse(JSON.stringify(exported))).toEqual(exported); // plain JSON

    await controls.deleteAll(alice, (await controls.requestDeleteAll(alice)).token);
    expect(await count("SELECT count(*)::int AS n FROM memories WHERE user_id = 'alice'")).toBe(0);
    const result = await controls.import(alice, JSON.parse(JSON.stringify(exported)));
    expect(result).toEqual({
      memories: { imported: 5, skipped: 0 },
      profile: true,
      profileHistory: 3,
      rules: { imported: 2, skipped: 0 },
      settings: true,
      storeItems: { imported: 0, skipped: 0 },
      refused: { memories: 0, profileFields: 0, profileHistory: 0, rules: 0, storeItems: 0, byCategory: {} },
    });
    const again = await controls.export(alice);
    // Ids are new (see import-ids.ts) and mapped one to one: links point where they pointed.
    const idMap = new Map(exported.memories.map((m, i) => [m.id, again.memories[i].id]));
    const ruleMap = new Map(exported.rules.map((r) => [r.id, again.rules.find((x) => x.text === r.text)!.id]));
    const sameChange = (a: { field: string; createdAt: string; newValue?: unknown }, b: typeof a) => a.field === b.field && a.createdAt === b.createdAt && JSON.stringify(a.newValue) === JSON.stringify(b.newValue);
    const historyMap = new Map(exported.profile!.history.map((h) => [h.id, again.profile!.history.find((x) => sameChange(x, h))!.id]));
    const mapped = {
      ...exported,
      exportedAt: "",
      memories: exported.memories.map((m) => ({ ...m, id: idMap.get(m.id)!, supersededBy: m.supersededBy && idMap.get(m.supersededBy)! })),
      rules: exported.rules.map((r) => ({ ...r, id: ruleMap.get(r.id)! })),
      profile: { ...exported.profile!, history: exported.profile!.history.map((h) => ({ ...h, id: historyMap.get(h.id)! })) },
    };
    // Entries of the same moment are listed by id, which changed.
    const byId = (list: Array<{ id: string }>) => [...list].sort((a, b) => a.id.localeCompare(b.id));
    again.profile!.history = byId(again.profile!.history) as typeof mapped.profile.history;
    mapped.profile.history = byId(mapped.profile.history) as typeof mapped.profile.history;
    expect({ ...again, exportedAt: "", rules: [...again.rules].sort((a, b) => a.id.localeCompare(b.id)) }).toEqual({ ...mapped, rules: mapped.rules.sort((a, b) => a.id.localeCompare(b.id)) });
    // Vectors were recomputed: search works on the imported rows.
    expect((await store.search(alice, "canal Paris"))[0].id).toBe(idMap.get(current.id));
    // Importing again skips what exists.
    expect((await controls.import(alice, exported)).memories).toEqual({ imported: 0, skipped: 5 });
  });

  it("an invalid import is INVALID_INPUT and imports nothing (one transaction)", async () => {
    await seed();
    const exported = await controls.export(alice);
    await controls.deleteAll(alice, (await controls.requestDeleteAll(alice)).token);
    await expect(controls.import(alice, { ...exported, format: "something-else" })).rejects.toMatchObject({ code: "INVALID_INPUT" });
    const badProfile = { ...exported, profile: { ...exported.profile!, document: { name: "Alice", units: "parsecs" } } };
    await expect(controls.import(alice, badProfile)).rejects.toMatchObject({ code: "INVALID_INPUT" });
    const badMemory = { ...exported, memories: [...exported.memories, { ...exported.memories[0], id: UNKNOWN_ID, kind: "dream" }] };
    await expect(controls.import(alice, badMemory)).rejects.toMatchObject({ code: "INVALID_INPUT" });
    for (const table of ["memories", "profiles", "profile_history", "procedural_rules"]) {
      expect(await count(`SELECT count(*)::int AS n FROM ${table} WHERE user_id = 'alice'`)).toBe(0);
    }
  });

  it("opt-out blocks reads and writes through every door; deleting still works; opt-in restores", async () => {
    const { pref, ruleId } = await seed();
    await controls.rules.add({ level: "global" }, { text: "Global rule." });
    const jobs = new JobQueue(db, { notify: false });
    await jobs.enqueue({ queue: "extract", scope: alice, groupKey: "t1", idempotencyKey: "t1:m9", payload: { messages: ["I moved to Rome"] } });
    expect(await controls.optOut(alice)).toEqual({ changed: true, purged: null });
    expect(await controls.isOptedOut(alice)).toBe(true);
    expect(await count("SELECT count(*)::int AS n FROM memory_jobs WHERE user_id = 'alice'")).toBe(0);

    // The store (every tool, import and HTTP route goes through it).
    expect(await store.search(alice, "metric units")).toEqual([]);
    expect(await store.search(alice, "metric units", { include: ["tenant", "global"] })).toEqual([]);
    expect(await store.get(alice, pref.id)).toBeNull();
    expect(await store.list(alice, { includeInactive: true })).toEqual([]);
    expect(await store.export(alice)).toEqual([]);
    expect(await store.nearest(alice, { kind: "preference", text: "metric units" })).toEqual([]);
    expect(await store.markUsed(alice, [pref.id])).toBe(0);
    await expect(store.add(alice, { kind: "fact", text: "Moved to Rome." })).rejects.toMatchObject({ code: "OPTED_OUT" });
    await expect(store.addMany(alice, [{ kind: "fact", text: "a" }, { kind: "fact", text: "b" }])).rejects.toMatchObject({ code: "OPTED_OUT" });
    await expect(store.update(alice, pref.id, { text: "Prefers imperial." })).rejects.toMatchObject({ code: "OPTED_OUT" });
    await expect(store.supersede(alice, pref.id, { kind: "preference", text: "Prefers imperial." })).rejects.toMatchObject({ code: "OPTED_OUT" });
    await expect(store.importMany(alice, [{ ...(await store.export(bob))[0], id: UNKNOWN_ID, kind: "fact", text: "x", context: null, source: { threadId: null, messageId: null, runId: null, origin: "user_stated" }, confidence: 1, createdAt: new Date().toISOString(), updatedAt: new Date().toISOString(), lastUsedAt: null, accessCount: 0, expiresAt: null, supersededBy: null, deactivatedAt: null, metadata: {}, scope: "user", tenantId: "acme", userId: "alice" }])).rejects.toMatchObject({ code: "OPTED_OUT" });
    // Profile and rules.
    expect(await controls.profiles.get(alice)).toBeNull();
    await expect(controls.profiles.applyPatch(alice, { name: "Eve" }, { kind: "extraction" })).rejects.toMatchObject({ code: "OPTED_OUT" });
    expect(await controls.rules.activeFor(alice)).toEqual([]);
    await expect(controls.rules.propose(alice, { text: "x", source: "learned", origin: { kind: "extraction" } })).rejects.toMatchObject({ code: "OPTED_OUT" });
    // The controls.
    expect(await controls.inspect(alice)).toMatchObject({ optedOut: true, memories: [], profile: null, rules: [] });
    await expect(controls.export(alice)).rejects.toMatchObject({ code: "OPTED_OUT" });
    await expect(controls.editMemory(alice, pref.id, { text: "x" })).rejects.toMatchObject({ code: "OPTED_OUT" });
    await expect(controls.updateProfile(alice, { name: "x" })).rejects.toMatchObject({ code: "OPTED_OUT" });
    await expect(controls.getMemory(alice, pref.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
    // The load node: an empty context, and the message is never embedded.
    embeddings.calls = [];
    const node = createLoadMemoryNode({ store });
    const out = await node({ messages: [new HumanMessage("which units do I like?")] }, { configurable: { tenant_id: "acme", user_id: "alice" } });
    expect(out).toEqual({ profile: null, rules: [], memories: [], memoryUsage: { profile: 0, rules: 0, memories: 0, summary: 0, pastSessions: 0, total: 0 } });
    expect(embeddings.calls).toEqual([]);
    // Nothing was written or touched meanwhile.
    expect(await count("SELECT count(*)::int AS n FROM memories WHERE user_id = 'alice'")).toBe(5);
    expect(await count("SELECT access_count AS n FROM memories WHERE id = $1", [pref.id])).toBe(1);
    // Other users are unaffected.
    expect((await controls.rules.activeFor(bob)).map((r) => r.text)).toEqual(["Global rule."]);
    await store.add(bob, { kind: "fact", text: "Bob is fine." });
    // Deleting works while opted out.
    await controls.revokeRule(alice, ruleId);
    expect(await controls.deleteMemory(alice, pref.id)).toEqual({ deleted: 1 });

    expect(await controls.optIn(alice)).toEqual({ changed: true });
    expect((await store.search(alice, "Paris canal")).length).toBe(1);
    expect((await controls.profiles.get(alice))!.document).toMatchObject({ name: "Alice" });
    await store.add(alice, { kind: "fact", text: "Moved to Rome." });
  });

  it("opt-out with purge deletes everything but keeps the user opted out", async () => {
    await seed();
    const { changed, purged } = await controls.optOut(alice, { purge: true, actor: "alice" });
    expect(changed).toBe(true);
    expect(purged).toMatchObject({ memories: 5, profile: 1, rules: 2 });
    expect(await count("SELECT count(*)::int AS n FROM memories WHERE user_id = 'alice'")).toBe(0);
    expect(await controls.isOptedOut(alice)).toBe(true);
    expect((await controls.deletionLog(alice)).every((e) => e.via === "controls.optOut" && e.actor === "alice")).toBe(true);
  });

  it("the write path's ControlsTarget: 'forget that' deletes audited, 'forget everything' only records the request", async () => {
    const { current, old, pref } = await seed();
    const bobs = await store.add(bob, { kind: "fact", text: "Bob's." });
    const target = controls.writeTarget;
    expect(await target.deleteMemories(alice, [current.id, bobs.id], { kind: "extraction", threadId: "t3" })).toBe(2);
    expect(await count("SELECT count(*)::int AS n FROM memories WHERE id = ANY($1::uuid[])", [[current.id, old.id]])).toBe(0);
    expect(await count("SELECT count(*)::int AS n FROM memories WHERE id = $1", [bobs.id])).toBe(1);
    expect((await controls.deletionLog(alice))[0]).toMatchObject({ itemKind: "memory", itemCount: 2, via: "controls.deleteMemories", actor: "extraction" });

    await target.requestDeleteAll(alice, { kind: "extraction", threadId: "t3", messageId: "m9" });
    expect(await count("SELECT count(*)::int AS n FROM memories WHERE id = $1", [pref.id])).toBe(1);
    expect((await controls.inspect(alice)).deleteAllRequest).toMatchObject({ source: { kind: "extraction", threadId: "t3", messageId: "m9", runId: null } });
    await controls.deleteAll(alice, (await controls.requestDeleteAll(alice)).token);
    expect(await controls.pendingDeleteAllRequest(alice)).toBeNull();
  });

  it("the extraction write path writes through the database-backed targets (profile, rules, settings, controls)", async () => {
    const targets = { profile: controls.profiles, rules: controls.rules, settings: controls.settings, controls: controls.writeTarget };
    const say = (id: string, text: string) => extractAndStore([new HumanMessage({ id, content: text })], { store, scope: alice, threadId: "t1", targets });
    expect(await say("m1", "My name is Priya.")).toMatchObject({ profileFieldsChanged: 1 });
    expect(await say("m2", "my timezone is Europe/Lisbon")).toMatchObject({ profileFieldsChanged: 1 });
    expect(await say("m3", "give me diffs, not full files")).toMatchObject({ rulesProposed: 1 });
    expect(await say("m4", "I live in Berlin")).toMatchObject({ profileFieldsChanged: 1, added: 0 });
    expect(await say("m4b", "I have a dog named Rex")).toMatchObject({ added: 1 });
    const seen = await controls.inspect(alice);
    expect(seen.profile!.document).toEqual({ name: "Priya", timezone: "Europe/Lisbon", location: "Berlin" });
    expect(seen.profile!.fields.find((f) => f.field === "timezone")!.source).toMatchObject({ kind: "extraction", threadId: "t1", messageId: "m2" });
    expect(seen.rules).toEqual([expect.objectContaining({ text: "User wants diffs, not full files.", state: "proposed", source: "learned" })]);
    expect(await say("m5", "forget that I have a dog named Rex")).toMatchObject({ deleted: 1 });
    expect((await controls.deletionLog(alice))[0]).toMatchObject({ itemKind: "memory", itemCount: 1, via: "controls.deleteMemories" });
    expect(await say("m5b", "forget that I live in Berlin")).toMatchObject({ profileFieldsChanged: 1 });
    expect((await controls.inspect(alice)).profile!.document).toEqual({ name: "Priya", timezone: "Europe/Lisbon" });
    expect(await say("m6", "forget everything about me")).toMatchObject({ forgetAllRequested: 1, deleted: 0 });
    expect(await controls.pendingDeleteAllRequest(alice)).toMatchObject({ source: { kind: "extraction", messageId: "m6" } });
    await controls.optOut(alice);
    expect(await say("m7", "I live in Rome")).toMatchObject({ skipped: "opted_out", added: 0 });
  });

  it("the load node builds the whole context in one call, with per-section token counts", async () => {
    await seed();
    await controls.profiles.applyPatch(alice, { notes: "Long notes. ".repeat(150) }, { kind: "user_edit" });
    const node = createLoadMemoryNode({ store, budgets: { profile: 60 } });
    const out = await node({ messages: [new HumanMessage("which units and where do I live, Paris?")] }, { configurable: { tenant_id: "acme", user_id: "alice" } });
    expect(out.profile).toEqual({ name: "Alice", timezone: "Europe/Paris", units: "metric" }); // notes dropped first, priority order
    expect(out.rules!.map((r) => r.text)).toEqual(["Answer with diffs, not full files."]);
    expect(out.memories.map((m) => m.text)).toEqual(expect.arrayContaining(["Prefers metric units.", "Lives in Paris near the canal."]));
    expect(out.memories.some((m) => m.text.includes("Lyon") || m.text.includes("weather") || m.text.includes("train"))).toBe(false);
    expect(out.memoryUsage).toEqual({
      profile: countTextTokens(formatProfile(out.profile).text),
      rules: countTextTokens(formatRules(out.rules).text),
      memories: countTextTokens(formatMemoryContext(out.memories)),
      summary: 0,
      pastSessions: 0,
      total: countTextTokens(formatProfile(out.profile).text) + countTextTokens(formatRules(out.rules).text) + countTextTokens(formatMemoryContext(out.memories)),
    });
    expect(out.memoryUsage.profile).toBeLessThanOrEqual(60);
  });

  it("expired memories are never read, even before a sweep deletes them", async () => {
    const m = await store.add(alice, { kind: "episode", text: "Flight AF123 tomorrow at noon.", expiresAt: new Date(Date.now() + DAY) });
    expect((await store.search(alice, "flight AF123")).map((x) => x.id)).toEqual([m.id]);
    expect(await store.search(alice, "flight AF123", { now: new Date(Date.now() + 2 * DAY) })).toEqual([]);
    await store.update(alice, m.id, { expiresAt: new Date(Date.now() - 1000) });
    expect(await store.search(alice, "flight AF123")).toEqual([]);
    expect(await store.nearest(alice, { kind: "episode", text: "Flight AF123 tomorrow at noon." })).toEqual([]);
    expect(await store.list(alice)).toEqual([]);
  });
});
