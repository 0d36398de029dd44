import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";
import type { SessionSummary } from "../state/types.js";
import type { MemoryRepository } from "../store/memory-store.js";
import { offlineSummarizer } from "../summarization/offline-summarizer.js";
import { summarizeMessages } from "../summarization/summarize-messages.js";
import type { Summarizer } from "../summarization/summarizer.js";
import { boundedForSummary } from "../summarization/bounded-messages.js";
import { messageText } from "../summarization/transcript.js";
import { countTokens } from "../tokens/count-messages.js";
import { draftsFromMessage } from "../rule-extractor/rule-extractor.js";
import { requireThreadOwner } from "../threads/thread-owner.js";
import { indexSession, type IndexSessionOptions, type IndexSessionResult, type SessionScope } from "./index-session.js";
import { secretValuesIn } from "./redact-summary.js";
import { sessionConversationEntries } from "./session-conversation.js";
import { sessionSummaryOf } from "./session-document.js";
import { sessionMemoryId } from "./session-memory-id.js";
import { sessionInfoOf } from "./session-metadata.js";
import { staleTerms } from "./stale-terms.js";
import { correctedValues, withCorrectionsApplied } from "./withdrawn-statements.js";
import { dropWithdrawn, isEmptyWithdrawal, mergeWithdrawals, storedWithdrawal, withdrawalOf, type Withdrawal, type WithdrawnStatement } from "./withdrawal.js";

export interface FoldSessionOptions extends IndexSessionOptions {
  summarizer: Summarizer;
  /** When the summariser fails, summarise offline instead of failing. */
  fallbackToOffline: boolean;
  maxSummaryTokens: number;
  /** Most tokens folded per summariser call; a longer tail takes several calls. */
  maxChunkTokens: number;
  config?: RunnableConfig;
  startedAt?: Date | string;
  endedAt?: Date | string;
}

export interface FoldSessionResult extends IndexSessionResult {
  /** The session's summary after the fold (null when there was nothing to summarise). */
  summary: SessionSummary | null;
  summarizerCalls: number;
}

/**
 * Fold a stretch of a thread into its past session: the session's own stored summary (read back
 * from the session memory) plus the messages after the session's watermark — of the user's and
 * the assistant's words only (`sessionConversation`) — summarised and indexed in place. `messages`
 * is the thread in order, or a slice of it (a summary change's chunk). When the stored watermark is
 * among them, only what follows it is new; when it is not (earlier messages were removed, or this
 * is the next chunk), all of them are. Nothing new: `unchanged` (or `empty` without a session).
 * The thread must be the scope's own: THREAD_SCOPE_MISMATCH otherwise, nothing read or written.
 */
export async function foldSession(store: MemoryRepository, scope: SessionScope, threadId: string, messages: readonly BaseMessage[], options: FoldSessionOptions): Promise<FoldSessionResult> {
  const { summarizer, fallbackToOffline, maxSummaryTokens, maxChunkTokens, config, startedAt, endedAt, ...indexOptions } = options;
  // Only the scope's own thread becomes its past session (a foreign thread's words never become its memory).
  await requireThreadOwner(store.db, threadId, scope);
  const memoryId = sessionMemoryId(scope, threadId);
  const existing = await store.get(scope, memoryId);
  const info = existing ? sessionInfoOf(existing.metadata) : null;
  let summary: SessionSummary | null =
    existing && info ? { ...sessionSummaryOf(existing), coversThroughMessageId: info.coversThroughMessageId, tokens: 0, updatedAt: info.summaryUpdatedAt ?? info.lastAt } : null;

  const watermarkOf = (index: number) => messages[index].id ?? `${threadId}#${index}`;
  // A message far longer than a summary can use is read as its start and end, as a summary reads it
  // (the secret filter and the rules extractor would otherwise read all of it on every fold).
  const raw = sessionConversationEntries(boundedForSummary(messages));
  // Values the user corrected later in the thread are not quoted either ("typo, it's gmail").
  const corrected = withCorrectionsApplied(raw.map((e) => e.message));
  // What the user asked here to forget, and what was withdrawn from this session before (deleted,
  // superseded), leaves the messages before they are summarised: neither the prose nor the entity
  // field a summary takes from them can say it.
  const forgotten = forgottenInThread(raw.map((e) => e.message));
  const withdrawnTerms = [...forgotten.terms, ...correctedValues(raw.map((e) => e.message))];
  const withdrawal = mergeWithdrawals(storedWithdrawal(existing?.metadata), withdrawalOf(forgotten.statements, withdrawnTerms));
  const entries = raw.map((e, i) => ({ index: e.index, message: withoutWithdrawn(corrected[i], withdrawal) }));
  const at = info?.coversThroughMessageId ? messages.findIndex((_, i) => watermarkOf(i) === info.coversThroughMessageId) : -1;
  const tail = entries.filter((e) => e.index > at);
  if (tail.length === 0) {
    return { outcome: existing ? "unchanged" : "empty", memoryId, memory: existing, redacted: [], summary, summarizerCalls: 0 };
  }

  let calls = 0;
  for (const chunk of chunksOf(tail, maxChunkTokens)) {
    const common = {
      messages: chunk.map((e) => e.message),
      previous: summary,
      maxSummaryTokens,
      // Messages outside a LangGraph messages channel may have no id: the position names the watermark.
      coversThroughMessageId: watermarkOf(chunk[chunk.length - 1].index),
      config,
      // The summary's time is the session's last activity (recency, expiry): the same clock as the store's.
      now: indexOptions.now ?? (() => store.clock.now()),
    };
    calls++;
    try {
      summary = await summarizeMessages({ ...common, summarizer });
    } catch (err) {
      if (!fallbackToOffline || summarizer.name === "offline") throw err;
      summary = await summarizeMessages({ ...common, summarizer: offlineSummarizer() });
    }
  }
  // The whole conversation present was read when the watermark was found (or there was none yet);
  // otherwise earlier messages are gone and the stored counts go on.
  const whole = at >= 0 || !info;
  const conversation = entries.map((e) => e.message);
  const humanTurns = (list: readonly { message: BaseMessage }[]) => list.filter((e) => e.message.getType() === "human").length;
  const result = await indexSession(
    store,
    scope,
    {
      threadId,
      summary: summary!,
      coveredMessages: tail.length,
      totalMessages: whole ? entries.length : undefined,
      turns: whole ? humanTurns(entries) : (info?.turns ?? 0) + humanTurns(tail),
      startedAt,
      endedAt,
      knownSecrets: secretValuesIn(conversation.map(messageText)),
      // A value corrected after the session folded it ("typo, it's the 24th") leaves the session too.
      withdrawnTerms,
      withdrawnStatements: forgotten.statements,
    },
    indexOptions,
  );
  return { ...result, summary, summarizerCalls: calls };
}

/** "everything about greg", "anything regarding the old flat": what a forget request names. */
const FORGET_SUBJECT = /\b(?:everything|anything|all|stuff)\s+(?:about|regarding|concerning|on)\s+([^,.;!?]+)/i;

/**
 * What the user asked, in this thread, to be forgotten ("please forget everything about Tobias",
 * "forget that my landlord is greg"): the thread's own session must not quote it either. The rule
 * extractor reads the requests (the same parse the write path acts on); each gives its statement,
 * its values (names, numbers) and the subject it names, typed in lowercase or not.
 */
function forgottenInThread(messages: readonly BaseMessage[]): { statements: WithdrawnStatement[]; terms: string[] } {
  const terms = new Set<string>();
  const statements: WithdrawnStatement[] = [];
  for (const m of messages) {
    if (m.getType() !== "human") continue;
    for (const d of draftsFromMessage(messageText(m), {}).drafts) {
      if (d.action !== "forget" || d.subject === "*") continue;
      statements.push({ text: d.text });
      for (const t of staleTerms(d.text, "")) terms.add(t);
      const subject = FORGET_SUBJECT.exec(d.text)?.[1]?.trim();
      if (subject) terms.add(subject);
    }
  }
  return { statements, terms: [...terms] };
}

/** A message without the sentences that state a withdrawn fact (its text may become empty). */
function withoutWithdrawn(message: BaseMessage, w: Withdrawal): BaseMessage {
  if (isEmptyWithdrawal(w)) return message;
  const text = messageText(message);
  const kept = dropWithdrawn(text, w);
  if (kept === text) return message;
  return message.getType() === "human" ? new HumanMessage({ id: message.id, content: kept }) : new AIMessage({ id: message.id, content: kept, name: message.name });
}

/** Messages in chunks of at most `maxTokens` (a larger message goes alone), in order. A session's messages carry no tool pairs to keep together. */
function chunksOf<E extends { message: BaseMessage }>(entries: readonly E[], maxTokens: number): E[][] {
  const chunks: E[][] = [];
  let current: E[] = [];
  let tokens = 0;
  for (const entry of entries) {
    const t = countTokens([entry.message]);
    if (current.length > 0 && tokens + t > maxTokens) {
      chunks.push(current);
      current = [];
      tokens = 0;
    }
    current.push(entry);
    tokens += t;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}
