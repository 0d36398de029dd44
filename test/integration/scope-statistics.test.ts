import { readFileSync } from "node:fs";
import type { Database } from "../../src/db/database.js";
import { connectDatabase } from "../../src/db/open.js";
import { migrate } from "../../src/db/migrate.js";
import { loadMigrations } from "../../src/db/migrations.js";
import { MemoryRepository } from "../../src/store/memory-store.js";
import { RetentionSweep } from "../../src/retention/retention-sweep.js";
import { ManualClock } from "../../src/jobs/clock.js";
import { LocalHashingEmbeddings } from "../../src/embeddings/hashing-embeddings.js";
import type { MemoryScope } from "../../src/core/scope.js";
import type { MemoryKind } from "../../src/state/types.js";
import { openTestDatabase } from "../helpers/db.js";

/**
 * Migration 0016: the scope statistics a large scope's search reads (memory_scope_stats, kept by
 * row triggers on memories) must equal a recount from the memories table after every kind of
 * write, and a search forced through the large-scope path must rank exactly as with migration
 * 0015's statistics (a scan of the scope's rows).
 */

const ANN_FN = "memory_ann_candidate_ids(text, text, boolean, boolean, text[], timestamptz, real[], integer)";
const DAY = 86_400_000;
const WORDS = ["apple", "banana", "cherry", "grape", "melon", "kiwi", "lemon", "mango", "peach", "plum", "pear", "fig", "olive", "quince", "lime", "date"];
const sentence = (i: number, salt: number) =>
  `${WORDS[(i * 7 + salt) % WORDS.length]} ${WORDS[(i * 3 + salt * 5) % WORDS.length]} ${WORDS[(i * 11 + 1) % WORDS.length]} orchard note ${i}`;
const QUERIES = ["banana peach", "melon kiwi orchard", "olive quince lime", "fig date"];

/** A CREATE OR REPLACE FUNCTION memory_search_candidates statement, as a migration file has it. */
function searchFunctionOf(file: string): string {
  const sql = readFileSync(`migrations/${file}`, "utf8");
  const start = sql.indexOf("CREATE OR REPLACE FUNCTION memory_search_candidates(");
  return sql.slice(start, sql.indexOf("$fn$;", start) + "$fn$;".length);
}
const SEARCH_0015 = searchFunctionOf("0015_large_scope_search.sql");
const SEARCH_0016 = searchFunctionOf("0016_scope_statistics.sql");

/** The counters summed per (tenant, user, scope, kind), and the same figures recounted from memories. */
const COUNTERS_SQL = `SELECT tenant_id, user_id, scope, kind, sum(n)::int AS n, sum(len_sum)::int AS len_sum
  FROM memory_scope_stats GROUP BY 1, 2, 3, 4 HAVING sum(n) <> 0 OR sum(len_sum) <> 0 ORDER BY 1, 2, 3, 4`;
const RECOUNT_SQL = `SELECT tenant_id, user_id, scope, kind, count(*)::int AS n, sum(doc_len)::int AS len_sum
  FROM memories WHERE superseded_by IS NULL AND deactivated_at IS NULL AND expires_at IS NULL GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`;

describe("scope statistics (migration 0016) on PGlite with pgvector", () => {
  let db: Database;
  let store: MemoryRepository;
  const clock = new ManualClock(Date.UTC(2030, 0, 1));
  const embeddings = new LocalHashingEmbeddings({ dims: 32 });
  const acme: MemoryScope = { level: "tenant", tenantId: "acme" };
  const everyone: MemoryScope = { level: "global" };
  const alice = { tenantId: "acme", userId: "alice" };
  const bob = { tenantId: "acme", userId: "bob" };
  const later = (days: number) => new Date(clock.now().getTime() + days * DAY);
  const earlier = (days: number) => new Date(clock.now().getTime() - days * DAY);

  const counters = async () => (await db.query(COUNTERS_SQL)).rows;
  const recount = async () => (await db.query(RECOUNT_SQL)).rows;
  const setThreshold = (rows: number) => db.query(`ALTER FUNCTION ${ANN_FN} SET langgraph_memory.ann_min_rows = '${rows}'`);

  /** Every scope's searches, forced through the large-scope path: ids and every part of each score. */
  async function searches(now: Date) {
    await setThreshold(0);
    const out: unknown[] = [];
    const cases: Array<{ scope: MemoryScope; kinds?: MemoryKind[]; include?: Array<"tenant" | "global"> }> = [
      { scope: acme },
      { scope: alice },
      { scope: alice, include: ["tenant", "global"] },
      { scope: alice, kinds: ["episode", "fact"], include: ["tenant"] },
      { scope: bob, include: ["global"] },
      { scope: everyone },
    ];
    for (const c of cases) {
      for (const q of QUERIES) {
        const hits = await store.search(c.scope, q, { limit: 8, now, kinds: c.kinds, include: c.include });
        out.push(hits.map((h) => [h.id, h.score, h.similarity, h.lexicalScore, h.vectorSimilarity]));
      }
    }
    return out;
  }

  /** The statistics themselves, as the function returns them with each row (one value per call). */
  async function stats(now: Date) {
    await setThreshold(0);
    const q = `{${embeddings.embedSync("banana peach").join(",")}}`;
    const out: unknown[] = [];
    for (const [tenant, user, inclTenant, inclGlobal, kinds] of [
      ["acme", null, true, false, null],
      ["acme", "alice", true, true, null],
      ["acme", "alice", false, false, "{episode}"],
      [null, null, false, true, null],
    ]) {
      const { rows } = await db.query(
        `SELECT DISTINCT scope_count, scope_avgdl FROM memory_search_candidates($1, $2, $3, $4, $5::text[], $6, 'banana peach', $7::real[],
           30, 0, 8, 0.5, 0.1, 0, '{}', 0, NULL)`,
        [tenant, user, inclTenant, inclGlobal, kinds, now.toISOString(), q],
      );
      out.push(rows);
    }
    return out;
  }

  /** The counters equal the recount; searches and statistics equal those of migration 0015's function. */
  async function expectExact(...instants: Date[]) {
    expect(await counters()).toEqual(await recount());
    for (const now of instants) {
      const [withCounters, statsWithCounters] = [await searches(now), await stats(now)];
      await db.exec(SEARCH_0015);
      try {
        const [scanned, statsScanned] = [await searches(now), await stats(now)];
        expect(withCounters).toEqual(scanned);
        expect(statsWithCounters).toEqual(statsScanned);
      } finally {
        await db.exec(SEARCH_0016);
      }
    }
  }

  beforeAll(async () => {
    db = await openTestDatabase("pglite");
    store = new MemoryRepository(db, { embeddings, candidateCache: false, clock });
    const rows = (n: number, salt: number, kind: MemoryKind) => Array.from({ length: n }, (_, i) => ({ kind, text: sentence(i, salt) }));
    await store.addMany(acme, rows(120, 1, "knowledge"));
    await store.addMany(acme, rows(30, 2, "procedure"));
    await store.addMany(alice, [...rows(40, 3, "fact"), ...rows(20, 4, "preference")]);
    await store.addMany(bob, rows(25, 5, "fact"));
    await store.addMany(everyone, rows(15, 6, "knowledge"));
    // Episodes with an expiry: some already past at the clock's time, some in the future.
    await store.addMany(
      alice,
      Array.from({ length: 12 }, (_, i) => ({ kind: "episode" as const, text: `${sentence(i, 7)} trip`, expiresAt: i % 2 ? earlier(1 + i) : later(1 + i) })),
    );
    await store.addMany(acme, Array.from({ length: 6 }, (_, i) => ({ kind: "knowledge" as const, text: `${sentence(i, 8)} notice`, expiresAt: later(2 + i) })));
  });
  afterAll(async () => {
    await db?.close();
  });

  it("has the table on every engine but fills it only once the large-scope indexes are asked for", async () => {
    expect(db.capabilities.pgvector).toBe(true);
    expect(await counters()).toEqual([]);
    await db.query("SELECT memory_ensure_vector_index(32)");
    const { rows } = await db.query<{ name: string }>(
      "SELECT tgname AS name FROM pg_trigger WHERE tgrelid = 'memories'::regclass AND tgname LIKE 'memories\\_scope\\_stats\\_%' ORDER BY 1",
    );
    expect(rows.map((r) => r.name)).toEqual(["memories_scope_stats_delete", "memories_scope_stats_insert", "memories_scope_stats_truncate", "memories_scope_stats_update"]);
    const { rows: idx } = await db.query("SELECT 1 FROM pg_indexes WHERE schemaname = current_schema() AND indexname = 'memories_scope_expiring_idx'");
    expect(idx.length).toBe(1);
    expect((await counters()).length).toBeGreaterThan(0);
    await expectExact(clock.now(), later(3), later(30));
  });

  it("is idempotent: asking again rebuilds nothing and keeps the counts", async () => {
    const before = await db.query("SELECT * FROM memory_scope_stats ORDER BY tenant_id, user_id, scope, kind, shard");
    await db.query("SELECT memory_ensure_large_scope_indexes()");
    await db.query("SELECT memory_ensure_vector_index(32)");
    expect((await db.query("SELECT * FROM memory_scope_stats ORDER BY tenant_id, user_id, scope, kind, shard")).rows).toEqual(before.rows);
  });

  it("follows inserts, one by one and in batches", async () => {
    await store.add(alice, { kind: "fact", text: "banana peach orchard planted in spring, a long sentence of several words" });
    await store.addMany(acme, Array.from({ length: 10 }, (_, i) => ({ kind: "knowledge" as const, text: sentence(i + 500, 9) })));
    await store.add(everyone, { kind: "knowledge", text: "global olive quince note" });
    await expectExact(clock.now());
  });

  it("follows text edits (a new doc_len) and kind changes", async () => {
    const [fact] = await store.list(alice, { kinds: ["fact"], limit: 1 });
    await store.update(alice, fact.id, { text: "melon kiwi orchard with many more words than it had before, all of them counted" });
    const [knowledge] = await store.list(acme, { kinds: ["knowledge"], limit: 1 });
    await store.update(acme, knowledge.id, { text: "fig" });
    const [pref] = await store.list(alice, { kinds: ["preference"], limit: 1 });
    await store.update(alice, pref.id, { kind: "fact" });
    await expectExact(clock.now());
  });

  it("follows supersede, deactivate, reactivate and delete", async () => {
    const facts = await store.list(alice, { kinds: ["fact"], limit: 5 });
    await store.supersede(alice, facts[0].id, { kind: "fact", text: "banana replaced by a plum in the orchard" });
    await store.update(alice, facts[1].id, { deactivated: true });
    await store.update(alice, facts[2].id, { deactivated: true });
    await store.update(alice, facts[2].id, { deactivated: false });
    await store.delete(alice, facts[3].id);
    const knowledge = await store.list(acme, { kinds: ["knowledge"], limit: 3 });
    await store.update(acme, knowledge[0].id, { deactivated: true });
    await store.delete(acme, knowledge[1].id);
    await store.deleteAll(bob, { kinds: ["fact"] });
    await expectExact(clock.now());
    // One backend wrote and deleted bob's rows (PGlite): no counter row names him any more.
    expect((await db.query("SELECT count(*)::int AS n FROM memory_scope_stats WHERE user_id = 'bob'")).rows).toEqual([{ n: 0 }]);
  });

  it("follows expiries given, moved and taken away, and answers exactly on both sides of an expiry", async () => {
    const facts = await store.list(alice, { kinds: ["fact"], limit: 3 });
    await store.update(alice, facts[0].id, { expiresAt: later(2) });
    await store.update(alice, facts[1].id, { expiresAt: earlier(2) });
    const episodes = await store.list(alice, { kinds: ["episode"], limit: 2 });
    await store.update(alice, episodes[0].id, { expiresAt: null });
    await store.update(alice, episodes[1].id, { expiresAt: later(40) });
    await store.add(alice, { kind: "episode", text: "banana peach picnic that ends soon", expiresAt: later(1) });
    await expectExact(clock.now(), later(1.5), later(5), later(60));
  });

  it("is not fired by usage marks", async () => {
    const before = await counters();
    // Every counter row's version: an upsert, even of a zero change, writes a new one.
    const tuples = async () => (await db.query("SELECT ctid::text, xmin::text FROM memory_scope_stats ORDER BY 1")).rows;
    const written = await tuples();
    const hits = await store.search(alice, "banana peach", { include: ["tenant", "global"], now: clock.now() });
    expect(hits.length).toBeGreaterThan(0);
    expect(await store.markUsed(alice, hits.map((h) => h.id), { include: ["tenant", "global"], now: clock.now() })).toBeGreaterThan(0);
    expect(await tuples()).toEqual(written);
    expect(await counters()).toEqual(before);
    // A row change that does count fires it (the statistics above are live, not stale).
    const fact = (await store.list(alice, { kinds: ["fact"] })).find((m) => m.expiresAt === null)!;
    await store.update(alice, fact.id, { deactivated: true });
    expect(await tuples()).not.toEqual(written);
  });

  it("follows the retention sweep (expire, archive, decay and deactivate)", async () => {
    await store.add(alice, { kind: "episode", text: "old episode past its lifetime", source: { origin: "extracted" }, createdAt: earlier(400) });
    await store.add(alice, { kind: "fact", text: "weak inference about fig trees", source: { origin: "inferred" }, confidence: 0.05, createdAt: earlier(400) });
    clock.advance(10 * DAY);
    await new RetentionSweep(db, { clock }).run();
    await expectExact(clock.now(), later(20));
  });

  it("empties with TRUNCATE", async () => {
    await db.exec("TRUNCATE memories CASCADE");
    expect(await counters()).toEqual([]);
    expect((await db.query("SELECT count(*)::int AS n FROM memory_scope_stats")).rows).toEqual([{ n: 0 }]);
  });
});

describe("migration 0016 on a PGlite database that already has the HNSW index", () => {
  const all = loadMigrations();
  let db: Database;
  afterAll(async () => {
    await db?.close();
  });

  it("creates the triggers and the counts in the migration itself; the large-scope search ranks as before it", async () => {
    db = await connectDatabase("memory://");
    await migrate(
      db,
      all.filter((m) => m.id < 16),
    );
    await db.refreshCapabilities();
    expect(db.capabilities.pgvector).toBe(true);
    const embeddings = new LocalHashingEmbeddings({ dims: 32 });
    const store = new MemoryRepository(db, { embeddings, candidateCache: false });
    const acme: MemoryScope = { level: "tenant", tenantId: "acme" };
    await store.addMany(
      acme,
      Array.from({ length: 80 }, (_, i) => ({ kind: (i % 3 ? "knowledge" : "procedure") as MemoryKind, text: sentence(i, 3) })),
    );
    await store.addMany(acme, Array.from({ length: 5 }, (_, i) => ({ kind: "knowledge" as const, text: sentence(i, 4), expiresAt: new Date(Date.now() + (i + 1) * DAY) })));
    await db.query("SELECT memory_ensure_vector_index(32)");
    await db.query(`ALTER FUNCTION ${ANN_FN} SET langgraph_memory.ann_min_rows = '0'`);
    const now = new Date();
    const search = async () => {
      const out: unknown[] = [];
      for (const q of QUERIES) out.push((await store.search(acme, q, { limit: 8, now })).map((h) => [h.id, h.score, h.lexicalScore]));
      return out;
    };
    const before = await search();
    expect(before.every((h) => (h as unknown[]).length > 0)).toBe(true);
    await migrate(db, all);
    const { rows } = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_trigger WHERE tgrelid = 'memories'::regclass AND tgname LIKE 'memories\\_scope\\_stats\\_%'");
    expect(rows[0].n).toBe(4);
    expect((await db.query(COUNTERS_SQL)).rows).toEqual((await db.query(RECOUNT_SQL)).rows);
    expect(await search()).toEqual(before);
  });
});
