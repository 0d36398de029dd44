// The public API of langgraph-memory: what a LangGraph.js user needs to give a graph memory.
// Everything else has a subpath of its own (see package.json "exports" and docs/api.md):
//   langgraph-memory/graph       building blocks for your own graph: context, summaries, tools, tokens
//   langgraph-memory/store       the database and every store on it: memories, profile, rules, controls
//   langgraph-memory/extraction  what may become a memory, the write path, the extraction nodes
//   langgraph-memory/server      running it: HTTP API and viewer, job queue and worker, retention, roles
//   langgraph-memory/skill       the JSONL memory file shared with scripts/memory.sh
//   langgraph-memory/testing     deterministic offline stand-ins: clock, embeddings, summarizer, responder
// The report of each surface is api/*.api.md; `npm run api:check` fails when it changes unreviewed.

// ── Everything on one database ───────────────────────────────────────────────────────────────
export { createMemory, type CreateMemoryOptions, type LangGraphMemory } from "./memory.js";
export type { ConfigInput } from "./config.js";

// ── A graph with memory ──────────────────────────────────────────────────────────────────────
export { withMemory, MemoryGraphAnnotation, type MemoryGraphState, type MemoryAgentNode, type WithMemoryOptions, type WithMemoryBuilderOptions } from "./graph/with-memory.js";
export { memoryPrompt } from "./graph/memory-prompt.js";
export { reactAgentMemory, memoryMiddleware } from "./graph/prebuilt.js";
export { memoryWorker } from "./graph/memory-worker.js";

// ── The parts, for a graph of your own ───────────────────────────────────────────────────────
export { MemoryAnnotation, type MemoryState } from "./state/annotation.js";
export { PostgresCheckpointer } from "./checkpointer/postgres-checkpointer.js";
export { LangGraphStore } from "./store/langgraph-store.js";
export { createLoadMemoryNode } from "./graph/load-memory-node.js";
export { createSummarizationNode } from "./summarization/summarization-node.js";
export { createMemoryExtractionNode } from "./extraction/node/memory-extraction-node.js";
export { createScheduleExtractionNode } from "./extraction/node/schedule-extraction-node.js";
export { createMemoryTools } from "./tools/memory-tools.js";

// ── Errors ───────────────────────────────────────────────────────────────────────────────────
export { MemoryError, ErrorCodes, isMemoryError, type ErrorCode } from "./errors.js";
