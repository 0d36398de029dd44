import type { BaseMessage } from "@langchain/core/messages";
import { invalidInput } from "../errors.js";
import { countMessageTokens, REPLY_PRIMING_TOKENS, resolveEncoding, type CountTokensOptions } from "../tokens/count-messages.js";
import { groupMessages, type MessageGroup, type MissingToolResultPolicy } from "./message-groups.js";

export interface TrimHistoryOptions extends CountTokensOptions {
  /** Most tokens the result may cost as a prompt (as `countTokens` counts it). */
  maxTokens: number;
  /** Keep the leading system message(s) (counted against the budget). Default true. */
  keepSystem?: boolean;
  /**
   * Start the kept conversation on a human message (Anthropic and Gemini require it; OpenAI does
   * not). Default `"human"`; falls back to the kept groups as they are when none starts on one.
   */
  startOn?: "human" | "any";
  /**
   * Keep the newest unit (the current turn's message, or the last tool round) even when it alone
   * exceeds the budget, and report `overBudget`; dropping the user's question is worse. Default true.
   */
  keepLatest?: boolean;
  /** Repair of AI tool calls without results. Default `"synthesize"`. */
  missingToolResults?: MissingToolResultPolicy;
}

export interface TrimPlan {
  messages: BaseMessage[];
  /** Prompt tokens of `messages` (as `countTokens` counts them; 0 when empty). */
  tokens: number;
  /** Input messages left out (trimmed, orphan results, or replaced by a repair). */
  droppedMessages: number;
  /** True when the kept newest unit alone exceeds `maxTokens`. */
  overBudget: boolean;
}

/**
 * Keep the newest messages that fit in `maxTokens`, as whole units: an AI message with parallel
 * tool calls stays with all its results or goes with them; a tool result whose call was cut is
 * never first; the leading system message is kept. Pure.
 *
 * @example
 * const recent = trimHistory(state.messages, { maxTokens: 6000, model: "gpt-4o-mini" });
 */
export function trimHistory(messages: readonly BaseMessage[], options: TrimHistoryOptions): BaseMessage[] {
  return planTrim(messages, options).messages;
}

/** {@link trimHistory} with the token count and what was dropped. */
export function planTrim(messages: readonly BaseMessage[], options: TrimHistoryOptions): TrimPlan {
  if (!Number.isFinite(options.maxTokens) || options.maxTokens < 0) {
    throw invalidInput("maxTokens", `must be a non-negative number of tokens, got ${options.maxTokens}`);
  }
  const { groups } = groupMessages(messages, options.missingToolResults ?? "synthesize");
  const keepSystem = options.keepSystem ?? true;
  let lead = 0;
  if (keepSystem) while (lead < groups.length && groups[lead].type === "system") lead++;
  const selection = selectNewestGroups(groups.slice(lead), options.maxTokens - REPLY_PRIMING_TOKENS - groupsTokens(groups.slice(0, lead), options), {
    ...options,
    keepLatest: options.keepLatest ?? true,
  });
  const kept = [...groups.slice(0, lead), ...selection.groups];
  const out: BaseMessage[] = [];
  for (const g of kept) for (const m of g.messages) out.push(m);
  const tokens = out.length === 0 ? 0 : REPLY_PRIMING_TOKENS + groupsTokens(kept, options);
  const keptOriginals = new Set(out);
  const droppedMessages = messages.reduce((n, m) => n + (keptOriginals.has(m) ? 0 : 1), 0);
  return { messages: out, tokens, droppedMessages, overBudget: tokens > options.maxTokens };
}

export interface GroupSelection {
  groups: MessageGroup[];
  tokens: number;
  overBudget: boolean;
}

/**
 * Newest groups whose message tokens fit in `budget`, contiguous (an older unit is never kept when
 * a newer one was cut), optionally starting on a human message.
 */
export function selectNewestGroups(
  groups: readonly MessageGroup[],
  budget: number,
  options: CountTokensOptions & { startOn?: "human" | "any"; keepLatest?: boolean },
): GroupSelection {
  const enc = { encoding: resolveEncoding(options) };
  let used = 0;
  let first = groups.length;
  let overBudget = false;
  const sizes: number[] = [];
  for (let i = groups.length - 1; i >= 0; i--) {
    const t = groupTokens(groups[i], enc);
    if (used + t > budget) {
      if (first === groups.length && options.keepLatest) {
        first = i;
        used += t;
        sizes.unshift(t);
        overBudget = true;
      }
      break;
    }
    used += t;
    first = i;
    sizes.unshift(t);
  }
  if ((options.startOn ?? "human") === "human") {
    let k = first;
    while (k < groups.length && groups[k].type !== "human") k++;
    if (k < groups.length) {
      for (let i = first; i < k; i++) used -= sizes[i - first];
      first = k;
    }
  }
  return { groups: groups.slice(first), tokens: used, overBudget };
}

/** Message tokens of one group (no reply priming). */
export function groupTokens(group: MessageGroup, options?: CountTokensOptions): number {
  let t = 0;
  for (const m of group.messages) t += countMessageTokens(m, options);
  return t;
}

function groupsTokens(groups: readonly MessageGroup[], options?: CountTokensOptions): number {
  const enc = { encoding: resolveEncoding(options) };
  let t = 0;
  for (const g of groups) t += groupTokens(g, enc);
  return t;
}
