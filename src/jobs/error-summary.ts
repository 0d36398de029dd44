import { isMemoryError } from "../errors.js";
import type { JobErrorSummary, JsonObject } from "./types.js";

const MAX_MESSAGE_CHARS = 200;
const CODE_PATTERN = /^[A-Z][A-Z0-9_]{1,63}$|^[0-9A-Z]{5}$/;
// Words are what can carry user text into a message; shorter ones ("a", "is") cannot identify anything.
const WORD = /[\p{L}\p{N}][\p{L}\p{N}_'@.+-]*/gu;
const MIN_REDACTED_WORD = 3;

/**
 * Describe a handler's error for `last_error_code`/`last_error_message` without payload text.
 * Payloads hold user messages, and error messages often quote their input (a parser echoing the
 * line, a driver quoting a row), so:
 * - the code is the MemoryError code, else an upper-case `code` property (SQLSTATE, `ECONNRESET`),
 *   else the error's class name;
 * - driver errors keep their SQLSTATE only (their messages can quote row values);
 * - any other message is cut to its first line and 200 characters, and every word of it that also
 *   appears in the payload's strings is replaced by `…`.
 */
export function summarizeJobError(err: unknown, payload: JsonObject | undefined): JobErrorSummary {
  const code = errorCode(err);
  const sqlstate = isMemoryError(err) ? err.details?.sqlstate : undefined;
  if (typeof sqlstate === "string") return { code, message: `database error (SQLSTATE ${sqlstate})` };
  const raw = err instanceof Error ? err.message : typeof err === "string" ? err : "";
  const firstLine = raw.split(/\r?\n/, 1)[0] ?? "";
  return { code, message: redactPayloadWords(firstLine, payloadWords(payload)).slice(0, MAX_MESSAGE_CHARS) };
}

function errorCode(err: unknown): string {
  if (isMemoryError(err)) return err.code;
  if (err && typeof err === "object") {
    const c = (err as { code?: unknown }).code;
    if (typeof c === "string" && CODE_PATTERN.test(c)) return c;
    const name = (err as { name?: unknown }).name;
    if (typeof name === "string" && /^[A-Za-z][A-Za-z0-9_]{0,63}$/.test(name)) return name;
  }
  return "ERROR";
}

function payloadWords(payload: JsonObject | undefined): Set<string> {
  const words = new Set<string>();
  const visit = (v: unknown, depth: number): void => {
    if (depth > 20) return;
    if (typeof v === "string") {
      for (const w of v.match(WORD) ?? []) {
        const lower = w.toLowerCase();
        if (lower.length >= MIN_REDACTED_WORD) words.add(lower);
        for (const part of lower.split(/[_'@.+-]+/)) if (part.length >= MIN_REDACTED_WORD) words.add(part);
      }
    } else if (Array.isArray(v)) {
      for (const x of v) visit(x, depth + 1);
    } else if (v && typeof v === "object") {
      for (const x of Object.values(v)) visit(x, depth + 1);
    }
  };
  visit(payload, 0);
  return words;
}

function redactPayloadWords(message: string, words: Set<string>): string {
  if (words.size === 0) return message;
  return message.replace(WORD, (w) => (w.length >= MIN_REDACTED_WORD && (words.has(w.toLowerCase()) || containsPayloadWord(w, words)) ? "…" : w));
}

// "Berlin." or "alice@example.com's" in a message must not survive because punctuation differs.
function containsPayloadWord(word: string, words: Set<string>): boolean {
  const parts = word.toLowerCase().split(/[_'@.+-]+/).filter((p) => p.length >= MIN_REDACTED_WORD);
  return parts.some((p) => words.has(p));
}
