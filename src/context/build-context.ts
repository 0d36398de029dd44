import { SystemMessage, type BaseMessage } from "@langchain/core/messages";
import { BudgetsSchema, type Budgets } from "../config.js";
import { invalidInput } from "../errors.js";
import type { ActiveRule, MemoryUsage, ProfileDocument, RetrievedMemory, SessionSummary } from "../state/types.js";
import { countTokens, REPLY_PRIMING_TOKENS, resolveEncoding, type CountTokensOptions } from "../tokens/count-messages.js";
import { countTextTokensCached } from "../tokens/count-text.js";
import { createHistoryStrategy, type HistoryStrategy } from "../summarization/history-strategy.js";
import type { MissingToolResultPolicy } from "../summarization/message-groups.js";
import { messageText } from "../summarization/transcript.js";
import { splitAtWatermark } from "../summarization/watermark.js";
import { fitSummary, formatSummary } from "../summarization/format-summary.js";
import { renderMemoryBlock } from "./memory-block.js";
import { readMemories, readProfile, readRules, readSummary } from "../state/state-schemas.js";

export const SUMMARY_BLOCK_OPEN = "<conversation_summary>";
export const SUMMARY_BLOCK_CLOSE = "</conversation_summary>";
/** Most of the recent-messages budget a summary block may take (the summariser aims for 0.2). */
export const MAX_SUMMARY_SHARE = 0.5;

const DEFAULT_BUDGETS: Budgets = BudgetsSchema.parse({});
// Budgets objects are usually one config object reused every turn: validate each once.
const resolvedBudgets = new WeakMap<object, Budgets>();
const DEFAULT_STRATEGY = createHistoryStrategy({ kind: "tokens" });

export interface BuildContextInput extends CountTokensOptions {
  /** The app's system prompt. */
  system?: string;
  profile?: ProfileDocument | null;
  rules?: readonly ActiveRule[] | null;
  memories?: readonly RetrievedMemory[] | null;
  /** Summaries of relevant past sessions ("Relevant past interactions"). */
  pastSessions?: readonly RetrievedMemory[] | null;
  /** The rolling summary: messages through its watermark are replaced by it. */
  summary?: SessionSummary | null;
  /** The thread's messages (full history in `"keep"` mode). */
  messages: readonly BaseMessage[];
  /** Section budgets; missing ones take the defaults (`BudgetsSchema` in config.ts). */
  budget?: Partial<Budgets>;
  /** How recent messages are chosen (default: newest within the budget). */
  strategy?: HistoryStrategy;
  /** The model's context window: when set, the prompt also stays within `contextWindow − outputReserve`. */
  contextWindow?: number;
  /**
   * `"single"` (default): one system message with labelled blocks, which every provider accepts
   * (Anthropic and Gemini take a single system prompt). `"separate"`: one system message per block.
   */
  systemLayout?: "single" | "separate";
  /** Start recent messages on a user message (default `"human"`). */
  startOn?: "human" | "any";
  missingToolResults?: MissingToolResultPolicy;
}

/** Tokens per section of the assembled prompt; the `MemoryUsage` fields are what memory added. */
export interface ContextUsage extends MemoryUsage {
  /** The system prompt (plus system messages from the history). */
  system: number;
  /** Recent conversation messages sent. */
  recentMessages: number;
  /** The whole prompt as `countTokens` counts it. */
  prompt: number;
  /** Most tokens the prompt was allowed (sum of section budgets, or the context window less the output reserve). */
  promptLimit: number;
  /** Sections that did not fit their budget and were kept anyway (`system`, `recentMessages`). */
  overBudget: string[];
  /** Messages covered by the summary (not sent). */
  summarizedMessages: number;
  /** Unsummarised messages not sent (trimmed, or orphan tool results). */
  droppedMessages: number;
}

export interface BuildContextResult {
  messages: BaseMessage[];
  usage: ContextUsage;
}

/**
 * Assemble a prompt within the section budgets (`Budgets`): the system prompt, a labelled `<memory>` block
 * (profile, behavioral rules, memories, past sessions; each fitted by whole items), the rolling
 * summary as a labelled block, then the newest messages that fit, tool pairs whole, as a valid
 * OpenAI-style sequence. Rules share the system budget; the summary shares the recent-messages
 * budget. Malformed sections (a summary or memory of the wrong shape) are left out. Pure and
 * synchronous; token counts are cached, so a 200-turn thread takes well under 1 ms.
 *
 * @example
 * const { messages, usage } = buildContext({
 *   system: "You are a helpful travel agent.",
 *   profile: state.profile, rules: state.rules, memories: state.memories, summary: state.summary,
 *   messages: state.messages, budget: config.budgets,
 * });
 * const reply = await model.invoke(messages);
 * return { messages: [reply], memoryUsage: usage };
 */
export function buildContext(given: BuildContextInput): BuildContextResult {
  // The sections usually come from graph state, which may hold values of older versions, other
  // writers or a client: what is malformed is left out rather than failing the turn.
  const input: BuildContextInput = {
    ...given,
    summary: readSummary(given.summary),
    profile: readProfile(given.profile),
    rules: readRules(given.rules),
    memories: readMemories(given.memories),
    pastSessions: readMemories(given.pastSessions),
    messages: Array.isArray(given.messages) ? given.messages : [],
  };
  const budgets = resolveBudgets(input.budget);
  const encoding = resolveEncoding(input);
  const split = splitAtWatermark(input.messages, input.summary);

  const systemText = [input.system ?? "", ...split.system.map((m) => messageText(m))].filter((t) => t.trim() !== "").join("\n\n");
  const systemTokens = systemText ? countTextTokensCached(systemText, encoding) : 0;

  const memory = renderMemoryBlock(
    input,
    { profile: budgets.profile, rules: Math.max(0, budgets.system - systemTokens), memories: budgets.memories, pastSessions: budgets.pastSessions },
    encoding,
  );

  let summaryText = "";
  if (input.summary) {
    const fitted = fitSummary(input.summary, Math.floor(budgets.recentMessages * MAX_SUMMARY_SHARE), encoding);
    const body = formatSummary(fitted);
    if (body) summaryText = `${SUMMARY_BLOCK_OPEN}\n${body}\n${SUMMARY_BLOCK_CLOSE}`;
  }
  const summaryTokens = summaryText ? countTextTokensCached(summaryText, encoding) : 0;

  const blocks = [systemText, memory.text, summaryText].filter((t) => t !== "");
  const systemMessages =
    blocks.length === 0 ? [] : (input.systemLayout ?? "single") === "single" ? [new SystemMessage(blocks.join("\n\n"))] : blocks.map((b) => new SystemMessage(b));
  const fixedTokens = countTokens(systemMessages, { encoding }) || REPLY_PRIMING_TOKENS;

  const sectionSum = budgets.system + budgets.profile + budgets.memories + budgets.pastSessions + budgets.recentMessages;
  const promptLimit = input.contextWindow !== undefined ? Math.min(sectionSum, input.contextWindow - budgets.outputReserve) : sectionSum;
  if (!(promptLimit > 0)) throw invalidInput("contextWindow", `leaves no room for the prompt after the output reserve (${budgets.outputReserve} tokens)`);
  const recentLimit = Math.max(0, Math.min(budgets.recentMessages - summaryTokens, promptLimit - fixedTokens));

  const strategy = input.strategy ?? DEFAULT_STRATEGY;
  const selection = strategy.select(split.unsummarized, {
    maxTokens: recentLimit,
    encoding,
    startOn: input.startOn,
    missingToolResults: input.missingToolResults,
  });

  const messages = [...systemMessages, ...selection.messages];
  const prompt = fixedTokens + selection.tokens;
  const overBudget: string[] = [];
  if (systemTokens > budgets.system) overBudget.push("system");
  if (selection.overBudget) overBudget.push("recentMessages");
  if (prompt > promptLimit) overBudget.push("prompt");

  const sent = new Set(selection.messages);
  return {
    messages,
    usage: {
      profile: memory.profile.tokens,
      rules: memory.rules.tokens,
      memories: memory.memories.tokens,
      pastSessions: memory.pastSessions.tokens,
      summary: summaryTokens,
      total: memory.tokens + summaryTokens,
      system: systemTokens,
      recentMessages: selection.tokens,
      prompt,
      promptLimit,
      overBudget,
      summarizedMessages: split.summarized.length,
      droppedMessages: split.unsummarized.reduce((n, m) => n + (sent.has(m) ? 0 : 1), 0),
    },
  };
}

/** Budgets with defaults filled in, validated. */
export function resolveBudgets(budget: Partial<Budgets> | undefined): Budgets {
  if (!budget) return DEFAULT_BUDGETS;
  const cached = resolvedBudgets.get(budget);
  if (cached) return cached;
  const merged = { ...DEFAULT_BUDGETS, ...stripUndefined(budget) };
  const parsed = BudgetsSchema.safeParse(merged);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw invalidInput(`budget.${issue.path.join(".")}`, issue.message);
  }
  resolvedBudgets.set(budget, parsed.data);
  return parsed.data;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
