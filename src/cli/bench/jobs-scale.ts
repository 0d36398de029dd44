import { fork, type ChildProcess } from "node:child_process";
import { extname } from "node:path";
import { fileURLToPath } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";
import { loadavg } from "node:os";
import { openDatabase } from "../../db/open.js";
import type { Database, Queryable } from "../../db/database.js";
import { quoteIdent } from "../../db/identifier.js";
import { JobQueue } from "../../jobs/job-queue.js";
import { round, summarize, table, writeJson, type LatencySummary } from "./stats.js";
import { CREATE_RUN_LOG_SQL, summarizeRuns, unfinishedJobs, waitedMs, type RunSummary } from "./jobs-scale-queries.js";
import { dropSchemaSql } from "../../db/db-queries.js";

export interface JobsScaleOptions {
  url: string;
  workers: number[];
  jobs: number;
  workMs: number;
  json?: string;
}

interface WorkerCountResult {
  workers: number;
  /** A backlog of `jobs` jobs, all due at once, drained by the workers. */
  backlog: RunSummary & { jobs_per_s: number };
  /** Jobs enqueued one by one at half the backlog's rate: enqueue → handler start. */
  steady: RunSummary & { rate_per_s: number; queue_latency: LatencySummary };
}

/**
 * `bench jobs --workers 1,2,4`: N worker processes (JobWorker, concurrency 1 each) on one server
 * Postgres database. Per worker count: a backlog drained (jobs/s), then jobs enqueued at half that
 * rate (p50/p95 from enqueue to the handler's start, LISTEN/NOTIFY waking idle workers), and a
 * check that every job ran exactly once (a run log row per handler start, in any process).
 */
export async function runJobsScale(options: JobsScaleOptions): Promise<number> {
  const schema = `lgm_bench_jobs_scale_${process.pid}`;
  const db = await openDatabase(options.url, { schema });
  const started = Date.now();
  const log = (s: string) => console.log(`[${((Date.now() - started) / 1000).toFixed(1)} s] ${s}`);
  const loadStart = loadavg().map((x) => round(x, 2));
  const results: WorkerCountResult[] = [];
  try {
    await db.query(CREATE_RUN_LOG_SQL);
    const jobs = new JobQueue(db);
    const scope = { tenantId: "bench", userId: "scale" };
    let seq = 0;
    const enqueue = async (queue: string, tx?: Queryable) => {
      const n = seq++;
      const r = await jobs.enqueue({ queue, scope, groupKey: `thread-${n}`, idempotencyKey: `thread-${n}:m1`, payload: { n }, debounceMs: 0 }, { tx });
      if (r.jobId === null) throw new Error("bench: a job was skipped");
      return r.jobId;
    };
    for (const count of options.workers) {
      const queue = `scale_w${count}`;
      log(`${count} worker process(es): starting`);
      const children = await startWorkers(count, { url: options.url, schema, queue, workMs: options.workMs });
      try {
        // Backlog: every job becomes visible at one commit, so all workers start on a full queue.
        const ids = await db.transaction(async (tx) => {
          const out: number[] = [];
          for (let i = 0; i < options.jobs; i++) out.push(await enqueue(queue, tx));
          return out;
        });
        await waitUntilDone(db, queue, 120_000 + options.jobs * (options.workMs + 50));
        const backlog = await summarizeRuns(db, queue, ids[0], ids[ids.length - 1]);
        const jobsPerS = round(backlog.jobs / (backlog.span_ms / 1000), 1);
        log(`  backlog of ${options.jobs}: ${jobsPerS} jobs/s`);
        // Steady: one enqueue at a time at half the measured rate.
        const rate = jobsPerS / 2;
        const steadyCount = Math.max(50, Math.floor(options.jobs / 2));
        const first = Date.now();
        const steadyIds: number[] = [];
        for (let i = 0; i < steadyCount; i++) {
          const due = first + (i * 1000) / rate;
          const wait = due - Date.now();
          if (wait > 0) await sleep(wait);
          steadyIds.push(await enqueue(queue));
        }
        await waitUntilDone(db, queue, 120_000);
        const steady = await summarizeRuns(db, queue, steadyIds[0], steadyIds[steadyIds.length - 1]);
        const latency = summarize(await waitedMs(db, steadyIds[0], steadyIds[steadyIds.length - 1]));
        log(`  ${steadyCount} at ${round(rate, 1)}/s: queue latency p50 ${latency.p50_ms} ms, p95 ${latency.p95_ms} ms`);
        results.push({ workers: count, backlog: { ...backlog, jobs_per_s: jobsPerS }, steady: { ...steady, rate_per_s: round(rate, 1), queue_latency: latency } });
      } finally {
        await stopWorkers(children);
      }
    }
    const once = results.every((r) => [r.backlog, r.steady].every((s) => s.jobs_run_twice === 0 && s.runs === s.jobs && s.distinct_jobs_run === s.jobs && s.done === s.jobs));
    const base = results[0]?.backlog.jobs_per_s ?? NaN;
    console.log("");
    console.log(
      table(
        ["workers (processes)", "backlog jobs/s", "× 1 worker", "workers used", "steady rate/s", "latency p50 ms", "latency p95 ms", "jobs", "runs", "run twice"],
        results.map((r) => [
          r.workers, r.backlog.jobs_per_s, round(r.backlog.jobs_per_s / base, 2), r.backlog.workers_used, r.steady.rate_per_s,
          r.steady.queue_latency.p50_ms, r.steady.queue_latency.p95_ms, r.backlog.jobs + r.steady.jobs, r.backlog.runs + r.steady.runs,
          r.backlog.jobs_run_twice + r.steady.jobs_run_twice,
        ]),
      ),
    );
    console.log(`\nevery job ran exactly once and completed: ${once ? "yes" : "NO"} (handler work ${options.workMs} ms per job)`);
    if (options.json) {
      writeJson(options.json, {
        benchmark: "jobs-scale", jobs: options.jobs, work_ms: options.workMs, results, exactly_once: once,
        scaling: Object.fromEntries(results.map((r) => [`w${r.workers}_over_w${results[0].workers}`, round(r.backlog.jobs_per_s / base, 2)])),
        load_average_start: loadStart, load_average_end: loadavg().map((x) => round(x, 2)), node: process.version, generated_at: new Date().toISOString(),
      });
      console.log(`wrote ${options.json}`);
    }
    return once ? 0 : 1;
  } finally {
    await db.query(dropSchemaSql(quoteIdent(schema))).catch(() => undefined);
    await db.close();
  }
}

async function waitUntilDone(db: Database, queue: string, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while ((await unfinishedJobs(db, queue)) > 0) {
    if (Date.now() > end) throw new Error(`bench: jobs of ${queue} still unfinished after ${timeoutMs} ms`);
    await sleep(50);
  }
}

/** Fork `count` worker processes and wait until each runs its worker. */
async function startWorkers(count: number, args: { url: string; schema: string; queue: string; workMs: number }): Promise<ChildProcess[]> {
  const here = fileURLToPath(import.meta.url);
  const entry = here.slice(0, -extname(here).length).replace(/jobs-scale$/, "jobs-scale-worker") + extname(here);
  const children: ChildProcess[] = [];
  const ready: Array<Promise<void>> = [];
  for (let i = 0; i < count; i++) {
    const child = fork(entry, [JSON.stringify({ ...args, workerId: `bench-${args.queue}-${i}` })], { execArgv: process.execArgv, stdio: ["ignore", "inherit", "inherit", "ipc"] });
    children.push(child);
    ready.push(
      new Promise((resolve, reject) => {
        child.once("message", () => resolve());
        child.once("exit", (code) => reject(new Error(`bench: worker ${i} exited with ${code} before it was ready`)));
      }),
    );
  }
  await Promise.all(ready);
  return children;
}

async function stopWorkers(children: ChildProcess[]): Promise<void> {
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null) return resolve();
          child.once("exit", () => resolve());
          child.kill("SIGTERM");
        }),
    ),
  );
}
