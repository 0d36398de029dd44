import type { Database, Queryable } from "../db/database.js";
import { ErrorCodes, MemoryError, invalidInput } from "../errors.js";
import { DEFAULT_BACKOFF, backoffDelayMs, resolveBackoff, type BackoffOptions } from "./backoff.js";
import { clockParam, type JobClock } from "./clock.js";
import { summarizeJobError } from "./error-summary.js";
import {
  CLAIM_SQL,
  COMPLETE_SQL,
  CUTOFF_SQL,
  EXTEND_LEASE_SQL,
  GET_JOB_SQL,
  LIST_JOBS_SQL,
  LOCK_OWNED_SQL,
  NEXT_DUE_SQL,
  PURGE_FINISHED_SQL,
  TAKE_PENDING_OF_GROUP_SQL,
  ENQUEUE_SQL,
  FAIL_SQL,
  FOLD_INBOX_SQL,
  SUBMIT_SQL,
  type EnqueueRow,
  CHECK_LEASE_SQL,
  VACUUM_JOB_TABLES_SQL,
} from "./job-queries.js";
import { jobFromRow, type JobRow } from "./job-row.js";
import { isMergeStrategy, type MergeStrategy } from "./merge-strategies.js";
import type { ClaimedJob, EnqueueResult, Job, JobErrorSummary, JobScope, JsonObject, SubmitResult } from "./types.js";
import { requireDelay, requireScope, requireText, validateEnqueue, type EnqueueInput, type ValidEnqueue } from "./validate-enqueue.js";
import { localWakeups, notifyChannel } from "./wakeups.js";

export interface JobQueueOptions {
  /** The clock of run_after, leases and retention. Default: the database's `now()` (see clock.ts). */
  clock?: JobClock;
  /** Retry delays after a failed attempt. */
  backoff?: Partial<BackoffOptions>;
  /** Random source of the backoff jitter (tests pass a constant). */
  random?: () => number;
  /** NOTIFY listening workers (server Postgres) when a job is inserted. Default true. */
  notify?: boolean;
  /**
   * PGlite only (it runs no autovacuum): after this many inbox rows folded by this queue, VACUUM
   * the inbox and the job table, or every turn's insert and delete would grow them for good.
   * Default 5,000; 0 never.
   */
  vacuumEveryRows?: number;
}

export interface ClaimOptions {
  /** How long the claim holds the job before another worker may take it. */
  leaseMs: number;
  /** Claim pending jobs whatever their run_after (debounce, backoff): for `drain`. */
  ignoreRunAfter?: boolean;
}

export interface FailOptions {
  /** Do not retry: the job becomes `failed` now (e.g. a payload that can never be processed). */
  permanent?: boolean;
}

export interface FailResult {
  state: "pending" | "failed";
  /** When the retry is due (pending), or the unchanged run_after (failed). */
  runAfter: Date;
  /** The group's newer pending job this retry absorbed (its payload merged in), if any. */
  absorbedJobId: number | null;
  error: JobErrorSummary;
}

export interface PurgeOptions {
  /** Finished jobs older than this: an age in milliseconds, or a cutoff date. */
  olderThan: number | Date;
  queue?: string;
  /** Rows per delete statement. Default 1000. */
  batchSize?: number;
}

const MAX_RECLAIM_ROUNDS = 16;
/** Inbox rows per fold statement (each is one transaction holding the fold lock). */
const FOLD_BATCH = 500;

// Hot statements run as named prepared statements on server Postgres (planned once per
// connection); PGlite ignores the names.
const PREPARED = {
  enqueue: { name: "lgm_jobs_enqueue" },
  submit: { name: "lgm_jobs_submit" },
  fold: { name: "lgm_jobs_fold_inbox" },
  claim: { name: "lgm_jobs_claim" },
  complete: { name: "lgm_jobs_complete" },
  extendLease: { name: "lgm_jobs_extend_lease" },
} as const;

/**
 * The durable job queue over `memory_jobs`, on either engine. Enqueue is one statement (cheap
 * enough for the response path); claims use `FOR UPDATE SKIP LOCKED`; every state change of a
 * running job checks the lease token, so a worker that was presumed dead cannot finish a job that
 * another worker re-took.
 *
 * @example
 * const jobs = new JobQueue(db);
 * await jobs.enqueue({
 *   queue: "extract", scope: { tenantId: "acme", userId: "alice" },
 *   groupKey: threadId, idempotencyKey: `${threadId}:${lastMessageId}`,
 *   payload: { threadId, lastMessageId, messages: newMessages }, debounceMs: 5_000,
 * }); // → { outcome: "inserted" | "merged" | "skipped", jobId, runAfter }
 */
export class JobQueue {
  readonly clock: JobClock | undefined;
  readonly backoff: BackoffOptions;
  private readonly random: () => number;
  private readonly channel: string | null;
  private readonly vacuumEveryRows: number;
  private foldedSinceVacuum = 0;

  constructor(
    readonly db: Database,
    options: JobQueueOptions = {},
  ) {
    this.clock = options.clock;
    this.backoff = options.backoff ? resolveBackoff(options.backoff) : DEFAULT_BACKOFF;
    this.random = options.random ?? Math.random;
    this.channel = (options.notify ?? true) ? notifyChannel(db) : null;
    this.vacuumEveryRows = options.vacuumEveryRows ?? 5_000;
    if (!Number.isInteger(this.vacuumEveryRows) || this.vacuumEveryRows < 0) throw invalidInput("vacuumEveryRows", "must be a non-negative integer");
  }

  /**
   * Queue work in one round trip: insert a job, merge into the group's pending job (payload
   * merged in SQL, newest idempotency key, run_after pushed to now + debounce), or skip when the
   * idempotency key is already queued, running or done. With `tx`, the job is queued in the
   * caller's transaction (it exists, and listening workers are notified, only if that commits).
   */
  async enqueue<P extends JsonObject>(input: EnqueueInput<P>, options: { tx?: Queryable } = {}): Promise<EnqueueResult> {
    const v = validateEnqueue(input);
    const params = this.enqueueParams(v);
    const { rows } = await (options.tx ?? this.db).query<EnqueueRow>(ENQUEUE_SQL, params, PREPARED.enqueue);
    const row = rows[0];
    if (!row) return { outcome: "skipped", jobId: null, runAfter: null };
    if (row.inserted) localWakeups(this.db).emit("wake", { queue: v.queue, dueInMs: row.due_in_ms });
    return { outcome: row.inserted ? "inserted" : "merged", jobId: Number(row.id), runAfter: toDate(row.run_after) };
  }

  /**
   * Queue work with one insert, for the response path: the work lands in the inbox
   * (`memory_jobs_inbox`) and becomes a job when it is folded — before every claim, or by
   * {@link foldInbox} — with the same outcome {@link enqueue} would have had at this moment:
   * skipped when the idempotency key is already queued, running or done, else inserted or merged
   * into the group's pending job, due debounceMs after this call. Durable once it returns (or once
   * `tx` commits). Cheaper than `enqueue` on the caller's path: no lookup, no merge, no index of
   * the job table touched (docs/jobs.md has the figures).
   *
   * @example
   * await jobs.submit({ queue: "extract", scope, groupKey: threadId, idempotencyKey: `${threadId}:${lastId}`,
   *   payload: { messages }, debounceMs: 5_000 }); // → { submissionId }
   */
  async submit<P extends JsonObject>(input: EnqueueInput<P>, options: { tx?: Queryable } = {}): Promise<SubmitResult> {
    const v = validateEnqueue(input);
    const params = this.enqueueParams(v);
    const { rows } = await (options.tx ?? this.db).query<{ id: number | string }>(SUBMIT_SQL, params, PREPARED.submit);
    localWakeups(this.db).emit("wake", { queue: v.queue, dueInMs: v.debounceMs });
    return { submissionId: Number(rows[0].id) };
  }

  /** The parameters ENQUEUE_SQL and SUBMIT_SQL share. */
  private enqueueParams(v: ValidEnqueue): unknown[] {
    return [v.queue, v.tenantId, v.userId, v.groupKey, v.idempotencyKey, v.payloadJson, v.maxAttempts, v.debounceMs, v.maxWaitMs, clockParam(this.clock), this.channel, v.merge];
  }

  /**
   * Turn every submitted row into jobs now (oldest first, as {@link enqueue} at each row's submit
   * time); returns how many rows were folded. Claims call it; call it before reading jobs that
   * may still be in the inbox.
   */
  async foldInbox(): Promise<number> {
    let total = 0;
    for (;;) {
      const { rows } = await this.db.query<{ folded: number }>(FOLD_INBOX_SQL, [this.channel, FOLD_BATCH], PREPARED.fold);
      const n = Number(rows[0]?.folded ?? 0);
      total += n;
      if (n < FOLD_BATCH) break;
    }
    if (this.db.engine === "pglite" && this.vacuumEveryRows > 0) {
      this.foldedSinceVacuum += total;
      if (this.foldedSinceVacuum >= this.vacuumEveryRows) {
        this.foldedSinceVacuum = 0;
        await this.db.exec(VACUUM_JOB_TABLES_SQL);
      }
    }
    return total;
  }

  /**
   * Take the next job of `queue` for `workerId`, after folding the inbox: a job whose lease expired
   * first, else the oldest due pending job whose group has no running job. Sets it running with a
   * lease of `leaseMs` and counts the attempt. Null when nothing is claimable.
   */
  async claim<P extends JsonObject = JsonObject>(queue: string, workerId: string, options: ClaimOptions): Promise<ClaimedJob<P> | null> {
    requireText(queue, "queue", 200);
    requireText(workerId, "workerId", 200);
    const leaseMs = requireDelay(options?.leaseMs, "leaseMs");
    if (leaseMs < 1) throw invalidInput("leaseMs", "must be at least 1 ms");
    await this.foldInbox();
    for (let round = 0; round < MAX_RECLAIM_ROUNDS; round++) {
      const params = [queue, workerId, leaseMs, clockParam(this.clock), options.ignoreRunAfter ? "infinity" : null];
      const { rows } = await this.db.query<JobRow>(CLAIM_SQL, params, PREPARED.claim);
      const row = rows[0];
      if (!row) return null;
      // A dead worker's job that had no attempts left was marked failed instead: look again.
      if (row.state === "running") return jobFromRow<P>(row) as ClaimedJob<P>;
    }
    return null;
  }

  /** Mark a claimed job done. Throws JOB_LEASE_LOST when the worker no longer holds it. */
  async complete(job: ClaimedJob<JsonObject>): Promise<void> {
    const { rows } = await this.db.query(COMPLETE_SQL, [...leaseToken(job), clockParam(this.clock)], PREPARED.complete);
    if (rows.length === 0) throw leaseLost(job, "complete");
  }

  /**
   * The exactly-once pattern: run the handler's writes and the completion in one transaction,
   * scoped to the job's tenant/user. The completion goes first, so the job row stays locked while
   * `fn` writes (a worker re-taking an expired lease skips it) and a lost lease aborts before any
   * write. If `fn` throws, nothing of it is kept and the job is still running (fail it).
   * Inside `fn` use `tx` only: on PGlite the database is busy until the transaction ends.
   *
   * @example
   * await jobs.completeWith(job, async (tx) => {
   *   await tx.query("INSERT INTO memories … ON CONFLICT DO NOTHING", [...]);
   * });
   */
  async completeWith<T>(job: ClaimedJob<JsonObject>, fn: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.db.transaction(
      async (tx) => {
        const { rows } = await tx.query(COMPLETE_SQL, [...leaseToken(job), clockParam(this.clock)], PREPARED.complete);
        if (rows.length === 0) throw leaseLost(job, "complete");
        return fn(tx);
      },
      { scope: job.scope },
    );
  }

  /**
   * Record a failed attempt: back to pending after an exponential backoff (with jitter, capped)
   * while attempts remain, else `failed`. The error is stored as a code and a payload-free
   * message. When a newer pending job of the same group exists, the retry absorbs it (its payload
   * is merged after this one's), keeping the group's messages in order in one job.
   * Throws JOB_LEASE_LOST when the worker no longer holds the job.
   */
  async fail(job: ClaimedJob<JsonObject>, error: unknown, options: FailOptions = {}): Promise<FailResult> {
    const summary = summarizeJobError(error, job.payload);
    const delayMs = backoffDelayMs(job.attempts, this.backoff, this.random);
    const now = clockParam(this.clock);
    const result = await this.db.transaction(async (tx) => {
      const owned = await tx.query<{ attempts: number; max_attempts: number; tenant_id: string; user_id: string; queue: string; group_key: string }>(
        LOCK_OWNED_SQL,
        leaseToken(job),
      );
      const o = owned.rows[0];
      if (!o) throw leaseLost(job, "fail");
      const retry = !options.permanent && o.attempts < o.max_attempts;
      const absorbed = retry
        ? (await tx.query<AbsorbedRow>(TAKE_PENDING_OF_GROUP_SQL, [o.tenant_id, o.user_id, o.queue, o.group_key])).rows[0]
        : undefined;
      const merge: MergeStrategy = absorbed && isMergeStrategy(absorbed.merge) ? absorbed.merge : "append";
      const { rows } = await tx.query<{ state: "pending" | "failed"; run_after: Date | string }>(FAIL_SQL, [
        ...leaseToken(job),
        summary.code,
        summary.message,
        delayMs,
        retry,
        absorbed ? JSON.stringify(typeof absorbed.payload === "string" ? JSON.parse(absorbed.payload) : absorbed.payload) : null,
        absorbed ? absorbed.merged_keys : null,
        absorbed ? absorbed.idempotency_key : null,
        absorbed ? absorbed.max_attempts : null,
        absorbed ? toDate(absorbed.run_after).toISOString() : null,
        now,
        merge,
      ]);
      return { state: rows[0].state, runAfter: toDate(rows[0].run_after), absorbedJobId: absorbed ? Number(absorbed.id) : null, error: summary };
    });
    if (result.state === "pending") localWakeups(this.db).emit("wake", { queue: job.queue, dueInMs: delayMs });
    return result;
  }

  /** Push a claimed job's lease to now + leaseMs (heartbeat). Throws JOB_LEASE_LOST when it is no longer held. */
  async extendLease(job: ClaimedJob<JsonObject>, leaseMs: number): Promise<Date> {
    requireDelay(leaseMs, "leaseMs");
    const { rows } = await this.db.query<{ locked_until: Date | string }>(
      EXTEND_LEASE_SQL,
      [...leaseToken(job), leaseMs, clockParam(this.clock)],
      PREPARED.extendLease,
    );
    if (rows.length === 0) throw leaseLost(job, "extend the lease of");
    job.lockedUntil = toDate(rows[0].locked_until);
    return job.lockedUntil;
  }

  /**
   * Throw JOB_LEASE_LOST unless the worker still holds the job's lease — what a handler checks
   * before writes done outside {@link completeWith} (the extraction write pass does, under the
   * user's write lock: forgetting a fact takes the lease of a running job whose payload quoted it).
   *
   * @example
   * await ctx.queue.checkLease(job); // throws JOB_LEASE_LOST: write nothing, the job runs again
   * await writeMyEffects(job.payload);
   */
  async checkLease(job: ClaimedJob<JsonObject>): Promise<void> {
    const { rows } = await this.db.query(CHECK_LEASE_SQL, leaseToken(job));
    if (rows.length === 0) throw leaseLost(job, "write for");
  }

  /** Delete finished (done and failed) jobs older than `olderThan`; returns how many. */
  async purgeFinished(options: PurgeOptions): Promise<number> {
    const batchSize = options.batchSize ?? 1000;
    if (!Number.isInteger(batchSize) || batchSize < 1) throw invalidInput("batchSize", "must be a positive integer");
    let cutoff: Date;
    if (options.olderThan instanceof Date) {
      if (Number.isNaN(options.olderThan.getTime())) throw invalidInput("olderThan", "is an invalid date");
      cutoff = options.olderThan;
    } else {
      if (typeof options.olderThan !== "number" || !Number.isFinite(options.olderThan) || options.olderThan < 0) {
        throw invalidInput("olderThan", "must be an age in milliseconds (≥ 0) or a Date");
      }
      const { rows } = await this.db.query<{ cutoff: Date | string }>(CUTOFF_SQL, [options.olderThan, clockParam(this.clock)]);
      cutoff = toDate(rows[0].cutoff);
    }
    let total = 0;
    for (;;) {
      const { rowCount } = await this.db.query(PURGE_FINISHED_SQL, [cutoff.toISOString(), options.queue ?? null, batchSize]);
      total += rowCount;
      if (rowCount < batchSize) return total;
    }
  }

  /** Milliseconds until a job of these queues may become claimable; null when none is pending or running. */
  async nextDueInMs(queues: readonly string[]): Promise<number | null> {
    const { rows } = await this.db.query<{ due_in_ms: number | null }>(NEXT_DUE_SQL, [queues, clockParam(this.clock)]);
    return rows[0]?.due_in_ms ?? null;
  }

  /** One job by id (inspection, tests). Not scoped: do not expose to end users. */
  async get<P extends JsonObject = JsonObject>(id: number): Promise<Job<P> | null> {
    const { rows } = await this.db.query<JobRow>(GET_JOB_SQL, [id]);
    return rows[0] ? jobFromRow<P>(rows[0]) : null;
  }

  /** A user's jobs, newest first (the inbox folded first, so submitted work is listed). */
  async list(scope: JobScope, options: { queue?: string; groupKey?: string; limit?: number } = {}): Promise<Job[]> {
    const s = requireScope(scope);
    await this.foldInbox();
    const { rows } = await this.db.query<JobRow>(LIST_JOBS_SQL, [s.tenantId, s.userId, options.queue ?? null, options.groupKey ?? null, options.limit ?? 100]);
    return rows.map((r) => jobFromRow(r));
  }
}

interface AbsorbedRow {
  id: number;
  payload: JsonObject | string;
  merge: string;
  merged_keys: string[];
  idempotency_key: string;
  max_attempts: number;
  run_after: Date | string;
}

function leaseToken(job: ClaimedJob<JsonObject>): [number, string, number] {
  return [job.id, job.lockedBy, job.attempts];
}

function leaseLost(job: ClaimedJob<JsonObject>, action: string): MemoryError {
  return new MemoryError(
    ErrorCodes.JOB_LEASE_LOST,
    `cannot ${action} job ${job.id}: worker ${job.lockedBy} no longer holds its lease (attempt ${job.attempts}); another worker may have taken it — lengthen leaseMs or keep the heartbeat on`,
    { details: { jobId: job.id, queue: job.queue, attempts: job.attempts } },
  );
}

function toDate(v: Date | string): Date {
  return v instanceof Date ? v : new Date(v);
}
