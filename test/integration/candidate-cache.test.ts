import { HumanMessage } from "@langchain/core/messages";
import type { Database } from "../../src/db/database.js";
import { MemoryRepository } from "../../src/store/memory-store.js";
import { candidateCacheOf } from "../../src/retrieval/per-store.js";
import { hybridCandidatesSql, type CandidateRow } from "../../src/store/memory-queries.js";
import { readUserMemories } from "../../src/retrieval/candidate-cache-queries.js";
import { selectCachedCandidates } from "../../src/retrieval/cached-candidates.js";
import { CandidateCache } from "../../src/retrieval/candidate-cache.js";
import { createLoadMemoryNode } from "../../src/graph/load-memory-node.js";
import { MemorySettingsStore } from "../../src/controls/settings-store.js";
import { MemoryControls } from "../../src/controls/memory-controls.js";
import type { RetrievalConfig } from "../../src/config.js";
import type { MemoryKind } from "../../src/state/types.js";
import { parseTsvector } from "../../src/store/hybrid-scoring.js";
import { openTestDatabase, testEngines } from "../helpers/db.js";

const NOW = new Date("2026-06-01T12:00:00Z");
const DAY = 86_400_000;
const PLACES = ["Lisbon", "Oslo", "Kyoto", "Denver", "Porto", "Quito"];
const TOPICS = ["jazz", "climbing", "sourdough bread", "chess openings", "cycling", "orchids", "pottery", "sailing"];
const KINDS: MemoryKind[] = ["preference", "fact", "episode", "procedure", "entity"];

const QUERIES = [
  "Any jazz clubs in Lisbon this weekend?",
  "I want to go climbing near Oslo, what should I pack?",
  "How do I keep my sourdough bread starter alive?",
  "Recommend chess openings for a beginner",
  "Where can I go cycling or sailing in Porto?",
  "What's the weather like?",
  "orchids pottery Kyoto Denver Quito",
  "Remind me what I told you about my trip",
  "",
  "it's the the and of",
];

/** Every memory state the search distinguishes: kinds, context, used, archived, expired, superseded, deactivated. */
async function seedUser(db: Database, store: MemoryRepository, user: { tenantId: string; userId: string }, n: number): Promise<void> {
  const made = await store.addMany(
    user,
    Array.from({ length: n }, (_, i) => ({
      kind: KINDS[i % KINDS.length],
      text: `User ${i % 3 === 0 ? "loves" : "mentioned"} ${TOPICS[(i * 3) % TOPICS.length]} in ${PLACES[(i * 5) % PLACES.length]} (${i}).`,
      context: i % 4 === 0 ? `We talked about ${TOPICS[(i + 1) % TOPICS.length]} and the weekend.` : null,
      createdAt: new Date(NOW.getTime() - (i % 17) * DAY - i * 1000),
      expiresAt: i % 13 === 5 ? new Date(NOW.getTime() - DAY) : i % 13 === 6 ? new Date(NOW.getTime() + DAY) : null,
      source: { origin: "extracted" as const },
    })),
  );
  const ids = (pick: (i: number) => boolean) => made.filter((_, i) => pick(i)).map((m) => m.id);
  await db.transaction(async (tx) => {
    await tx.query("UPDATE memories SET last_used_at = $2 WHERE id = ANY($1::uuid[])", [ids((i) => i % 5 === 1), new Date(NOW.getTime() - 2 * DAY)]);
    await tx.query("UPDATE memories SET archived_at = $2 WHERE id = ANY($1::uuid[])", [ids((i) => i % 7 === 3), new Date(NOW.getTime() - DAY)]);
    await tx.query("UPDATE memories SET deactivated_at = $2 WHERE id = ANY($1::uuid[])", [ids((i) => i % 11 === 4), NOW]);
    await tx.query("UPDATE memories SET superseded_by = $2 WHERE id = ANY($1::uuid[])", [ids((i) => i % 19 === 2), made[0].id]);
  }, { scope: user });
}

async function queryLexemes(db: Database, query: string): Promise<string[]> {
  return (await db.query<{ l: string[] }>("SELECT tsvector_to_array(to_tsvector('english', $1)) AS l", [query])).rows[0].l;
}

/** The expansion terms' lexemes as memory_load_head returns them to a cached search (migration 0011). */
async function bridgeLexemes(db: Database, query: string, terms: readonly string[] | null): Promise<string | null> {
  return (await db.query<{ b: string | null }>("SELECT memory_bridge_lexemes($1, $2::text) AS b", [query, terms?.join(" ") ?? null])).rows[0].b;
}

function byId(rows: readonly CandidateRow[]): Map<string, CandidateRow> {
  return new Map(rows.map((r) => [r.id, r]));
}

describe.each(testEngines())("candidate cache on %s", (engine) => {
  let db: Database;
  const alice = { tenantId: "acme", userId: "alice" };
  const bob = { tenantId: "acme", userId: "bob" };
  const version = async (u: { tenantId: string; userId: string }) =>
    (await db.query<{ version: string | number }>("SELECT version FROM memory_versions WHERE tenant_id = $1 AND user_id = $2", [u.tenantId, u.userId])).rows[0]?.version ?? null;

  beforeAll(async () => {
    db = await openTestDatabase(engine);
    await seedUser(db, new MemoryRepository(db, { candidateCache: false }), alice, 90);
  });
  afterAll(async () => {
    await db.close();
  });

  // Offline weights (no vector-only candidates), neural-like weights (vector-only candidates
  // compete for a few places), with and without standing memories, a kinds filter, a small limit.
  const SETTINGS: { name: string; retrieval: Partial<RetrievalConfig>; search: Record<string, unknown> }[] = [
    { name: "offline weights, standing", retrieval: {}, search: { limit: 40, standing: { kinds: ["fact", "preference"], limit: 8 } } },
    { name: "offline weights, no standing", retrieval: {}, search: { limit: 8 } },
    { name: "lexical 0.3, vector-only places", retrieval: { lexicalWeight: 0.3, relevanceFloor: 0.1 }, search: { limit: 5, standing: { kinds: ["fact"], limit: 3 } } },
    { name: "lexical 0.3, archived floor, kinds", retrieval: { lexicalWeight: 0.3, relevanceFloor: 0.05, archivedRelevanceFloor: 0.2 }, search: { limit: 12, kinds: ["preference", "episode"] } },
    { name: "vocabulary bridge on", retrieval: { vocabularyBridge: { enabled: true, weight: 0.3, maxTerms: 64, termsPerWord: 16 } }, search: { limit: 8 } },
  ];

  it.each(SETTINGS)("chooses and ranks what the search statement does ($name)", async ({ retrieval, search }) => {
    const store = new MemoryRepository(db, { retrieval, candidateCache: false });
    const read = await db.transaction((tx) => readUserMemories(tx, alice.tenantId!, alice.userId!), { scope: alice });
    expect(read.version).not.toBeNull();
    let compared = 0;
    for (const query of QUERIES) {
      const prepared = await store.prepareSearch(alice, query, { ...search, now: NOW });
      const params = (await store.candidateParams(db, prepared))!;
      const { sql, params: args } = hybridCandidatesSql(params);
      const fromSql = (await db.transaction((tx) => tx.query<CandidateRow>(sql, args), { scope: alice })).rows;
      const fromCache = selectCachedCandidates(read.memories, params, await queryLexemes(db, query), await bridgeLexemes(db, prepared.query, params.bridgeTerms));

      // The same candidate rows with the same inputs to ranking …
      const cached = byId(fromCache);
      expect([...cached.keys()].sort()).toEqual(fromSql.map((r) => r.id).sort());
      for (const r of fromSql) {
        const c = cached.get(r.id)!;
        expect(c.vsim).toBeCloseTo(Number(r.vsim), 5);
        expect(c.recency).toBeCloseTo(Number(r.recency), 9);
        expect(c.doc_len).toBe(Number(r.doc_len));
        expect(c.matched === null ? null : [...parseTsvector(c.matched)]).toEqual(r.matched === null ? null : [...parseTsvector(r.matched)]);
        expect(c.bridged).toBe(r.bridged);
        expect(c.scope_count).toBe(Number(r.scope_count));
        expect(c.scope_avgdl).toBeCloseTo(Number(r.scope_avgdl), 9);
        expect(c.kind).toBe(r.kind);
        expect(c.text).toBe(r.text);
      }
      // … so the same memories in the same order.
      const a = store.rankCandidates(fromSql, prepared);
      const b = store.rankCandidates(fromCache, prepared);
      expect(b.map((m) => m.id)).toEqual(a.map((m) => m.id));
      b.forEach((m, i) => expect(m.score).toBeCloseTo(a[i].score, 5));
      compared += a.length;
    }
    // The comparison covered real results, not only empty ones.
    expect(compared).toBeGreaterThan(20);
  });

  it("versions a user's memories on every change but usage marks", async () => {
    const store = new MemoryRepository(db, { candidateCache: false });
    const v0 = await version(bob);
    expect(v0).toBeNull();
    const [m1, m2] = await store.addMany(bob, [
      { kind: "fact", text: "Bob drives a Golf." },
      { kind: "preference", text: "Bob likes tea." },
    ]);
    const v1 = await version(bob);
    expect(v1).not.toBeNull();
    const seenVersions = new Set([String(v1)]);
    const changed = async (what: string) => {
      const v = String(await version(bob));
      expect({ what, repeated: seenVersions.has(v) }).toEqual({ what, repeated: false });
      seenVersions.add(v);
    };
    const unchanged = async (what: string) => {
      const v = String(await version(bob));
      expect({ what, latest: [...seenVersions].pop() === v }).toEqual({ what, latest: true });
    };

    store.markUsedLater(bob, [m1.id, m2.id]);
    await store.flushUsage();
    await unchanged("batched usage marks");
    await db.transaction((tx) => tx.query("UPDATE memories SET access_count = access_count + 1, last_used_at = now() WHERE id = $1", [m1.id]), { scope: bob });
    await unchanged("a usage-only update");
    await store.update(bob, m2.id, { text: "Bob likes green tea." });
    await changed("text update");
    await store.supersede(bob, m1.id, { kind: "fact", text: "Bob drives a Polo now." });
    await changed("supersede");
    await db.transaction((tx) => tx.query("UPDATE memories SET archived_at = now() WHERE id = $1", [m2.id]), { scope: bob });
    await changed("archive");
    store.markUsedLater(bob, [m2.id]);
    await store.flushUsage();
    await changed("a usage mark that un-archives");
    await store.delete(bob, m2.id);
    await changed("delete");

    // Tenant knowledge has no user: no version row for it; another user's change leaves bob's alone.
    const before = String(await version(bob));
    await store.add({ level: "tenant", tenantId: "acme" }, { kind: "knowledge", text: "Office closes at six." });
    await store.add(alice, { kind: "fact", text: "Alice plays the cello." });
    expect(String(await version(bob))).toBe(before);
    expect((await db.query("SELECT 1 FROM memory_versions WHERE user_id IS NULL OR user_id = ''")).rows).toHaveLength(0);

    // One statement over two users renews both.
    const a0 = String(await version(alice));
    await db.query("UPDATE memories SET metadata = metadata || '{\"touched\": true}' WHERE tenant_id = 'acme' AND user_id IN ('alice', 'bob') AND scope = 'user'");
    expect(String(await version(alice))).not.toBe(a0);
    await changed("a statement touching two users");
  });

  it("serves turns from the cache while nothing changes, and sees another process's writes at once", async () => {
    const carol = { tenantId: "acme", userId: "carol" };
    const writer = new MemoryRepository(db, { candidateCache: false });
    await seedUser(db, writer, carol, 40);
    const cachedStore = new MemoryRepository(db);
    const plainStore = new MemoryRepository(db, { candidateCache: false });
    const cached = createLoadMemoryNode({ store: cachedStore, markUsed: false });
    const plain = createLoadMemoryNode({ store: plainStore, markUsed: false });
    const config = { configurable: { thread_id: "t", tenant_id: "acme", user_id: "carol" } };
    const turn = async (text: string) => {
      const state = { messages: [new HumanMessage(text)] };
      const [a, b] = [await cached(state, config), await plain(state, config)];
      await candidateCacheOf(cachedStore)!.settle();
      // The same memories in the same order, with scores equal but for float rounding (the cache
      // sums in float64 what pgvector sums in float4).
      b.memories.forEach((m, i) => expect(a.memories[i]?.score).toBeCloseTo(m.score, 5));
      return { cached: a.memories.map((m) => m.id), plain: b.memories.map((m) => m.id), texts: a.memories.map((m) => m.text) };
    };

    const first = await turn("Any jazz clubs in Lisbon?");
    expect(first.cached).toEqual(first.plain);
    expect(candidateCacheOf(cachedStore)!.stats).toMatchObject({ hits: 0, misses: 1, fills: 1, users: 1 });
    for (const q of QUERIES.slice(0, 5)) {
      const t = await turn(q);
      expect(t.cached).toEqual(t.plain);
    }
    expect(candidateCacheOf(cachedStore)!.stats).toMatchObject({ hits: 5, misses: 1 });

    // "Another process" writes: the next turn already sees it (and the cache is refilled).
    const added = await writer.add(carol, { kind: "preference", text: "Carol adores the jazz clubs of Lisbon, especially on Fridays." });
    const afterAdd = await turn("Any jazz clubs in Lisbon?");
    expect(afterAdd.cached).toEqual(afterAdd.plain);
    expect(afterAdd.texts).toContain(added.text);
    expect(candidateCacheOf(cachedStore)!.stats).toMatchObject({ misses: 2, fills: 2 });
    await writer.delete(carol, added.id);
    const afterDelete = await turn("Any jazz clubs in Lisbon?");
    expect(afterDelete.texts).not.toContain(added.text);
    expect(afterDelete.cached).toEqual(afterDelete.plain);
    const hits = candidateCacheOf(cachedStore)!.stats.hits;
    await turn("Any jazz clubs in Lisbon?");
    expect(candidateCacheOf(cachedStore)!.stats.hits).toBe(hits + 1);

    // An opted-out user gets nothing, cache or not.
    await new MemorySettingsStore(db).setOptedOut(carol, true);
    const out = await turn("Any jazz clubs in Lisbon?");
    expect(out.cached).toEqual([]);
    await new MemorySettingsStore(db).setOptedOut(carol, false);
  });

  it("applies this process's usage marks to the cached rows as the database will hold them", async () => {
    const dave = { tenantId: "acme", userId: "dave" };
    const store = new MemoryRepository(db, { usageFlushMs: 60_000 });
    await seedUser(db, new MemoryRepository(db, { candidateCache: false }), dave, 30);
    const node = createLoadMemoryNode({ store });
    const config = { configurable: { thread_id: "t-dave", tenant_id: "acme", user_id: "dave" } };
    await node({ messages: [new HumanMessage("jazz in Lisbon")] }, config);
    await candidateCacheOf(store)!.settle();
    const hit = await node({ messages: [new HumanMessage("climbing near Oslo")] }, config);
    expect(candidateCacheOf(store)!.stats.hits).toBe(1);
    expect(hit.memories.length).toBeGreaterThan(0);
    // Queued marks are already in the cache; once written, a fresh read holds the same values.
    await store.flushUsage();
    const fresh = await db.transaction((tx) => readUserMemories(tx, dave.tenantId, dave.userId), { scope: dave });
    const internal = (candidateCacheOf(store) as unknown as { entries: Map<string, { version: string; memories: { memories: { row: { id: string; access_count: number }; lastUsedMs: number | null }[] } }> }).entries;
    const held = new Map([...internal.values()][0].memories.memories.map((m) => [m.row.id, m]));
    for (const m of fresh.memories) {
      const h = held.get(m.row.id)!;
      expect([m.row.id, h.lastUsedMs, Number(h.row.access_count)]).toEqual([m.row.id, m.lastUsedMs, Number(m.row.access_count)]);
    }
    // Usage marks did not change the version: the entry is still current.
    expect([...internal.values()][0].version).toBe(fresh.version);
  });

  it("erasing a user's data leaves nothing of them in the cache or in memory_versions", async () => {
    const erin = { tenantId: "acme", userId: "erin" };
    const store = new MemoryRepository(db);
    await seedUser(db, new MemoryRepository(db, { candidateCache: false }), erin, 12);
    const node = createLoadMemoryNode({ store, markUsed: false });
    const config = { configurable: { thread_id: "t-erin", tenant_id: "acme", user_id: "erin" } };
    await node({ messages: [new HumanMessage("jazz in Lisbon")] }, config);
    await candidateCacheOf(store)!.settle();
    const before = String(await version(erin));
    expect(candidateCacheOf(store)!.lookup({ level: "user", ...erin })).toBe(before);

    const controls = new MemoryControls(db, { store });
    expect((await controls.deleteAll(erin, (await controls.requestDeleteAll(erin)).token)).memories).toBeGreaterThan(0);
    expect(candidateCacheOf(store)!.lookup({ level: "user", ...erin })).toBeNull();
    expect(await version(erin)).toBeNull();
    expect((await node({ messages: [new HumanMessage("jazz in Lisbon")] }, config)).memories).toEqual([]);

    // A new memory starts a version no cache can hold already.
    await store.add(erin, { kind: "fact", text: "Erin starts over in Lisbon, a jazz fan." });
    expect(String(await version(erin))).not.toBe(before);
    expect((await node({ messages: [new HumanMessage("jazz in Lisbon")] }, config)).memories.map((m) => m.text)).toEqual(["Erin starts over in Lisbon, a jazz fan."]);
  });

  it("refills entries older than maxAgeMs and holds at most maxMemories", async () => {
    let now = 1_000_000;
    const cache = new CandidateCache(db, { maxAgeMs: 10_000, maxMemories: 100, now: () => now });
    const user = { level: "user" as const, tenantId: "acme", userId: "alice" };
    cache.refresh(user, String(await version(alice)));
    await cache.settle();
    expect(cache.lookup(user)).toBe(String(await version(alice)));
    now += 10_001;
    expect(cache.lookup(user)).toBeNull();
    expect(cache.stats.users).toBe(0);

    // An idle user's entry is swept when any other user's turn looks up, once it is too old.
    cache.refresh(user, String(await version(alice)));
    await cache.settle();
    expect(cache.stats.users).toBe(1);
    now += 10_001;
    expect(cache.lookup({ level: "user", tenantId: "acme", userId: "nobody" })).toBeNull();
    expect(cache.stats).toMatchObject({ users: 0, memories: 0 });

    // Alice holds more than the cap: not cached at all (searches stay in SQL).
    const small = new CandidateCache(db, { maxMemories: 10 });
    small.refresh(user, String(await version(alice)));
    await small.settle();
    expect(small.stats).toMatchObject({ fills: 1, users: 0, memories: 0 });
    expect(() => new CandidateCache(db, { maxMemories: -1 })).toThrow(/maxMemories/);
  });
});
