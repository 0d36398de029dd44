/** Short-term memory: safe trimming, history strategies and the rolling summary (docs/short-term-memory.md). */
export { trimHistory, planTrim, type TrimHistoryOptions, type TrimPlan } from "./trim-history.js";
export { groupMessages, repairToolPairs, MISSING_TOOL_RESULT_TEXT, type MessageGroup, type MissingToolResultPolicy } from "./message-groups.js";
export { createHistoryStrategy, selectHistory, type HistoryStrategy, type HistoryStrategyOptions, type HistoryStrategyKind, type HistorySelection } from "./history-strategy.js";
export {
  createSummarizationNode,
  recentBudget,
  type SummarizationNodeOptions,
  type SummarizationMode,
  type SummaryChangeContext,
  type SummarizationNodeState,
  type SummarizationNodeUpdate,
} from "./summarization-node.js";
export { planSummarization, shouldSummarize, DEFAULT_TRIGGER_RATIO, type SummarizationPlan } from "./plan-summarization.js";
export { summarizeMessages } from "./summarize-messages.js";
export { splitAtWatermark } from "./watermark.js";
export { offlineSummarizer, summarizeOffline } from "./offline-summarizer.js";
export { chatModelSummarizer, SUMMARIZATION_TAG, SUMMARIZATION_TAGS, SummaryOutputSchema, type ChatModelSummarizerOptions } from "./chat-model-summarizer.js";
export type { Summarizer, SummarizerInput, SummarizerOutput } from "./summarizer.js";
export { SUMMARY_SYSTEM_PROMPT, SUMMARY_UPDATE_PROMPT, SUMMARY_JSON_INSTRUCTIONS } from "./prompts.js";
export { mergeEntities } from "./entities.js";
export { extractEntities } from "./extract-entities.js";
