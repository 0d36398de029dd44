import type { BaseMessage } from "@langchain/core/messages";
import { keepStartAndEnd } from "../core/cut-text.js";
import { messageText } from "./transcript.js";

/**
 * Longest text of one message a summariser reads, in characters. A summary is a few thousand
 * characters; a message far longer (a pasted document, a log) can only contribute a cut of itself,
 * and reading all of it made every later turn of its thread fail: the secret filter reads at most
 * MAX_SCAN_CHARS and refused the chunk, and a model's context would refuse it too.
 */
export const MAX_SUMMARIZED_MESSAGE_CHARS = 20_000;

/**
 * The messages as a summariser reads them: each one whose text is over
 * {@link MAX_SUMMARIZED_MESSAGE_CHARS} replaced by a copy of the same type, id and tool calls whose
 * text is its start and end ({@link keepStartAndEnd}); the others as they are.
 * The state's messages are never changed.
 *
 * @example
 * boundedForSummary([new HumanMessage("x".repeat(2_000_000))])[0].content.length // ≈ 20,000
 */
export function boundedForSummary(messages: readonly BaseMessage[], maxChars = MAX_SUMMARIZED_MESSAGE_CHARS): BaseMessage[] {
  return messages.map((m) => {
    const text = messageText(m);
    if (text.length <= maxChars) return m;
    const cut = keepStartAndEnd(text, maxChars);
    const Message = m.constructor as new (fields: Record<string, unknown>) => BaseMessage;
    return new Message({ ...(m.lc_kwargs as Record<string, unknown>), content: cut });
  });
}
