/**
 * Memory in prebuilt agents: LangGraph's `createReactAgent` and LangChain v1's `createAgent`, with
 * the plugin's checkpointer, store, memory tools and memory context in the system prompt.
 *
 *   MODEL=openai:gpt-4o-mini OPENAI_API_KEY=… node --import tsx examples/prebuilt-agents.ts
 *
 * (Tool-calling agents need a real chat model; test/integration/prebuilt.test.ts runs these same
 * builders with a recording fake model.)
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { HumanMessage } from "@langchain/core/messages";
import { createReactAgent } from "@langchain/langgraph/prebuilt";
import { createAgent } from "langchain";
import { createMemory, type LangGraphMemory, memoryMiddleware, memoryWorker, reactAgentMemory } from "../src/index.js";

const SYSTEM = "You are a travel assistant. Save what the user wants remembered with manage_memory.";

/** LangGraph prebuilt: spread the memory parts into createReactAgent (add your own tools beside the memory tools). */
export function buildReactAgent(memory: LangGraphMemory, llm: BaseChatModel) {
  const m = reactAgentMemory(memory, { system: SYSTEM });
  return createReactAgent({ llm, ...m, tools: [...m.tools] });
}

/** LangChain v1: the memory as middleware; the checkpointer is the memory's. */
export function buildV1Agent(memory: LangGraphMemory, model: BaseChatModel) {
  return createAgent({ model, tools: [], middleware: [memoryMiddleware(memory)], checkpointer: memory.checkpointer, systemPrompt: SYSTEM });
}

async function main() {
  const memory = await createMemory({ databaseUrl: process.env.DATABASE_URL ?? "memory://" });
  if (!memory.model) {
    console.log("Set MODEL (e.g. openai:gpt-4o-mini) and its API key to run the prebuilt agents; they need a tool-calling chat model.");
    await memory.close();
    return;
  }
  const worker = memoryWorker(memory);
  worker.start(); // extraction off the response path, in this process
  const alice = (thread: string) => ({ configurable: { thread_id: thread, tenant_id: "acme", user_id: "alice" } });
  try {
    const react = buildReactAgent(memory, memory.model);
    for (const [thread, text] of [["r1", "Please remember that I always want a window seat."], ["r2", "Book me a train from Lisbon to Porto."]]) {
      const out = await react.invoke({ messages: [new HumanMessage(text)] }, alice(thread));
      console.log(`react › ${text}\n      ‹ ${out.messages[out.messages.length - 1].content}`);
    }
    const v1 = buildV1Agent(memory, memory.model);
    const out = await v1.invoke({ messages: [new HumanMessage("Which seat do I like?")] }, alice("v1"));
    console.log(`createAgent › Which seat do I like?\n            ‹ ${out.messages[out.messages.length - 1].content}`);
  } finally {
    await worker.stop();
    await memory.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
