import { open, type FileHandle } from "node:fs/promises";
import { entryProblem, fileUnavailable, isBlankLine, type JsonlEntry } from "./jsonl-entry.js";
import { readLineBatches } from "./jsonl-lines.js";

/** One line of a skill memory file, as {@link readJsonlEntries} reads it. */
export type JsonlRecord =
  | {
      kind: "entry";
      /** 1-based line number in the file. */
      line: number;
      entry: JsonlEntry;
      /** Byte offset just after this line. Compare it with the file size to show progress. */
      end: number;
    }
  | {
      kind: "corrupt";
      line: number;
      /** Why it is not an entry ("not valid JSON", "content is not a string", ...). Never the line's text. */
      reason: string;
      /**
       * True for a last line without its newline. Such a line is a write in progress, or one that was
       * interrupted. memory_search skips it without a report.
       */
      unterminated: boolean;
      end: number;
    };

/**
 * Reads every line of a skill memory file (the JSONL of scripts/memory.sh and JsonlMemory), oldest
 * first, in one streaming pass. Yields each entry, and reports each corrupt line, with its line
 * number. Blank lines are skipped. The file is only read, never changed. A missing or unreadable
 * file throws MemoryError MEMORY_FILE_UNAVAILABLE.
 *
 * @example
 * for await (const record of readJsonlEntries("/home/me/.codex/memory.jsonl")) {
 *   if (record.kind === "entry") await importOne(record.entry);
 *   else console.warn(`line ${record.line}: ${record.reason}`);
 * }
 */
export async function* readJsonlEntries(file: string): AsyncGenerator<JsonlRecord> {
  let fh: FileHandle;
  try {
    fh = await open(file, "r");
  } catch (err) {
    throw fileUnavailable(`MEMORY_FILE: cannot read ${file} (${(err as Error).message})`, err);
  }
  try {
    const { size } = await fh.stat();
    let end = 0;
    for await (const batch of readLineBatches(fh, 0, size)) {
      const lastIndex = batch.lines.length - 1;
      for (let i = 0; i <= lastIndex; i += 1) {
        const raw = batch.lines[i];
        // Byte offsets are exact at batch ends. Inside a batch, they advance by each line's length.
        end = i === lastIndex ? batch.end : end + Buffer.byteLength(raw) + 1;
        if (isBlankLine(raw)) continue;
        const line = batch.first + i;
        let value: unknown;
        let reason: string | null;
        try {
          value = JSON.parse(raw);
          reason = entryProblem(value);
        } catch {
          reason = "not valid JSON";
        }
        if (reason === null) yield { kind: "entry", line, entry: value as JsonlEntry, end };
        else yield { kind: "corrupt", line, reason, unterminated: batch.unterminated && i === lastIndex, end };
      }
    }
  } finally {
    await fh.close();
  }
}
