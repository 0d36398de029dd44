import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { BaseMessage } from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";
import { BudgetsSchema } from "../config.js";
import { invalidInput } from "../errors.js";
import type { SessionSummary } from "../state/types.js";
import type { MemoryRepository } from "../store/memory-store.js";
import { chatModelSummarizer } from "../summarization/chat-model-summarizer.js";
import { offlineSummarizer } from "../summarization/offline-summarizer.js";
import { DEFAULT_SUMMARY_SHARE } from "../summarization/summarization-node.js";
import type { Summarizer } from "../summarization/summarizer.js";
import { foldSession } from "./fold-session.js";
import { checkScope, checkThreadId, type IndexSessionOptions, type IndexSessionResult, type SessionScope } from "./index-session.js";

export interface IndexSessionNowInput extends IndexSessionOptions {
  store: MemoryRepository;
  /** The thread's messages (`state.messages`), in order. */
  messages: readonly BaseMessage[];
  /**
   * @deprecated Ignored. A past session is folded from the thread's own messages into the
   * session's own stored summary; a rolling summary (`state.summary`) quotes tool results and
   * other third-party text, so it is never indexed.
   */
  summary?: SessionSummary | null;
  /** Whose session: `{ tenantId, userId }`; default from `config.configurable` (`tenant_id`, `user_id`). */
  scope?: SessionScope;
  /** Default `config.configurable.thread_id`. */
  threadId?: string;
  /** The run's config: scope and thread id, and callbacks for the summariser's model call. */
  config?: RunnableConfig;
  /** LLM summariser; without it (and without `summarizer`) the offline extractive summariser runs. */
  model?: BaseChatModel;
  summarizer?: Summarizer;
  /** Budget of the session's summary (default 0.2 × the recent-messages budget, as the summarisation node). */
  maxSummaryTokens?: number;
  /** Most tokens folded per summariser call (default the recent-messages budget); a longer tail takes several calls. */
  maxChunkTokens?: number;
  /** When the model call fails, summarise offline instead of failing. Default true. */
  fallbackToOffline?: boolean;
  /** When the session started (default: when first indexed). */
  startedAt?: Date | string;
  /** When it ended (default now, by `now` or the store's clock). */
  endedAt?: Date | string;
}

export interface IndexSessionNowResult extends IndexSessionResult {
  /** The session's summary after this call (its own: the user's and the assistant's words); null when there was nothing to summarise. */
  summary: SessionSummary | null;
  /** Summariser calls made (0 when the session already covered every message). */
  summarizerCalls: number;
}

/**
 * Index a thread as a past session now — after a turn, or when a thread ends. The session is
 * built only from what the user and the assistant said (`sessionConversation`: no tool results,
 * system messages, flagged documents, nor assistant sentences that repeat them): the messages after
 * the session's own watermark (all of them for a new session) are folded into the session's stored
 * summary with the offline summariser, or the LLM one with `model`, and indexed in place (one
 * memory per thread). Idempotent: called again at the same point it writes nothing.
 *
 * @example
 * // in the graph's end-of-turn (or end-of-session) node
 * await indexSessionNow({ store, messages: state.messages, config });
 */
export async function indexSessionNow(input: IndexSessionNowInput): Promise<IndexSessionNowResult> {
  const { store, messages, config, model, summarizer: custom, maxSummaryTokens, maxChunkTokens, fallbackToOffline = true, summary: _ignored, scope: _scope, threadId: _thread, startedAt, endedAt, ...rest } = input;
  if (!store) throw invalidInput("store", "indexSessionNow needs { store }");
  if (!Array.isArray(messages)) throw invalidInput("messages", "must be the thread's messages (an array)");
  const configurable = (config?.configurable ?? {}) as Record<string, unknown>;
  const scope = checkScope(input.scope ?? { tenantId: configurable.tenant_id, userId: configurable.user_id });
  const threadId = checkThreadId(input.threadId ?? (typeof configurable.thread_id === "number" ? String(configurable.thread_id) : configurable.thread_id));
  const budget = BudgetsSchema.parse({}).recentMessages;
  const chunkTokens = maxChunkTokens ?? budget;
  if (!(chunkTokens > 0)) throw invalidInput("maxChunkTokens", "must be a positive number of tokens");
  return foldSession(store, scope, threadId, messages, {
    ...rest,
    summarizer: custom ?? (model ? chatModelSummarizer(model) : offlineSummarizer()),
    fallbackToOffline,
    maxSummaryTokens: maxSummaryTokens ?? Math.floor(budget * DEFAULT_SUMMARY_SHARE),
    maxChunkTokens: chunkTokens,
    config,
    startedAt,
    endedAt,
  });
}
