import type { BaseMessage } from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";
import type { SessionSummary, SummaryEntities } from "../state/types.js";
import type { TokenEncoding } from "../tokens/count-text.js";

/** What a summariser is given: the oldest unsummarised chunk and the summary so far. */
export interface SummarizerInput {
  /** Messages to fold into the summary, oldest first (tool pairs complete). */
  messages: readonly BaseMessage[];
  /** The summary so far (its text and entities are part of the new one). */
  previous: SessionSummary | null;
  /** Token budget of the rendered summary block. */
  maxTokens: number;
  encoding: TokenEncoding;
  /** The calling node's config (callbacks, abort signal), so traces nest under the node. */
  config?: RunnableConfig;
}

/** A summariser's answer, before entities are merged with the previous ones and the result is fitted. */
export interface SummarizerOutput {
  text: string;
  entities: Partial<SummaryEntities>;
  /** Open tasks the new messages completed (removed from `openTasks`). */
  closedTasks?: string[];
}

/** Anything that folds messages into a summary: the offline extractive one, an LLM, your own. */
export interface Summarizer {
  /** `offline`, `chat-model`, … (recorded nowhere; for logs and errors). */
  readonly name: string;
  summarize(input: SummarizerInput): Promise<SummarizerOutput>;
}
