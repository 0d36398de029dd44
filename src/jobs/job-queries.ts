/**
 * Named SQL of the job queue. Every statement takes the clock as a parameter
 * (`COALESCE($n::timestamptz, now())`: null → the database clock) so enqueue, claim, leases and
 * retention always compare times from one clock. Parameters are cast explicitly: the same text
 * runs on `pg` and PGlite, which infer untyped parameters differently.
 */
import { JOB_COLUMNS } from "./job-row.js";

const ms = (param: string) => `(${param}::float8 * interval '1 millisecond')`;

/**
 * The tenant argument ($2) of enqueue and submit, through `memory_scope_default` (migration 0009):
 * run without a transaction scope, the statement takes the job's tenant and user ($3) as its
 * transaction-local scope, which the functions check their arguments against (a caller's scope is
 * kept, so a transaction scoped to someone else is refused). One round trip still: no BEGIN,
 * set_config and COMMIT around it.
 */
const SCOPED_TENANT = "memory_scope_default($2::text, $3::text)";

/**
 * Enqueue in one round trip through `memory_jobs_enqueue` (migrations/0004_jobs.sql): skip when the
 * idempotency key is already queued, running or done; else insert, or merge into the group's
 * pending job (payload merged in SQL, newest key recorded, run_after pushed to now + debounce but
 * never past created + max wait). No row when skipped.
 *
 * $1 queue, $2 tenant, $3 user, $4 group key, $5 idempotency key, $6 payload (JSON text),
 * $7 max attempts, $8 debounce ms, $9 max wait ms, $10 now (null = database clock),
 * $11 notify channel (null = none), $12 merge strategy name.
 */
export const ENQUEUE_SQL = `
SELECT job_id AS id, job_run_after AS run_after, inserted, due_in_ms
FROM memory_jobs_enqueue($1::text, ${SCOPED_TENANT}, $3::text, $4::text, $5::text, $6::jsonb, $7::int, $8::float8, $9::float8,
  $10::timestamptz, $11::text, $12::text)`;

/**
 * Submit in one round trip through `memory_jobs_submit`: one insert into `memory_jobs_inbox`, with
 * ENQUEUE_SQL's parameters. The skip / insert / merge decision is taken later by FOLD_INBOX_SQL.
 */
export const SUBMIT_SQL = `
SELECT memory_jobs_submit($1::text, ${SCOPED_TENANT}, $3::text, $4::text, $5::text, $6::jsonb, $7::int, $8::float8, $9::float8,
  $10::timestamptz, $11::text, $12::text) AS id`;

/** Fold up to $2 inbox rows into jobs (oldest first); $1 the notify channel (null = none). Returns `folded`. */
export const FOLD_INBOX_SQL = `SELECT memory_jobs_fold_inbox($1::text, $2::int) AS folded`;

export interface EnqueueRow {
  id: number;
  run_after: Date | string;
  inserted: boolean;
  due_in_ms: number;
}

/** "Another job of this group holds a live lease" — jobs of one group run one at a time. */
const GROUP_BUSY = (alias: string, now: string) => `EXISTS (
      SELECT 1 FROM memory_jobs r
      WHERE r.tenant_id = ${alias}.tenant_id AND r.user_id = ${alias}.user_id AND r.queue = ${alias}.queue
        AND r.group_key = ${alias}.group_key AND r.state = 'running' AND r.locked_until > ${now} AND r.id <> ${alias}.id)`;

/**
 * Claim one job: first a running job whose lease expired (its worker died), else the oldest due
 * pending job whose group is not busy. `FOR UPDATE SKIP LOCKED` in each candidate subquery means
 * concurrent claimers never take the same row and never wait on each other; COALESCE evaluates the
 * second subquery only when the first finds nothing. A reclaimed job that has used all its
 * attempts becomes `failed` (LEASE_EXPIRED) instead; the caller then claims again.
 *
 * $1 queue, $2 worker id, $3 lease ms, $4 now (null = database clock), $5 due-by (null = now;
 * 'infinity' ignores run_after, for drain).
 */
export const CLAIM_SQL = `
UPDATE memory_jobs j SET
  state = CASE WHEN j.state = 'running' AND j.attempts >= j.max_attempts THEN 'failed' ELSE 'running' END,
  attempts = CASE WHEN j.state = 'running' AND j.attempts >= j.max_attempts THEN j.attempts ELSE j.attempts + 1 END,
  locked_by = CASE WHEN j.state = 'running' AND j.attempts >= j.max_attempts THEN NULL ELSE $2::text END,
  locked_until = CASE WHEN j.state = 'running' AND j.attempts >= j.max_attempts THEN NULL ELSE c.now + ${ms("$3")} END,
  finished_at = CASE WHEN j.state = 'running' AND j.attempts >= j.max_attempts THEN c.now ELSE NULL END,
  last_error_code = CASE WHEN j.state = 'running' THEN 'LEASE_EXPIRED' ELSE j.last_error_code END,
  last_error_message = CASE WHEN j.state = 'running' THEN 'the worker holding the job stopped renewing its lease (crashed or stalled)'
    ELSE j.last_error_message END,
  updated_at = c.now
FROM (SELECT COALESCE($4::timestamptz, now()) AS now) c
WHERE j.id = COALESCE(
  (SELECT e.id FROM memory_jobs e
    WHERE e.queue = $1::text AND e.state = 'running' AND e.locked_until <= COALESCE($4::timestamptz, now())
      AND NOT ${GROUP_BUSY("e", "COALESCE($4::timestamptz, now())")}
    ORDER BY e.locked_until
    LIMIT 1
    FOR UPDATE SKIP LOCKED),
  (SELECT p.id FROM memory_jobs p
    WHERE p.queue = $1::text AND p.state = 'pending' AND p.run_after <= COALESCE($5::timestamptz, $4::timestamptz, now())
      AND NOT ${GROUP_BUSY("p", "COALESCE($4::timestamptz, now())")}
    ORDER BY p.run_after, p.id
    LIMIT 1
    FOR UPDATE SKIP LOCKED))
RETURNING ${JOB_COLUMNS}`;

/** The lease token predicate: still running, held by this worker, in this attempt. $1 id, $2 worker, $3 attempts. */
const OWNED = `j.id = $1::bigint AND j.state = 'running' AND j.locked_by = $2::text AND j.attempts = $3::int`;

/**
 * Mark an owned job done. The payload is cleared (it may hold user text and is not needed once
 * the work is done; the idempotency keys stay). $1–$3 lease token, $4 now.
 */
export const COMPLETE_SQL = `
UPDATE memory_jobs j SET state = 'done', payload = '{}'::jsonb, locked_by = NULL, locked_until = NULL,
  finished_at = c.now, updated_at = c.now
FROM (SELECT COALESCE($4::timestamptz, now()) AS now) c
WHERE ${OWNED}
RETURNING j.id`;

/** Push an owned job's lease to now + $4 ms. $1–$3 lease token, $5 now. */
export const EXTEND_LEASE_SQL = `
UPDATE memory_jobs j SET locked_until = c.now + ${ms("$4")}, updated_at = c.now
FROM (SELECT COALESCE($5::timestamptz, now()) AS now) c
WHERE ${OWNED}
RETURNING j.locked_until`;

/** Whether the worker still holds the job's lease ($1–$3 lease token): a row when it does. */
export const CHECK_LEASE_SQL = `SELECT 1 AS held FROM memory_jobs j WHERE ${OWNED}`;

/** Lock an owned job for `fail` (first statement of its transaction). $1–$3 lease token. */
export const LOCK_OWNED_SQL = `
SELECT j.id, j.tenant_id, j.user_id, j.queue, j.group_key, j.attempts, j.max_attempts
FROM memory_jobs j
WHERE ${OWNED}
FOR UPDATE`;

/**
 * Remove the group's pending job so a retrying job can absorb it (the pending-group index allows
 * one pending job per group). $1 tenant, $2 user, $3 queue, $4 group key.
 */
export const TAKE_PENDING_OF_GROUP_SQL = `
DELETE FROM memory_jobs j
WHERE j.tenant_id = $1::text AND j.user_id = $2::text AND j.queue = $3::text AND j.group_key = $4::text AND j.state = 'pending'
RETURNING j.id, j.payload, j.merge, j.merged_keys, j.idempotency_key, j.max_attempts, j.run_after`;

/**
 * Record a failed attempt of an owned, locked job: back to pending at now + $6 ms when `$7`
 * (retry), else `failed`. When a newer pending job of the group was taken ($8 payload not null),
 * it is merged in after this job's payload with its own strategy ($14). $1–$3 lease token, $4
 * error code, $5 error message, $6 retry delay ms, $7 retry, $8 absorbed payload (JSON text or
 * null), $9 absorbed keys, $10 absorbed newest key, $11 absorbed max attempts, $12 absorbed
 * run_after, $13 now, $14 absorbed merge strategy.
 */
export const FAIL_SQL = `
UPDATE memory_jobs j SET
  state = CASE WHEN $7::boolean THEN 'pending' ELSE 'failed' END,
  run_after = CASE WHEN $7::boolean THEN GREATEST(c.now + ${ms("$6")}, COALESCE($12::timestamptz, c.now)) ELSE j.run_after END,
  payload = CASE WHEN $8::jsonb IS NULL THEN j.payload ELSE memory_jobs_merge($14::text, j.payload, $8::jsonb) END,
  merged_keys = j.merged_keys || COALESCE($9::text[], '{}'::text[]),
  idempotency_key = COALESCE($10::text, j.idempotency_key),
  max_attempts = GREATEST(j.max_attempts, COALESCE($11::int, 0)),
  locked_by = NULL, locked_until = NULL,
  last_error_code = $4::text, last_error_message = $5::text,
  finished_at = CASE WHEN $7::boolean THEN NULL ELSE c.now END,
  updated_at = c.now
FROM (SELECT COALESCE($13::timestamptz, now()) AS now) c
WHERE ${OWNED}
RETURNING j.state, j.run_after`;

/**
 * Milliseconds until something in these queues may become claimable (the earliest pending
 * run_after, running lease expiry, or inbox row's end of debounce: folding may merge it into a
 * later job, never an earlier one), by the queue's clock; null when there is nothing. $1 queues,
 * $2 now.
 */
export const NEXT_DUE_SQL = `
SELECT CASE WHEN d.at IS NULL THEN NULL ELSE GREATEST(0, extract(epoch FROM d.at - COALESCE($2::timestamptz, now())) * 1000)::float8 END AS due_in_ms
FROM (SELECT LEAST(
    (SELECT min(j.run_after) FROM memory_jobs j WHERE j.queue = ANY ($1::text[]) AND j.state = 'pending'),
    (SELECT min(j.locked_until) FROM memory_jobs j WHERE j.queue = ANY ($1::text[]) AND j.state = 'running'),
    (SELECT min(i.enqueued_at + ${ms("i.debounce_ms")}) FROM memory_jobs_inbox i WHERE i.queue = ANY ($1::text[]))
  ) AS at) d`;

/**
 * Delete up to $3 finished jobs (done or failed) that finished before $1; $2 restricts to one
 * queue (null = all). Batches keep each delete's lock footprint small.
 */
export const PURGE_FINISHED_SQL = `
DELETE FROM memory_jobs
WHERE id IN (
  SELECT j.id FROM memory_jobs j
  WHERE j.state IN ('done', 'failed') AND j.finished_at < $1::timestamptz AND ($2::text IS NULL OR j.queue = $2::text)
  LIMIT $3::int)`;

/** $1 ms before the clock ($2, null = database clock). */
export const CUTOFF_SQL = `SELECT COALESCE($2::timestamptz, now()) - ${ms("$1")} AS cutoff`;

export const GET_JOB_SQL = `SELECT ${JOB_COLUMNS} FROM memory_jobs j WHERE j.id = $1::bigint`;

/** Jobs of one user (newest first), for inspection and tests; scope leads the filter. */
export const LIST_JOBS_SQL = `
SELECT ${JOB_COLUMNS} FROM memory_jobs j
WHERE j.tenant_id = $1::text AND j.user_id = $2::text AND ($3::text IS NULL OR j.queue = $3::text)
  AND ($4::text IS NULL OR j.group_key = $4::text)
ORDER BY j.id DESC
LIMIT $5::int`;

/** PGlite runs no autovacuum: after folding many inbox rows, reclaim their space (and the jobs table's). */
export const VACUUM_JOB_TABLES_SQL = "VACUUM memory_jobs_inbox, memory_jobs";
