import { Embeddings } from "@langchain/core/embeddings";
import { InMemoryStore } from "@langchain/langgraph-checkpoint";
import type { Benchmark } from "./benchmark.js";
import { parseCommandArgs } from "../common-options.js";
import { openDatabase } from "../../db/open.js";
import type { Database } from "../../db/database.js";
import { LocalHashingEmbeddings } from "../../embeddings/hashing-embeddings.js";
import { MemoryRepository } from "../../store/memory-store.js";
import { MEMORY_KINDS } from "../../state/types.js";
import type { NewMemory } from "../../store/types.js";
import { ratio, round, summarize, table, timeMs, writeJson, type LatencySummary } from "./stats.js";
import { ProgressBar } from "../progress.js";
import { ErrorCodes, MemoryError } from "../../errors.js";
import { seededRandom } from "./seeded-random.js";
import { syntheticVocabulary } from "./synthetic-vocabulary.js";
import { dropSchemaSql } from "../../db/db-queries.js";
import { PING_SQL, VACUUM_ANALYZE_MEMORIES_SQL } from "./bench-queries.js";

const HELP = `usage: langgraph-memory bench retrieval [--size N] [--users N] [--queries N] [--engines pglite,postgres]
       [--json FILE] [--database-url URL]
       langgraph-memory bench retrieval --scope tenant|user [--size N] [--queries N] [--dims N] [--json FILE]

Scoped hybrid search (user scope, top 8) over N synthetic memories (default 100,000) spread over
--users users (default 1,000), with query embeddings precomputed, on each engine: embedded PGlite
(in memory) and server Postgres (--database-url or DATABASE_URL; its own throwaway schema). Side
by side: the official InMemoryStore with the same vectors, and a bare SELECT 1 per engine.
1M on server Postgres: --size 1000000 --engines postgres.

With --scope: search at scale on PGlite, exact against the HNSW index (pgvector). One scope of N
memories (default 100,000; a tenant's shared knowledge, or one user's) and users of 100, 1,000 and
10,000 memories; per scope p50 / p95 of the exact search and of the index search, and recall@8 of
the index against exact (--queries each, default 100; --dims of the offline embedder, default 512).
Load rows/s without the index, the index build, and rows/s with the index in place.`;

interface EngineResult extends LatencySummary {
  engine: string;
  pgvector: boolean;
  rows: number;
  load_ms: number;
  load_rows_per_s: number;
  floor: LatencySummary;
}

export const benchmark: Benchmark = {
  summary: "scoped memory search latency at 100k memories, both engines, vs InMemoryStore and SELECT 1",
  async run(argv) {
    const { values } = parseCommandArgs(argv, {
      size: { type: "string" },
      users: { type: "string" },
      queries: { type: "string" },
      engines: { type: "string" },
      json: { type: "string" },
      scope: { type: "string" },
      dims: { type: "string" },
    });
    if (values.help) {
      console.log(HELP);
      return 0;
    }
    if (values.scope !== undefined) {
      if (values.scope !== "tenant" && values.scope !== "user") throw new MemoryError(ErrorCodes.INVALID_INPUT, `--scope: tenant or user, got ${values.scope}`);
      const { runScaleBenchmark } = await import("./retrieval-scale.js");
      return runScaleBenchmark({
        size: intOption(values.size, 100_000, "--size"),
        scope: values.scope,
        queries: intOption(values.queries, 100, "--queries"),
        dims: intOption(values.dims, 512, "--dims"),
        json: values.json,
      });
    }
    const size = intOption(values.size, 100_000, "--size");
    const users = intOption(values.users, 1_000, "--users");
    const queries = intOption(values.queries, 500, "--queries");
    const serverUrl = values["database-url"] ?? process.env.DATABASE_URL;
    const engines = (values.engines ?? (serverUrl ? "pglite,postgres" : "pglite")).split(",").map((e) => e.trim());
    for (const e of engines) if (e !== "pglite" && e !== "postgres") throw new MemoryError(ErrorCodes.INVALID_INPUT, `--engines: unknown engine ${e}`);
    if (engines.includes("postgres") && !serverUrl) throw new MemoryError(ErrorCodes.INVALID_INPUT, "--engines postgres needs --database-url or DATABASE_URL");

    const embedder = new LocalHashingEmbeddings();
    const data = new Generated(size, users, queries, embedder);
    const results: EngineResult[] = [];
    for (const engine of engines) {
      const url = engine === "pglite" ? "memory://" : serverUrl!;
      results.push(await benchEngine(engine, url, data, embedder));
    }
    const baseline = size <= 200_000 ? await benchInMemoryStore(data) : undefined;

    const primary = results.find((r) => r.engine === "pglite") ?? results[0];
    const rows: Array<Array<string | number>> = results.map((r) => [
      `${r.engine}${r.pgvector ? " (pgvector)" : " (exact SQL, no pgvector)"}`,
      r.p50_ms,
      r.p95_ms,
      r.floor.p50_ms,
      ratio(r.p50_ms, r.floor.p50_ms),
      baseline ? ratio(r.p50_ms, baseline.p50_ms) : "",
      r.load_rows_per_s,
    ]);
    if (baseline) rows.push(["InMemoryStore (official, same vectors)", baseline.p50_ms, baseline.p95_ms, "", "", 1, ""]);
    console.log(`${size.toLocaleString("en")} memories over ${users.toLocaleString("en")} users, ${queries} scoped searches (top 8), query vectors precomputed`);
    console.log(table(["engine", "p50 ms", "p95 ms", `${PING_SQL} p50`, "× floor", "× InMemoryStore", "load rows/s"], rows));
    const result = {
      size,
      users,
      queries,
      p50_ms: primary.p50_ms,
      p95_ms: primary.p95_ms,
      baseline_p50_ms: baseline?.p50_ms ?? null,
      baseline_p95_ms: baseline?.p95_ms ?? null,
      floor_p50_ms: primary.floor.p50_ms,
      target_p95_ms: 3,
      engines: Object.fromEntries(results.map((r) => [r.engine, r])),
    };
    if (values.json) writeJson(values.json, result);
    return 0;
  },
};

/**
 * Deterministic synthetic memories, generated lazily (1M vectors would not fit in memory at once):
 * memory i belongs to user i mod users and is a sentence over a 3,000-word Zipf-like vocabulary.
 */
class Generated {
  readonly vocab: string[];
  readonly queries: Array<{ user: number; text: string; embedding: number[] }>;

  constructor(
    readonly size: number,
    readonly userCount: number,
    queryCount: number,
    readonly embedder: LocalHashingEmbeddings,
  ) {
    const rand = seededRandom(42);
    this.vocab = syntheticVocabulary(rand);
    this.queries = Array.from({ length: queryCount }, () => {
      const i = Math.floor(rand() * size);
      const text = `${this.text(i).split(" ").slice(1, 4).join(" ")} ${this.word(rand)}?`;
      return { user: i % userCount, text, embedding: embedder.embedSync(text) };
    });
  }

  userId(u: number): string {
    return `user-${u}`;
  }

  private word(rand: () => number): string {
    return this.vocab[Math.floor(this.vocab.length * rand() ** 2)];
  }

  text(i: number): string {
    const rand = seededRandom(i * 2654435761);
    return `Prefers ${Array.from({ length: 6 + Math.floor(rand() * 8) }, () => this.word(rand)).join(" ")}.`;
  }

  /** Memories of user u (indices u, u + users, …), embedded. */
  memoriesOf(u: number): NewMemory[] {
    const out: NewMemory[] = [];
    for (let i = u; i < this.size; i += this.userCount) {
      const text = this.text(i);
      out.push({ kind: MEMORY_KINDS[i % MEMORY_KINDS.length], text, embedding: this.embedder.embedSync(text) });
    }
    return out;
  }
}

async function benchEngine(engine: string, url: string, data: Generated, embedder: LocalHashingEmbeddings): Promise<EngineResult> {
  const db = await openDatabase(url, { schema: `lgm_bench_retrieval_${process.pid}` });
  try {
    const store = new MemoryRepository(db, { embeddings: embedder });
    const bar = new ProgressBar(`loading ${engine}`, data.size);
    const loadStart = performance.now();
    let loaded = 0;
    for (let u = 0; u < data.userCount; u++) {
      const list = data.memoriesOf(u);
      await store.addMany({ tenantId: "bench", userId: data.userId(u) }, list);
      loaded += list.length;
      bar.update(loaded);
    }
    bar.done();
    const loadMs = performance.now() - loadStart;
    // What autovacuum does after a bulk load (see VACUUM_ANALYZE_MEMORIES_SQL).
    await db.exec(VACUUM_ANALYZE_MEMORIES_SQL);
    const search = (q: Generated["queries"][number]) =>
      store.search({ tenantId: "bench", userId: data.userId(q.user) }, q.text, { queryEmbedding: q.embedding, limit: 8 });
    for (let i = 0; i < 300; i++) await search(data.queries[i % data.queries.length]); // warm-up (WASM code gets fast after a few hundred calls)
    const samples: number[] = [];
    let found = 0;
    for (const q of data.queries) {
      samples.push(
        await timeMs(async () => {
          found += (await search(q)).length;
        }),
      );
    }
    if (found === 0) throw new Error("the benchmark's searches found nothing; the data generator is broken");
    const floor: number[] = [];
    for (let i = 0; i < data.queries.length; i++) floor.push(await timeMs(() => db.query(PING_SQL)));
    return {
      engine,
      pgvector: db.capabilities.pgvector,
      rows: data.size,
      load_ms: round(loadMs, 0),
      load_rows_per_s: Math.round(data.size / (loadMs / 1000)),
      ...summarize(samples),
      floor: summarize(floor),
    };
  } finally {
    await dropSchema(db);
    await db.close();
  }
}

/** The official InMemoryStore with the same vectors (looked up, not recomputed). */
async function benchInMemoryStore(data: Generated): Promise<LatencySummary> {
  const vectors = new Map<string, number[]>();
  for (const q of data.queries) vectors.set(q.text, q.embedding);
  const store = new InMemoryStore({ index: { dims: 512, embeddings: new PrecomputedEmbeddings(vectors), fields: ["text"] } });
  const bar = new ProgressBar("loading InMemoryStore", data.size);
  let loaded = 0;
  for (let u = 0; u < data.userCount; u++) {
    const list = data.memoriesOf(u);
    for (const m of list) vectors.set(m.text, m.embedding!);
    await store.batch(list.map((m, j) => ({ namespace: ["memories", "bench", data.userId(u)], key: `m${j}`, value: { text: m.text, kind: m.kind } })));
    loaded += list.length;
    bar.update(loaded);
  }
  bar.done();
  const samples: number[] = [];
  for (const q of data.queries) samples.push(await timeMs(() => store.search(["memories", "bench", data.userId(q.user)], { query: q.text, limit: 8 })));
  return summarize(samples);
}

class PrecomputedEmbeddings extends Embeddings {
  constructor(private readonly vectors: Map<string, number[]>) {
    super({});
  }
  async embedDocuments(texts: string[]): Promise<number[][]> {
    return texts.map((t) => this.lookup(t));
  }
  async embedQuery(text: string): Promise<number[]> {
    return this.lookup(text);
  }
  private lookup(t: string): number[] {
    const v = this.vectors.get(t);
    if (!v) throw new Error(`no precomputed vector for ${JSON.stringify(t.slice(0, 40))}`);
    return v;
  }
}

async function dropSchema(db: Database): Promise<void> {
  await db.query(dropSchemaSql(db.schemaSql)).catch(() => undefined);
}

function intOption(v: string | undefined, fallback: number, name: string): number {
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new MemoryError(ErrorCodes.INVALID_INPUT, `${name}: a positive integer`);
  return n;
}

