import { invalidInput } from "../errors.js";
import { firstExtraKey, has, isObject, jqType, toJsonValue, type JsonlEntry } from "./jsonl-entry.js";

/** What `memory_search` accepts. */
export interface JsonlSearchQuery {
  /** A literal substring (not a regex); ASCII letters match either case. "" (the default) matches every entry. */
  q?: string;
  /** Most results to return, 1..1000 (default 10). */
  limit?: number;
  /** Lines to search first, counted from the end of the file, 1..1e9 (default 20000). Doubled until `limit` results or the whole file. */
  window_lines?: number;
}

/** What `memory_search` prints. */
export interface JsonlSearchResult {
  /** Matching entries, newest first, at most `limit`. */
  results: JsonlEntry[];
  /**
   * false: `results` holds every matching entry in the file. true: there may be more, either because
   * the last window had more than `limit` matches, or because it stopped before the file's first line.
   */
  truncated: boolean;
  /** The size in lines of the last window searched: window_lines doubled k times. It may exceed the file's length. */
  used_window_lines: number;
}

export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 1000;
export const DEFAULT_WINDOW_LINES = 20000;
export const MAX_WINDOW_LINES = 1_000_000_000;
export const MAX_QUERY_BYTES = 4096;

/** A checked query, ready to match lines. */
export interface LineMatcher {
  /** q with ASCII letters lower-cased. */
  ql: string;
  /** The pre-filter fragment of ql (see {@link queryFragment}). */
  fragment: string;
  limit: number;
  windowLines: number;
}

/** Checks a search query in the same order and with the same messages as memory.sh. */
export function parseSearchQuery(input: unknown): LineMatcher {
  const value = toJsonValue(input);
  if (!isObject(value)) throw invalidInput("input", `must be a JSON object such as {"q":"...","limit":5}, got ${jqType(value)}`);
  const extra = firstExtraKey(value, ["q", "limit", "window_lines"]);
  if (extra !== undefined) throw invalidInput(extra, "unknown field; the fields are q, limit and window_lines");
  if (has(value, "q") && typeof value.q !== "string") throw invalidInput("q", `must be a string, got ${jqType(value.q)}`);
  if (has(value, "q") && Buffer.byteLength(value.q as string) > MAX_QUERY_BYTES) throw invalidInput("q", `must be at most ${MAX_QUERY_BYTES} bytes`);
  if (has(value, "limit") && !isIntIn(value.limit, 1, MAX_LIMIT)) throw invalidInput("limit", `must be an integer from 1 to ${MAX_LIMIT}`);
  if (has(value, "window_lines") && !isIntIn(value.window_lines, 1, MAX_WINDOW_LINES)) {
    throw invalidInput("window_lines", `must be an integer from 1 to ${MAX_WINDOW_LINES}`);
  }
  const ql = asciiLower(has(value, "q") ? (value.q as string) : "");
  return {
    ql,
    fragment: queryFragment(ql),
    limit: has(value, "limit") ? (value.limit as number) : DEFAULT_LIMIT,
    windowLines: has(value, "window_lines") ? (value.window_lines as number) : DEFAULT_WINDOW_LINES,
  };
}

function isIntIn(v: unknown, min: number, max: number): boolean {
  return typeof v === "number" && Number.isInteger(v) && v >= min && v <= max;
}

/** Lower-cases A-Z and nothing else, like jq's ascii_downcase. "É" stays "É". */
export function asciiLower(s: string): string {
  return s.replace(/[A-Z]+/g, (m) => m.toLowerCase());
}

/**
 * The longest run of code points in q (the first, when several are equally long) that JSON always
 * writes as itself. That excludes the quote, the backslash, the slash and control characters, which
 * a writer may escape. Any other character appears in the raw line either as itself or as a \uXXXX
 * escape. So a line whose entry matches q contains this fragment (ignoring ASCII case), or contains
 * "\u". See {@link isCandidateLine}.
 */
export function queryFragment(q: string): string {
  let best: string[] = [];
  let cur: string[] = [];
  for (const ch of [...q, ""]) {
    const c = ch === "" ? -1 : ch.codePointAt(0)!;
    if (c < 32 || c === 34 || c === 47 || c === 92) {
      if (cur.length > best.length) best = cur;
      cur = [];
    } else {
      cur.push(ch);
    }
  }
  return best.join("");
}

/**
 * Whether a search looks at this raw line at all. Only lines that could match are parsed, and only
 * those are reported when corrupt. memory.sh applies this same rule in jq, after rg/grep has
 * pre-selected lines generously.
 */
export function isCandidateLine(raw: string, fragment: string): boolean {
  if (fragment === "") return true;
  const lower = asciiLower(raw);
  return lower.includes(fragment) || lower.includes("\\u");
}

/**
 * A quick check that finds every candidate line, and maybe a few more, in text decoded as latin1
 * (one char per byte): the fragment's UTF-8 bytes, ignoring case, or "\u". A scan runs it over
 * whole chunks and looks only at the lines it hits. null means every line is a candidate.
 */
export function candidatePrefilter(fragment: string): RegExp | null {
  if (fragment === "") return null;
  const bytes = Buffer.from(fragment, "utf8").toString("latin1");
  return new RegExp(`${bytes.replace(/[\\^$.*+?()[\]{}|-]/g, "\\$&")}|\\\\u`, "gi");
}

/** Whether an entry matches: ql is a substring of its content, its type or one of its tags, ignoring ASCII case. */
export function entryMatches(entry: JsonlEntry, ql: string): boolean {
  if (ql === "") return true;
  if (asciiLower(entry.content).includes(ql) || asciiLower(entry.type).includes(ql)) return true;
  return (entry.tags ?? []).some((t) => asciiLower(t).includes(ql));
}
