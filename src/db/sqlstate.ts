/** SQLSTATE codes the library reacts to, named (https://www.postgresql.org/docs/current/errcodes-appendix.html). */
export const SqlState = {
  UNIQUE_VIOLATION: "23505",
  FOREIGN_KEY_VIOLATION: "23503",
  CHECK_VIOLATION: "23514",
  NOT_NULL_VIOLATION: "23502",
  INVALID_TEXT_REPRESENTATION: "22P02",
  DATA_EXCEPTION: "22000",
  NUMERIC_VALUE_OUT_OF_RANGE: "22003",
  /** Bytes that are not valid in an encoding (e.g. convert_from of bytes that are not UTF-8). */
  CHARACTER_NOT_IN_REPERTOIRE: "22021",
  /** A character the target encoding has no equivalent for. */
  UNTRANSLATABLE_CHARACTER: "22P05",
  UNDEFINED_TABLE: "42P01",
  UNDEFINED_OBJECT: "42704",
  INSUFFICIENT_PRIVILEGE: "42501",
  SERIALIZATION_FAILURE: "40001",
  DEADLOCK_DETECTED: "40P01",
  ADMIN_SHUTDOWN: "57P01",
  CRASH_SHUTDOWN: "57P02",
  CANNOT_CONNECT_NOW: "57P03",
  CONNECTION_EXCEPTION: "08000",
  CONNECTION_DOES_NOT_EXIST: "08003",
  CONNECTION_FAILURE: "08006",
  SQLCLIENT_UNABLE_TO_ESTABLISH_SQLCONNECTION: "08001",
  TOO_MANY_CONNECTIONS: "53300",
  QUERY_CANCELED: "57014",
  DISK_FULL: "53100",
  /** Ours (migration 0008): the thread belongs to another tenant or user. */
  THREAD_SCOPE_MISMATCH: "LGM01",
} as const;

const CONNECTION_STATES = new Set<string>([
  SqlState.ADMIN_SHUTDOWN,
  SqlState.CRASH_SHUTDOWN,
  SqlState.CANNOT_CONNECT_NOW,
  SqlState.CONNECTION_EXCEPTION,
  SqlState.CONNECTION_DOES_NOT_EXIST,
  SqlState.CONNECTION_FAILURE,
  SqlState.SQLCLIENT_UNABLE_TO_ESTABLISH_SQLCONNECTION,
  SqlState.TOO_MANY_CONNECTIONS,
]);

const NETWORK_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EHOSTUNREACH", "EAI_AGAIN"]);

/** The SQLSTATE of a driver error, or of the driver error wrapped in a MemoryError. */
export function sqlStateOf(err: unknown): string | undefined {
  if (!err || typeof err !== "object") return undefined;
  const e = err as { code?: unknown; details?: { sqlstate?: unknown }; cause?: unknown };
  if (typeof e.details?.sqlstate === "string") return e.details.sqlstate;
  if (typeof e.code === "string" && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
  return e.cause ? sqlStateOf(e.cause) : undefined;
}

/** True when an error means the connection is gone or the server is not accepting connections. */
export function isConnectionError(err: unknown): boolean {
  if (!err || typeof err !== "object") return false;
  const e = err as { code?: unknown; message?: unknown };
  if (typeof e.code === "string" && (NETWORK_CODES.has(e.code) || CONNECTION_STATES.has(e.code))) return true;
  const msg = typeof e.message === "string" ? e.message : "";
  return /Connection terminated|connection timeout|Client has encountered a connection error|terminating connection|Client was closed/i.test(msg);
}
