/** Shapes of the durable job queue (`memory_jobs`). */

export type JobState = "pending" | "running" | "done" | "failed";

/** A JSON object: the only payload shape accepted (merging works key by key). */
export type JsonObject = { [key: string]: unknown };

/** Whose work a job is: every job belongs to one user of one tenant. */
export interface JobScope {
  tenantId: string;
  userId: string;
}

/** An error as stored on a job: a code and a short message that never holds payload text. */
export interface JobErrorSummary {
  code: string;
  message: string;
}

export interface Job<P extends JsonObject = JsonObject> {
  id: number;
  queue: string;
  scope: JobScope;
  groupKey: string;
  /** The newest idempotency key merged into the job. */
  idempotencyKey: string;
  /** Every idempotency key merged into the job, oldest first. */
  mergedKeys: string[];
  payload: P;
  merge: string;
  state: JobState;
  /** Attempts started so far (a claim increments it). */
  attempts: number;
  maxAttempts: number;
  runAfter: Date;
  lockedBy: string | null;
  lockedUntil: Date | null;
  lastError: JobErrorSummary | null;
  createdAt: Date;
  updatedAt: Date;
  finishedAt: Date | null;
}

/**
 * A job this worker holds. `(id, lockedBy, attempts)` is the lease token: completing, failing or
 * extending checks it, so a presumed-dead worker cannot finish a job someone else re-took.
 */
export interface ClaimedJob<P extends JsonObject = JsonObject> extends Job<P> {
  state: "running";
  lockedBy: string;
  lockedUntil: Date;
}

export type EnqueueOutcome = "inserted" | "merged" | "skipped";

/** What {@link JobQueue.submit} returns: the inbox row that holds the work until it is folded into a job. */
export interface SubmitResult {
  submissionId: number;
}

export interface EnqueueResult {
  /** inserted: a new pending job; merged: folded into the group's pending job; skipped: a job with this idempotency key is already queued, running or done. */
  outcome: EnqueueOutcome;
  jobId: number | null;
  /** When the job becomes due (null when skipped). */
  runAfter: Date | null;
}
