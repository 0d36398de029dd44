import { Embeddings } from "@langchain/core/embeddings";
import { HumanMessage } from "@langchain/core/messages";
import type { Database, Queryable } from "../../src/db/database.js";
import { LocalHashingEmbeddings } from "../../src/embeddings/hashing-embeddings.js";
import { MemoryRepository } from "../../src/store/memory-store.js";
import { candidateCacheOf } from "../../src/retrieval/per-store.js";
import { ProfileStore } from "../../src/profile/profile-store.js";
import { RuleStore } from "../../src/procedural/rule-store.js";
import { MemorySettingsStore } from "../../src/controls/settings-store.js";
import { createLoadMemoryNode, type LoadMemoryResult } from "../../src/graph/load-memory-node.js";
import type { MemoryLoaderInput } from "../../src/retrieval/memory-loader.js";
import { retrieveMemoriesWithoutSessions } from "../../src/sessions/memories-without-sessions.js";
import { fitProfile } from "../../src/context/format-profile.js";
import { formatRules } from "../../src/context/format-rules.js";
import type { ProfileDocument } from "../../src/state/types.js";
import type { RetrievalConfig } from "../../src/config.js";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { openDatabase } from "../../src/db/open.js";
import { grantMemoryRoles } from "../../src/controls/database-roles.js";
import { loadContext } from "../../src/retrieval/load-context-queries.js";
import { openTestDatabase, testEngines } from "../helpers/db.js";

/** Retrieval with the relevance floor for every kind (`standingKinds` off, where the config has it). */
const NO_STANDING_KINDS = { standingKinds: [] } as Partial<RetrievalConfig>;

/** The offline embedder under another class (so the node treats it as a remote one), recording its calls. */
class RecordingEmbeddings extends Embeddings {
  calls: string[] = [];
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

/** Fixed vectors by keyword: texts that share no word can still be near each other (a semantic embedder's behaviour). */
class TopicEmbeddings extends Embeddings {
  constructor() {
    super({});
  }
  private vector(text: string): number[] {
    const t = text.toLowerCase();
    const v = [0.05, 0.05, 0.05, 0.05];
    if (/hik|trail|mountain/.test(t)) v[0] = 1;
    if (/cook|recipe|kitchen/.test(t)) v[1] = 1;
    if (/trail/.test(t)) v[2] = 0.3;
    return v;
  }
  async embedDocuments(texts: string[]): Promise<number[][]> {
    return texts.map((t) => this.vector(t));
  }
  async embedQuery(text: string): Promise<number[]> {
    return this.vector(text);
  }
}

/** The database with every statement recorded (what ran inside transactions, and how many transactions). */
function recording(db: Database): { db: Database; statements: string[]; transactions: () => number } {
  const statements: string[] = [];
  let transactions = 0;
  const wrap = (q: Queryable): Queryable => ({
    query: (sql, params, options) => {
      statements.push(sql);
      return q.query(sql, params, options);
    },
    exec: (sql) => q.exec(sql),
  });
  const proxy = new Proxy(db, {
    get(target, prop, receiver) {
      if (prop === "transaction") {
        return <T>(fn: (tx: Queryable) => Promise<T>, options?: Parameters<Database["transaction"]>[1]) => {
          transactions++;
          return target.transaction((tx) => fn(wrap(tx)), options);
        };
      }
      if (prop === "query") return wrap(target).query;
      const value = Reflect.get(target, prop, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { db: proxy, statements, transactions: () => transactions };
}

describe.each(testEngines())("the load-memory node's one round trip on %s", (engine) => {
  let db: Database;
  let store: MemoryRepository;
  let profiles: ProfileStore;
  let rules: RuleStore;
  let settings: MemorySettingsStore;
  const alice = { tenantId: "acme", userId: "alice" };
  const config = { configurable: { thread_id: "t1", tenant_id: "acme", user_id: "alice" } };
  const ask = (text: string) => ({ messages: [new HumanMessage(text)] });
  const usedCount = async (id: string) => (await db.query<{ n: number }>("SELECT access_count AS n FROM memories WHERE id = $1", [id])).rows[0].n;

  beforeAll(async () => {
    db = await openTestDatabase(engine);
    // Marks stay queued until flushed or read (no timer fires during a test).
    store = new MemoryRepository(db, { usageFlushMs: 600_000 });
    profiles = new ProfileStore(db);
    rules = new RuleStore(db);
    settings = new MemorySettingsStore(db);
  });
  afterAll(async () => {
    await store.flushUsage();
    await db.close();
  });
  beforeEach(async () => {
    await store.flushUsage();
    await db.exec("DELETE FROM memories; DELETE FROM profiles; DELETE FROM procedural_rules; DELETE FROM memory_settings; DELETE FROM embedding_settings;");
    await store.addMany(alice, [
      { kind: "preference", text: "Prefers metric units for recipes and weather.", createdAt: "2026-03-02T10:00:00Z" },
      { kind: "fact", text: "Keeps bees on the roof." },
      { kind: "fact", text: "Lives in Porto, Portugal, near the river." },
      { kind: "episode", text: "Asked for a sourdough recipe with metric units last week." },
    ]);
    await store.add({ tenantId: "acme", userId: "bob" }, { kind: "preference", text: "Prefers imperial units for recipes." });
    await profiles.applyPatch(alice, { name: "Alice", units: "metric", timezone: "Europe/Lisbon" }, { kind: "user_edit" });
    const rule = await rules.propose(alice, { text: "Answer with short lists.", source: "feedback", origin: { kind: "extraction" } });
    await rules.approve(alice, rule.id);
    await rules.add({ level: "tenant", tenantId: "acme" }, { text: "Quote prices in EUR.", priority: 5 });
  });

  it("reads opt-out, profile, rules and memories in one statement, with no transaction around it", async () => {
    const rec = recording(db);
    const cached = new MemoryRepository(rec.db, { usageFlushMs: 600_000 });
    const node = createLoadMemoryNode({ store: cached });
    // Each kind of turn: the first (which also reads the recorded embedder and fills the candidate
    // cache in the background), one answered from the cache, one after another process changed
    // the user's memories (the held version is stale: a second statement searches), and with
    // the cache off.
    const uncached = createLoadMemoryNode({ store: new MemoryRepository(rec.db, { usageFlushMs: 600_000, candidateCache: false }) });
    // The first statement of a turn of a thread also checks the thread's owner (migration 0008's
    // memory_thread_* wrappers): no statement more than without it.
    const turns: { node: typeof node; before?: () => Promise<unknown>; statements: string[] }[] = [
      { node, statements: ["memory_thread_load_head("] },
      { node, before: () => store.add(alice, { kind: "fact", text: "Weighs flour in grams, always metric." }), statements: ["memory_thread_load_head(", "memory_load_context("] },
      { node, statements: ["memory_thread_load_head("] },
      { node: uncached, statements: ["memory_thread_load_context("] },
    ];
    await node(ask("metric recipe ideas?"), config);
    await uncached(ask("metric recipe ideas?"), config);
    for (const [i, t] of turns.entries()) {
      await candidateCacheOf(cached)!.settle();
      await t.before?.();
      rec.statements.length = 0;
      const before = rec.transactions();
      const out = await t.node(ask("any recipe in metric units?"), config);
      expect({ i, transactions: rec.transactions() - before }).toEqual({ i, transactions: 0 });
      expect(rec.statements).toHaveLength(t.statements.length);
      t.statements.forEach((fn, k) => expect(rec.statements[k]).toContain(fn));
      expect(out.profile).toEqual({ name: "Alice", timezone: "Europe/Lisbon", units: "metric" });
      expect(out.rules!.map((r) => r.text)).toEqual(["Quote prices in EUR.", "Answer with short lists."]);
      expect(out.memories.map((m) => m.text)).toContain("Prefers metric units for recipes and weather.");
      if (i >= 1) expect(out.memories.map((m) => m.text)).toContain("Weighs flour in grams, always metric.");
    }
    expect(candidateCacheOf(cached)!.stats).toMatchObject({ hits: 2, misses: 2, fills: 2 });
  });

  it("returns what the separate reads return: memories, profile, rules and their token counts", async () => {
    // The floor for every kind (no standing kinds), as retrieveMemoriesWithoutSessions applies it.
    const floored = new MemoryRepository(db, { retrieval: NO_STANDING_KINDS, usageFlushMs: 600_000 });
    const node = createLoadMemoryNode({ store: floored, markUsed: false, budgets: { memories: 60 } });
    for (const query of ["metric recipe ideas?", "where do I live, Porto?", "bees near this sourdough?", "nothing in common here", "units"]) {
      const out: LoadMemoryResult = await node(ask(query), config);
      const expected = await retrieveMemoriesWithoutSessions(store, alice, query, { maxTokens: 60, markUsed: false });
      expect(out.memories.map((m) => [m.id, m.tokens])).toEqual(expected.memories.map((m) => [m.id, m.tokens]));
      out.memories.forEach((m, i) => expect(m.score).toBeCloseTo(expected.memories[i].score, 6));
      const profile = fitProfile(await profiles.getDocument(alice), { maxTokens: 500, priorities: profiles.priorities });
      const active = await rules.activeFor(alice);
      expect(out.profile).toEqual(profile.profile);
      expect(out.rules).toEqual(active);
      expect(out.memoryUsage).toEqual({
        profile: profile.section.tokens,
        rules: formatRules(active, { maxTokens: 1500 }).tokens,
        memories: expected.tokens,
        summary: 0,
        pastSessions: 0,
        total: profile.section.tokens + formatRules(active, { maxTokens: 1500 }).tokens + expected.tokens,
      });
    }
  });

  it("standing memories: the newest facts and preferences come without a shared word; episodes, archived rows and older ones beyond the limit do not", async () => {
    const standing = new MemoryRepository(db, { retrieval: { standingKinds: ["fact", "preference"], standingLimit: 2 }, usageFlushMs: 600_000 });
    const node = createLoadMemoryNode({ store: standing, markUsed: false });
    // No word of this question is in any of alice's memories.
    const question = "Which engine oil should I buy?";
    const out = await node(ask(question), config);
    // The two newest of her three facts and preferences (the preference was created first, in March).
    expect(out.memories.map((m) => m.text).sort()).toEqual(["Keeps bees on the roof.", "Lives in Porto, Portugal, near the river."]);
    // With the floor for every kind, nothing of hers is relevant to the question.
    const floored = createLoadMemoryNode({ store: new MemoryRepository(db, { retrieval: NO_STANDING_KINDS }), markUsed: false });
    expect((await floored(ask(question), config)).memories).toEqual([]);
    // A use makes the preference the newest; an archived fact is no standing memory.
    const pref = (await store.list(alice)).find((m) => m.kind === "preference")!;
    await store.markUsed(alice, [pref.id]);
    await db.query("UPDATE memories SET archived_at = now() WHERE text = 'Keeps bees on the roof.'");
    expect((await node(ask(question), config)).memories.map((m) => m.text).sort()).toEqual([
      "Lives in Porto, Portugal, near the river.",
      "Prefers metric units for recipes and weather.",
    ]);
    // Bob's preference is never one of alice's standing memories.
    expect(out.memories.some((m) => m.text.includes("imperial"))).toBe(false);
  });

  it("marks what was injected after the turn, batched; the store's own reads see the marks at once", async () => {
    const node = createLoadMemoryNode({ store });
    const first = await node(ask("metric recipe ideas?"), config);
    const id = first.memories[0].id;
    // Queued, not yet written: the turn did not pay for it.
    expect(await usedCount(id)).toBe(0);
    await node(ask("metric units for the recipe please"), config);
    // `get` writes queued marks first: this process reads its own marks.
    const read = await store.get(alice, id);
    expect(read!.accessCount).toBe(2);
    expect(read!.lastUsedAt).not.toBeNull();
    expect(await usedCount(id)).toBe(2);
    await node(ask("metric recipe ideas?"), config);
    expect(await store.flushUsage()).toBeGreaterThan(0);
    expect(await usedCount(id)).toBe(3);
    expect(await store.flushUsage()).toBe(0);
  });

  it("markUsed: false queues nothing", async () => {
    const node = createLoadMemoryNode({ store, markUsed: false });
    const out = await node(ask("metric recipe ideas?"), config);
    expect(out.memories.length).toBeGreaterThan(0);
    expect(await store.flushUsage()).toBe(0);
    expect(await usedCount(out.memories[0].id)).toBe(0);
  });

  it("an opted-out user gets an empty context: no loader runs, nothing is marked, even after a flush", async () => {
    await settings.setOptedOut(alice, true);
    const loaded: string[] = [];
    const node = createLoadMemoryNode({ store, loaders: [async ({ query }) => (loaded.push(query), { update: {} })] });
    const out = await node(ask("metric recipe ideas?"), config);
    expect(out).toEqual({ profile: null, rules: [], memories: [], memoryUsage: { profile: 0, rules: 0, memories: 0, summary: 0, pastSessions: 0, total: 0 } });
    expect(loaded).toEqual([]);
    expect(await store.flushUsage()).toBe(0);
    expect(await db.query("SELECT 1 FROM memories WHERE access_count > 0")).toMatchObject({ rowCount: 0 });
  });

  it("a remote embedder is called only once the user is known not to have opted out, once per turn; loaders get its vector", async () => {
    const embeddings = new RecordingEmbeddings();
    const remote = new MemoryRepository(db, { embeddings, embedderId: store.embedderId, usageFlushMs: 600_000 });
    const seen: MemoryLoaderInput[] = [];
    const node = createLoadMemoryNode({ store: remote, markUsed: false, loaders: [async (input) => (seen.push(input), { update: {} })] });
    const local = await createLoadMemoryNode({ store, markUsed: false })(ask("metric recipe ideas?"), config);
    const out = await node(ask("metric recipe ideas?"), config);
    expect(embeddings.calls).toEqual(["metric recipe ideas?"]);
    expect(out.memories.map((m) => m.id)).toEqual(local.memories.map((m) => m.id));
    expect(out.profile).toEqual(local.profile);
    expect(out.rules).toEqual(local.rules);
    const expected = await remote.prepareSearch(alice, "metric recipe ideas?");
    expect(seen[0].queryEmbedding).toEqual(expected.embedding);

    embeddings.calls = [];
    await settings.setOptedOut(alice, true);
    expect((await node(ask("metric recipe ideas?"), config)).memories).toEqual([]);
    expect(embeddings.calls).toEqual([]);
  });

  it("a profile store of its own (a subclass reading elsewhere) is asked itself", async () => {
    class FixedProfiles extends ProfileStore {
      override async getDocument(): Promise<ProfileDocument | null> {
        return { name: "From elsewhere" };
      }
    }
    const node = createLoadMemoryNode({ store, markUsed: false, profiles: new FixedProfiles(db) });
    expect((await node(ask("metric?"), config)).profile).toEqual({ name: "From elsewhere" });
  });

  it("invalid search options fail the turn, but not an opted-out user's", async () => {
    const node = createLoadMemoryNode({ store, search: { limit: 0 } });
    await expect(node(ask("metric?"), config)).rejects.toMatchObject({ code: "INVALID_INPUT" });
    await settings.setOptedOut(alice, true);
    expect((await node(ask("metric?"), config)).memories).toEqual([]);
  });

  it("rows without a query word are still found by vector similarity when the floor allows it (a semantic embedder)", async () => {
    await db.exec("DELETE FROM memories; DELETE FROM embedding_settings;");
    const semantic = new MemoryRepository(db, { embeddings: new TopicEmbeddings(), embedderId: "topics/4", retrieval: { ...NO_STANDING_KINDS, lexicalWeight: 0.3 } });
    await semantic.addMany(alice, [
      { kind: "preference", text: "Enjoys hiking in the Alps." },
      { kind: "preference", text: "Likes to cook on Sundays." },
    ]);
    // "trail" shares no word with either memory; its vector is near the hiking one.
    const hits = await semantic.search(alice, "any trail tips?");
    expect(hits.map((h) => h.text)).toEqual(["Enjoys hiking in the Alps."]);
    expect(hits[0].lexicalScore).toBe(0);
    const out = await createLoadMemoryNode({ store: semantic, markUsed: false })(ask("any trail tips?"), config);
    expect(out.memories.map((m) => m.text)).toEqual(["Enjoys hiking in the Alps."]);
    // Archived, the same memory needs the archived floor (by meaning too): its similarity (about 0.68) passes 0.5, not 0.69.
    const [hiking] = await semantic.list(alice, { kinds: ["preference"] }).then((ms) => ms.filter((m) => m.text.startsWith("Enjoys")));
    await semantic.update(alice, hiking.id, { archived: true });
    const again = await createLoadMemoryNode({ store: semantic, markUsed: false })(ask("any trail tips?"), config);
    expect(again.memories.map((m) => m.text)).toEqual(["Enjoys hiking in the Alps."]);
    const strict = new MemoryRepository(db, { embeddings: new TopicEmbeddings(), embedderId: "topics/4", retrieval: { ...NO_STANDING_KINDS, lexicalWeight: 0.3, archivedRelevanceFloor: 0.69 } });
    expect((await createLoadMemoryNode({ store: strict, markUsed: false })(ask("any trail tips?"), config)).memories).toEqual([]);
  });

  it("an archived memory is injected only when strongly relevant, and what was injected is active again after the turn", async () => {
    const [episode] = await store.list(alice, { kinds: ["episode"] });
    await store.update(alice, episode.id, { archived: true });
    const node = createLoadMemoryNode({ store });
    // One shared word: enough for an active memory, not for an archived one.
    const weak = await node(ask("any sourdough tips?"), config);
    expect(weak.memories.map((m) => m.id)).not.toContain(episode.id);
    await store.update(alice, episode.id, { archived: false });
    expect((await createLoadMemoryNode({ store, markUsed: false })(ask("any sourdough tips?"), config)).memories.map((m) => m.id)).toContain(episode.id);
    await store.update(alice, episode.id, { archived: true });
    // A strong match is injected, and marked used after the turn: no longer archived.
    const strong = await node(ask("that sourdough recipe with metric units I asked for, again please"), config);
    expect(strong.memories.map((m) => m.id)).toContain(episode.id);
    expect((await store.get(alice, episode.id))!.archivedAt).toBeNull(); // get() writes the queued marks first
  });
});

const URL = process.env.DATABASE_URL;
(URL ? describe : describe.skip)("the one round trip under row-level security (server Postgres, a non-superuser app role)", () => {
  const appRole = `lgm_load_${process.pid}_${randomBytes(3).toString("hex")}`;
  let admin: Database;
  let app: Database;
  let su: pg.Client;
  const alice = { tenantId: "acme", userId: "alice" };
  const bob = { tenantId: "acme", userId: "bob" };

  beforeAll(async () => {
    admin = await openTestDatabase("postgres");
    su = new pg.Client({ connectionString: URL });
    await su.connect();
    await su.query(`CREATE ROLE ${appRole} LOGIN NOBYPASSRLS`);
    await grantMemoryRoles(admin, { app: [appRole] });
    const u = new globalThis.URL(URL!);
    u.username = appRole;
    app = await openDatabase(u.toString(), { schema: admin.schema, autoMigrate: false });
  });
  afterAll(async () => {
    await app?.close();
    await admin?.close();
    await su.query(`DROP OWNED BY ${appRole}`).catch(() => undefined);
    await su.query(`DROP ROLE IF EXISTS ${appRole}`);
    await su.end();
  });

  it("the node reads the user's context as the app role; a transaction scoped to another user reads none of it", async () => {
    const store = new MemoryRepository(app, { usageFlushMs: 600_000 });
    await store.add(alice, { kind: "preference", text: "Prefers metric units for recipes." });
    await new ProfileStore(app).applyPatch(alice, { name: "Alice" }, { kind: "user_edit" });
    await new RuleStore(app).add(alice, { text: "Answer with short lists." });
    const out = await createLoadMemoryNode({ store })(
      { messages: [new HumanMessage("metric recipe?")] },
      { configurable: { tenant_id: "acme", user_id: "alice" } },
    );
    expect(out.memories.map((m) => m.text)).toEqual(["Prefers metric units for recipes."]);
    expect(out.profile).toEqual({ name: "Alice" });
    expect(out.rules!.map((r) => r.text)).toEqual(["Answer with short lists."]);
    expect(await store.flushUsage()).toBe(1);

    // Alice's arguments in a transaction scoped to Bob: the policies hide her rows from the function.
    const prepared = await store.prepareSearch(alice, "metric recipe?", { limit: 40 });
    const seen = await app.transaction(async (tx) => {
      const search = await store.candidateParams(tx, prepared);
      return loadContext(tx, { tenantId: "acme", userId: "alice", profile: true, rules: { taskType: null, limit: 50 }, search });
    }, { scope: bob });
    // Not even the version of alice's memories.
    expect(seen).toEqual({ optedOut: false, profile: null, rules: [], candidates: [], memoriesVersion: null, queryLexemes: null, queryBridge: null, searchSkipped: false });
  });
});
