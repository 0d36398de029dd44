import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { RemoveMessage, type BaseMessage } from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";
import { BudgetsSchema, type Budgets } from "../config.js";
import { invalidInput } from "../errors.js";
import type { SessionSummary, SummaryEntities } from "../state/types.js";
import { chatModelSummarizer, type ChatModelSummarizerOptions } from "./chat-model-summarizer.js";
import { offlineSummarizer } from "./offline-summarizer.js";
import { DEFAULT_RETAIN_RATIO, DEFAULT_TRIGGER_RATIO, planSummarization, validateRatios } from "./plan-summarization.js";
import { summarizeMessages } from "./summarize-messages.js";
import type { Summarizer } from "./summarizer.js";
import { readSummary } from "../state/state-schemas.js";

/** `"keep"`: full messages stay in state, prompts use summary + recent. `"remove"`: summarised messages are deleted with `RemoveMessage`. */
export type SummarizationMode = "keep" | "remove";

/** Share of the recent-messages budget the summary block may take (with the 0.7 trigger: 0.9 ≤ 1, so no trimming in steady state). */
export const DEFAULT_SUMMARY_SHARE = 0.2;

/** Who and what a summary change is about (scope from `config.configurable`). */
export interface SummaryChangeContext {
  threadId: string | null;
  tenantId: string | null;
  userId: string | null;
  /** The summary this one replaces. */
  previous: SessionSummary | null;
  /** Ids of the messages folded in by this change. */
  coveredMessageIds: string[];
  /** The messages folded in by this change, in order (a past session reads the user's and assistant's words from them). */
  coveredMessages?: readonly BaseMessage[];
}

export interface SummarizationNodeOptions {
  /** Chat model for LLM summaries; without it (and without `summarizer`) the offline summariser runs. */
  model?: BaseChatModel;
  /** Your own summariser (wins over `model`). */
  summarizer?: Summarizer;
  /** Recent-messages budget in tokens, or the budgets (uses `recentMessages`). Default 6000. */
  budget?: number | Partial<Budgets>;
  /** Default 0.7. */
  triggerRatio?: number;
  /** Default 0.3. */
  retainRatio?: number;
  /** Summary block budget. Default 0.2 × the recent-messages budget. */
  maxSummaryTokens?: number;
  /** Most tokens folded per run. Default: the recent-messages budget. */
  maxChunkTokens?: number;
  /** Default `"keep"`. */
  mode?: SummarizationMode;
  /** Prompt overrides for the LLM summariser (defaults: `SUMMARY_SYSTEM_PROMPT`, `SUMMARY_UPDATE_PROMPT`). */
  prompts?: { system?: string; update?: string };
  /** Structured-output mode and call tags of the LLM summariser. */
  llm?: Pick<ChatModelSummarizerOptions, "output" | "tags">;
  /** Model name for token counting (encoding choice). */
  tokenModel?: string;
  entityLimits?: Partial<Record<keyof SummaryEntities, number>>;
  /** When the model call fails, summarise this chunk offline instead of failing the turn. Default true. */
  fallbackToOffline?: boolean;
  /**
   * Called after each new summary (awaited; keep it fast, e.g. enqueue a job). The hook for indexing
   * the summary as a past-session episode. Its errors go to `onError` and never lose the summary.
   */
  onSummaryChanged?: (summary: SessionSummary, context: SummaryChangeContext) => void | Promise<void>;
  /** Errors recovered from (summariser fallback, hook failure). Default: `console.warn`. */
  onError?: (error: unknown, stage: "summarizer" | "hook") => void;
  /** Clock of the summary's `updatedAt` (tests, evals). Default the system clock. */
  now?: () => Date;
}

/** The channels the node reads. */
export interface SummarizationNodeState {
  messages: BaseMessage[];
  summary?: SessionSummary | null;
}

/** The node's update: a new summary, and in `"remove"` mode the removals. Empty when under the trigger. */
export interface SummarizationNodeUpdate {
  summary?: SessionSummary;
  messages?: RemoveMessage[];
}

/**
 * A graph node keeping a rolling summary in the `summary` channel (a thin layer over
 * `planSummarization` + `summarizeMessages`). Under the trigger it returns `{}` and calls no model;
 * over it, it folds the oldest chunk and the previous summary into a new one, exactly one
 * summariser call, and moves the watermark forward.
 *
 * @example
 * const graph = new StateGraph(MemoryAnnotation)
 *   .addNode("summarize", createSummarizationNode({ model, budget: config.budgets }))
 *   .addNode("agent", agent)
 *   .addEdge(START, "summarize").addEdge("summarize", "agent").addEdge("agent", END)
 *   .compile({ checkpointer });
 */
export function createSummarizationNode(options: SummarizationNodeOptions = {}) {
  const maxTokens = recentBudget(options.budget);
  const triggerRatio = options.triggerRatio ?? DEFAULT_TRIGGER_RATIO;
  const retainRatio = options.retainRatio ?? DEFAULT_RETAIN_RATIO;
  validateRatios(maxTokens, triggerRatio, retainRatio);
  const maxSummaryTokens = options.maxSummaryTokens ?? Math.floor(maxTokens * DEFAULT_SUMMARY_SHARE);
  if (!Number.isFinite(maxSummaryTokens) || maxSummaryTokens <= 0) throw invalidInput("maxSummaryTokens", `must be a positive number of tokens, got ${maxSummaryTokens}`);
  const mode = options.mode ?? "keep";
  if (mode !== "keep" && mode !== "remove") throw invalidInput("mode", `must be "keep" or "remove", got ${JSON.stringify(mode)}`);
  const summarizer =
    options.summarizer ??
    (options.model
      ? chatModelSummarizer(options.model, { systemPrompt: options.prompts?.system, updatePrompt: options.prompts?.update, ...options.llm })
      : offlineSummarizer());
  const fallback = options.fallbackToOffline ?? true;
  const onError = options.onError ?? ((err: unknown, stage: string) => console.warn(`[langgraph-memory] summarization ${stage} error: ${(err as Error)?.message ?? err}`));

  return async function summarize(state: SummarizationNodeState, config?: RunnableConfig): Promise<SummarizationNodeUpdate> {
    // A malformed summary in the state (older versions, other writers) is not built upon.
    const previous = readSummary(state.summary);
    const plan = planSummarization(state.messages, previous, {
      maxTokens,
      triggerRatio,
      retainRatio,
      maxChunkTokens: options.maxChunkTokens,
      model: options.tokenModel,
    });
    if (!plan.trigger || !plan.coversThroughMessageId) return {};
    const common = {
      messages: plan.chunk,
      previous,
      maxSummaryTokens,
      coversThroughMessageId: plan.coversThroughMessageId,
      entityLimits: options.entityLimits,
      model: options.tokenModel,
      config,
      now: options.now,
    };
    let summary: SessionSummary;
    try {
      summary = await summarizeMessages({ ...common, summarizer });
    } catch (err) {
      if (!fallback || summarizer.name === "offline") throw err;
      onError(err, "summarizer");
      summary = await summarizeMessages({ ...common, summarizer: offlineSummarizer() });
    }
    const coveredMessageIds = plan.chunk.map((m) => m.id).filter((id): id is string => typeof id === "string");
    if (options.onSummaryChanged) {
      const configurable = (config?.configurable ?? {}) as Record<string, unknown>;
      const context: SummaryChangeContext = {
        threadId: stringOrNull(configurable.thread_id),
        tenantId: stringOrNull(configurable.tenant_id),
        userId: stringOrNull(configurable.user_id),
        previous,
        coveredMessageIds,
        coveredMessages: plan.chunk,
      };
      try {
        await options.onSummaryChanged(summary, context);
      } catch (err) {
        onError(err, "hook");
      }
    }
    if (mode === "remove") return { summary, messages: coveredMessageIds.map((id) => new RemoveMessage({ id })) };
    return { summary };
  };
}

/** The recent-messages budget from a number or a budgets object. */
export function recentBudget(budget: number | Partial<Budgets> | undefined): number {
  if (typeof budget === "number") return budget;
  return budget?.recentMessages ?? BudgetsSchema.parse({}).recentMessages;
}

function stringOrNull(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : typeof value === "number" ? String(value) : null;
}
