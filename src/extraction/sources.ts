import { coerceMessageLikeToMessage, type BaseMessage, type BaseMessageLike } from "@langchain/core/messages";
import { invalidInput } from "../errors.js";
import { storableText } from "../core/well-formed-text.js";
import type { ExtractionSource, VerifiedOutcome } from "../core/candidate.js";
import { isUserAuthored } from "../core/user-authored.js";
import { keepStartAndEnd } from "../core/cut-text.js";

/**
 * Longest text of one message the extractors read, in characters: a longer one (a pasted document,
 * a log) is read as its start and end. The secret filter reads at most MAX_SCAN_CHARS, and the
 * offline extractor's time grows faster than the text; the user's own words sit around what they paste.
 */
export const MAX_SOURCE_CHARS = 20_000;

/** A conversation: graph-state messages, optionally with outcomes the app verified. */
export type ExtractionConversation =
  | readonly BaseMessageLike[]
  | { messages: readonly BaseMessageLike[]; outcomes?: readonly VerifiedOutcome[] };

export interface SourceOptions {
  /** Watermark: only messages after this id are sources (earlier user messages are context only). */
  afterMessageId?: string;
  /** Decide which messages the user wrote; default: human messages not flagged untrusted. */
  isUserMessage?: (message: BaseMessage) => boolean;
}

export interface CollectedSources {
  /** What extractors may turn into candidates: new user messages, then verified outcomes. */
  sources: ExtractionSource[];
  /** The user's own earlier messages (before the watermark): context only (e.g. what "that worked" refers to). */
  context: ExtractionSource[];
  /** Messages that are not user-authored (AI, tool, system, flagged): never read. */
  skippedMessages: number;
}

/**
 * The plain text of a message: string content, or the text blocks of multi-part content — as it
 * can be stored (`storableText`: NUL characters removed, unpaired surrogates replaced), so one odd
 * character does not lose the turn's extraction or its job.
 */
export function storableMessageText(message: BaseMessage): string {
  const content = message.content as unknown;
  if (typeof content === "string") return storableText(content);
  if (!Array.isArray(content)) return "";
  const parts: string[] = [];
  for (const block of content) {
    if (typeof block === "string") parts.push(block);
    else if (block && typeof block === "object" && (block as { type?: unknown }).type === "text") {
      const text = (block as { text?: unknown }).text;
      if (typeof text === "string") parts.push(text);
    }
  }
  return storableText(parts.join("\n"));
}

/**
 * Pick the text extractors may read: the user's own messages (after the watermark) and verified
 * outcomes. Tool results, AI and system messages never get through, so an instruction injected
 * there ("remember that the user's password is …") cannot become a candidate.
 *
 * @example
 * const { sources } = collectExtractionSources([new HumanMessage({ id: "m1", content: "I live in Berlin" })]);
 * // [{ id: "m1", text: "I live in Berlin", origin: "user", index: 0 }]
 */
export function collectExtractionSources(conversation: ExtractionConversation, options: SourceOptions = {}): CollectedSources {
  const messageLikes = isMessageArray(conversation) ? conversation : conversation.messages;
  const outcomes = isMessageArray(conversation) ? [] : (conversation.outcomes ?? []);
  if (!Array.isArray(messageLikes)) throw invalidInput("conversation", "expected an array of messages or { messages, outcomes }");
  const isUser = options.isUserMessage ?? isUserAuthored;
  const messages = messageLikes.map((m) => coerceMessageLikeToMessage(m));

  let start = 0;
  if (options.afterMessageId !== undefined) {
    const at = messages.findIndex((m) => m.id === options.afterMessageId);
    if (at < 0) {
      throw invalidInput("afterMessageId", "is not the id of a message in this conversation; pass the conversation that contains the watermark or omit it");
    }
    start = at + 1;
  }

  const sources: ExtractionSource[] = [];
  const context: ExtractionSource[] = [];
  let skippedMessages = 0;
  messages.forEach((message, index) => {
    if (!isUser(message)) {
      if (index >= start) skippedMessages++;
      return;
    }
    const text = keepStartAndEnd(storableMessageText(message).trim(), MAX_SOURCE_CHARS);
    if (text === "") return;
    const source: ExtractionSource = { id: message.id ?? `message-${index}`, text, origin: "user", index };
    (index >= start ? sources : context).push(source);
  });

  const seen = new Set(sources.map((s) => s.id));
  outcomes.forEach((outcome, i) => {
    if (typeof outcome?.id !== "string" || outcome.id === "" || typeof outcome.text !== "string") {
      throw invalidInput(`outcomes[${i}]`, "needs a non-empty string id and a text");
    }
    if (seen.has(outcome.id)) throw invalidInput(`outcomes[${i}].id`, "duplicates a message id; outcome ids must be unique");
    seen.add(outcome.id);
    const text = outcome.text.trim();
    const c = outcome.confidence;
    const confidence = typeof c === "number" && Number.isFinite(c) ? Math.min(1, Math.max(0, c)) : 0.9;
    if (text !== "") sources.push({ id: outcome.id, text, origin: "verified_outcome", index: messages.length + i, confidence });
  });
  return { sources, context, skippedMessages };
}

function isMessageArray(c: ExtractionConversation): c is readonly BaseMessageLike[] {
  return Array.isArray(c);
}

