/**
 * Every error response is `{ "error": { "code", "message" } }` with a fitting status. Library
 * errors (`MemoryError`) keep their code and message (written for the caller: what to fix);
 * anything unexpected becomes INTERNAL_ERROR with a generic message — never a stack trace, SQL
 * or stored content. The details go to the server's log.
 */
import type { FastifyError } from "fastify";
import type { z } from "zod";
import { ErrorCodes, MemoryError, type ErrorCode } from "../errors.js";

export interface ErrorBody {
  error: { code: ErrorCode; message: string };
}

/** An error the HTTP layer itself raises, with its status. */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "HttpProblem";
  }
}

/** What a client learns about an error, and whether the server should log it as a failure. */
export interface MappedError {
  status: number;
  body: ErrorBody;
  headers: Record<string, string>;
  /** Unexpected (5xx that is not a known outage): log it with its stack. */
  unexpected: boolean;
}

const STATUS_BY_CODE: Partial<Record<ErrorCode, number>> = {
  INVALID_INPUT: 422,
  SENSITIVE_CONTENT: 422,
  NOT_FOUND: 404,
  SCOPE_REQUIRED: 401,
  THREAD_SCOPE_MISMATCH: 403,
  SCOPE_MISMATCH: 403,
  UNAUTHENTICATED: 401,
  OPTED_OUT: 409,
  CONFIRMATION_INVALID: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  CROSS_SITE_REQUEST: 403,
  DB_UNAVAILABLE: 503,
  MODEL_UNAVAILABLE: 503,
};

/** Codes whose message may mention internals (SQL, files): the client gets a generic message. */
const OPAQUE_CODES = new Set<ErrorCode>([
  ErrorCodes.DB_QUERY_FAILED,
  ErrorCodes.DB_OPEN_FAILED,
  ErrorCodes.DB_URL_INVALID,
  ErrorCodes.MIGRATION_FAILED,
  ErrorCodes.MIGRATION_UNKNOWN,
  ErrorCodes.MIGRATION_CHECKSUM_MISMATCH,
  ErrorCodes.NOT_MIGRATED,
  ErrorCodes.CHECKPOINT_CORRUPT,
  ErrorCodes.CHECKPOINT_PARENT_MISSING,
  ErrorCodes.CORRUPT_RECORD,
  ErrorCodes.CONFIG_INVALID,
  ErrorCodes.MAINTENANCE_ROLE_REQUIRED,
]);

export function errorBody(code: ErrorCode, message: string): ErrorBody {
  return { error: { code, message } };
}

/** Turn anything thrown while handling a request into a response. */
export function mapError(err: unknown): MappedError {
  if (err instanceof HttpProblem) return known(err.status, err.code, err.message);
  if (err instanceof MemoryError) {
    if (err.code === ErrorCodes.DB_UNAVAILABLE) {
      return { ...known(503, err.code, "the database is unavailable right now; retry in a moment"), headers: { "retry-after": "5" } };
    }
    if (OPAQUE_CODES.has(err.code)) return internal();
    return known(STATUS_BY_CODE[err.code] ?? 500, err.code, err.message);
  }
  const fe = err as Partial<FastifyError> | undefined;
  switch (fe?.code) {
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return known(413, ErrorCodes.PAYLOAD_TOO_LARGE, "the request body is too large for this server");
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return known(415, ErrorCodes.UNSUPPORTED_MEDIA_TYPE, "send the body as JSON (Content-Type: application/json)");
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return known(400, ErrorCodes.INVALID_INPUT, "the body is empty but Content-Type says JSON; send a JSON value or no Content-Type");
    case "FST_ERR_CTP_INVALID_JSON_BODY":
    case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
      return known(400, ErrorCodes.INVALID_INPUT, "the body is not valid JSON");
  }
  // Fastify's JSON parser reports syntax errors and prototype poisoning as 400s with its own codes.
  if (fe && typeof fe.statusCode === "number" && fe.statusCode >= 400 && fe.statusCode < 500) {
    if (fe.statusCode === 413) return known(413, ErrorCodes.PAYLOAD_TOO_LARGE, "the request body is too large for this server");
    if (fe.statusCode === 415) return known(415, ErrorCodes.UNSUPPORTED_MEDIA_TYPE, "send the body as JSON (Content-Type: application/json)");
    return known(400, ErrorCodes.INVALID_INPUT, "the request is malformed (the body is not valid JSON, or a header is wrong)");
  }
  return internal();
}

function known(status: number, code: ErrorCode, message: string): MappedError {
  const headers: Record<string, string> = status === 401 ? { "www-authenticate": 'Bearer realm="langgraph-memory"' } : {};
  return { status, body: errorBody(code, message), headers, unexpected: status >= 500 && status !== 503 };
}

function internal(): MappedError {
  return { status: 500, body: errorBody(ErrorCodes.INTERNAL_ERROR, "the server could not complete the request; its log has the details (look up the X-Request-Id)"), headers: {}, unexpected: true };
}

/** The one 404 body of a kind of item: identical for unknown ids, malformed ids and other users' ids. */
export function notFound(what: "memory" | "rule" | "profile"): HttpProblem {
  return new HttpProblem(404, ErrorCodes.NOT_FOUND, `no such ${what} for this user`);
}

/** 401 with a message that does not say which part was wrong. */
export function unauthenticated(message = "send Authorization: Bearer <token>; the token is missing, unknown or expired"): HttpProblem {
  return new HttpProblem(401, ErrorCodes.UNAUTHENTICATED, message);
}

/**
 * Validate a body, query or params with zod; 400 INVALID_INPUT naming every field that is wrong
 * (never echoing its value).
 */
export function parseRequest<S extends z.ZodType>(schema: S, value: unknown, where: "body" | "query" | "params"): z.output<S> {
  const parsed = schema.safeParse(value ?? (where === "body" ? undefined : {}));
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((i) => {
    const path = i.path.length > 0 ? `${where}.${i.path.join(".")}` : where;
    return `${path}: ${i.message}`;
  });
  throw new HttpProblem(400, ErrorCodes.INVALID_INPUT, problems.join("; "));
}
