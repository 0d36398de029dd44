import { open, stat, type FileHandle } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { sensitiveCategoryIn, sensitiveContent } from "../sensitive/sensitive-content.js";
import { buildEntryLine, entryProblem, fileUnavailable, isBlankLine, type JsonlEntry, type JsonlWriteInput } from "./jsonl-entry.js";
import { lastByte, lineNumbersAt, locateLastLines, readLineChunks } from "./jsonl-lines.js";
import {
  candidatePrefilter,
  entryMatches,
  isCandidateLine,
  parseSearchQuery,
  type JsonlSearchQuery,
  type JsonlSearchResult,
  type LineMatcher,
} from "./jsonl-query.js";

/** Corrupt lines that a search looked at and skipped. memory.sh prints the same object on stderr. */
export interface CorruptLinesReport {
  warning: "CORRUPT_LINES";
  file: string;
  /** How many corrupt lines the search looked at. */
  count: number;
  /** Their line numbers in the file (1-based, ascending), the first 100. */
  lines: number[];
}

export interface JsonlMemoryOptions {
  /** The JSONL file. Default: $MEMORY_FILE, else ~/.codex/memory.jsonl, the file that memory.sh uses. */
  file?: string;
  /** Where corrupt-line reports go. Default: one JSON line on stderr, as memory.sh prints it. */
  onCorruptLines?: (report: CorruptLinesReport) => void;
  /** The clock for `ts` (tests). */
  now?: () => Date;
  /**
   * Write entries whose content, type, tags or meta hold secrets, identity or card numbers, or
   * special-category data. Default false: such a write is `SENSITIVE_CONTENT` (naming the field and
   * the kind, never the value) and the file is left untouched. The bash twin (scripts/memory.sh)
   * has no such filter: see docs/security.md.
   */
  allowSensitive?: boolean;
  /** Special-category data (health, religion, …) may be written; secrets still may not. */
  allowSpecialCategory?: boolean;
}

/** The file memory.sh uses: ${MEMORY_FILE:-~/.codex/memory.jsonl}. */
export function defaultMemoryFile(env: NodeJS.ProcessEnv = process.env): string {
  return env.MEMORY_FILE ? env.MEMORY_FILE : join(homedir(), ".codex", "memory.jsonl");
}

const MAX_REPORTED_LINES = 100;
// A reader can see part of another writer's line while the kernel copies it. Before ending a last
// line that lacks its newline, look again a moment later, as memory.sh does with a second tail.
const SECOND_LOOK_MS = 5;
const FILE_MODE = 0o600;

/**
 * The TypeScript twin of scripts/memory.sh. It works on the same append-only JSONL file with the same
 * rules, and it writes the same bytes, so an agent's bash tools and a LangGraph agent can share one
 * memory file.
 *
 * @example
 * const memory = new JsonlMemory({ file: "/home/me/.codex/memory.jsonl" });
 * await memory.write({ type: "note", content: "Prefers terse status updates.", tags: ["preference"] });
 * const { results, truncated } = await memory.search({ q: "prefers", limit: 5 });
 */
export class JsonlMemory {
  readonly file: string;
  private readonly onCorruptLines: (report: CorruptLinesReport) => void;
  private readonly now: () => Date;
  private readonly allowSensitive: boolean;
  private readonly allowSpecialCategory: boolean;

  constructor(options: JsonlMemoryOptions = {}) {
    this.file = options.file ?? defaultMemoryFile();
    this.onCorruptLines = options.onCorruptLines ?? ((r) => process.stderr.write(`${JSON.stringify(r)}\n`));
    this.now = options.now ?? (() => new Date());
    this.allowSensitive = options.allowSensitive === true;
    this.allowSpecialCategory = options.allowSpecialCategory === true;
  }

  /**
   * Appends one entry as one line, in one write(2), and returns it. Existing lines are never
   * rewritten. A last line that lacks its newline is ended first. Bad input throws MemoryError
   * INVALID_INPUT (`details.field` names the field), a secret or special-category data
   * SENSITIVE_CONTENT, and the file is left untouched.
   *
   * @example
   * await memory.write({ content: "Deploys go through `make release`, never by hand.", tags: ["workflow"] });
   */
  async write(input: JsonlWriteInput): Promise<JsonlEntry> {
    const { entry, line } = buildEntryLine(input, this.now());
    if (!this.allowSensitive) {
      for (const field of ["content", "type", "tags", "meta"] as const) {
        const category = sensitiveCategoryIn(entry[field], { allowSpecialCategory: this.allowSpecialCategory, ignoreHighEntropy: field === "meta" });
        if (category) throw sensitiveContent(field, category);
      }
    }
    await this.checkLocation();
    let fh: FileHandle;
    try {
      fh = await open(this.file, "a+", FILE_MODE);
    } catch (err) {
      throw fileUnavailable(`MEMORY_FILE: cannot append to ${this.file} (${(err as Error).message})`, err);
    }
    try {
      if (!(await endsWithNewline(fh)) && !(await endsWithNewline(fh, SECOND_LOOK_MS))) await fh.write("\n");
      const bytes = Buffer.from(`${line}\n`);
      const { bytesWritten } = await fh.write(bytes);
      if (bytesWritten !== bytes.length) throw new Error(`short write: ${bytesWritten} of ${bytes.length} bytes`);
    } catch (err) {
      throw fileUnavailable(`MEMORY_FILE: cannot append to ${this.file} (${(err as Error).message})`, err);
    } finally {
      await fh.close();
    }
    return entry;
  }

  /**
   * Searches the last `window_lines` lines, then twice as many, and so on, until it has `limit`
   * matches or has covered the file. Returns the newest `limit` matches first. Corrupt lines among
   * those looked at are skipped and reported through `onCorruptLines`, never rewritten. Creates the
   * file when it is missing.
   *
   * @example
   * const { results } = await memory.search({ q: "prefers", limit: 5, window_lines: 20000 });
   */
  async search(query: JsonlSearchQuery = {}): Promise<JsonlSearchResult> {
    const matcher = parseSearchQuery(query);
    await this.ensureFile();
    let fh: FileHandle;
    try {
      fh = await open(this.file, "r");
    } catch (err) {
      throw fileUnavailable(`MEMORY_FILE: cannot read ${this.file} (${(err as Error).message})`, err);
    }
    try {
      for (let window = matcher.windowLines; ; window *= 2) {
        const scan = await scanWindow(fh, matcher, window);
        if (scan.matches >= matcher.limit || scan.covered) {
          if (scan.corrupt.length > 0) {
            const lines = await lineNumbersAt(fh, scan.corrupt.slice(0, MAX_REPORTED_LINES));
            this.onCorruptLines({ warning: "CORRUPT_LINES", file: this.file, count: scan.corrupt.length, lines });
          }
          return {
            results: scan.newest.reverse(),
            truncated: !scan.covered || scan.matches > matcher.limit,
            used_window_lines: window,
          };
        }
      }
    } finally {
      await fh.close();
    }
  }

  /** Creates the file (mode 0600) when it is missing, as memory.sh does. */
  private async ensureFile(): Promise<void> {
    await this.checkLocation();
    try {
      await (await open(this.file, "a", FILE_MODE)).close();
    } catch (err) {
      throw fileUnavailable(`MEMORY_FILE: cannot create ${this.file} (${(err as Error).message})`, err);
    }
  }

  /** The file must not be a folder, and its folder must exist: neither side creates folders. */
  private async checkLocation(): Promise<void> {
    const self = await stat(this.file).catch(() => undefined);
    if (self?.isDirectory()) throw fileUnavailable(`MEMORY_FILE: ${this.file} is a folder; point MEMORY_FILE at a file`);
    if (self) return;
    const dir = dirname(this.file);
    const parent = await stat(dir).catch(() => undefined);
    if (!parent?.isDirectory()) {
      throw fileUnavailable(`MEMORY_FILE: the folder ${dir} does not exist; create it (mkdir -p ${dir}) or set MEMORY_FILE`);
    }
  }
}

interface WindowScan {
  /** Matches in the window. */
  matches: number;
  /** The newest `limit` matches, oldest first. */
  newest: JsonlEntry[];
  /** File offsets where the corrupt lines that were looked at start. */
  corrupt: number[];
  /** True when the window covered the whole file. */
  covered: boolean;
}

/**
 * One pass over the last `window` lines, with the rules that memory.sh applies in jq. It reads
 * window + 1 lines. If there are that many, the window did not cover the file, and the extra first
 * line is not part of it.
 */
async function scanWindow(fh: FileHandle, matcher: LineMatcher, window: number): Promise<WindowScan> {
  const { size } = await fh.stat();
  const { start, lines: read } = await locateLastLines(fh, size, window + 1);
  const covered = read <= window;
  const scan: WindowScan = { matches: 0, newest: [], corrupt: [], covered };
  const consider = (raw: string, offset: number, unterminatedLast: boolean) => {
    if (offset === start && !covered) return;
    if (!isCandidateLine(raw, matcher.fragment) || isBlankLine(raw)) return;
    const entry = parseEntry(raw);
    if (entry) {
      if (!entryMatches(entry, matcher.ql)) return;
      scan.matches += 1;
      scan.newest.push(entry);
      if (scan.newest.length > matcher.limit) scan.newest.shift();
    } else if (!unterminatedLast) {
      // An unterminated last line that does not parse may be a write in progress: skip it silently.
      scan.corrupt.push(offset);
    }
  };
  const quick = candidatePrefilter(matcher.fragment);
  for await (const chunk of readLineChunks(fh, start, size)) {
    if (quick === null) {
      // Every line is a candidate: decode the chunk once and walk its lines.
      const length = chunk.unterminated ? chunk.bytes.length : chunk.bytes.length - 1;
      const lines = chunk.bytes.toString("utf8", 0, length).split("\n");
      let offset = chunk.offset;
      lines.forEach((raw, i) => {
        consider(raw, offset, chunk.unterminated && i === lines.length - 1);
        offset += Buffer.byteLength(raw) + 1;
      });
      continue;
    }
    // Few lines can match: search the chunk as latin1 (one byte per char, so string indexes are file
    // offsets), and decode as UTF-8 only the lines the quick check hits. The quick check's pattern
    // is the fragment's UTF-8 bytes read as latin1, so it finds the same lines.
    const text = chunk.bytes.toString("latin1");
    quick.lastIndex = 0;
    for (let m = quick.exec(text); m !== null; m = quick.exec(text)) {
      const lineStart = text.lastIndexOf("\n", m.index) + 1;
      const newline = text.indexOf("\n", m.index);
      const lineEnd = newline === -1 ? text.length : newline;
      const raw = chunk.bytes.toString("utf8", lineStart, lineEnd);
      consider(raw, chunk.offset + lineStart, chunk.unterminated && newline === -1);
      quick.lastIndex = lineEnd + 1;
    }
  }
  return scan;
}

/** True for an empty file, or one whose last byte is "\n" (after waiting `delayMs`). */
async function endsWithNewline(fh: FileHandle, delayMs = 0): Promise<boolean> {
  if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
  const { size } = await fh.stat();
  return size === 0 || (await lastByte(fh, size)) === 0x0a;
}

function parseEntry(raw: string): JsonlEntry | null {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  return entryProblem(value) === null ? (value as JsonlEntry) : null;
}
