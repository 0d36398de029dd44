import { ErrorCodes, MemoryError, invalidInput } from "../errors.js";
import { jqStringify } from "./jq-json.js";

/** One memory as stored: one line of the JSONL file. */
export interface JsonlEntry {
  /** When it was written: ISO 8601 UTC with milliseconds, e.g. "2025-01-31T09:30:00.000Z". */
  ts: string;
  /** What kind of memory it is ("note" unless the writer said otherwise). */
  type: string;
  /** The text to remember. */
  content: string;
  tags?: string[];
  meta?: Record<string, unknown>;
  /** Lines written by other tools may carry more fields. They are kept as they are. */
  [field: string]: unknown;
}

/** What `memory_write` accepts. */
export interface JsonlWriteInput {
  type?: string;
  content: string;
  tags?: string[];
  meta?: Record<string, unknown>;
}

/**
 * A line is at most this many bytes, newline included. A line of this size fits in one stdio buffer,
 * so it reaches the file as one write(2) on an O_APPEND descriptor, and concurrent writers cannot
 * interleave it. See scripts/memory.sh for why the bash side cannot lock instead.
 */
export const MAX_LINE_BYTES = 4096;
export const DEFAULT_ENTRY_TYPE = "note";

const WRITE_FIELDS = ["type", "content", "tags", "meta"] as const;

/**
 * Checks a write input in the same order and with the same messages as memory.sh, and builds the
 * line. Throws MemoryError INVALID_INPUT with `details.field` naming the field at fault.
 */
export function buildEntryLine(input: unknown, now: Date = new Date()): { entry: JsonlEntry; line: string } {
  const value = toJsonValue(input);
  if (!isObject(value)) throw invalidInput("input", `must be a JSON object such as {"type":"note","content":"..."}, got ${jqType(value)}`);
  const extra = firstExtraKey(value, WRITE_FIELDS);
  if (extra === "ts") throw invalidInput("ts", "is set by memory_write from the clock; remove it");
  if (extra !== undefined) throw invalidInput(extra, "unknown field; the fields are type, content, tags and meta (put anything else in meta)");
  if (!has(value, "content")) throw invalidInput("content", "is required: the text to remember");
  if (typeof value.content !== "string") throw invalidInput("content", `must be a string, got ${jqType(value.content)}`);
  if (value.content === "") throw invalidInput("content", "must not be empty");
  if (has(value, "type") && typeof value.type !== "string") throw invalidInput("type", `must be a string, got ${jqType(value.type)}`);
  if (has(value, "type") && value.type === "") throw invalidInput("type", "must not be empty");
  if (has(value, "tags") && !Array.isArray(value.tags)) throw invalidInput("tags", `must be an array of strings, got ${jqType(value.tags)}`);
  if (has(value, "tags") && (value.tags as unknown[]).some((t) => typeof t !== "string")) throw invalidInput("tags", "every tag must be a string");
  if (has(value, "meta") && !isObject(value.meta)) throw invalidInput("meta", `must be an object, got ${jqType(value.meta)}`);

  const entry: JsonlEntry = {
    ts: now.toISOString(),
    type: has(value, "type") ? (value.type as string) : DEFAULT_ENTRY_TYPE,
    content: value.content,
  };
  if (has(value, "tags")) entry.tags = value.tags as string[];
  if (has(value, "meta")) entry.meta = value.meta as Record<string, unknown>;
  const line = jqStringify(entry);
  const bytes = Buffer.byteLength(line);
  if (bytes > MAX_LINE_BYTES - 1) {
    throw invalidInput(
      "input",
      `the entry is ${bytes} bytes as a JSON line; the limit is ${MAX_LINE_BYTES - 1} (a line must fit one atomic append): shorten content or meta`,
    );
  }
  return { entry, line };
}

/**
 * Why a parsed line is not an entry, or null when it is one. An entry is an object with string ts,
 * type and content. tags, when present, is an array of strings, and meta, when present, is an object.
 */
export function entryProblem(value: unknown): string | null {
  if (!isObject(value)) return `not a JSON object (got ${jqType(value)})`;
  for (const field of ["ts", "type", "content"] as const) {
    if (typeof value[field] !== "string") return `${field} is not a string`;
  }
  if (has(value, "tags") && !(Array.isArray(value.tags) && value.tags.every((t) => typeof t === "string"))) return "tags is not an array of strings";
  if (has(value, "meta") && !isObject(value.meta)) return "meta is not an object";
  return null;
}

/** True for blank lines: only spaces, tabs and carriage returns. They are skipped, not corrupt. */
export function isBlankLine(raw: string): boolean {
  return /^[ \t\r]*$/.test(raw);
}

/** jq's name for a value's type, used in error messages ("got number"). */
export function jqType(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value === "object" ? "object" : typeof value;
}

/**
 * The first key, in jq's `keys` order (by code point), that is not allowed. Both sides report this
 * same key when there are several.
 */
export function firstExtraKey(value: Record<string, unknown>, allowed: readonly string[]): string | undefined {
  const extra = Object.keys(value).filter((k) => !allowed.includes(k));
  extra.sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  return extra[0];
}

/**
 * The caller's value as the JSON it stands for: undefined fields dropped, toJSON applied. A value
 * that cannot be JSON, or a string with a lone UTF-16 surrogate, is refused. memory.sh refuses
 * those too, because jq cannot parse them.
 */
export function toJsonValue(input: unknown): unknown {
  let text: string | undefined;
  try {
    text = JSON.stringify(input);
  } catch (err) {
    throw invalidInput("input", `is not valid JSON (${(err as Error).message})`);
  }
  if (text === undefined) return null;
  if (LONE_SURROGATE.test(text)) throw invalidInput("input", "is not valid JSON (it contains a lone UTF-16 surrogate)");
  return JSON.parse(text) as unknown;
}

// JSON.stringify writes a lone surrogate as a \udXXX escape, and a real pair as itself. The escape
// must follow an even run of backslashes: "\\ud800" is an escaped backslash followed by text.
const LONE_SURROGATE = /(?<!\\)(?:\\\\)*\\ud[89a-f][0-9a-f]{2}/;

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function has(value: Record<string, unknown>, key: string): boolean {
  return  Object.hasOwn(value, key);
}

/** The file cannot be created, read or written. The message says which and what to do. */
export function fileUnavailable(message: string, cause?: unknown): MemoryError {
  return new MemoryError(ErrorCodes.MEMORY_FILE_UNAVAILABLE, message, { cause, details: { field: "MEMORY_FILE" } });
}
