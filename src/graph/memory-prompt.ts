import type { BaseMessage } from "@langchain/core/messages";
import type { Budgets } from "../config.js";
import { buildContext, type BuildContextInput, type BuildContextResult } from "../context/build-context.js";
import type { MemoryState } from "../state/annotation.js";

/** The state channels a prompt is built from (any state that spreads `MemoryStateSpec` has them). */
export type MemoryPromptState = Pick<MemoryState, "messages"> & Partial<Pick<MemoryState, "summary" | "profile" | "rules" | "memories" | "pastSessions">>;

export interface MemoryPromptOptions extends Omit<BuildContextInput, "messages" | "summary" | "profile" | "rules" | "memories" | "pastSessions" | "budget"> {
  /** Your system prompt (the memory block and the summary follow it). */
  system?: string;
  /** Section budgets; default: the defaults (or `memory.config.budgets`). */
  budgets?: Partial<Budgets>;
}

/**
 * The prompt and its token usage for this turn: `buildContext` over the memory channels of the
 * state (profile, rules, retrieved memories, past sessions, rolling summary) and the newest
 * messages that fit the budgets.
 *
 * @example
 * const { messages, usage } = memoryContext(state, { system: "You are a travel agent." });
 * console.log(`prompt ${usage.prompt} tokens, memory ${usage.total}`);
 */
export function memoryContext(state: MemoryPromptState, options: MemoryPromptOptions = {}): BuildContextResult {
  const { system, budgets, ...rest } = options;
  return buildContext({
    ...rest,
    system,
    budget: budgets,
    messages: state.messages ?? [],
    summary: state.summary ?? null,
    profile: state.profile ?? null,
    rules: state.rules ?? [],
    memories: state.memories ?? [],
    pastSessions: state.pastSessions ?? [],
  });
}

/**
 * The messages to send your chat model this turn: your system prompt, the labelled memory block
 * the `load_memory` node filled, the rolling summary, then the recent messages within budget
 * (tool calls kept whole).
 *
 * @example
 * async function agent(state: MemoryState) {
 *   const reply = await model.invoke(memoryPrompt(state, { system: "You are a helpful travel agent." }));
 *   return { messages: [reply] };
 * }
 */
export function memoryPrompt(state: MemoryPromptState, options: MemoryPromptOptions = {}): BaseMessage[] {
  return memoryContext(state, options).messages;
}
