/**
 * Typed errors. Every error the library throws on purpose is a {@link MemoryError} with a stable
 * `code` (part of the public contract: apps switch on it) and a message that says what to fix.
 *
 * @example
 * try { await store.add(scope, { kind: "fact", text: "" }); }
 * catch (e) { if (isMemoryError(e, "INVALID_INPUT")) showToUser(e.message); }
 */
export const ErrorCodes = {
  /** Configuration failed validation. */
  CONFIG_INVALID: "CONFIG_INVALID",
  /** A database URL that is neither postgres://, postgresql://, pglite:<dir> nor memory://. */
  DB_URL_INVALID: "DB_URL_INVALID",
  /** The database cannot be reached or the connection dropped; retrying later may succeed. */
  DB_UNAVAILABLE: "DB_UNAVAILABLE",
  /** The embedded data directory cannot be opened (read-only, full disk, corrupt files). */
  DB_OPEN_FAILED: "DB_OPEN_FAILED",
  /** A query failed for a reason other than connectivity. */
  DB_QUERY_FAILED: "DB_QUERY_FAILED",
  /** The database holds a migration this version of the code does not know (it is newer). */
  MIGRATION_UNKNOWN: "MIGRATION_UNKNOWN",
  /** An applied migration's file changed after it was applied. */
  MIGRATION_CHECKSUM_MISMATCH: "MIGRATION_CHECKSUM_MISMATCH",
  /** A migration failed to apply; its transaction was rolled back. */
  MIGRATION_FAILED: "MIGRATION_FAILED",
  /** The schema has not been migrated yet (run `langgraph-memory migrate` or enable autoMigrate). */
  NOT_MIGRATED: "NOT_MIGRATED",
  /** A memory read or write without tenant/user scope. */
  SCOPE_REQUIRED: "SCOPE_REQUIRED",
  /**
   * The thread belongs to another tenant and user (or to nobody, for a scoped call, or to someone,
   * for an unscoped one): nothing of it was read or written. Use a new thread id (HTTP 403).
   */
  THREAD_SCOPE_MISMATCH: "THREAD_SCOPE_MISMATCH",
  /** A store bound to one tenant (and user) was asked for another tenant's or user's memories namespace. */
  SCOPE_MISMATCH: "SCOPE_MISMATCH",
  /** Bad input from the caller: the message names the field and what is allowed. */
  INVALID_INPUT: "INVALID_INPUT",
  /**
   * A command of the eval harness (`eval`, `bench locomo`, `bench locomo-memory`) was run from the
   * installed package, which does not ship the evals: run it from a checkout of the repository.
   */
  CHECKOUT_REQUIRED: "CHECKOUT_REQUIRED",
  /**
   * A user's edit or import holds data memory never stores (a password, key, card or account
   * number, national id, or special-category data the app does not allow): nothing was written.
   * The message names the field and the kind of data, never the value (HTTP 422).
   */
  SENSITIVE_CONTENT: "SENSITIVE_CONTENT",
  /** The thing does not exist in the caller's scope (never says whether it exists elsewhere). */
  NOT_FOUND: "NOT_FOUND",
  /** A vector's length differs from the dimension recorded in the database. */
  EMBEDDING_DIMENSION_MISMATCH: "EMBEDDING_DIMENSION_MISMATCH",
  /** A stored checkpoint row cannot be decoded. */
  CHECKPOINT_CORRUPT: "CHECKPOINT_CORRUPT",
  /** A checkpoint refers to a parent (or delta base) that is not stored. */
  CHECKPOINT_PARENT_MISSING: "CHECKPOINT_PARENT_MISSING",
  /** A model or embedding provider is configured but cannot be used. */
  MODEL_UNAVAILABLE: "MODEL_UNAVAILABLE",
  /** A feature needs an optional peer package (`langchain`, `@langchain/openai`) that is not installed. */
  PEER_MISSING: "PEER_MISSING",
  /** The user has opted out of memory: nothing is read or written for them. */
  OPTED_OUT: "OPTED_OUT",
  /** A confirmation token is missing, wrong or expired. */
  CONFIRMATION_INVALID: "CONFIRMATION_INVALID",
  /** The caller is not authenticated (HTTP API). */
  UNAUTHENTICATED: "UNAUTHENTICATED",
  /** A background job failed permanently. */
  JOB_FAILED: "JOB_FAILED",
  /** A stored file line or record cannot be parsed. */
  CORRUPT_RECORD: "CORRUPT_RECORD",
  /** A model answered, but not in the expected shape (e.g. extraction without a `memories` list); retrying may help. */
  MODEL_OUTPUT_INVALID: "MODEL_OUTPUT_INVALID",
  /** The JSONL memory file (the skill's MEMORY_FILE) or its folder cannot be created, read or written. */
  MEMORY_FILE_UNAVAILABLE: "MEMORY_FILE_UNAVAILABLE",
  /** A worker tried to complete, fail or extend a job whose lease it no longer holds (it expired and another worker took the job). */
  JOB_LEASE_LOST: "JOB_LEASE_LOST",
  /** Jobs wait past their due time and no worker polls their queue: nothing is being extracted (a warning, never thrown). */
  NO_WORKER: "NO_WORKER",
  /** A maintenance task runs as a role without the rights it needs: the retention sweep as a role row-level security restricts (run it as the schema owner), or a worker-role membership this role may not grant (run the statements given as a superuser or a role with CREATEROLE). */
  MAINTENANCE_ROLE_REQUIRED: "MAINTENANCE_ROLE_REQUIRED",
  /** An HTTP request body is larger than the server accepts (HTTP 413). */
  PAYLOAD_TOO_LARGE: "PAYLOAD_TOO_LARGE",
  /** An HTTP request body is not JSON (HTTP 415): send `Content-Type: application/json`. */
  UNSUPPORTED_MEDIA_TYPE: "UNSUPPORTED_MEDIA_TYPE",
  /** A browser sent a state-changing HTTP request from another site (HTTP 403). */
  CROSS_SITE_REQUEST: "CROSS_SITE_REQUEST",
  /** The HTTP server failed in a way it does not describe to clients (HTTP 500); its log has the details. */
  INTERNAL_ERROR: "INTERNAL_ERROR",
} as const;

export type ErrorCode = (typeof ErrorCodes)[keyof typeof ErrorCodes];

export interface MemoryErrorOptions {
  /** True when the same call may succeed later (connection lost, server restarting). */
  retryable?: boolean;
  /** Machine-readable context (field names, ids); never user content or secrets. */
  details?: Record<string, unknown>;
  cause?: unknown;
}

/** The one error class of the library; `code` tells what happened, `message` what to fix. */
export class MemoryError extends Error {
  readonly code: ErrorCode;
  readonly retryable: boolean;
  readonly details?: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, options: MemoryErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "MemoryError";
    this.code = code;
    this.retryable = options.retryable ?? false;
    this.details = options.details;
  }

  toJSON(): { code: ErrorCode; message: string; retryable: boolean; details?: Record<string, unknown> } {
    return { code: this.code, message: this.message, retryable: this.retryable, details: this.details };
  }
}

/** Narrow an unknown error to a MemoryError, optionally of one code. */
export function isMemoryError(err: unknown, code?: ErrorCode): err is MemoryError {
  return err instanceof MemoryError && (code === undefined || err.code === code);
}

/** Shorthand for the most common error: bad input naming the field. */
export function invalidInput(field: string, problem: string, details?: Record<string, unknown>): MemoryError {
  return new MemoryError(ErrorCodes.INVALID_INPUT, `${field}: ${problem}`, { details: { field, ...details } });
}

/**
 * A wrong value, described for an error message: short, and safe for any value (`JSON.stringify`
 * throws on a BigInt and echoes whole strings).
 *
 * @example
 * invalidInput("kind", `must be one of …, got ${describeValue(10n)}`); // "… got 10n"
 */
export function describeValue(v: unknown): string {
  if (typeof v === "bigint") return `${v}n`;
  if (typeof v === "string") return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  if (v === null || typeof v !== "object") return String(v);
  return Array.isArray(v) ? "an array" : "an object";
}
