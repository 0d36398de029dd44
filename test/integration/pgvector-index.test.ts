import { readFileSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import type { Database } from "../../src/db/database.js";
import { openDatabase } from "../../src/db/open.js";
import { MemoryRepository } from "../../src/store/memory-store.js";
import { reembedMemories } from "../../src/store/reembed.js";
import { loadContext } from "../../src/retrieval/load-context-queries.js";
import { LocalHashingEmbeddings } from "../../src/embeddings/hashing-embeddings.js";
import type { MemoryScope } from "../../src/core/scope.js";
import { openTestDatabase, uniqueSchema } from "../helpers/db.js";

/** The ANN function's signature, for ALTER FUNCTION … SET langgraph_memory.ann_min_rows. */
const ANN_FN = "memory_ann_candidate_ids(text, text, boolean, boolean, text[], timestamptz, real[], integer)";
const WORDS = ["apple", "banana", "cherry", "grape", "melon", "kiwi", "lemon", "mango", "peach", "plum", "pear", "fig", "olive", "quince", "lime", "date"];
const sentence = (i: number, salt: number) =>
  `${WORDS[(i * 7 + salt) % WORDS.length]} ${WORDS[(i * 3 + salt * 5) % WORDS.length]} ${WORDS[(i * 11 + 1) % WORDS.length]} orchard note ${i}`;
const QUERIES = ["banana peach", "melon kiwi", "olive quince lime", "fig date", "cherry grape plum", "lemon mango pear"];

/** Share of the exact search's hits the index search also returns. */
function recall(exact: string[][], ann: string[][]): number {
  const found = exact.reduce((n, e, i) => n + e.filter((id) => ann[i].includes(id)).length, 0);
  return found / exact.reduce((n, e) => n + e.length, 0);
}

interface PgvectorEngine {
  name: string;
  open(): Promise<{ db: Database; close(): Promise<void> }>;
}

/** PGlite in this process, and the same engine served over the wire to the `pg` driver. */
const PGVECTOR_ENGINES: PgvectorEngine[] = [
  {
    name: "PGlite in-process",
    async open() {
      const db = await openTestDatabase("pglite");
      return { db, close: () => db.close() };
    },
  },
  {
    name: "pg driver → PGlite over pglite-socket",
    async open() {
      const pglite = await PGlite.create({ extensions: { vector } });
      // More than one connection: the pool holds a transaction's connection while another checks out.
      const server = new PGLiteSocketServer({ db: pglite, port: 0, host: "127.0.0.1", maxConnections: 4 });
      await server.start();
      const db = await openDatabase(`postgres://postgres@${server.getServerConn()}/postgres`, { schema: uniqueSchema(), poolMax: 2 });
      return {
        db,
        async close() {
          await db.close();
          await server.stop();
          await pglite.close();
        },
      };
    },
  },
];

async function hnswScans(db: Database): Promise<Record<string, number>> {
  await db.query("SELECT pg_stat_force_next_flush()");
  const { rows } = await db.query<{ name: string; n: number }>(
    "SELECT indexrelname AS name, idx_scan::int AS n FROM pg_stat_user_indexes WHERE schemaname = current_schema() AND indexrelname LIKE 'memories\\_embedding\\_hnsw\\_%'",
  );
  return Object.fromEntries(rows.map((r) => [r.name, r.n]));
}

/** Scans of the GIN index on `fts` (migration 0015: a large scope's rows holding a query word). */
async function ginScans(db: Database): Promise<number> {
  await db.query("SELECT pg_stat_force_next_flush()");
  const { rows } = await db.query<{ n: number }>(
    "SELECT idx_scan::int AS n FROM pg_stat_user_indexes WHERE schemaname = current_schema() AND indexrelname = 'memories_fts_gin'",
  );
  return rows[0].n;
}

async function vectorIndexes(db: Database): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    "SELECT indexname AS name FROM pg_indexes WHERE schemaname = current_schema() AND indexname LIKE 'memories\\_embedding\\_hnsw\\_%' ORDER BY 1",
  );
  return rows.map((r) => r.name);
}

const setThreshold = (db: Database, rows: number) => db.query(`ALTER FUNCTION ${ANN_FN} SET langgraph_memory.ann_min_rows = '${rows}'`);

describe.each(PGVECTOR_ENGINES)("pgvector index on $name", (engine) => {
  let db: Database;
  let close: () => Promise<void>;
  let store: MemoryRepository;
  const acme: MemoryScope = { level: "tenant", tenantId: "acme" };
  const other: MemoryScope = { level: "tenant", tenantId: "other" };
  // Fewer rows than a search's index candidates (at least 40): the index returns the whole scope.
  const small: MemoryScope = { level: "tenant", tenantId: "small" };
  const alice = { tenantId: "acme", userId: "alice" };
  const bob = { tenantId: "acme", userId: "bob" };
  const ids = (hits: Array<{ id: string }>) => hits.map((h) => h.id);

  beforeAll(async () => {
    ({ db, close } = await engine.open());
    store = new MemoryRepository(db, { embeddings: new LocalHashingEmbeddings({ dims: 64 }), candidateCache: false });
    const rows = (n: number, salt: number, kind: "knowledge" | "fact") => Array.from({ length: n }, (_, i) => ({ kind, text: sentence(i, salt) }));
    await store.addMany(acme, rows(300, 1, "knowledge"));
    await store.addMany(other, rows(60, 2, "knowledge"));
    await store.addMany(bob, rows(250, 3, "fact"));
    await store.addMany(alice, rows(20, 4, "fact"));
    await store.addMany(small, rows(30, 5, "knowledge"));
    await db.exec("ANALYZE memories");
  });
  afterAll(async () => {
    await close();
  });

  it("has pgvector, and no index until one is asked for: every search is exact", async () => {
    expect(db.capabilities.pgvector).toBe(true);
    expect(await vectorIndexes(db)).toEqual([]);
    await setThreshold(db, 0);
    const q = `{${new LocalHashingEmbeddings({ dims: 64 }).embedSync("banana peach").join(",")}}`;
    const { rows } = await db.query<{ ids: string[] | null }>(`SELECT ${ANN_FN.split("(")[0]}('acme', NULL, true, false, NULL, now(), $1::real[], 40) AS ids`, [q]);
    expect(rows[0].ids).toBeNull();
  });

  it("memory_ensure_vector_index builds the HNSW index for a dimension, once", async () => {
    await db.query("SELECT memory_ensure_vector_index(64)");
    await db.query("SELECT memory_ensure_vector_index(64)");
    expect(await vectorIndexes(db)).toEqual(["memories_embedding_hnsw_64"]);
    const { rows } = await db.query<{ def: string }>("SELECT indexdef AS def FROM pg_indexes WHERE indexname = 'memories_embedding_hnsw_64' AND schemaname = current_schema()");
    expect(rows[0].def).toMatch(/USING hnsw .*vector_ip_ops\) WHERE \(cardinality\(embedding\) = 64\)/);
  });

  const searchAll = async (repo: MemoryRepository, scope: MemoryScope, threshold: number) => {
    await setThreshold(db, threshold);
    const out: string[][] = [];
    for (const q of QUERIES) out.push(ids(await repo.search(scope, q, { limit: 8 })));
    return out;
  };

  it("with candidates covering the scope, the index path ranks exactly as the exact search", async () => {
    const exact = await searchAll(store, small, 1_000_000);
    const before = await hnswScans(db);
    const ann = await searchAll(store, small, 0);
    const after = await hnswScans(db);
    expect(after.memories_embedding_hnsw_64 - before.memories_embedding_hnsw_64).toBe(QUERIES.length);
    expect(exact.every((e) => e.length > 0)).toBe(true);
    expect(ann).toEqual(exact);
  });

  it("a tenant scope above the threshold ranks as the exact search: nearest rows UNION the rows holding a query word (migration 0015)", async () => {
    const exact = await searchAll(store, acme, 1_000_000);
    const before = await hnswScans(db);
    const ann = await searchAll(store, acme, 200);
    const after = await hnswScans(db);
    expect(after.memories_embedding_hnsw_64 - before.memories_embedding_hnsw_64).toBe(QUERIES.length);
    expect(ann.every((a) => a.length === 8)).toBe(true);
    expect(recall(exact, ann)).toBe(1);
    expect(ann).toEqual(exact);
  });

  it("EXPLAIN of the statement searches run shows the HNSW index scan, filtered to the scope", async () => {
    const q = `{${new LocalHashingEmbeddings({ dims: 64 }).embedSync("banana peach").join(",")}}`;
    const { rows } = await db.transaction(async (tx) => {
      await tx.query("SELECT set_config('enable_sort', 'off', true), set_config('hnsw.iterative_scan', 'relaxed_order', true)");
      const sql = (await tx.query<{ sql: string }>("SELECT memory_ann_nearest_sql(64) AS sql")).rows[0].sql;
      await tx.query(`PREPARE lgm_ann(text, text, boolean, boolean, text[], timestamptz, real[], integer) AS ${sql}`);
      try {
        return await tx.query<{ "QUERY PLAN": string }>(`EXPLAIN EXECUTE lgm_ann('acme', NULL, true, false, NULL, now(), '${q}', 40)`);
      } finally {
        await tx.query("DEALLOCATE lgm_ann");
      }
    });
    const plan = rows.map((r) => r["QUERY PLAN"]).join("\n");
    expect(plan).toMatch(/Index Scan using memories_embedding_hnsw_64 on memories/);
    expect(plan).toMatch(/Filter: .*tenant_id = 'acme'/);
  });

  it("a small user scope stays exact; a user scope above the threshold uses the index", async () => {
    await setThreshold(db, 200);
    const before = await hnswScans(db);
    const small = await store.search(alice, "banana peach orchard", { limit: 8 });
    const mid = await hnswScans(db);
    expect(mid.memories_embedding_hnsw_64).toBe(before.memories_embedding_hnsw_64);
    expect(small.length).toBeGreaterThan(0);
    const big = await store.search(bob, "banana peach orchard", { limit: 8 });
    const after = await hnswScans(db);
    expect(after.memories_embedding_hnsw_64).toBe(mid.memories_embedding_hnsw_64 + 1);
    await setThreshold(db, 1_000_000);
    expect(ids(big)).toEqual(ids(await store.search(bob, "banana peach orchard", { limit: 8 })));
  });

  it("the load-memory node's one statement (memory_load_context) searches a large scope through the index too", async () => {
    const query = "banana peach orchard";
    const load = async () => {
      const prepared = await store.prepareSearch(alice, query, { limit: 8, include: ["tenant"] });
      const out = await db.transaction(async (tx) => loadContext(tx, { tenantId: "acme", userId: "alice", profile: false, rules: null, search: await store.candidateParams(tx, prepared) }));
      return store.rankCandidates(out.candidates, prepared);
    };
    const before = await hnswScans(db);
    await setThreshold(db, 200);
    const ann = await load();
    const after = await hnswScans(db);
    expect(after.memories_embedding_hnsw_64).toBe(before.memories_embedding_hnsw_64 + 1);
    expect(ann.length).toBe(8);
    expect(ann.every((m) => /banana|peach/.test(m.text))).toBe(true);
    expect(ann.every((m) => m.tenantId === "acme" && (m.userId === "alice" || m.scope === "tenant"))).toBe(true);
  });

  it("index candidates stay in the scope: another tenant's, another user's rows never come back", async () => {
    await setThreshold(db, 0);
    const theirs = await store.search(other, "banana peach orchard", { limit: 50 });
    expect(theirs.length).toBeGreaterThan(0);
    expect(theirs.every((m) => m.tenantId === "other" && m.userId === null && m.scope === "tenant")).toBe(true);
    const mine = await store.search(alice, "banana peach orchard", { limit: 50, include: ["tenant"] });
    expect(mine.some((m) => m.scope === "tenant")).toBe(true);
    expect(mine.every((m) => m.tenantId === "acme" && (m.userId === "alice" || (m.userId === null && m.scope === "tenant")))).toBe(true);
  });

  it("reembed to another dimension moves the index to it, and searches use the new one", async () => {
    await setThreshold(db, 200);
    const result = await reembedMemories(db, new LocalHashingEmbeddings({ dims: 32 }));
    expect(result.current.dims).toBe(32);
    expect(await vectorIndexes(db)).toEqual(["memories_embedding_hnsw_32"]);
    const fresh = new MemoryRepository(db, { embeddings: new LocalHashingEmbeddings({ dims: 32 }), candidateCache: false });
    const exact = await searchAll(fresh, small, 1_000_000);
    const before = await hnswScans(db);
    const ann = await searchAll(fresh, small, 0);
    const after = await hnswScans(db);
    expect(after.memories_embedding_hnsw_32 - (before.memories_embedding_hnsw_32 ?? 0)).toBe(QUERIES.length);
    expect(exact.every((e) => e.length > 0)).toBe(true);
    expect(ann).toEqual(exact);
  });

  it("a scope whose nearest vectors hold none of the query's words still ranks as the exact search: its word matches come from the GIN index", async () => {
    // 60 rows sit exactly on the query's vector without holding its word; 12 hold the word, with
    // their own vectors. The index's 40 nearest rows are all of the first kind, and with the
    // offline embedder no row without a query word passes the floor: without the full-text
    // candidates (migration 0014 alone) the index search would find nothing the exact one finds.
    const lexical: MemoryScope = { level: "tenant", tenantId: "lexical" };
    const embedder = new LocalHashingEmbeddings({ dims: 32 });
    const query = "zephyr";
    const near = embedder.embedSync(query);
    const repo = new MemoryRepository(db, { embeddings: embedder, candidateCache: false });
    await repo.addMany(lexical, [
      ...Array.from({ length: 60 }, (_, i) => ({ kind: "knowledge" as const, text: `filler entry ${i} of the ledger`, embedding: near })),
      ...Array.from({ length: 12 }, (_, i) => ({ kind: "knowledge" as const, text: `the ${WORDS[i]} ${WORDS[(i + 5) % WORDS.length]} zephyr entry ${i}${" again".repeat(i % 4)}` })),
    ]);
    await db.exec("ANALYZE memories");
    const { rows: nearest } = await db.query<{ ids: string[] }>(`SELECT ${ANN_FN.split("(")[0]}('lexical', NULL, true, false, NULL, now(), $1::real[], 40) AS ids`, [
      `{${near.join(",")}}`,
    ]);
    const fillers = new Set((await repo.list(lexical, { limit: 100 })).filter((m) => m.text.startsWith("filler")).map((m) => m.id));
    expect(nearest[0].ids.length).toBe(40);
    expect(nearest[0].ids.every((id) => fillers.has(id))).toBe(true);

    await setThreshold(db, 1_000_000);
    const now = new Date(); // one clock for both searches: recency is part of the score
    const exact = await repo.search(lexical, query, { limit: 8, now });
    const before = await hnswScans(db);
    const ginBefore = await ginScans(db);
    await setThreshold(db, 0);
    const ann = await repo.search(lexical, query, { limit: 8, now });
    const after = await hnswScans(db);
    expect(after.memories_embedding_hnsw_32 - before.memories_embedding_hnsw_32).toBe(1);
    expect(await ginScans(db)).toBeGreaterThan(ginBefore);
    expect(exact.length).toBe(8);
    expect(exact.every((m) => m.text.includes("zephyr"))).toBe(true);
    // Same rows, same order, same scores: BM25 read the scope's row count and length, not the candidates'.
    expect(ann.map((m) => [m.id, m.score])).toEqual(exact.map((m) => [m.id, m.score]));
  });
});

const describeServer = process.env.DATABASE_URL ? describe : describe.skip;

describeServer("server Postgres without pgvector", () => {
  let db: Database;
  beforeAll(async () => {
    db = await openTestDatabase("postgres");
  });
  afterAll(async () => {
    await db.close();
  });

  it("records migrations 0014 to 0016 but builds no index: the ANN lookup always answers NULL, the search is migration 0016's", async () => {
    expect(db.capabilities.pgvector).toBe(false);
    const { rows: applied } = await db.query<{ name: string }>("SELECT name FROM migrations WHERE id IN (14, 15, 16) ORDER BY id");
    expect(applied).toEqual([{ name: "0014_pgvector_index" }, { name: "0015_large_scope_search" }, { name: "0016_scope_statistics" }]);
    const { rows: fns } = await db.query<{ name: string }>(
      "SELECT proname AS name FROM pg_proc WHERE pronamespace = current_schema()::regnamespace AND proname IN ('memory_ensure_vector_index', 'memory_ensure_large_scope_indexes', 'memory_ann_candidate_ids', 'memory_ann_nearest_sql')",
    );
    expect(fns).toEqual([{ name: "memory_ann_candidate_ids" }]);
    const { rows: ann } = await db.query<{ ids: string[] | null }>("SELECT memory_ann_candidate_ids('acme', NULL, true, false, NULL, now(), '{1,0}'::real[], 40) AS ids");
    expect(ann[0].ids).toBeNull();
    const { rows } = await db.query<{ src: string }>("SELECT prosrc AS src FROM pg_proc WHERE pronamespace = current_schema()::regnamespace AND proname = 'memory_search_candidates'");
    const migration = readFileSync("migrations/0016_scope_statistics.sql", "utf8");
    const start = migration.indexOf("CREATE OR REPLACE FUNCTION memory_search_candidates(");
    const body = migration.slice(migration.indexOf("AS $fn$", start) + "AS $fn$".length, migration.indexOf("$fn$;", start));
    expect(rows).toEqual([{ src: body }]);
    const { rows: indexes } = await db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_indexes WHERE schemaname = current_schema() AND indexname IN ('memories_fts_gin', 'memories_scope_stats_idx', 'memories_scope_expiring_idx')",
    );
    expect(indexes[0].n).toBe(0);
    // The counters' table exists on every engine; no trigger fills it here.
    const { rows: triggers } = await db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_trigger WHERE tgrelid = 'memories'::regclass AND tgname LIKE 'memories\\_scope\\_stats\\_%'",
    );
    expect(triggers[0].n).toBe(0);
    expect(await db.query("SELECT 1 FROM memory_scope_stats LIMIT 1")).toMatchObject({ rows: [] });
  });

  it("searches a tenant scope exactly, as before", async () => {
    const store = new MemoryRepository(db, { embeddings: new LocalHashingEmbeddings({ dims: 64 }), candidateCache: false });
    const acme: MemoryScope = { level: "tenant", tenantId: "acme" };
    await store.addMany(acme, Array.from({ length: 120 }, (_, i) => ({ kind: "knowledge" as const, text: sentence(i, 1) })));
    const hits = await store.search(acme, "banana peach orchard", { limit: 8 });
    expect(hits.length).toBe(8);
    expect(hits[0].text).toMatch(/banana|peach/);
  });
});
