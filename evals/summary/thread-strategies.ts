/**
 * Ways of keeping a long thread within a prompt budget, walked turn by turn as an agent would:
 * each user message arrives, the strategy may fold older messages, and at the end the prompt the
 * model would get is built. `rolling-summary` is the product path (the summarisation node, then
 * `buildContext`); `trim-only` and `full-history` are the baselines; `langchain-summarization`
 * is LangChain v1's `summarizationMiddleware` on the same model and budget.
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { SystemMessage, type BaseMessage } from "@langchain/core/messages";
import { summarizationMiddleware } from "langchain";
import { BudgetsSchema } from "../../src/config.js";
import { buildContext } from "../../src/context/build-context.js";
import type { SessionSummary } from "../../src/state/types.js";
import { createSummarizationNode } from "../../src/summarization/summarization-node.js";
import type { Summarizer } from "../../src/summarization/summarizer.js";
import { DEFAULT_RETAIN_RATIO, DEFAULT_TRIGGER_RATIO } from "../../src/summarization/plan-summarization.js";
import { countTokens } from "../../src/tokens/count-messages.js";

/** The default budgets (`BudgetsSchema` in src/config.ts): what every strategy is held to. */
export const DEFAULT_BUDGETS = BudgetsSchema.parse({});

/** The prompt a strategy ends with. */
export interface StrategyPrompt {
  messages: BaseMessage[];
  /** Prompt tokens (`countTokens`, o200k_base). */
  tokens: number;
  /** The rolling summary at the end (product path only). */
  summary?: SessionSummary | null;
  /** Summaries made on the way. */
  summaries: number;
  /** Summariser errors recovered from (the node fell back to the offline summariser). */
  fallbacks: number;
}

export interface ThreadStrategy {
  readonly name: string;
  /** A user message arrived (the turn's other messages follow with {@link ThreadStrategy.append}). */
  userMessage(message: BaseMessage): Promise<void>;
  append(messages: readonly BaseMessage[]): void;
  /** The prompt now. */
  prompt(): StrategyPrompt;
}

/** Walk a thread of turns (each: a user message first, then the rest) through a strategy. */
export async function walkThread(turns: readonly BaseMessage[][], strategy: ThreadStrategy): Promise<StrategyPrompt> {
  for (const turn of turns) {
    if (turn.length === 0) continue;
    if (turn[0].type === "human") {
      await strategy.userMessage(turn[0]);
      strategy.append(turn.slice(1));
    } else strategy.append(turn);
  }
  return strategy.prompt();
}

/**
 * The product: the summarisation node (offline summariser, or `summarizer`) at the default
 * budgets before every model call, and `buildContext` for the prompt.
 */
export function rollingSummaryStrategy(system: string, options: { summarizer?: Summarizer; model?: BaseChatModel } = {}): ThreadStrategy {
  const messages: BaseMessage[] = [];
  let summary: SessionSummary | null = null;
  let summaries = 0;
  let fallbacks = 0;
  const node = createSummarizationNode({
    summarizer: options.summarizer,
    model: options.model,
    budget: DEFAULT_BUDGETS,
    now: () => new Date("2027-01-01T00:00:00Z"),
    onError: (_err, stage) => {
      if (stage === "summarizer") fallbacks++;
    },
  });
  return {
    name: options.model || options.summarizer ? "rolling summary (chat model)" : "rolling summary (offline)",
    async userMessage(message) {
      messages.push(message);
      const update = await node({ messages, summary });
      if (update.summary) {
        summary = update.summary;
        summaries++;
      }
    },
    append(more) {
      messages.push(...more);
    },
    prompt() {
      const ctx = buildContext({ system, summary, messages, budget: DEFAULT_BUDGETS });
      return { messages: ctx.messages, tokens: ctx.usage.prompt, summary, summaries, fallbacks };
    },
  };
}

/** Baseline: the newest messages that fit the same recent-messages budget, nothing else. */
export function trimOnlyStrategy(system: string): ThreadStrategy {
  const messages: BaseMessage[] = [];
  return {
    name: "trim only (same budget)",
    async userMessage(message) {
      messages.push(message);
    },
    append(more) {
      messages.push(...more);
    },
    prompt() {
      const ctx = buildContext({ system, messages, budget: DEFAULT_BUDGETS });
      return { messages: ctx.messages, tokens: ctx.usage.prompt, summaries: 0, fallbacks: 0 };
    },
  };
}

/** Ceiling: every message, whatever it costs. */
export function fullHistoryStrategy(system: string): ThreadStrategy {
  const messages: BaseMessage[] = [];
  return {
    name: "full history (ceiling)",
    async userMessage(message) {
      messages.push(message);
    },
    append(more) {
      messages.push(...more);
    },
    prompt() {
      const ctx = buildContext({ system, messages, budget: { ...DEFAULT_BUDGETS, recentMessages: 100_000_000 } });
      return { messages: ctx.messages, tokens: ctx.usage.prompt, summaries: 0, fallbacks: 0 };
    },
  };
}

/**
 * LangChain v1's `summarizationMiddleware` on the same model and budget: it summarises when the
 * history passes the same trigger (0.7 × the recent-messages budget) and keeps the same share
 * (0.3 ×) verbatim, counting with the same tokenizer. Its `beforeModel` hook runs before every
 * model call; its update (remove all, then the summary message and the kept ones) is applied here
 * as the agent's messages reducer would.
 */
export function langchainSummarizationStrategy(system: string, model: BaseChatModel): ThreadStrategy {
  const budget = DEFAULT_BUDGETS.recentMessages;
  const middleware = summarizationMiddleware({
    model,
    trigger: { tokens: Math.floor(budget * DEFAULT_TRIGGER_RATIO) },
    keep: { tokens: Math.floor(budget * DEFAULT_RETAIN_RATIO) },
    tokenCounter: (msgs: BaseMessage[]) => countTokens(msgs),
  });
  const hook = middleware.beforeModel as unknown as (state: { messages: BaseMessage[] }, runtime: { context: Record<string, unknown> }) => Promise<{ messages: BaseMessage[] } | undefined>;
  // The agent keeps its system prompt outside the messages state (the middleware would fold it in).
  let messages: BaseMessage[] = [];
  let summaries = 0;
  return {
    name: "LangChain summarizationMiddleware",
    async userMessage(message) {
      messages.push(message);
      const update = await hook({ messages }, { context: {} });
      if (update?.messages) {
        // [RemoveMessage(all), summary, ...kept]: the reducer leaves the summary and the kept ones.
        messages = update.messages.filter((m) => m.type !== "remove");
        summaries++;
      }
    },
    append(more) {
      messages.push(...more);
    },
    prompt() {
      const prompt = [new SystemMessage(system), ...messages];
      return { messages: prompt, tokens: countTokens(prompt), summaries, fallbacks: 0 };
    },
  };
}
