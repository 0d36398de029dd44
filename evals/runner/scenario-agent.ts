import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { Budgets } from "../../src/config.js";
import type { ContextUsage } from "../../src/context/build-context.js";
import { MEMORY_AGENT_SYSTEM_PROMPT, createMemoryAgentNode } from "../../src/graph/memory-agent-node.js";
import { memoryContext, type MemoryPromptState } from "../../src/graph/memory-prompt.js";
import type { LangGraphMemory } from "../../src/memory.js";

/** The name of the tool whose results a scenario's `tool` turns are. */
export const SCENARIO_TOOL_NAME = "scenario_tool";

/** What the next agent call should say: the canned reply (if any) and the tool results that follow it. */
export interface NextReply {
  /** The scenario's canned reply; undefined → the configured responder answers. */
  text?: string;
  /** Ids of the tool calls the reply makes (one per `tool` turn after it). */
  toolCallIds: string[];
}

/**
 * The agent of an eval session: it builds the prompt exactly as the memory agent does
 * (`memoryContext` with the memory agent's system prompt and the memory's budgets) and records its
 * token usage, then answers with the scenario's canned reply, or lets the memory agent node answer
 * (the offline responder, or the configured model). When `tool` turns follow, the reply carries
 * one tool call per result, so the ToolMessages that follow pair with it.
 */
export function createScenarioAgent(memory: LangGraphMemory, budgets: Budgets) {
  let next: NextReply = { toolCallIds: [] };
  let lastUsage: ContextUsage | null = null;
  const responder = createMemoryAgentNode({ memory, budgets });
  async function agent(state: MemoryPromptState, config: LangGraphRunnableConfig): Promise<{ messages: BaseMessage[] }> {
    lastUsage = memoryContext(state, { system: MEMORY_AGENT_SYSTEM_PROMPT, budgets }).usage;
    const reply = next;
    next = { toolCallIds: [] };
    let message: AIMessage;
    if (reply.text !== undefined) message = new AIMessage({ content: reply.text });
    else {
      const answered = (await responder(state, config)).messages[0] as AIMessage;
      message = answered;
    }
    if (reply.toolCallIds.length === 0) return { messages: [message] };
    const withCalls = new AIMessage({
      content: message.content,
      name: message.name,
      tool_calls: reply.toolCallIds.map((id) => ({ id, name: SCENARIO_TOOL_NAME, args: {}, type: "tool_call" as const })),
    });
    return { messages: [withCalls] };
  }
  return {
    agent,
    /** Set what the next call answers. */
    setNext(reply: NextReply): void {
      next = reply;
    },
    /** The prompt usage of the last call (null before the first). */
    takeUsage(): ContextUsage | null {
      const u = lastUsage;
      lastUsage = null;
      return u;
    },
  };
}
