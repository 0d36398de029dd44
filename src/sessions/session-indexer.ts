import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { BudgetsSchema } from "../config.js";
import { ErrorCodes, invalidInput, isMemoryError } from "../errors.js";
import { redactSecrets } from "../sensitive/redaction.js";
import type { JobQueue } from "../jobs/job-queue.js";
import type { JobHandler } from "../jobs/job-worker.js";
import type { SessionSummary } from "../state/types.js";
import type { MemoryRepository } from "../store/memory-store.js";
import { chatModelSummarizer } from "../summarization/chat-model-summarizer.js";
import { offlineSummarizer } from "../summarization/offline-summarizer.js";
import { DEFAULT_SUMMARY_SHARE, type SummaryChangeContext } from "../summarization/summarization-node.js";
import type { Summarizer } from "../summarization/summarizer.js";
import { messageText } from "../summarization/transcript.js";
import { foldSession, type FoldSessionOptions } from "./fold-session.js";
import { checkScope, checkThreadId, type IndexSessionOptions, type IndexSessionResult, type SessionScope } from "./index-session.js";
import { sessionConversationEntries } from "./session-conversation.js";

/** Queue name of deferred session indexing. */
export const SESSION_INDEX_QUEUE = "session-index";

/** One message of a session-index job: the user's or the assistant's words, secrets already cut out. */
export interface SessionJobMessage {
  [key: string]: unknown;
  id: string | null;
  role: "user" | "assistant";
  text: string;
}

/** Payload of a session-index job: what summary changes folded, as session messages (a burst appends them). */
export interface SessionIndexJobPayload {
  [key: string]: unknown;
  threadId: string;
  messages: SessionJobMessage[];
}

export interface SessionIndexerOptions extends IndexSessionOptions {
  store: MemoryRepository;
  /**
   * Defer the write: enqueue a job (one round trip) instead of embedding and writing on the
   * response path; run {@link createSessionIndexJobHandler} in the worker. Worth it with a remote
   * embedder; with the offline one the inline write costs about as much as the enqueue.
   */
  queue?: JobQueue;
  /** Delay of the job, so a burst of summary changes makes one write. Default 0. */
  debounceMs?: number;
  /** Called after each inline indexing (metrics, tests). */
  onIndexed?: (result: IndexSessionResult, context: SummaryChangeContext) => void;
  /** LLM summariser of the session (default: the offline extractive one). */
  model?: BaseChatModel;
  summarizer?: Summarizer;
  /** Budget of the session's summary (default 0.2 × the recent-messages budget). */
  maxSummaryTokens?: number;
}

/** What `onSummaryChanged` receives. */
export type SummaryChangedHook = (summary: SessionSummary, context: SummaryChangeContext) => Promise<void>;

/**
 * The `onSummaryChanged` hook that keeps each thread's past-session memory current: at every
 * summary change, the messages it folded (`context.coveredMessages`) are folded into the thread's
 * one `episode` memory — the user's and the assistant's words only, never the rolling summary
 * itself, which quotes tool results and other third-party text (see `sessionConversation`).
 * Inline, or as a durable job with `queue`. A run without `thread_id`, `tenant_id` or `user_id`
 * throws (the node reports it through `onError(err, "hook")` and keeps the summary).
 *
 * @example
 * const summarize = createSummarizationNode({
 *   budget: config.budgets,
 *   onSummaryChanged: createSessionIndexer({ store }),
 * });
 */
export function createSessionIndexer(options: SessionIndexerOptions): SummaryChangedHook {
  const { store, queue, debounceMs, onIndexed, ...rest } = options;
  if (!store) throw invalidInput("store", "createSessionIndexer needs { store } (a MemoryRepository)");
  const foldOptions = foldOptionsOf(rest);
  return async function indexSummary(summary, context) {
    const scope = checkScope({ tenantId: context.tenantId, userId: context.userId });
    const threadId = checkThreadId(context.threadId);
    const covered = Array.isArray(context.coveredMessages) ? context.coveredMessages : [];
    if (queue) {
      const messages = toJobMessages(covered);
      if (messages.length === 0) return;
      const payload: SessionIndexJobPayload = { threadId, messages };
      await queue.enqueue({
        queue: SESSION_INDEX_QUEUE,
        scope,
        groupKey: `session:${threadId}`,
        idempotencyKey: `session:${threadId}:${summary.coversThroughMessageId ?? summary.updatedAt ?? ""}`,
        payload,
        debounceMs,
        merge: "append",
      });
      return;
    }
    const result = await foldIgnoringOptOut(store, scope, threadId, covered, foldOptions);
    if (result) onIndexed?.(result, context);
  };
}

/**
 * The worker's handler for {@link SESSION_INDEX_QUEUE} jobs.
 *
 * @example
 * await runWorker({ db, handlers: { [SESSION_INDEX_QUEUE]: createSessionIndexJobHandler({ store }) } });
 */
export function createSessionIndexJobHandler(options: Omit<SessionIndexerOptions, "queue" | "debounceMs" | "onIndexed">): JobHandler<SessionIndexJobPayload> {
  const { store, ...rest } = options;
  const foldOptions = foldOptionsOf(rest);
  return async (job) => {
    const p = job.payload;
    const messages = fromJobMessages(Array.isArray(p.messages) ? p.messages : []);
    await foldIgnoringOptOut(store, checkScope(job.scope), checkThreadId(p.threadId), messages, foldOptions);
  };
}

function foldOptionsOf(options: Omit<SessionIndexerOptions, "store" | "queue" | "debounceMs" | "onIndexed">): FoldSessionOptions {
  const { model, summarizer, maxSummaryTokens, ...indexOptions } = options;
  const budget = BudgetsSchema.parse({}).recentMessages;
  return {
    ...indexOptions,
    summarizer: summarizer ?? (model ? chatModelSummarizer(model) : offlineSummarizer()),
    fallbackToOffline: true,
    maxSummaryTokens: maxSummaryTokens ?? Math.floor(budget * DEFAULT_SUMMARY_SHARE),
    maxChunkTokens: budget,
  };
}

/** An opted-out user is not an error: nothing is written for them, as everywhere (null then). */
async function foldIgnoringOptOut(store: MemoryRepository, scope: SessionScope, threadId: string, messages: readonly BaseMessage[], options: FoldSessionOptions): Promise<IndexSessionResult | null> {
  try {
    return await foldSession(store, scope, threadId, messages, options);
  } catch (err) {
    if (isMemoryError(err, ErrorCodes.OPTED_OUT)) return null;
    throw err;
  }
}

/** The session messages of a chunk, secrets cut out before they rest in the job table. */
function toJobMessages(messages: readonly BaseMessage[]): SessionJobMessage[] {
  return sessionConversationEntries(messages).map(({ message }) => ({
    id: message.id ?? null,
    role: message.getType() === "human" ? "user" : "assistant",
    text: redactSecrets(messageText(message)),
  }));
}

function fromJobMessages(messages: readonly unknown[]): BaseMessage[] {
  const out: BaseMessage[] = [];
  for (const m of messages) {
    const { id, role, text } = (m ?? {}) as Partial<SessionJobMessage>;
    if (typeof text !== "string" || (role !== "user" && role !== "assistant")) continue;
    const fields = { content: text, ...(typeof id === "string" ? { id } : {}) };
    out.push(role === "user" ? new HumanMessage(fields) : new AIMessage(fields));
  }
  return out;
}
