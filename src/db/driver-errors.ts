import { ErrorCodes, MemoryError, isMemoryError } from "../errors.js";
import { SqlState, isConnectionError, sqlStateOf } from "./sqlstate.js";

/**
 * Turn a driver error into a MemoryError: connectivity problems become the retryable
 * DB_UNAVAILABLE, a thread of another scope (SQLSTATE LGM01, migration 0008)
 * THREAD_SCOPE_MISMATCH, everything else DB_QUERY_FAILED with the SQLSTATE in `details.sqlstate`.
 */
export function wrapDriverError(err: unknown, engine: string): MemoryError {
  if (isMemoryError(err)) return err;
  const message = err instanceof Error ? err.message : String(err);
  if (isConnectionError(err)) {
    return new MemoryError(
      ErrorCodes.DB_UNAVAILABLE,
      `the ${engine} database is unavailable (${message}); retry when it is back`,
      { retryable: true, cause: err, details: { sqlstate: sqlStateOf(err) } },
    );
  }
  const sqlstate = sqlStateOf(err);
  if (sqlstate === SqlState.THREAD_SCOPE_MISMATCH) {
    // Raised by migration 0008's thread-owner checks: the caller's own mistake, not a failure.
    return new MemoryError(
      ErrorCodes.THREAD_SCOPE_MISMATCH,
      "the thread belongs to another tenant or user (or was started without one): nothing of it was read or written — continue only your own threads, or start a new thread_id",
      { cause: err, details: { sqlstate } },
    );
  }
  return new MemoryError(ErrorCodes.DB_QUERY_FAILED, `query failed: ${message}`, {
    cause: err,
    details: { sqlstate },
    retryable: sqlstate === "40001" || sqlstate === "40P01",
  });
}
