/**
 * `bench retrieval --scope tenant|user`: search at scale, exact against the HNSW index (migration
 * 0014), side by side in one run on PGlite (the only engine with pgvector here). One large scope of
 * --size memories (a tenant's shared knowledge, or one user's) and three users of 100, 1,000 and
 * 10,000 memories; each searched the same way twice, once forced exact and once forced through the
 * index, and the index's top 8 compared with the exact top 8 (recall@8).
 */
import { openDatabase } from "../../db/open.js";
import type { Database } from "../../db/database.js";
import { LocalHashingEmbeddings } from "../../embeddings/hashing-embeddings.js";
import { MemoryRepository } from "../../store/memory-store.js";
import type { MemoryScope } from "../../core/scope.js";
import { MEMORY_KINDS } from "../../state/types.js";
import { ErrorCodes, MemoryError } from "../../errors.js";
import { ProgressBar } from "../progress.js";
import { ratio, round, summarize, table, timeMs, writeJson, type LatencySummary } from "./stats.js";
import { seededRandom } from "./seeded-random.js";
import { syntheticVocabulary } from "./synthetic-vocabulary.js";
import { PING_SQL, VACUUM_ANALYZE_MEMORIES_SQL } from "./bench-queries.js";
import {
  ANALYZE_MEMORIES_SQL,
  ANN_CANDIDATE_IDS_SQL,
  ENSURE_VECTOR_INDEX_SQL,
  EXACT_NEAREST_SQL,
  RESET_ANN_MIN_ROWS_SQL,
  setAnnMinRowsSql,
} from "./retrieval-scale-queries.js";

export interface ScaleOptions {
  size: number;
  scope: "tenant" | "user";
  queries: number;
  dims: number;
  json?: string;
}

const EXACT = 2_000_000_000;
const USER_SIZES = [100, 1_000, 10_000];
const TOP = 8;

interface ScopeResult {
  scope: string;
  memories: number;
  /** What the default threshold (5,000 rows) picks for this scope. */
  default_path: "exact" | "hnsw";
  exact: LatencySummary;
  hnsw: LatencySummary;
  /** Exact p95 ÷ HNSW p95. */
  speedup_p95: number;
  /** Share of the exact search's top 8 that the index search also returns (hybrid ranking, both). */
  recall_at_8: number;
  /** The index alone: share of the exact 8 nearest vectors of the scope among the index's 8. */
  vector_recall_at_8: number;
  /** The index lookup alone (memory_ann_candidate_ids, 8 rows). */
  ann_lookup: LatencySummary;
}

/** Deterministic sentences over a 3,000-word Zipf-like vocabulary (as the user-scope benchmark's). */
class Sentences {
  private readonly vocab: string[];
  constructor() {
    const rand = seededRandom(42);
    this.vocab = syntheticVocabulary(rand);
  }
  word(rand: () => number): string {
    return this.vocab[Math.floor(this.vocab.length * rand() ** 2)];
  }
  text(i: number): string {
    const rand = seededRandom(i * 2654435761);
    return `Prefers ${Array.from({ length: 6 + Math.floor(rand() * 8) }, () => this.word(rand)).join(" ")}.`;
  }
}

export async function runScaleBenchmark(options: ScaleOptions): Promise<number> {
  const embedder = new LocalHashingEmbeddings({ dims: options.dims });
  const words = new Sentences();
  const db = await openDatabase("memory://", { schema: `lgm_bench_scale_${process.pid}` });
  try {
    if (!db.capabilities.pgvector) throw new MemoryError(ErrorCodes.INVALID_INPUT, "bench retrieval --scope needs pgvector (embedded PGlite has it)");
    const store = new MemoryRepository(db, { embeddings: embedder, candidateCache: false });
    const big: MemoryScope = options.scope === "tenant" ? { level: "tenant", tenantId: "bench" } : { tenantId: "bench", userId: "big-user" };
    // Text numbers: the large scope takes 0…size-1, each user its own range after it.
    const scopes: Array<{ name: string; scope: MemoryScope; first: number; count: number }> = [
      { name: `${options.scope} scope`, scope: big, first: 0, count: options.size },
      ...USER_SIZES.map((n, i) => ({
        name: `user scope`,
        scope: { tenantId: "bench", userId: `user-${n}` } as MemoryScope,
        first: options.size + USER_SIZES.slice(0, i).reduce((a, b) => a + b, 0),
        count: n,
      })),
    ];
    const total = scopes.reduce((n, s) => n + s.count, 0);

    const bar = new ProgressBar("loading", total);
    let loaded = 0;
    const loadStart = performance.now();
    for (const s of scopes) {
      for (let i = 0; i < s.count; i += 1000) {
        const batch = [];
        for (let j = i; j < Math.min(s.count, i + 1000); j++) {
          const text = words.text(s.first + j);
          batch.push({ kind: MEMORY_KINDS[(s.first + j) % MEMORY_KINDS.length], text, embedding: embedder.embedSync(text) });
        }
        await store.addMany(s.scope, batch);
        loaded += batch.length;
        bar.update(loaded);
      }
    }
    bar.done();
    const loadMs = performance.now() - loadStart;
    await db.exec(VACUUM_ANALYZE_MEMORIES_SQL);
    console.error("building the HNSW index …");
    const buildMs = await timeMs(() => db.query(ENSURE_VECTOR_INDEX_SQL, [options.dims]));
    // Writes with the index in place pay an HNSW insert per row: measured on a small batch of a scope of its own.
    const extra = 200;
    const indexedLoadMs = await timeMs(() =>
      store.addMany(
        { level: "tenant", tenantId: "bench-writes" },
        Array.from({ length: extra }, (_, i) => {
          const text = words.text(total + i);
          return { kind: "knowledge" as const, text, embedding: embedder.embedSync(text) };
        }),
      ),
    );
    await db.exec(ANALYZE_MEMORIES_SQL);

    const results: ScopeResult[] = [];
    for (const s of scopes) {
      const rand = seededRandom(7 + s.count);
      const queries = Array.from({ length: options.queries }, () => {
        const i = s.first + Math.floor(rand() * s.count);
        const text = `${words.text(i).split(" ").slice(1, 4).join(" ")} ${words.word(rand)}?`;
        return { text, embedding: embedder.embedSync(text) };
      });
      const pass = async (threshold: number) => {
        await setThreshold(db, threshold);
        const search = (q: (typeof queries)[number]) => store.search(s.scope, q.text, { queryEmbedding: q.embedding, limit: TOP });
        for (let i = 0; i < Math.min(5, queries.length); i++) await search(queries[i]); // warm-up
        const samples: number[] = [];
        const hits: string[][] = [];
        for (const q of queries) {
          let found: string[] = [];
          samples.push(
            await timeMs(async () => {
              found = (await search(q)).map((m) => m.id);
            }),
          );
          hits.push(found);
        }
        return { latency: summarize(samples), hits };
      };
      console.error(`searching the ${s.name} of ${s.count.toLocaleString("en")} memories …`);
      const exact = await pass(EXACT);
      const hnsw = await pass(0);
      const expected = exact.hits.reduce((n, h) => n + h.length, 0);
      if (expected === 0) throw new Error("the benchmark's exact searches found nothing; the data generator is broken");
      const found = exact.hits.reduce((n, h, i) => n + h.filter((id) => hnsw.hits[i].includes(id)).length, 0);
      const vectors = await vectorRecall(db, s.scope, queries.map((q) => q.embedding));
      results.push({
        scope: s.name,
        memories: s.count,
        default_path: s.count >= 5_000 ? "hnsw" : "exact",
        exact: exact.latency,
        hnsw: hnsw.latency,
        speedup_p95: ratio(exact.latency.p95_ms, hnsw.latency.p95_ms),
        recall_at_8: round(found / expected, 3),
        vector_recall_at_8: vectors.recall,
        ann_lookup: vectors.lookup,
      });
    }
    await resetThreshold(db);

    const loadRowsPerS = Math.round(total / (loadMs / 1000));
    console.log(
      `${total.toLocaleString("en")} memories (${options.dims} dims, offline hashing embedder) in one PGlite database; ` +
        `${options.queries} searches per scope and path (top ${TOP}), query vectors precomputed`,
    );
    console.log(
      table(
        ["scope", "memories", "default", "exact p50", "exact p95", "HNSW p50", "HNSW p95", "exact ÷ HNSW p95", "recall@8", "vector recall@8", "index lookup p95"],
        results.map((r) => [
          r.scope,
          r.memories,
          r.default_path,
          r.exact.p50_ms,
          r.exact.p95_ms,
          r.hnsw.p50_ms,
          r.hnsw.p95_ms,
          r.speedup_p95,
          r.recall_at_8,
          r.vector_recall_at_8,
          r.ann_lookup.p95_ms,
        ]),
      ),
    );
    console.log(
      `load: ${loadRowsPerS.toLocaleString("en")} rows/s without the index; HNSW build ${Math.round(total / (buildMs / 1000)).toLocaleString("en")} rows/s ` +
        `(${round(buildMs / 1000, 1)} s); with the index in place ${Math.round(extra / (indexedLoadMs / 1000)).toLocaleString("en")} rows/s ` +
        `(${ratio(loadRowsPerS, extra / (indexedLoadMs / 1000))}× slower)`,
    );
    const floor: number[] = [];
    for (let i = 0; i < 200; i++) floor.push(await timeMs(() => db.query(PING_SQL)));
    const floorP50 = summarize(floor).p50_ms;
    console.log(`${PING_SQL} p50 ${floorP50} ms (the machine's speed in this run)`);
    if (options.json) {
      writeJson(options.json, {
        floor_p50_ms: floorP50,
        size: options.size,
        scope: options.scope,
        dims: options.dims,
        queries: options.queries,
        load_rows: total,
        load_rows_per_s: loadRowsPerS,
        index_build_ms: round(buildMs, 0),
        index_build_rows_per_s: Math.round(total / (buildMs / 1000)),
        indexed_load_rows_per_s: Math.round(extra / (indexedLoadMs / 1000)),
        target_hnsw_p95_ms: 20,
        target_recall_at_8: 0.95,
        scopes: results,
      });
    }
    return 0;
  } finally {
    await db.close();
  }
}

/**
 * The index against an exact scan, vectors only: the scope's 8 nearest by the index
 * (memory_ann_candidate_ids, threshold 0) and by an exact ordering of every row of the scope.
 */
async function vectorRecall(db: Database, scope: MemoryScope, embeddings: number[][]): Promise<{ recall: number; lookup: LatencySummary }> {
  await setThreshold(db, 0);
  const user = "userId" in scope && scope.userId ? scope.userId : null;
  const tenant = scope.tenantId ?? null;
  let found = 0;
  let expected = 0;
  const samples: number[] = [];
  for (const e of embeddings) {
    const q = `{${e.join(",")}}`;
    let ann: string[] = [];
    samples.push(
      await timeMs(async () => {
        const { rows } = await db.query<{ ids: string[] | null }>(ANN_CANDIDATE_IDS_SQL, [
          tenant,
          user,
          user === null,
          q,
          TOP,
        ]);
        ann = rows[0].ids ?? [];
      }),
    );
    const { rows } = await db.query<{ id: string }>(EXACT_NEAREST_SQL, [tenant, user, q, TOP]);
    expected += rows.length;
    found += rows.filter((r) => ann.includes(r.id)).length;
  }
  return { recall: round(found / Math.max(expected, 1), 3), lookup: summarize(samples) };
}

async function setThreshold(db: Database, rows: number): Promise<void> {
  await db.query(setAnnMinRowsSql(rows));
}

async function resetThreshold(db: Database): Promise<void> {
  await db.query(RESET_ANN_MIN_ROWS_SQL);
}
