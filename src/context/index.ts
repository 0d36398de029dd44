/** Prompt assembly within budgets (docs/short-term-memory.md). */
export { buildContext, resolveBudgets, SUMMARY_BLOCK_OPEN, SUMMARY_BLOCK_CLOSE, type BuildContextInput, type BuildContextResult, type ContextUsage } from "./build-context.js";
export { formatProfile, fitProfile, PROFILE_HEADER, type FormatProfileOptions } from "./format-profile.js";
export { formatRules, RULES_HEADER } from "./format-rules.js";
export { formatSummary, fitSummary, SUMMARY_HEADER } from "../summarization/format-summary.js";
export { renderMemoryBlock, PAST_SESSIONS_HEADER, MEMORY_BLOCK_OPEN, MEMORY_BLOCK_CLOSE, type MemoryBlock, type MemoryBlockInput } from "./memory-block.js";
export { findSequenceProblems, type SequenceProblem } from "./sequence-problems.js";
export type { FormattedSection } from "./fit-lines.js";
