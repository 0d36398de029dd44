/** The statements of `bench jobs --workers`: its run log (a table of the bench's own schema) and the checks on it. */
import type { Queryable } from "../../db/database.js";

/** One row per start of a job's handler, in any worker: two rows for one job mean it ran twice. */
export const CREATE_RUN_LOG_SQL = `
CREATE TABLE bench_job_runs (
  job_id bigint NOT NULL,
  worker text NOT NULL,
  attempts integer NOT NULL,
  started_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  -- From the job's creation (the enqueue's commit time, near enough) to its handler's start.
  waited_ms double precision NOT NULL
)`;

export async function recordJobRun(db: Queryable, jobId: number, worker: string, attempts: number, createdAt: Date): Promise<void> {
  await db.query(
    "INSERT INTO bench_job_runs (job_id, worker, attempts, waited_ms) VALUES ($1, $2, $3, extract(epoch FROM clock_timestamp() - $4::timestamptz) * 1000)",
    [jobId, worker, attempts, createdAt.toISOString()],
  );
}

export interface RunSummary {
  jobs: number;
  done: number;
  runs: number;
  distinct_jobs_run: number;
  jobs_run_twice: number;
  retried: number;
  workers_used: number;
  /** From the first handler start to the last completion. */
  span_ms: number;
}

/** What happened to the jobs of `queue` whose ids are in [lo, hi]. */
export async function summarizeRuns(db: Queryable, queue: string, lo: number, hi: number): Promise<RunSummary> {
  const { rows } = await db.query<Record<string, string | number>>(
    `WITH j AS (SELECT id, state, attempts, finished_at FROM memory_jobs WHERE queue = $1 AND id BETWEEN $2 AND $3),
          r AS (SELECT job_id, worker, started_at FROM bench_job_runs WHERE job_id BETWEEN $2 AND $3)
     SELECT (SELECT count(*) FROM j) AS jobs,
            (SELECT count(*) FROM j WHERE state = 'done') AS done,
            (SELECT count(*) FROM r) AS runs,
            (SELECT count(DISTINCT job_id) FROM r) AS distinct_jobs_run,
            (SELECT count(*) FROM (SELECT job_id FROM r GROUP BY job_id HAVING count(*) > 1) x) AS jobs_run_twice,
            (SELECT count(*) FROM j WHERE attempts > 1) AS retried,
            (SELECT count(DISTINCT worker) FROM r) AS workers_used,
            extract(epoch FROM (SELECT max(finished_at) FROM j) - (SELECT min(started_at) FROM r)) * 1000 AS span_ms`,
    [queue, lo, hi],
  );
  const r = rows[0];
  return {
    jobs: Number(r.jobs), done: Number(r.done), runs: Number(r.runs), distinct_jobs_run: Number(r.distinct_jobs_run),
    jobs_run_twice: Number(r.jobs_run_twice), retried: Number(r.retried), workers_used: Number(r.workers_used), span_ms: Number(r.span_ms),
  };
}

/** How long the jobs in [lo, hi] waited from enqueue to their handler's start. */
export async function waitedMs(db: Queryable, lo: number, hi: number): Promise<number[]> {
  const { rows } = await db.query<{ waited_ms: number }>("SELECT waited_ms FROM bench_job_runs WHERE job_id BETWEEN $1 AND $2", [lo, hi]);
  return rows.map((r) => Number(r.waited_ms));
}

/** Jobs of `queue` not finished yet. */
export async function unfinishedJobs(db: Queryable, queue: string): Promise<number> {
  const { rows } = await db.query<{ n: string }>("SELECT count(*) AS n FROM memory_jobs WHERE queue = $1 AND state IN ('pending', 'running')", [queue]);
  return Number(rows[0].n);
}
