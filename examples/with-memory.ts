/**
 * Add memory to your own graph in a few lines. Runs offline as is (the offline responder answers
 * from memory, and says so), or with a real model when MODEL is set:
 *
 *   node --import tsx examples/with-memory.ts
 */
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { createMemory, memoryPrompt, withMemory, type MemoryGraphState } from "../src/index.js";
import { offlineAnswer } from "../src/exports/testing.js";

const memory = await createMemory({ databaseUrl: process.env.DATABASE_URL ?? "memory://" });

// Your agent: build the prompt from state with memoryPrompt(); the memory nodes do the rest.
async function agent(state: MemoryGraphState) {
  if (!memory.model) return { messages: [new AIMessage(offlineAnswer(state))] };
  return { messages: [await memory.model.invoke(memoryPrompt(state, { system: "You are a concise travel assistant." }))] };
}

// inline extraction keeps this single-file example simple; production graphs queue it for a worker.
const graph = withMemory({ memory, agent, extraction: "inline" }).compile({ checkpointer: memory.checkpointer });
const alice = (thread: string) => ({ configurable: { thread_id: thread, tenant_id: "acme", user_id: "alice" } });

for (const [thread, text] of [
  ["monday", "Please always use metric units. I live in Lisbon."],
  ["friday", "How far is Porto from Lisbon?"],
]) {
  const out = await graph.invoke({ messages: [new HumanMessage(text)] }, alice(thread));
  console.log(`alice (${thread}) › ${text}\n  ‹ ${out.messages[out.messages.length - 1].content}\n`);
}
await memory.close();
