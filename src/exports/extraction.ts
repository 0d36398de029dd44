// langgraph-memory/extraction: what may become a long-term memory and how it is written. The
// extractors and the pure write policy, the sensitive-content filter, the write path against the
// stores, and the nodes and job handlers that run extraction beside or after a turn.

// ── Extracting and the write policy ──────────────────────────────────────────────────────────
export { extractMemories, extractStorableMemories, type ExtractMemoriesOptions, type StorableMemories } from "../extraction/extract-memories.js";
export {
  applyWritePolicy,
  REJECTION_REASONS,
  type WritePolicyOptions,
  type WritePolicyResult,
  type PolicyRejection,
  type PolicyCounts,
  type RejectionReason,
} from "../extraction/write-policy.js";
export { MEMORY_EXTRACTION_PROMPT, MemoryExtractionSchema } from "../extraction/llm/prompt.js";
export { EXTRACTION_TAGS } from "../extraction/llm/llm-extractor.js";
export { collectExtractionSources, type ExtractionConversation } from "../extraction/sources.js";
export { UNTRUSTED_CONTENT_FLAG } from "../core/user-authored.js";
export { CANDIDATE_KINDS, type MemoryCandidate, type ExtractionSource, type VerifiedOutcome, type CandidateKind, type ExtractionResult } from "../core/candidate.js";

// ── Sensitive content ────────────────────────────────────────────────────────────────────────
export { detectSensitive, isStorable, primaryCategory, type StorableOptions } from "../sensitive/detect-sensitive.js";
export { SENSITIVE_CATEGORIES, SPECIAL_CATEGORIES, type SensitiveCategory, type SpecialCategory, type SensitiveFinding } from "../sensitive/categories.js";

// ── The write path ───────────────────────────────────────────────────────────────────────────
export { extractAndStore, type ExtractAndStoreOptions } from "../extraction/write/extract-and-store.js";
export { writeCandidates } from "../extraction/write/write-candidates.js";
export { importJsonlFile, type ImportJsonlOptions, type ImportJsonlResult } from "../extraction/write/import-jsonl.js";
export type { MemoryWriteOptions, WriteAttribution, WriteCandidatesOptions, WriteTargets } from "../extraction/write/write-options.js";
export type { WriteReport } from "../extraction/write/write-report.js";
export { DEFAULT_PROFILE_FIELDS, type ProfileFieldMapping } from "../extraction/write/profile-fields.js";
export type { ProfileTarget } from "../profile/profile-target.js";
export type { RuleTarget } from "../procedural/rule-target.js";
export type { SettingsTarget } from "../controls/settings-target.js";
export type { ControlsTarget } from "../controls/controls-target.js";
export { writeTargetsOf } from "../graph/write-targets.js";

// ── Nodes and background jobs ────────────────────────────────────────────────────────────────
export type { ScheduleExtractionNodeOptions } from "../extraction/node/schedule-extraction-node.js";
export type { MemoryExtractionNodeOptions, ExtractionNodeState, ExtractionNodeUpdate } from "../extraction/node/memory-extraction-node.js";
export { EXTRACTION_QUEUE, processExtractionPayload, type ExtractionJobPayload, type ProcessExtractionOptions } from "../extraction/node/extraction-payload.js";
export { createExtractionJobHandler, extractionJobHandlers, type ExtractionJobHandlerOptions } from "../extraction/node/extraction-job-handler.js";
export { ExtractionStateSpec } from "../extraction/node/extraction-state.js";
