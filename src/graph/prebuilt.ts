import type { BaseMessage } from "@langchain/core/messages";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
// Named here so the emitted .d.ts says @langchain/core (a required peer), not a re-export of an optional one.
import type {} from "@langchain/core/tools";
import type { LangGraphMemory } from "../memory.js";
import { memoryPrompt, type MemoryPromptState } from "./memory-prompt.js";
import { memoryToolsFor } from "./memory-tools.js";
import type { PrebuiltMemoryOptions } from "./prebuilt-options.js";
import { createMemoryTurnSteps, type MemoryTurnState } from "./turn-steps.js";
import { hasToolCalls, MemoryGraphAnnotation } from "./with-memory.js";

export type { PrebuiltMemoryOptions } from "./prebuilt-options.js";

/**
 * Memory for LangGraph's prebuilt `createReactAgent`: spread it into the agent's parameters.
 * `preModelHook` loads the profile, rules, memories and past sessions (and rolls the summary) once
 * per user turn; `prompt` assembles the memory context within budgets; `postModelHook` queues
 * extraction once the agent answers without tool calls; `tools` are `manage_memory` and
 * `search_memory`; the checkpointer and store are the memory's.
 *
 * @example
 * const m = reactAgentMemory(memory, { system: "You are a travel agent." });
 * const agent = createReactAgent({ llm, ...m, tools: [...myTools, ...m.tools] });
 * await agent.invoke({ messages: [new HumanMessage("hi")] }, { configurable: { thread_id: "t1", tenant_id: "acme", user_id: "alice" } });
 */
export function reactAgentMemory(memory: LangGraphMemory, options: PrebuiltMemoryOptions = {}) {
  const { system, ...stepOptions } = options;
  const steps = createMemoryTurnSteps({ ...stepOptions, memory });
  const budgets = { ...memory.config.budgets, ...options.budgets };
  return {
    stateSchema: MemoryGraphAnnotation,
    checkpointer: memory.checkpointer,
    store: memory.langgraphStore,
    tools: memoryToolsFor(memory),
    prompt: (state: MemoryPromptState): BaseMessage[] => memoryPrompt(state, { system, budgets }),
    preModelHook: async (state: MemoryTurnState, config: LangGraphRunnableConfig) => {
      // After a tool call the turn's memory is already loaded — unless the channels hold values the
      // load step did not return (a client's input): `recheck` loads again then.
      if (lastType(state.messages) !== "human") return steps.recheck(state, config);
      const loaded = await steps.load(state, config);
      const summarized = await steps.summarize(state, config);
      return { ...loaded, ...summarized };
    },
    postModelHook: async (state: MemoryTurnState, config: LangGraphRunnableConfig) => (hasToolCalls(state.messages) ? {} : steps.finish(state, config)),
  };
}

function lastType(messages: readonly BaseMessage[] | undefined): string | undefined {
  return messages && messages.length > 0 ? messages[messages.length - 1].getType() : undefined;
}

// The LangChain createAgent middleware lives beside it (its types need the optional langchain peer).
export { memoryMiddleware, MemoryMiddlewareState } from "./memory-middleware.js";
