import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { BaseMessage } from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";
import { BudgetsSchema } from "../config.js";
import { invalidInput } from "../errors.js";
import type { SessionSummary } from "../state/types.js";
import type { MemoryStore } from "../store/memory-store.js";
import { chatModelSummarizer } from "../summarization/chat-model-summarizer.js";
import { groupMessages } from "../summarization/message-groups.js";
import { offlineSummarizer } from "../summarization/offline-summarizer.js";
import { DEFAULT_SUMMARY_SHARE } from "../summarization/summarization-node.js";
import { summarizeMessages } from "../summarization/summarize-messages.js";
import type { Summarizer } from "../summarization/summarizer.js";
import { messageText } from "../summarization/transcript.js";
import { splitAtWatermark } from "../summarization/watermark.js";
import { countTokens } from "../tokens/count-messages.js";
import { checkScope, checkThreadId, indexSession, type IndexSessionOptions, type IndexSessionResult, type SessionScope } from "./index-session.js";
import { secretValuesIn } from "./redact-summary.js";
import { sessionMemoryId } from "./session-memory-id.js";
import { staleTerms, withCorrectionsApplied, withoutToolTraffic } from "./withdrawn-statements.js";
import { draftsFromMessage } from "../extraction/rules/rule-extractor.js";

export interface IndexSessionNowInput extends IndexSessionOptions {
  store: MemoryStore;
  /** The thread's messages (`state.messages`). */
  messages: readonly BaseMessage[];
  /** The thread's rolling summary (`state.summary`), if it has one: only messages after its watermark are summarised. */
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
  /** Summary budget (default 0.2 × the recent-messages budget, as the summarisation node). */
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
  /** The summary indexed (the rolling one with the thread's tail folded in); null when there was nothing to summarise. */
  summary: SessionSummary | null;
  /** Summariser calls made (0 when the rolling summary already covered every message). */
  summarizerCalls: number;
}

/**
 * Index a thread as a past session now — for threads that end before the rolling summary ever
 * triggers (short sessions), or to fold a thread's last turns into its session at the end. The
 * messages after the summary's watermark (all of them without a summary) are summarised with the
 * offline or LLM summariser and the result indexed like any summary change (same one memory per
 * thread, updated in place). Idempotent for the same messages: the watermark is the last message.
 * The returned `summary` may be written to state (`{ summary }`): it is a valid rolling summary.
 *
 * @example
 * // in the graph's end-of-session node
 * await indexSessionNow({ store, messages: state.messages, summary: state.summary, config });
 */
export async function indexSessionNow(input: IndexSessionNowInput): Promise<IndexSessionNowResult> {
  const { store, messages, config, model, summarizer: custom, maxSummaryTokens, maxChunkTokens, fallbackToOffline = true, ...rest } = input;
  if (!store) throw invalidInput("store", "indexSessionNow needs { store }");
  if (!Array.isArray(messages)) throw invalidInput("messages", "must be the thread's messages (an array)");
  const configurable = (config?.configurable ?? {}) as Record<string, unknown>;
  const scope = checkScope(input.scope ?? { tenantId: configurable.tenant_id, userId: configurable.user_id });
  const threadId = checkThreadId(input.threadId ?? (typeof configurable.thread_id === "number" ? String(configurable.thread_id) : configurable.thread_id));
  const budget = BudgetsSchema.parse({}).recentMessages;
  const summaryTokens = maxSummaryTokens ?? Math.floor(budget * DEFAULT_SUMMARY_SHARE);
  const chunkTokens = maxChunkTokens ?? budget;
  if (!(chunkTokens > 0)) throw invalidInput("maxChunkTokens", "must be a positive number of tokens");

  const split = splitAtWatermark(messages, input.summary ?? null);
  // Tool results are third-party content: a past session keeps what the user and assistant said.
  // Values the user corrected later in the thread are not quoted either ("typo, it's gmail").
  const corrected = withCorrectionsApplied(withoutToolTraffic(messages.filter((m) => m.type !== "system")));
  const byId = new Map(corrected.filter((m) => m.id).map((m) => [m.id!, m]));
  const tail = withoutToolTraffic(split.unsummarized.filter((m) => m.type !== "system")).map((m) => (m.id && byId.get(m.id)) || m);
  const conversation = corrected;
  const turns = conversation.filter((m) => m.type === "human").length;
  const knownSecrets = secretValuesIn(conversation.map(messageText));

  let summary: SessionSummary | null = input.summary ?? null;
  let calls = 0;
  const primary = custom ?? (model ? chatModelSummarizer(model) : offlineSummarizer());
  for (const { messages: chunk, last } of chunksOf(tail, chunkTokens)) {
    const common = {
      messages: chunk,
      previous: summary,
      maxSummaryTokens: summaryTokens,
      // Messages outside a LangGraph messages channel may have no id: the position names the watermark.
      coversThroughMessageId: last.id ?? `${threadId}#${messages.indexOf(last)}`,
      config,
      // The summary's time is the session's last activity (recency, expiry): the same clock as the store's.
      now: rest.now ?? (() => store.clock.now()),
    };
    calls++;
    try {
      summary = await summarizeMessages({ ...common, summarizer: primary });
    } catch (err) {
      if (!fallbackToOffline || primary.name === "offline") throw err;
      summary = await summarizeMessages({ ...common, summarizer: offlineSummarizer() });
    }
  }
  if (!summary) {
    return { outcome: "empty", memoryId: sessionMemoryId(scope, threadId), memory: null, redacted: [], summary: null, summarizerCalls: 0 };
  }
  const result = await indexSession(
    store,
    scope,
    {
      threadId,
      summary,
      coveredMessages: tail.length,
      totalMessages: split.watermarkFound ? conversation.length : undefined,
      turns,
      startedAt: rest.startedAt,
      endedAt: rest.endedAt,
      knownSecrets,
      withdrawnTerms: forgottenInThread(conversation),
    },
    rest,
  );
  return { ...result, summary, summarizerCalls: calls };
}

/**
 * What the user asked, in this thread, to be forgotten by name ("please forget everything about
 * Tobias"): the thread's own session must not quote it either. The rule extractor reads the
 * requests (the same parse the write path acts on).
 */
function forgottenInThread(messages: readonly BaseMessage[]): string[] {
  const terms = new Set<string>();
  for (const m of messages) {
    if (m.getType() !== "human") continue;
    for (const d of draftsFromMessage(messageText(m), {}).drafts) {
      if (d.action === "forget" && d.subject !== "*") for (const t of staleTerms(d.text, "")) terms.add(t);
    }
  }
  return [...terms];
}

/**
 * Whole message units (a tool call with its results) in chunks of at most `maxTokens` (a larger
 * unit goes alone), each with its newest input message (repaired units may end on a synthesized
 * result, which is not a watermark).
 */
function chunksOf(messages: readonly BaseMessage[], maxTokens: number): Array<{ messages: BaseMessage[]; last: BaseMessage }> {
  const chunks: Array<{ messages: BaseMessage[]; last: BaseMessage }> = [];
  let current: BaseMessage[] = [];
  let end = -1;
  let tokens = 0;
  for (const group of groupMessages(messages).groups) {
    const t = countTokens(group.messages);
    if (current.length > 0 && tokens + t > maxTokens) {
      chunks.push({ messages: current, last: messages[end] });
      current = [];
      tokens = 0;
    }
    current.push(...group.messages);
    end = Math.max(end, group.end);
    tokens += t;
  }
  if (current.length > 0) chunks.push({ messages: current, last: messages[end] });
  return chunks;
}
