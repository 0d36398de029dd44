// langgraph-memory/skill: the lightweight memory skill, one append-only JSONL file shared with
// scripts/memory.sh, and its two LangChain tools.
export { JsonlMemory, defaultMemoryFile, type JsonlMemoryOptions, type CorruptLinesReport } from "../skill/jsonl-memory.js";
export { readJsonlEntries, type JsonlRecord } from "../skill/read-jsonl-entries.js";
export { MAX_LINE_BYTES, type JsonlEntry, type JsonlWriteInput } from "../skill/jsonl-entry.js";
export type { JsonlSearchQuery, JsonlSearchResult } from "../skill/jsonl-query.js";
export { createJsonlMemoryTools, createJsonlWriteTool, createJsonlSearchTool, JSONL_WRITE_DESCRIPTION, JSONL_SEARCH_DESCRIPTION } from "../skill/memory-tools.js";
