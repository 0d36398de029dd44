// langgraph-memory/graph: building blocks for a graph of your own. The turn's steps, the prompt
// and its context within budgets, history trimming and summaries, the agent tools, token counts,
// the graph modules of langgraph.json, and the state's shapes and readers.

// ── The turn and the prompt ──────────────────────────────────────────────────────────────────
export { hasToolCalls, MEMORY_NODES, type MemoryGraphUpdate, type MemoryAgentTools } from "../graph/with-memory.js";
export { createMemoryTurnSteps, type MemoryStepsOptions, type MemoryTurnEvent, type MemoryTurnState, type MemoryTurnSteps } from "../graph/turn-steps.js";
export { memoryContext, type MemoryPromptOptions, type MemoryPromptState } from "../graph/memory-prompt.js";
export { requireRunScope, RUN_SCOPE_KEYS, type RunScope } from "../graph/run-scope.js";
export { checkThreadOwners, ThreadOwnerCheckedSaver } from "../threads/owner-checked-saver.js";
export { memoryGetter, type MemoryProvider } from "../graph/memory-source.js";
export { createMemoryAgentNode, MEMORY_AGENT_SYSTEM_PROMPT, type MemoryAgentNodeOptions } from "../graph/memory-agent-node.js";
export { memoryToolsFor } from "../graph/memory-tools.js";
export type { MemoryWorkerOptions } from "../graph/memory-worker.js";
export { MemoryMiddlewareState, type PrebuiltMemoryOptions } from "../graph/prebuilt.js";

// ── Graph modules (langgraph.json) ───────────────────────────────────────────────────────────
export { sharedMemory, closeSharedMemory, sharedMemoryWorker, graphMemorySettings, GRAPH_ENV_VARS, type GraphExtractionMode, type GraphMemorySettings } from "../graph/memory-from-env.js";
export { createExtractionGraph, ExtractionGraphAnnotation } from "../graph/extraction-graph.js";
export { MemoryGraphInputSchema, MemoryGraphOutputSchema, MemoryRunConfigSchema, MemoryScopeConfigSchema, ExtractionGraphInputSchema, ExtractionGraphOutputSchema } from "../graph/graph-schemas.js";

// ── Loading memory into the state ────────────────────────────────────────────────────────────
export { latestUserText, type LoadMemoryNodeOptions, type LoadMemoryResult } from "../graph/load-memory-node.js";
export type { MemoryLoader, MemoryLoaderInput } from "../retrieval/memory-loader.js";
export type { ContextReader, ContextReadRequest, ContextRead } from "../retrieval/context-reader.js";
export { contextReaderOf } from "../retrieval/per-store.js";
export { StatementContextReader, CachedContextReader } from "../retrieval/context-readers.js";
export { createPastSessionsLoader, type PastSessionsLoaderOptions } from "../sessions/past-sessions.js";

// ── Context within budgets ───────────────────────────────────────────────────────────────────
export { buildContext, resolveBudgets, type BuildContextInput, type BuildContextResult, type ContextUsage } from "../context/build-context.js";
export { formatMemoryContext, MEMORY_CONTEXT_HEADER } from "../context/format-memories.js";
export type { Budgets } from "../config.js";

// ── History and summaries ────────────────────────────────────────────────────────────────────
export { trimHistory, type TrimHistoryOptions } from "../summarization/trim-history.js";
export { createHistoryStrategy, type HistoryStrategy, type HistoryStrategyOptions, type HistoryStrategyKind, type HistorySelection } from "../summarization/history-strategy.js";
export type { SummarizationNodeOptions, SummarizationMode, SummaryChangeContext } from "../summarization/summarization-node.js";
export { chatModelSummarizer, SUMMARIZATION_TAGS, type ChatModelSummarizerOptions } from "../summarization/chat-model-summarizer.js";
export type { Summarizer, SummarizerInput, SummarizerOutput } from "../summarization/summarizer.js";

// ── Agent tools over the store ───────────────────────────────────────────────────────────────
export type { MemoryToolsOptions } from "../tools/memory-tools.js";
export { createManageMemoryTool, manageMemory, ManageMemorySchema, MANAGE_MEMORY_TOOL_NAME, type ManageMemoryInput, type ManageMemoryToolOptions } from "../tools/manage-memory-tool.js";
export { createSearchMemoryTool, searchMemory, SearchMemorySchema, SEARCH_MEMORY_TOOL_NAME, type SearchMemoryInput, type SearchMemoryToolOptions } from "../tools/search-memory-tool.js";

// ── Tokens ───────────────────────────────────────────────────────────────────────────────────
export { countTextTokens, encodingForModel, type TokenEncoding } from "../tokens/count-text.js";
export { countTokens, countMessageTokens, type CountTokensOptions } from "../tokens/count-messages.js";

// ── The state's shapes ───────────────────────────────────────────────────────────────────────
export { MemoryStateSpec, type MemoryUpdate } from "../state/annotation.js";
export { ExtractionStateSpec } from "../extraction/node/extraction-state.js";
export { MemoryStateFields, ExtractionStateFields, MemoryStateSchema, type MemoryStateSchemaState } from "../state/memory-state-schema.js";
export {
  MEMORY_KINDS,
  type MemoryKind,
  type MemoryScopeLevel,
  type RetrievedMemory,
  type SessionSummary,
  type SummaryEntities,
  type ProfileDocument,
  type ActiveRule,
  type MemoryUsage,
} from "../state/types.js";
export { readSummary, readMemories, readRules, readProfile } from "../state/state-schemas.js";
export type { PastSession } from "../sessions/past-session-item.js";
