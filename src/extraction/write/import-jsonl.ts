import { stat } from "node:fs/promises";
import { ErrorCodes, MemoryError } from "../../errors.js";
import type { JsonlEntry } from "../../skill/jsonl-entry.js";
import { readJsonlEntries } from "../../skill/read-jsonl-entries.js";
import type { CandidateKind, MemoryCandidate } from "../../core/candidate.js";
import type { UserScope } from "../../core/scope.js";
import { isOptedOut, writeCandidates } from "./write-candidates.js";
import type { MemoryWriteOptions } from "./write-options.js";
import { emptyWriteReport, mergeWriteReports, type WriteReport } from "./write-report.js";
import { requireUserScope } from "./write-run.js";

export interface ImportJsonlOptions extends MemoryWriteOptions {
  scope: UserScope;
  /** Progress as the file is read: bytes read so far and the file's size. */
  onProgress?: (doneBytes: number, totalBytes: number) => void;
  /** Confidence of imported entries (someone wrote them down on purpose). Default 0.95. */
  confidence?: number;
}

export interface ImportJsonlResult {
  /** Entries read (valid lines). */
  entries: number;
  /** Entries that became a memory (new, or replacing an older value of its slot), a profile field or a proposed rule. */
  imported: number;
  /** Entries that were already stored (same or near-identical statement): nothing new written. */
  duplicates: number;
  /** Entries the write policy refused (secrets, special categories, too long, …). */
  refused: number;
  refusedByReason: WriteReport["refusedByReason"];
  refusedByCategory: WriteReport["refusedByCategory"];
  /** Lines that are not entries (skipped, never rewritten), with their line number and why — never their text. */
  corruptLines: number;
  corrupt: Array<{ line: number; reason: string }>;
  /** The write path's counts for the whole file. */
  report: WriteReport;
}

const KIND_WORDS: Array<[RegExp, CandidateKind]> = [
  [/^(?:procedures?|rules?|instructions?|workflows?|conventions?|how-?to)$/i, "procedure"],
  [/^(?:episodes?|outcomes?|events?|fix(?:es)?|incidents?|decisions?)$/i, "episode"],
  [/^(?:preferences?|prefs?|likes?|style)$/i, "preference"],
];

/** The memory kind of a skill entry from its type and tags ("procedure", "workflow", "episode", "preference", …); default `fact` (a "note"). */
export function kindOfEntry(entry: Pick<JsonlEntry, "type" | "tags">): CandidateKind {
  const words = [entry.type, ...(entry.tags ?? [])].map((w) => w.trim());
  for (const [re, kind] of KIND_WORDS) if (words.some((w) => re.test(w))) return kind;
  return "fact";
}

const SUBJECT_RE = /^[a-z0-9_-]+(?:\.[a-z0-9_*-]+)*$/;

/**
 * Bring the entries of a memory-skill JSONL file (`scripts/memory.sh`, `JsonlMemory`) into the
 * long-term store of one user, through the same write path as extraction: secrets and special
 * categories are refused, duplicates collapse (re-importing a file adds nothing), entries keep
 * their original time. Corrupt lines are counted and skipped; the file is only read.
 * An opted-out user is an OPTED_OUT error: nothing is imported.
 *
 * @example
 * const result = await importJsonlFile("~/.codex/memory.jsonl", { store, scope: { tenantId: "acme", userId: "alice" } });
 * // { entries: 40, imported: 31, duplicates: 6, refused: 3, corruptLines: 1, … }
 */
export async function importJsonlFile(file: string, options: ImportJsonlOptions): Promise<ImportJsonlResult> {
  const scope = requireUserScope(options.scope);
  if (await isOptedOut(options.targets, scope)) {
    throw new MemoryError(ErrorCodes.OPTED_OUT, "this user has opted out of memory: nothing is imported until they opt back in");
  }
  const confidence = options.confidence ?? 0.95;
  let size = 0;
  try {
    size = (await stat(file)).size;
  } catch {
    // readJsonlEntries reports the missing file with its own error
  }
  const report = emptyWriteReport(0);
  const result: ImportJsonlResult = { entries: 0, imported: 0, duplicates: 0, refused: 0, refusedByReason: {}, refusedByCategory: {}, corruptLines: 0, corrupt: [], report };
  for await (const record of readJsonlEntries(file)) {
    if (record.kind === "corrupt") {
      result.corruptLines++;
      result.corrupt.push({ line: record.line, reason: record.unterminated ? `${record.reason} (unterminated last line)` : record.reason });
    } else {
      result.entries++;
      const entry = record.entry;
      const subject = typeof entry.meta?.subject === "string" && SUBJECT_RE.test(entry.meta.subject) ? entry.meta.subject : undefined;
      const candidate: MemoryCandidate = {
        kind: kindOfEntry(entry),
        text: entry.content.trim(),
        confidence,
        ...(subject ? { subject } : {}),
        action: "add",
        explicit: true,
        sourceMessageId: `jsonl:${record.line}`,
        source: "user",
        extractor: "import",
      };
      const created = new Date(entry.ts);
      const one = await writeCandidates([candidate], {
        ...options,
        scope,
        writer: "import",
        threadId: null,
        optOutChecked: true,
        createdAtOf: () => (Number.isNaN(created.getTime()) || created.getTime() > Date.now() ? undefined : created),
      });
      mergeWriteReports(report, one);
      result.imported += one.added + one.superseded + one.profileFieldsChanged + one.rulesProposed;
      result.duplicates += one.deduped;
    }
    options.onProgress?.(record.end, size);
  }
  result.refused = report.refused;
  result.refusedByReason = report.refusedByReason;
  result.refusedByCategory = report.refusedByCategory;
  return result;
}
