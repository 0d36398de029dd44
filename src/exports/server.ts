// langgraph-memory/server: running langgraph-memory. The HTTP API and the memory viewer with their
// authentication, the durable job queue and its worker, the retention sweep and the database roles.

// ── HTTP API and viewer ──────────────────────────────────────────────────────────────────────
export { createMemoryServer, DEFAULT_PORT, DEFAULT_HOST, type MemoryServer, type MemoryServerOptions } from "../server/memory-server.js";
export { memoryApi, DEFAULT_BODY_LIMIT, type MemoryApiOptions } from "../server/memory-api.js";
export { TokenTable, bearerTokenAuthenticator, TOKEN_ENV_VARS, RECOMMENDED_TOKEN_CHARS, type Authenticate, type AuthenticatedUser } from "../server/authentication.js";
export { ViewerSessions, type ViewerSessionsOptions } from "../server/viewer-sessions.js";
export type { ErrorBody } from "../server/http-errors.js";
export type { ListedMemory } from "../server/memory-listing.js";

// ── Durable jobs ─────────────────────────────────────────────────────────────────────────────
export { JobQueue, type JobQueueOptions, type ClaimOptions, type FailOptions, type FailResult, type PurgeOptions } from "../jobs/job-queue.js";
export {
  JobWorker,
  type JobWorkerOptions,
  type JobHandler,
  type JobContext,
  type JobEvent,
  type DrainOptions,
  type DrainResult,
  type StopOptions,
} from "../jobs/job-worker.js";
export { runWorker, type RunWorkerOptions } from "../jobs/run-worker.js";
export type { EnqueueInput } from "../jobs/validate-enqueue.js";
export type { Job, ClaimedJob, JobScope, JobState, JobErrorSummary, EnqueueResult, EnqueueOutcome, SubmitResult, JsonObject } from "../jobs/types.js";
export { MERGE_STRATEGIES, type MergeStrategy } from "../jobs/merge-strategies.js";
export { DEFAULT_BACKOFF, type BackoffOptions } from "../jobs/backoff.js";
export { queueStatus, userQueueStatus, type QueueStatus, type UserQueueStatus } from "../jobs/queue-health.js";
export { NoWorkerWarning, type NoWorkerWarningOptions } from "../jobs/no-worker-warning.js";

// ── Retention and database roles ─────────────────────────────────────────────────────────────
export { RetentionSweep, RETENTION_STEPS, type RetentionStep, type RetentionSweepOptions, type RetentionRunOptions, type RetentionSummary, type RetentionRunRecord } from "../retention/retention-sweep.js";
export { grantMemoryRoles, WORKER_GROUP_ROLE, type RoleGrants } from "../controls/database-roles.js";
