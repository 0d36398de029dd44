import { ErrorCodes, MemoryError, invalidInput } from "../errors.js";
import { requireMergeStrategy, type MergeStrategy } from "./merge-strategies.js";
import type { JobScope, JsonObject } from "./types.js";

/** What to enqueue: see {@link JobQueue.enqueue}. */
export interface EnqueueInput<P extends JsonObject = JsonObject> {
  queue: string;
  scope: JobScope;
  /** Jobs of one group merge while pending and run one at a time (e.g. the thread id). */
  groupKey: string;
  /** Names the work (e.g. `thread:lastMessageId`): once queued, running or done, the same key is a no-op. */
  idempotencyKey: string;
  /** A JSON object; may hold user text (never logged, cleared when the job is done). */
  payload: P;
  /** Delay before the job is due; a merge pushes it to now + debounceMs again. Default 0. */
  debounceMs?: number;
  /** Merges never push a job past created + maxWaitMs. Default max(60 s, debounceMs). */
  maxWaitMs?: number;
  /** How a later enqueue's payload merges into the pending one. Default `append`. */
  merge?: MergeStrategy;
  /** Attempts before the job is `failed`. Default 5. */
  maxAttempts?: number;
}

export interface ValidEnqueue {
  queue: string;
  tenantId: string;
  userId: string;
  groupKey: string;
  idempotencyKey: string;
  payloadJson: string;
  debounceMs: number;
  maxWaitMs: number;
  merge: MergeStrategy;
  maxAttempts: number;
}

const MAX_NAME_CHARS = 200;
const MAX_KEY_CHARS = 500;
const MAX_ID_CHARS = 256;
const MAX_DELAY_MS = 7 * 24 * 3600_000;
/** A payload above this is a bug (a whole thread instead of its new messages). */
export const MAX_PAYLOAD_BYTES = 4 * 1024 * 1024;

export function validateEnqueue(input: EnqueueInput): ValidEnqueue {
  if (!input || typeof input !== "object") throw invalidInput("enqueue", "expects an object { queue, scope, groupKey, idempotencyKey, payload }");
  const queue = requireText(input.queue, "queue", MAX_NAME_CHARS);
  const scope = requireScope(input.scope);
  const groupKey = requireText(input.groupKey, "groupKey", MAX_KEY_CHARS);
  const idempotencyKey = requireText(input.idempotencyKey, "idempotencyKey", MAX_KEY_CHARS);
  const p = input.payload as unknown;
  if (!p || typeof p !== "object" || Array.isArray(p)) throw invalidInput("payload", "must be a JSON object (merging works key by key)");
  const payloadJson = JSON.stringify(p);
  if (Buffer.byteLength(payloadJson) > MAX_PAYLOAD_BYTES) {
    throw invalidInput("payload", `is larger than ${MAX_PAYLOAD_BYTES} bytes as JSON; enqueue only the new messages of a turn`);
  }
  const debounceMs = requireDelay(input.debounceMs ?? 0, "debounceMs");
  const maxWaitMs = requireDelay(input.maxWaitMs ?? Math.max(60_000, debounceMs), "maxWaitMs");
  if (maxWaitMs < debounceMs) throw invalidInput("maxWaitMs", "must be ≥ debounceMs");
  const maxAttempts = input.maxAttempts ?? 5;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1 || maxAttempts > 100) throw invalidInput("maxAttempts", "must be an integer from 1 to 100");
  return {
    queue,
    tenantId: scope.tenantId,
    userId: scope.userId,
    groupKey,
    idempotencyKey,
    payloadJson,
    debounceMs,
    maxWaitMs,
    merge: requireMergeStrategy(input.merge),
    maxAttempts,
  };
}

/** A job's scope: tenant and user are both required (a job acts for one user). */
export function requireScope(scope: unknown): JobScope {
  const s = (scope ?? {}) as { tenantId?: unknown; userId?: unknown };
  for (const name of ["tenantId", "userId"] as const) {
    const v = s[name];
    if (typeof v !== "string" || v.trim().length === 0) {
      throw new MemoryError(ErrorCodes.SCOPE_REQUIRED, `a job needs scope.${name} (a non-empty string): jobs act for one user of one tenant`);
    }
    if (v.length > MAX_ID_CHARS || v.includes("\0")) throw invalidInput(`scope.${name}`, `at most ${MAX_ID_CHARS} characters and no NUL bytes`);
  }
  return { tenantId: s.tenantId as string, userId: s.userId as string };
}

export function requireText(v: unknown, field: string, max: number): string {
  if (typeof v !== "string" || v.length === 0) throw invalidInput(field, "must be a non-empty string");
  if (v.length > max || v.includes("\0")) throw invalidInput(field, `at most ${max} characters and no NUL bytes`);
  return v;
}

export function requireDelay(v: unknown, field: string): number {
  if (typeof v !== "number" || !Number.isFinite(v) || v < 0 || v > MAX_DELAY_MS) {
    throw invalidInput(field, `must be a number of milliseconds from 0 to ${MAX_DELAY_MS}`);
  }
  return v;
}
