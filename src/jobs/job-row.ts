import type { Job, JobState, JsonObject } from "./types.js";

/** Columns every job-returning statement selects (alias `j`). */
export const JOB_COLUMNS = `j.id, j.queue, j.tenant_id, j.user_id, j.group_key, j.idempotency_key, j.merged_keys, j.payload,
  j.merge, j.state, j.attempts, j.max_attempts, j.run_after, j.locked_by, j.locked_until, j.last_error_code,
  j.last_error_message, j.created_at, j.updated_at, j.finished_at`;

export interface JobRow {
  id: number;
  queue: string;
  tenant_id: string;
  user_id: string;
  group_key: string;
  idempotency_key: string;
  merged_keys: string[];
  payload: JsonObject | string;
  merge: string;
  state: JobState;
  attempts: number;
  max_attempts: number;
  run_after: Date | string;
  locked_by: string | null;
  locked_until: Date | string | null;
  last_error_code: string | null;
  last_error_message: string | null;
  created_at: Date | string;
  updated_at: Date | string;
  finished_at: Date | string | null;
}

export function jobFromRow<P extends JsonObject = JsonObject>(r: JobRow): Job<P> {
  return {
    id: Number(r.id),
    queue: r.queue,
    scope: { tenantId: r.tenant_id, userId: r.user_id },
    groupKey: r.group_key,
    idempotencyKey: r.idempotency_key,
    mergedKeys: r.merged_keys,
    payload: (typeof r.payload === "string" ? JSON.parse(r.payload) : r.payload) as P,
    merge: r.merge,
    state: r.state,
    attempts: r.attempts,
    maxAttempts: r.max_attempts,
    runAfter: toDate(r.run_after),
    lockedBy: r.locked_by,
    lockedUntil: r.locked_until === null ? null : toDate(r.locked_until),
    lastError: r.last_error_code === null ? null : { code: r.last_error_code, message: r.last_error_message ?? "" },
    createdAt: toDate(r.created_at),
    updatedAt: toDate(r.updated_at),
    finishedAt: r.finished_at === null ? null : toDate(r.finished_at),
  };
}

function toDate(v: Date | string): Date {
  return v instanceof Date ? v : new Date(v);
}
