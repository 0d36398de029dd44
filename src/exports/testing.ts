// langgraph-memory/testing: deterministic offline stand-ins, for tests, evals and demos without a
// model or an API key. A clock you move, local embeddings, a summarizer and a responder that
// answer from the conversation and memory alone.
export { ManualClock, type JobClock } from "../jobs/clock.js";
export { systemClock, type Clock } from "../controls/clock.js";
export { LocalHashingEmbeddings } from "../embeddings/hashing-embeddings.js";
export { offlineSummarizer, summarizeOffline, type OfflineSummarizerOptions } from "../summarization/offline-summarizer.js";
export {
  offlineAnswer,
  createOfflineResponder,
  isOfflineAnswer,
  OFFLINE_RESPONDER_NAME,
  OFFLINE_RESPONDER_LABEL,
  OFFLINE_RESPONDER_HINT,
  type OfflineAnswerOptions,
} from "../graph/offline-responder.js";
