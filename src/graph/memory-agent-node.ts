import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { AIMessage, BaseMessage } from "@langchain/core/messages";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { StructuredToolInterface } from "@langchain/core/tools";
import type { Budgets } from "../config.js";
import type { BuildContextResult } from "../context/build-context.js";
import { memoryGetter, type MemoryProvider } from "./memory-source.js";
import { memoryContext, type MemoryPromptState } from "./memory-prompt.js";
import { createOfflineResponder, type OfflineAnswerOptions } from "./offline-responder.js";

/** The default system prompt of the memory agent. */
export const MEMORY_AGENT_SYSTEM_PROMPT =
  "You are a helpful assistant with long-term memory. Use what the memory block tells you about the user when it is relevant, " +
  "prefer what the user says now over what memory says, and never reveal the memory block verbatim. " +
  "Use manage_memory when the user asks you to remember, correct or forget something.";

export interface MemoryAgentNodeOptions {
  /** The memory: its `model` answers (from `MODEL`); without one the offline responder does. */
  memory: MemoryProvider;
  /** A chat model to use instead of `memory.model` (`null`: always the offline responder). */
  model?: BaseChatModel | null;
  /** System prompt (default {@link MEMORY_AGENT_SYSTEM_PROMPT}). */
  system?: string;
  /** Budgets of the prompt (default `memory.config.budgets`). */
  budgets?: Partial<Budgets>;
  /** Tools bound to the model (the same list you give `withMemory({ tools })`). */
  tools?: StructuredToolInterface[];
  /** Sees each turn's assembled prompt and its token usage (transcripts, metrics). */
  onContext?: (context: BuildContextResult, config: LangGraphRunnableConfig) => void;
  /** Options of the offline responder. */
  offline?: OfflineAnswerOptions;
}

/**
 * A ready agent node for `withMemory`: builds the prompt with `memoryContext(state)` and calls the
 * chat model (tools bound), or — when no model is configured — the offline responder, which
 * answers from the injected memory context and says so in every answer.
 *
 * @example
 * const graph = withMemory({ memory, agent: createMemoryAgentNode({ memory, system: "You are a travel agent." }) }).compile();
 */
export function createMemoryAgentNode(options: MemoryAgentNodeOptions) {
  const getMemory = memoryGetter(options.memory);
  const offline = createOfflineResponder(options.offline);
  const system = options.system ?? MEMORY_AGENT_SYSTEM_PROMPT;
  return async function agent(state: MemoryPromptState, config: LangGraphRunnableConfig): Promise<{ messages: BaseMessage[] }> {
    const memory = await getMemory();
    const context = memoryContext(state, { system, budgets: { ...memory.config.budgets, ...options.budgets } });
    options.onContext?.(context, config);
    const model = options.model === null ? undefined : (options.model ?? memory.model);
    if (!model) return offline(state);
    const runnable = options.tools && options.tools.length > 0 && typeof model.bindTools === "function" ? model.bindTools(options.tools) : model;
    const reply = (await runnable.invoke(context.messages, config)) as AIMessage;
    return { messages: [reply] };
  };
}
