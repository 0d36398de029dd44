import { ErrorCodes, MemoryError, isMemoryError } from "../errors.js";
import { isConnectionError, sqlStateOf } from "./sqlstate.js";

/**
 * Turn a driver error into a MemoryError: connectivity problems become the retryable
 * DB_UNAVAILABLE, everything else DB_QUERY_FAILED with the SQLSTATE in `details.sqlstate`.
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
  return new MemoryError(ErrorCodes.DB_QUERY_FAILED, `query failed: ${message}`, {
    cause: err,
    details: { sqlstate },
    retryable: sqlstate === "40001" || sqlstate === "40P01",
  });
}
