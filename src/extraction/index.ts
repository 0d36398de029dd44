/** Extraction: what may become a long-term memory, and the pure write policy (docs/extraction.md). */
export { extractMemories, extractStorableMemories, type ExtractMemoriesOptions, type StorableMemories } from "./extract-memories.js";
export {
  applyWritePolicy,
  REJECTION_REASONS,
  type WritePolicyOptions,
  type WritePolicyResult,
  type PolicyRejection,
  type PolicyCounts,
  type RejectionReason,
} from "./write-policy.js";
export { detectSensitive, isStorable, primaryCategory, type StorableOptions } from "../sensitive/detect-sensitive.js";
export { SENSITIVE_CATEGORIES, SPECIAL_CATEGORIES, type SensitiveCategory, type SpecialCategory, type SensitiveFinding } from "../sensitive/categories.js";
export { MEMORY_EXTRACTION_PROMPT, JSON_OUTPUT_INSTRUCTIONS, MemoryExtractionSchema } from "./llm/prompt.js";
export { EXTRACTION_TAGS } from "./llm/llm-extractor.js";
export { collectExtractionSources, type ExtractionConversation } from "./sources.js";
export { UNTRUSTED_CONTENT_FLAG } from "../core/user-authored.js";
export {
  CANDIDATE_KINDS,
  type MemoryCandidate,
  type ExtractionSource,
  type VerifiedOutcome,
  type CandidateKind,
  type ExtractionResult,
} from "../core/candidate.js";
