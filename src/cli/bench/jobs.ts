import { parseArgs } from "node:util";
import type { Database } from "../../db/database.js";
import { openDatabase } from "../../db/open.js";
import { PgliteDatabase } from "../../db/pglite-database.js";
import { PgDatabase } from "../../db/pg-database.js";
import { quoteIdent } from "../../db/identifier.js";
import { JobQueue } from "../../jobs/job-queue.js";
import type { Benchmark } from "./benchmark.js";
import { ratio, summarize, table, timeMs, writeJson, type LatencySummary } from "./stats.js";
import { runJobsScale } from "./jobs-scale.js";
import { dropSchemaSql } from "../../db/db-queries.js";
import { PING_SQL } from "./bench-queries.js";

const USAGE = `usage: langgraph-memory bench jobs [--iterations N] [--json FILE]

The job queue against pg-boss 10 (the queue the issue proposed, through its db.executeSql
adapter over the same Database): enqueue on the response path, the merge of a burst, and a
claim + complete, on PGlite (in memory) and on server Postgres when DATABASE_URL is set. Calls
are interleaved (ours, pg-boss, ours, …) so load drifts hit both alike.
  --iterations N   timed calls per operation and engine (default 400)
  --json FILE      write the result as JSON

usage: langgraph-memory bench jobs --workers 1,2,4 [--jobs N] [--work-ms M] [--json FILE]

Workers at scale on server Postgres (DATABASE_URL): for each count, that many worker processes
(JobWorker, concurrency 1) on one database drain a backlog of --jobs jobs (jobs/s), then take
jobs enqueued one at a time at half that rate (p50/p95 from enqueue to the handler's start).
Every handler start is logged in the database: the run fails unless each job ran exactly once.
  --workers LIST   worker process counts, e.g. 1,2,4
  --jobs N         backlog size per count (default 600; the steady phase enqueues N/2)
  --work-ms M      each job's handler waits M ms, as one waiting on a model call (default 20)`;

interface PgBossLike {
  start(): Promise<unknown>;
  stop(options?: { graceful?: boolean; wait?: boolean; close?: boolean }): Promise<void>;
  createQueue(name: string, options?: { policy?: string }): Promise<void>;
  send(name: string, data: object, options?: { singletonKey?: string; startAfter?: number }): Promise<string | null>;
  fetch(name: string): Promise<Array<{ id: string }> | null>;
  getJobById(name: string, id: string): Promise<{ data: unknown } | null>;
  complete(name: string, id: string): Promise<unknown>;
}

interface OpResult {
  operation: string;
  ours: LatencySummary;
  pgboss: LatencySummary;
  /** pg-boss p50 / ours p50. */
  ratio_p50: number;
}

interface EngineResult {
  engine: string;
  floor_select1: LatencySummary;
  operations: OpResult[];
  /** Messages the one job of a 4-turn burst carries (8 = every turn kept). */
  burst_messages_kept: { ours: number; pgboss: number };
}

const TURN_TEXT =
  "I moved to Lisbon last month and I now work from home three days a week; please keep answers short and in metric units.";

function turnPayload(thread: string, i: number) {
  return {
    threadId: thread,
    lastMessageId: `m${2 * i + 1}`,
    messages: [
      { id: `m${2 * i}`, role: "user", content: `${TURN_TEXT} (${i})` },
      { id: `m${2 * i + 1}`, role: "assistant", content: `Noted — Lisbon it is. Anything else for turn ${i}?` },
    ],
  };
}

/** pg-boss over our Database: the custom `db.executeSql` adapter the issue proposed. */
function bossAdapter(db: Database) {
  return {
    async executeSql(text: string, values?: unknown[]) {
      // pg-boss sends its schema scripts as one multi-statement string without parameters;
      // PGlite's query() uses the extended protocol (one statement), so scripts go through exec.
      // (`PgDatabase.query` expects one result per call, so scripts go to the pool as pg-boss would.)
      if (!values || values.length === 0) {
        if (db instanceof PgliteDatabase) {
          const results = await (db.pglite as unknown as { exec(sql: string): Promise<Array<{ rows: unknown[] }>> }).exec(text);
          return { rows: results.at(-1)?.rows ?? [] };
        }
        if (db instanceof PgDatabase) {
          const res = (await db.pool.query(text)) as unknown as { rows: unknown[] } | Array<{ rows: unknown[] }>;
          return { rows: Array.isArray(res) ? (res.at(-1)?.rows ?? []) : res.rows };
        }
      }
      return db.query(text, values);
    },
  };
}

async function runEngine(url: string, label: string, iterations: number): Promise<EngineResult> {
  const schema = `lgm_bench_jobs_${process.pid}`;
  const bossSchema = `${schema}_boss`;
  const db = await openDatabase(url, { schema });
  const { default: PgBoss } = (await import("pg-boss")) as unknown as { default: new (o: object) => PgBossLike };
  const boss = new PgBoss({ db: bossAdapter(db), schema: bossSchema, supervise: false, schedule: false });
  try {
    await boss.start();
    await boss.createQueue("plain");
    await boss.createQueue("singleton", { policy: "short" });
    const jobs = new JobQueue(db);
    const scope = { tenantId: "bench", userId: "alice" };
    const samples = {
      floor: [] as number[],
      insert: { ours: [] as number[], pgboss: [] as number[] },
      burst: { ours: [] as number[], pgboss: [] as number[] },
      claim: { ours: [] as number[], pgboss: [] as number[] },
    };
    const warmup = Math.min(50, Math.ceil(iterations / 10));
    for (let i = -warmup; i < iterations; i++) {
      const keep = i >= 0;
      const f = await timeMs(() => db.query(PING_SQL));
      // A new thread's first turn: an insert on both sides.
      const a = await timeMs(() =>
        jobs.enqueue({ queue: "plain", scope, groupKey: `t${i}`, idempotencyKey: `t${i}:m1`, payload: turnPayload(`t${i}`, 0), debounceMs: 0 }),
      );
      const b = await timeMs(() => boss.send("plain", turnPayload(`t${i}`, 0)));
      // A burst on one thread: the 2nd–4th turns of a thread whose first turn is still pending.
      // Ours merges the turn into the pending job; pg-boss's nearest is a singleton key on a
      // `short` queue, which keeps the first job's data and drops the later turns (send → null).
      const thread = `b${Math.floor((i + warmup) / 4)}`;
      const turn = (i + warmup) % 4;
      if (turn === 0) {
        await jobs.enqueue({ queue: "burst", scope, groupKey: thread, idempotencyKey: `${thread}:m0`, payload: turnPayload(thread, 0), debounceMs: 5_000 });
        await boss.send("singleton", turnPayload(thread, 0), { singletonKey: thread });
      }
      const c = await timeMs(() =>
        jobs.enqueue({ queue: "burst", scope, groupKey: thread, idempotencyKey: `${thread}:m${turn + 1}`, payload: turnPayload(thread, turn + 1), debounceMs: 5_000 }),
      );
      const d = await timeMs(() => boss.send("singleton", turnPayload(thread, turn + 1), { singletonKey: thread }));
      // Take one job and complete it.
      const e = await timeMs(async () => {
        const job = await jobs.claim("plain", "bench-worker", { leaseMs: 60_000 });
        if (!job) throw new Error("bench: nothing to claim");
        await jobs.complete(job);
      });
      const g = await timeMs(async () => {
        const [job] = (await boss.fetch("plain")) ?? [];
        if (!job) throw new Error("bench: pg-boss had nothing to fetch");
        await boss.complete("plain", job.id);
      });
      if (keep) {
        samples.floor.push(f);
        samples.insert.ours.push(a);
        samples.insert.pgboss.push(b);
        samples.burst.ours.push(c);
        samples.burst.pgboss.push(d);
        samples.claim.ours.push(e);
        samples.claim.pgboss.push(g);
      }
    }
    // What a burst leaves in its one job: every turn (ours) or the first turn only (pg-boss).
    let oursJobId: number | null = null;
    let bossJobId: string | null = null;
    for (let t = 0; t < 4; t++) {
      const r = await jobs.enqueue({ queue: "demo", scope, groupKey: "demo", idempotencyKey: `demo:m${t}`, payload: turnPayload("demo", t), debounceMs: 5_000 });
      oursJobId ??= r.jobId;
      bossJobId ??= await boss.send("singleton", turnPayload("demo", t), { singletonKey: "demo" });
    }
    const oursJob = oursJobId === null ? null : await jobs.get<{ messages: unknown[] }>(oursJobId);
    const bossJob = bossJobId === null ? null : await boss.getJobById("singleton", bossJobId);
    const burstKept = { ours: oursJob?.payload.messages.length ?? 0, pgboss: (bossJob?.data as { messages?: unknown[] } | undefined)?.messages?.length ?? 0 };
    const op = (operation: string, s: { ours: number[]; pgboss: number[] }): OpResult => {
      const ours = summarize(s.ours);
      const pgboss = summarize(s.pgboss);
      return { operation, ours, pgboss, ratio_p50: ratio(pgboss.p50_ms, ours.p50_ms) };
    };
    return {
      engine: label,
      floor_select1: summarize(samples.floor),
      operations: [
        op("enqueue, new thread (insert)", samples.insert),
        op("enqueue, burst on one thread (merge / singleton)", samples.burst),
        op("claim + complete", samples.claim),
      ],
      burst_messages_kept: burstKept,
    };
  } finally {
    await boss.stop({ graceful: false, wait: true, close: false }).catch(() => undefined);
    if (db.engine === "postgres") {
      await db.query(dropSchemaSql(quoteIdent(bossSchema))).catch(() => undefined);
      await db.query(dropSchemaSql(db.schemaSql)).catch(() => undefined);
    }
    await db.close();
  }
}

export const benchmark: Benchmark = {
  summary: "job queue enqueue/claim latency, ours vs pg-boss 10 through db.executeSql, on PGlite and server Postgres",
  async run(argv) {
    const { values } = parseArgs({
      args: argv,
      options: {
        iterations: { type: "string" },
        json: { type: "string" },
        workers: { type: "string" },
        jobs: { type: "string" },
        "work-ms": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
    });
    if (values.help) {
      console.log(USAGE);
      return 0;
    }
    if (values.workers !== undefined) {
      const url = process.env.DATABASE_URL;
      if (!url || !/^postgres(ql)?:\/\//.test(url)) {
        console.error("bench jobs --workers runs worker processes on one server Postgres: set DATABASE_URL=postgres://…");
        return 2;
      }
      const workers = values.workers.split(",").map(Number);
      const jobs = Number(values.jobs ?? 600);
      const workMs = Number(values["work-ms"] ?? 20);
      if (workers.length === 0 || !workers.every((w) => Number.isInteger(w) && w >= 1 && w <= 64)) {
        console.error("--workers must list worker counts from 1 to 64, e.g. 1,2,4");
        return 2;
      }
      if (!Number.isInteger(jobs) || jobs < 10) {
        console.error("--jobs must be an integer ≥ 10");
        return 2;
      }
      if (!Number.isInteger(workMs) || workMs < 0) {
        console.error("--work-ms must be an integer ≥ 0");
        return 2;
      }
      return runJobsScale({ url, workers, jobs, workMs, json: values.json });
    }
    const iterations = Number(values.iterations ?? 400);
    if (!Number.isInteger(iterations) || iterations < 10) {
      console.error("--iterations must be an integer ≥ 10");
      return 2;
    }
    const engines: Array<[string, string]> = [["memory://", "pglite"]];
    if (process.env.DATABASE_URL) engines.push([process.env.DATABASE_URL, "postgres"]);
    else console.log("DATABASE_URL is not set: server Postgres is skipped");
    const results: EngineResult[] = [];
    for (const [url, label] of engines) {
      const r = await runEngine(url, label, iterations);
      results.push(r);
      console.log(`\n${label} (SELECT 1 p50 ${r.floor_select1.p50_ms} ms, n=${iterations})`);
      console.log(
        table(
          ["operation", "ours p50", "pg-boss p50", "ours p95", "pg-boss p95", "pg-boss/ours p50"],
          r.operations.map((o) => [o.operation, o.ours.p50_ms, o.pgboss.p50_ms, o.ours.p95_ms, o.pgboss.p95_ms, o.ratio_p50]),
        ),
      );
      console.log(`messages in the one job of a 4-turn burst (8 = all kept): ours ${r.burst_messages_kept.ours}, pg-boss ${r.burst_messages_kept.pgboss}`);
    }
    if (values.json) writeJson(values.json, { benchmark: "jobs", iterations, results, generated_at: new Date().toISOString(), node: process.version });
    return 0;
  },
};
