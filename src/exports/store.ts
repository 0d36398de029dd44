// langgraph-memory/store: the database and every store on it. Opening and migrating, the memory
// repository and its retrieval, embeddings, the profile, rules, settings, the user controls,
// forgetting, past sessions, the checkpointer's options and the configuration they all share.

// ── Configuration ────────────────────────────────────────────────────────────────────────────
export { resolveConfig, ConfigSchema, ENV_VARS, type ResolvedConfig, type RetrievalConfig, type WritePolicyConfig, type RetentionConfig } from "../config.js";
export { chatModelFromSpec } from "../models/chat-model.js";

// ── The database ─────────────────────────────────────────────────────────────────────────────
export { openDatabase, connectDatabase, type OpenDatabaseOptions } from "../db/open.js";
export { migrate, verifyMigrations, type MigrateResult } from "../db/migrate.js";
export type { Database, Queryable, DbScope, Engine, DatabaseCapabilities, QueryOptions, QueryResult, TransactionOptions } from "../db/database.js";
export { memoryStatus, type MemoryStatus } from "../status/memory-status.js";

// ── Long-term memories ───────────────────────────────────────────────────────────────────────
export { MemoryRepository, type MemoryRepositoryOptions } from "../store/memory-store.js";
export type { LangGraphStoreOptions, LangGraphStoreIndex } from "../store/langgraph-store.js";
export { MEMORIES_NAMESPACE, type MemoryItemValue } from "../store/memory-namespace.js";
export type { ExportedStoreItem } from "../store/store-item-queries.js";
export type { MemoryScope } from "../core/scope.js";
export {
  MEMORY_ORIGINS,
  type Memory,
  type NewMemory,
  type MemoryPatch,
  type ScoredMemory,
  type MemorySearchOptions,
  type MemoryListOptions,
  type NearestMemory,
  type ExportedMemory,
  type MemorySource,
  type MemoryOrigin,
} from "../store/types.js";
export { reembedMemories, type ReembedOptions, type ReembedResult } from "../store/reembed.js";
export { createEmbeddings, embedderIdOf } from "../embeddings/create-embeddings.js";
export { MemoryRetriever, type MemoryRetrieverInput } from "../retrieval/memory-retriever.js";
export { retrieveMemories, capMemoriesByTokens, toRetrievedMemory, type RetrieveOptions, type RetrieveResult } from "../retrieval/retrieve-memories.js";
export { parseScope, scopeFromConfig, readScopeId, MAX_SCOPE_ID_CHARS, type UserScope, type ScopeShape } from "../core/scope.js";
export type { ChangeSource } from "../core/change-source.js";

// ── Past sessions ────────────────────────────────────────────────────────────────────────────
export { findPastSessions, listRecentSessions, type FindPastSessionsOptions, type FindPastSessionsResult, type ListRecentSessionsOptions } from "../sessions/past-sessions.js";
export { indexSession, type IndexSessionInput, type IndexSessionOptions, type IndexSessionOutcome, type IndexSessionResult, type SessionScope } from "../sessions/index-session.js";
export { indexSessionNow, type IndexSessionNowInput, type IndexSessionNowResult } from "../sessions/index-session-now.js";
export {
  createSessionIndexer,
  createSessionIndexJobHandler,
  SESSION_INDEX_QUEUE,
  type SessionIndexerOptions,
  type SessionIndexJobPayload,
  type SummaryChangedHook,
} from "../sessions/session-indexer.js";
export { isSessionMemory, sessionInfoOf, type SessionInfo } from "../sessions/session-metadata.js";

// ── Profile, rules, settings ─────────────────────────────────────────────────────────────────
export { ProfileStore, CHANGE_SOURCE_KINDS, type Profile, type ProfileChange, type ProfileFieldSource, type ProfileStoreOptions, type ExportedProfile, type ExportedProfileChange } from "../profile/profile-store.js";
export { DefaultProfileSchema, DEFAULT_PROFILE_PRIORITIES, resolveProfileSchema, validateProfile, type ProfileSchemaDefinition, type ResolvedProfileSchema } from "../profile/profile-schema.js";
export { RuleStore, type RuleListOptions } from "../procedural/rule-store.js";
export { RULE_SOURCES, REVIEW_STATES, type RuleOwner, type RuleScopeLevel, type RuleSource, type ReviewState, type ProceduralRule, type NewRule, type ExportedRule } from "../procedural/rule-types.js";
export { MemorySettingsStore, type MemorySettings, type ExportedSettings } from "../controls/settings-store.js";

// ── The user's controls, and forgetting ──────────────────────────────────────────────────────
export {
  MemoryControls,
  type MemoryControlsOptions,
  type ControlCallOptions,
  type MemoryInspection,
  type InspectedMemory,
  type MemoryLifecycleStatus,
  type ImportResult,
  type DeleteAllRequest,
} from "../controls/memory-controls.js";
export { USER_EXPORT_FORMAT, USER_EXPORT_VERSION, parseUserExport, type UserExport } from "../controls/user-export.js";
export type { ExportedThread } from "../controls/thread-export.js";
export type { DeletedCounts, ThreadDeletion } from "../controls/user-data.js";
export { forgetEverywhere, type ForgetEverywhereOptions, type ForgetReport } from "../forgetting/forget-everywhere.js";

// ── The checkpointer's options and threads ───────────────────────────────────────────────────
export type { PostgresCheckpointerOptions, RetentionOptions } from "../checkpointer/options.js";
export type { CheckpointThread } from "../checkpointer/postgres-checkpointer.js";
export type { ThreadOwner } from "../threads/thread-owner.js";

// ── Summaries sealed against tampering ───────────────────────────────────────────────────────
export { sealSummary, verifySummary, type SealScope } from "../state/summary-seal.js";
