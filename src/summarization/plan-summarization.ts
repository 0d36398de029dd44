import type { BaseMessage } from "@langchain/core/messages";
import { invalidInput } from "../errors.js";
import type { SessionSummary } from "../state/types.js";
import { resolveEncoding, type CountTokensOptions } from "../tokens/count-messages.js";
import { groupMessages } from "./message-groups.js";
import { groupTokens } from "./trim-history.js";
import { splitAtWatermark } from "./watermark.js";

export const DEFAULT_TRIGGER_RATIO = 0.7;
/** Share of the recent-messages budget kept verbatim after summarising (the newest turns). */
export const DEFAULT_RETAIN_RATIO = 0.3;

export interface SummarizationPlanOptions extends CountTokensOptions {
  /** The recent-messages budget in tokens (default 6000). */
  maxTokens: number;
  /** Summarise when unsummarised history passes this share of `maxTokens`. Default 0.7. */
  triggerRatio?: number;
  /** After summarising, keep about this share of `maxTokens` unsummarised. Default 0.3. */
  retainRatio?: number;
  /** Most tokens folded into one summary (a backlog is folded over several turns). Default `maxTokens`. */
  maxChunkTokens?: number;
}

export interface SummarizationPlan {
  /** True when a summary should be made now (and `chunk` is not empty). */
  trigger: boolean;
  /** Tokens of the messages after the watermark (system excluded). */
  unsummarizedTokens: number;
  /** `triggerRatio × maxTokens`. */
  thresholdTokens: number;
  /** The oldest unsummarised messages to fold in, whole tool pairs only, in input order. */
  chunk: BaseMessage[];
  /** Id of the chunk's last message: the new watermark. */
  coversThroughMessageId: string | null;
}

/**
 * Decide whether to summarise and what: when the messages after the watermark pass
 * `triggerRatio × maxTokens`, take the oldest whole units (never splitting an AI tool call from its
 * results, never the newest unit) until about `retainRatio × maxTokens` remain, preferring to
 * stop at the start of a user turn. Pure; counts with the cached token counter.
 *
 * @example
 * const plan = planSummarization(state.messages, state.summary, { maxTokens: 6000 });
 * if (plan.trigger) summary = await summarizeMessages({ messages: plan.chunk, previous: state.summary, … });
 */
export function planSummarization(
  messages: readonly BaseMessage[],
  summary: SessionSummary | null | undefined,
  options: SummarizationPlanOptions,
): SummarizationPlan {
  const triggerRatio = options.triggerRatio ?? DEFAULT_TRIGGER_RATIO;
  const retainRatio = options.retainRatio ?? DEFAULT_RETAIN_RATIO;
  validateRatios(options.maxTokens, triggerRatio, retainRatio);
  const enc = { encoding: resolveEncoding(options) };
  const maxChunk = options.maxChunkTokens ?? options.maxTokens;
  const { unsummarized } = splitAtWatermark(messages, summary);
  const { groups } = groupMessages(unsummarized, "synthesize");
  const sizes = groups.map((g) => groupTokens(g, enc));
  const total = sizes.reduce((a, b) => a + b, 0);
  const threshold = triggerRatio * options.maxTokens;
  const none: SummarizationPlan = { trigger: false, unsummarizedTokens: total, thresholdTokens: threshold, chunk: [], coversThroughMessageId: null };
  if (total <= threshold || groups.length < 2) return none;

  // A boundary before group i is clean when no earlier group has a message at or after group i's start
  // (tool results stored out of order would otherwise be split from their call).
  const cleanBefore: boolean[] = new Array(groups.length).fill(true);
  let maxEnd = -1;
  for (let i = 0; i < groups.length; i++) {
    cleanBefore[i] = maxEnd < groups[i].start;
    maxEnd = Math.max(maxEnd, groups[i].end);
  }

  const retain = retainRatio * options.maxTokens;
  let cut = 0; // groups [0, cut) are folded in
  let folded = 0;
  while (cut < groups.length - 1 && total - folded > retain && (cut === 0 || folded + sizes[cut] <= maxChunk)) {
    folded += sizes[cut];
    cut++;
  }
  // Prefer that the kept part starts a user turn: step back to one, else forward (never to the newest unit).
  let best = -1;
  for (let i = cut; i >= 1; i--) if (groups[i].type === "human" && cleanBefore[i]) { best = i; break; }
  if (best < 0) for (let i = cut + 1; i < groups.length; i++) if (groups[i].type === "human" && cleanBefore[i]) { best = i; break; }
  if (best < 0) {
    best = cut;
    while (best < groups.length && !cleanBefore[best]) best++;
    if (best >= groups.length) return none;
  }
  if (best < 1) return none;
  const endIndex = Math.max(...groups.slice(0, best).map((g) => g.end));
  const chunk = unsummarized.slice(0, endIndex + 1);
  const last = chunk[chunk.length - 1];
  if (!last.id) {
    throw invalidInput("messages", "the summarised messages need ids (the watermark is a message id): use LangGraph's messages reducer (MessagesAnnotation / MemoryAnnotation), which assigns them");
  }
  return { trigger: true, unsummarizedTokens: total, thresholdTokens: threshold, chunk, coversThroughMessageId: last.id };
}

/** True when unsummarised history has passed the trigger (see {@link planSummarization}). */
export function shouldSummarize(messages: readonly BaseMessage[], summary: SessionSummary | null | undefined, options: SummarizationPlanOptions): boolean {
  return planSummarization(messages, summary, options).trigger;
}

export function validateRatios(maxTokens: number, triggerRatio: number, retainRatio: number): void {
  if (!Number.isFinite(maxTokens) || maxTokens <= 0) throw invalidInput("budget", `the recent-messages budget must be a positive number of tokens, got ${maxTokens}`);
  if (!(triggerRatio > 0 && triggerRatio <= 1)) throw invalidInput("triggerRatio", `must be in (0, 1], got ${triggerRatio}`);
  if (!(retainRatio >= 0 && retainRatio < triggerRatio)) throw invalidInput("retainRatio", `must be in [0, triggerRatio), got ${retainRatio}`);
}
