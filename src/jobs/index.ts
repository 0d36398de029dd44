/** Durable background jobs in Postgres (server or PGlite): see docs/jobs.md. */
export { JobQueue, type JobQueueOptions, type ClaimOptions, type FailOptions, type FailResult, type PurgeOptions } from "./job-queue.js";
export {
  JobWorker,
  type JobWorkerOptions,
  type JobHandler,
  type JobContext,
  type JobEvent,
  type DrainOptions,
  type DrainResult,
  type StopOptions,
} from "./job-worker.js";
export { runWorker, type RunWorkerOptions } from "./run-worker.js";
export type { EnqueueInput } from "./validate-enqueue.js";
export type { Job, ClaimedJob, JobScope, JobState, JobErrorSummary, EnqueueResult, EnqueueOutcome, SubmitResult, JsonObject } from "./types.js";
export { MERGE_STRATEGIES, type MergeStrategy } from "./merge-strategies.js";
export { DEFAULT_BACKOFF, backoffDelayMs, type BackoffOptions } from "./backoff.js";
export { ManualClock, type JobClock } from "./clock.js";
export { summarizeJobError } from "./error-summary.js";
export { queueStatus, userQueueStatus, type QueueStatus, type UserQueueStatus } from "./queue-health.js";
export { NoWorkerWarning, type NoWorkerWarningOptions } from "./no-worker-warning.js";
