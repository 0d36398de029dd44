// Curated public API of langgraph-memory. Everything exported here is documented and stable;
// deeper paths are internal.

// ── Errors and configuration ─────────────────────────────────────────────────────────────────
export { MemoryError, ErrorCodes, isMemoryError, type ErrorCode } from "./errors.js";
export {
  resolveConfig,
  ConfigSchema,
  ENV_VARS,
  type ConfigInput,
  type ResolvedConfig,
  type Budgets,
  type RetrievalConfig,
  type WritePolicyConfig,
} from "./config.js";

// ── Everything on one database ───────────────────────────────────────────────────────────────
export { createMemory, type CreateMemoryOptions, type LangGraphMemory } from "./memory.js";
export { chatModelFromSpec } from "./models/chat-model.js";

// ── Database ─────────────────────────────────────────────────────────────────────────────────
export { openDatabase, connectDatabase, type OpenDatabaseOptions } from "./db/open.js";
export { migrate, verifyMigrations, type MigrateResult } from "./db/migrate.js";
export type { Database, Queryable, DbScope, Engine, DatabaseCapabilities, QueryOptions } from "./db/database.js";

// ── Graph state ──────────────────────────────────────────────────────────────────────────────
export { MemoryAnnotation, MemoryStateSpec, type MemoryState, type MemoryUpdate } from "./state/annotation.js";
export {
  MEMORY_KINDS,
  emptyEntities,
  type MemoryKind,
  type MemoryScopeLevel,
  type RetrievedMemory,
  type SessionSummary,
  type SummaryEntities,
  type ProfileDocument,
  type ActiveRule,
  type MemoryUsage,
} from "./state/types.js";
export { readSummary, readMemories, readRules, readProfile, SessionSummarySchema, RetrievedMemorySchema, ActiveRuleSchema } from "./state/state-schemas.js";
export { sealSummary, verifySummary, type SealScope } from "./state/summary-seal.js";

// ── Session layer: checkpointer ──────────────────────────────────────────────────────────────
export * from "./checkpointer/index.js";
export * from "./threads/index.js";

// ── Short-term memory: tokens, trimming, context, summaries ──────────────────────────────────
export { countTextTokens, encodingForModel, type TokenEncoding } from "./tokens/count-text.js";
export * from "./tokens/count-messages.js";
export * from "./summarization/index.js";
export * from "./context/index.js";

// ── Long-term memory: store, embeddings, retrieval, past sessions ────────────────────────────
export { MemoryRepository, type MemoryRepositoryOptions } from "./store/memory-store.js";
export { LangGraphStore, type LangGraphStoreOptions, type LangGraphStoreIndex } from "./store/langgraph-store.js";
export { reembedMemories, type ReembedOptions, type ReembedResult } from "./store/reembed.js";
export type { MemoryScope } from "./store/scope.js";
export type {
  Memory,
  NewMemory,
  MemoryPatch,
  ScoredMemory,
  MemorySearchOptions,
  MemoryListOptions,
  NearestMemory,
  ExportedMemory,
  MemorySource,
  MemoryOrigin,
} from "./store/types.js";
export { LocalHashingEmbeddings } from "./embeddings/hashing-embeddings.js";
export { createEmbeddings, embedderIdOf } from "./embeddings/create-embeddings.js";
export { MemoryRetriever } from "./retrieval/memory-retriever.js";
export { createLoadMemoryNode, latestUserText, type LoadMemoryNodeOptions, type LoadMemoryResult, type MemoryLoader } from "./retrieval/load-memory-node.js";
export { retrieveMemories, capMemoriesByTokens, toRetrievedMemory } from "./retrieval/retrieve-memories.js";
export { scopeFromConfig } from "./retrieval/scope-from-config.js";
export { formatMemoryContext, formatMemoryLine, MEMORY_CONTEXT_HEADER, MEMORY_CONTEXT_CAVEAT } from "./context/format-memories.js";
export * from "./sessions/index.js";

// ── Profile, procedural rules, controls, retention ───────────────────────────────────────────
export * from "./profile/index.js";
export * from "./procedural/index.js";
export * from "./controls/index.js";
export * from "./retention/index.js";
export * from "./forgetting/index.js";
export { memoryStatus, type MemoryStatus } from "./status/memory-status.js";

// ── Write path: extraction, policy, nodes, tools, jobs ───────────────────────────────────────
export * from "./extraction/index.js";
export * from "./extraction/write/index.js";
export * from "./extraction/node/index.js";
export type { UserScope, ChangeSource, ProfileTarget, RuleTarget, SettingsTarget } from "./extraction/write-targets.js";
export * from "./tools/index.js";
export * from "./jobs/index.js";

// ── The lightweight JSONL memory skill ───────────────────────────────────────────────────────
export * from "./skill/index.js";

// ── The memory graph: withMemory, offline responder, prebuilt agents, graph modules ──────────
export * from "./graph/index.js";

// ── User controls over HTTP: API, viewer page, authentication ───────────────────────────────
export * from "./server/index.js";
