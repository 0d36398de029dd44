// The lightweight memory skill: one append-only JSONL file shared with scripts/memory.sh.
export { JsonlMemory, defaultMemoryFile, type JsonlMemoryOptions, type CorruptLinesReport } from "./jsonl-memory.js";
export { readJsonlEntries, type JsonlRecord } from "./read-jsonl-entries.js";
export { MAX_LINE_BYTES, type JsonlEntry, type JsonlWriteInput } from "./jsonl-entry.js";
export type { JsonlSearchQuery, JsonlSearchResult } from "./jsonl-query.js";
export {
  createJsonlMemoryTools,
  createJsonlWriteTool,
  createJsonlSearchTool,
  JSONL_WRITE_DESCRIPTION,
  JSONL_SEARCH_DESCRIPTION,
} from "./memory-tools.js";
