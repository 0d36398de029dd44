import type { BaseMessage } from "@langchain/core/messages";
import type { SessionSummary } from "../state/types.js";

export interface WatermarkSplit {
  /** Leading system messages of the history (never summarised, always kept). */
  system: BaseMessage[];
  /** Messages the summary already covers (not sent again). */
  summarized: BaseMessage[];
  /** Messages after the watermark. */
  unsummarized: BaseMessage[];
  /** False when the summary names a watermark that is not in the list (see below). */
  watermarkFound: boolean;
}

/**
 * Split history at the summary's watermark (`coversThroughMessageId`). Messages up to and
 * including it are covered and never sent or summarised again. A watermark that is not in the
 * list means the covered messages were removed (`mode: "remove"`, or the app deleted them):
 * everything present is then unsummarised. Pure.
 *
 * @example
 * const { unsummarized } = splitAtWatermark(state.messages, state.summary);
 */
export function splitAtWatermark(messages: readonly BaseMessage[], summary: Pick<SessionSummary, "coversThroughMessageId"> | null | undefined): WatermarkSplit {
  let lead = 0;
  while (lead < messages.length && messages[lead].type === "system") lead++;
  const system = messages.slice(0, lead);
  const id = summary?.coversThroughMessageId;
  if (!id) return { system, summarized: [], unsummarized: messages.slice(lead), watermarkFound: id === null || id === undefined };
  // Search from the end: the watermark is usually in the newer half of a long thread.
  for (let i = messages.length - 1; i >= lead; i--) {
    if (messages[i].id === id) {
      return { system, summarized: messages.slice(lead, i + 1), unsummarized: messages.slice(i + 1), watermarkFound: true };
    }
  }
  return { system, summarized: [], unsummarized: messages.slice(lead), watermarkFound: false };
}
