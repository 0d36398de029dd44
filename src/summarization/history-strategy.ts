import type { BaseMessage } from "@langchain/core/messages";
import { invalidInput } from "../errors.js";
import { resolveEncoding, type CountTokensOptions } from "../tokens/count-messages.js";
import { flattenGroups, groupMessages, type MissingToolResultPolicy } from "./message-groups.js";
import { createSummarizationNode, type SummarizationNodeOptions } from "./summarization-node.js";
import { selectNewestGroups } from "./trim-history.js";

export type HistoryStrategyKind = "window" | "tokens" | "summary";

/** How to choose the strategy: the last N turns, a token budget, or a rolling summary (default). */
export type HistoryStrategyOptions =
  | { kind: "window"; maxTurns: number }
  | { kind: "tokens" }
  | ({ kind: "summary" } & SummarizationNodeOptions);

export interface HistorySelectOptions extends CountTokensOptions {
  /** Token budget for the selected messages (no reply priming). */
  maxTokens: number;
  startOn?: "human" | "any";
  missingToolResults?: MissingToolResultPolicy;
}

export interface HistorySelection {
  messages: BaseMessage[];
  /** Message tokens of `messages`. */
  tokens: number;
  /** The newest unit alone exceeds the budget (kept anyway). */
  overBudget: boolean;
}

/** Picks the conversation part of a prompt; every strategy keeps tool pairs whole. */
export interface HistoryStrategy {
  readonly kind: HistoryStrategyKind;
  /** Choose from the unsummarised conversation (leading system messages excluded). */
  select(messages: readonly BaseMessage[], options: HistorySelectOptions): HistorySelection;
  /** For `"summary"`: the node to add before the agent, keeping `summary` up to date. */
  readonly summarizationNode?: ReturnType<typeof createSummarizationNode>;
}

/**
 * Create a history strategy. `window`: the last `maxTurns` user turns (a turn starts at a user
 * message and includes its tool rounds), still capped by the token budget. `tokens`: the newest
 * messages within the budget. `summary` (default): the newest messages within the budget, after
 * the summary's watermark; its `summarizationNode` maintains the summary.
 *
 * @example
 * const history = createHistoryStrategy({ kind: "window", maxTurns: 10 });
 * const { messages } = buildContext({ system, messages: state.messages, strategy: history });
 */
export function createHistoryStrategy(options: HistoryStrategyOptions = { kind: "summary" }): HistoryStrategy {
  switch (options.kind) {
    case "window": {
      if (!Number.isInteger(options.maxTurns) || options.maxTurns < 1) throw invalidInput("maxTurns", `must be a positive integer, got ${options.maxTurns}`);
      const maxTurns = options.maxTurns;
      return { kind: "window", select: (messages, opts) => selectHistory(messages, opts, maxTurns) };
    }
    case "tokens":
      return { kind: "tokens", select: (messages, opts) => selectHistory(messages, opts) };
    case "summary": {
      const { kind: _kind, ...nodeOptions } = options;
      return { kind: "summary", select: (messages, opts) => selectHistory(messages, opts), summarizationNode: createSummarizationNode(nodeOptions) };
    }
    default:
      throw invalidInput("kind", `unknown history strategy ${JSON.stringify((options as { kind: unknown }).kind)}; use "window", "tokens" or "summary"`);
  }
}

/** The default selection: newest whole units within the budget, optionally only the last `maxTurns` turns. */
export function selectHistory(messages: readonly BaseMessage[], options: HistorySelectOptions, maxTurns?: number): HistorySelection {
  let { groups } = groupMessages(messages, options.missingToolResults ?? "synthesize");
  if (maxTurns !== undefined) {
    let seen = 0;
    let from = 0;
    for (let i = groups.length - 1; i >= 0; i--) {
      if (groups[i].type === "human" && ++seen === maxTurns) {
        from = i;
        break;
      }
    }
    groups = groups.slice(from);
  }
  const selection = selectNewestGroups(groups, options.maxTokens, { encoding: resolveEncoding(options), startOn: options.startOn, keepLatest: true });
  return { messages: flattenGroups(selection.groups), tokens: selection.tokens, overBudget: selection.overBudget };
}
