/**
 * Named SQL of worker heartbeats (`memory_workers`, migrations/0010_worker_heartbeats.sql) and of
 * the queue's health: what `langgraph-memory status` shows and what the memory steps check before
 * warning that jobs wait with no worker. Times are the database's (`now()`), like the queue's.
 */

/**
 * A worker is live while its last beat is younger than three poll intervals, and at least this:
 * a worker busy with a long job beats between jobs only.
 */
export const LIVE_WORKER_MIN_MS = 60_000;

const live = (w: string) => `${w}.stopped_at IS NULL AND ${w}.last_seen_at > now() - greatest(${w}.poll_interval_ms * 3, ${LIVE_WORKER_MIN_MS}) * interval '1 millisecond'`;

/** $1 worker id, $2 queues, $3 poll interval ms: record a beat (and forget workers gone for a day). */
export const HEARTBEAT_SQL = `
WITH gone AS (DELETE FROM memory_workers WHERE last_seen_at < now() - interval '1 day' AND worker_id <> $1::text)
INSERT INTO memory_workers AS w (worker_id, queues, poll_interval_ms) VALUES ($1::text, $2::text[], $3::int)
ON CONFLICT (worker_id) DO UPDATE SET queues = excluded.queues, poll_interval_ms = excluded.poll_interval_ms, last_seen_at = now(), stopped_at = NULL`;

/** $1 worker id: the worker stopped (no longer live; its last beat stays for `status`). */
export const STOPPED_SQL = `UPDATE memory_workers SET stopped_at = now() WHERE worker_id = $1::text`;

/**
 * One user's queued work ($1 tenant, $2 user) and the workers alive: how long the user's oldest
 * work has been due (a pending job since `run_after`; a submitted turn since `enqueued_at` plus its
 * debounce — the inbox is folded only by a worker), and whether a live worker serves its queue.
 * Uses the scope indexes of both tables; runs in the user's transaction (row-level security).
 */
export const USER_QUEUE_HEALTH_SQL = `
WITH due AS (
  SELECT queue, run_after AS due_at FROM memory_jobs WHERE tenant_id = $1::text AND user_id = $2::text AND state = 'pending'
  UNION ALL
  SELECT queue, enqueued_at + debounce_ms * interval '1 millisecond' FROM memory_jobs_inbox WHERE tenant_id = $1::text AND user_id = $2::text
), oldest AS (SELECT queue, due_at FROM due ORDER BY due_at LIMIT 1)
SELECT extract(epoch FROM now() - o.due_at) * 1000 AS overdue_ms, o.queue,
       EXISTS (SELECT 1 FROM memory_workers w WHERE o.queue = ANY(w.queues) AND ${live("w")}) AS served,
       (SELECT max(last_seen_at) FROM memory_workers) AS last_heartbeat
FROM oldest o`;

/** The whole queue (for `status`): depth, oldest job, workers. Counts and times only. */
export const QUEUE_STATUS_SQL = `
SELECT (SELECT count(*) FROM memory_jobs WHERE state = 'pending')::int AS pending,
       (SELECT count(*) FROM memory_jobs WHERE state = 'running')::int AS running,
       (SELECT count(*) FROM memory_jobs WHERE state = 'failed')::int AS failed,
       (SELECT count(*) FROM memory_jobs_inbox)::int AS inbox,
       (SELECT min(t) FROM (SELECT min(created_at) AS t FROM memory_jobs WHERE state IN ('pending', 'running')
                            UNION ALL SELECT min(enqueued_at) FROM memory_jobs_inbox) x) AS oldest_at,
       extract(epoch FROM now() - (SELECT min(t) FROM (SELECT min(created_at) AS t FROM memory_jobs WHERE state IN ('pending', 'running')
                            UNION ALL SELECT min(enqueued_at) FROM memory_jobs_inbox) x)) * 1000 AS oldest_age_ms,
       (SELECT count(*) FROM memory_workers w WHERE ${live("w")})::int AS live_workers,
       (SELECT max(last_seen_at) FROM memory_workers) AS last_heartbeat,
       extract(epoch FROM now() - (SELECT max(last_seen_at) FROM memory_workers)) * 1000 AS last_heartbeat_age_ms`;

/**
 * One user's queue for the viewer ($1 tenant, $2 user): their waiting jobs and submitted turns,
 * the oldest one's age, and the workers (ids are not returned, only whether one is live and when
 * one last polled). Runs in the user's transaction.
 */
export const USER_QUEUE_STATUS_SQL = `
SELECT (SELECT count(*) FROM memory_jobs WHERE tenant_id = $1::text AND user_id = $2::text AND state IN ('pending', 'running'))::int AS waiting,
       (SELECT count(*) FROM memory_jobs_inbox WHERE tenant_id = $1::text AND user_id = $2::text)::int AS inbox,
       extract(epoch FROM now() - (SELECT min(t) FROM (
         SELECT min(created_at) AS t FROM memory_jobs WHERE tenant_id = $1::text AND user_id = $2::text AND state IN ('pending', 'running')
         UNION ALL SELECT min(enqueued_at) FROM memory_jobs_inbox WHERE tenant_id = $1::text AND user_id = $2::text) x)) * 1000 AS oldest_age_ms,
       EXISTS (SELECT 1 FROM memory_workers w WHERE ${live("w")}) AS worker_live,
       extract(epoch FROM now() - (SELECT max(last_seen_at) FROM memory_workers)) * 1000 AS last_heartbeat_age_ms`;
