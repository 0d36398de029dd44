/** Past sessions: each thread's summary as the user's session episode, and "Relevant past interactions" (docs/short-term-memory.md). */
export { indexSession, type IndexSessionInput, type IndexSessionOptions, type IndexSessionOutcome, type IndexSessionResult, type SessionScope } from "./index-session.js";
export { indexSessionNow, type IndexSessionNowInput, type IndexSessionNowResult } from "./index-session-now.js";
export {
  createSessionIndexer,
  createSessionIndexJobHandler,
  SESSION_INDEX_QUEUE,
  type SessionIndexerOptions,
  type SessionIndexJobPayload,
  type SessionJobMessage,
  type SummaryChangedHook,
} from "./session-indexer.js";
export {
  createPastSessionsLoader,
  findPastSessions,
  listRecentSessions,
  type FindPastSessionsOptions,
  type FindPastSessionsResult,
  type ListRecentSessionsOptions,
  type PastSessionsLoaderOptions,
} from "./past-sessions.js";
export { retrieveMemoriesWithoutSessions } from "./memories-without-sessions.js";
export { toPastSession, sessionRecency, type PastSession } from "./past-session-item.js";
export { SESSION_METADATA_KEY, isSessionMemory, sessionInfoOf, type SessionInfo } from "./session-metadata.js";
export { sessionMemoryId } from "./session-memory-id.js";
export { sessionDocument, sessionSummaryOf, DEFAULT_SESSION_TEXT_TOKENS, type SessionDocument, type SessionDocumentOptions } from "./session-document.js";
export { sessionConversation, isThirdParty, ECHO_MIN_WORDS } from "./session-conversation.js";
export { redactSensitive, secretValuesIn, contextualSecrets, type RedactOptions, type RedactResult } from "./redact-summary.js";
export { staleTerms } from "./stale-terms.js";
export { withdrawFromSessions, dropSentencesWith, withoutToolTraffic, withCorrectionsApplied, WITHDRAWN_TERMS_KEY } from "./withdrawn-statements.js";
