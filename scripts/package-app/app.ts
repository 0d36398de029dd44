// A user's app on the packed langgraph-memory (scripts/test-package.mjs): compiled with
// `tsc --strict`, run on embedded PGlite. Its own wired ReAct-style graph (START → agent, a
// condition to END) gets memory around it; a scripted chat model from @langchain/core answers.
// Prints one JSON line with what it saw; exits non-zero when something is not as it should be.
import { FakeListChatModel } from "@langchain/core/utils/testing";
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { Annotation, END, START, StateGraph } from "@langchain/langgraph";
import { createMemory, memoryMiddleware, memoryPrompt, withMemory } from "langgraph-memory";
import { ExtractionStateSpec } from "langgraph-memory/extraction";
import { MemoryStateSpec } from "langgraph-memory/graph";

const State = Annotation.Root({ ...MemoryStateSpec, ...ExtractionStateSpec, turns: Annotation<number>({ reducer: (a, b) => a + b, default: () => 0 }) });

function appGraph(model: FakeListChatModel) {
  return new StateGraph(State)
    .addNode("agent", async (state: typeof State.State) => ({ messages: [await model.invoke(memoryPrompt(state, { system: "You are a travel agent." }))], turns: 1 }))
    .addEdge(START, "agent")
    .addConditionalEdges("agent", (state: typeof State.State) => (state.messages.length > 50 ? "agent" : END), ["agent", END]);
}

function fail(message: string): never {
  console.error(`package app: ${message}`);
  process.exit(1);
}

const memory = await createMemory({ databaseUrl: "memory://" });
try {
  const scope = { tenant_id: "acme", user_id: "alice" };
  const first = withMemory(appGraph(new FakeListChatModel({ responses: ["Noted."] })), { memory, extraction: "inline" }).compile({ checkpointer: memory.checkpointer });
  await first.invoke({ messages: [new HumanMessage("I'm learning Portuguese.")] }, { configurable: { ...scope, thread_id: "t1" } });

  const seen: string[] = [];
  const model = new FakeListChatModel({ responses: ["Say 'bilhete' for ticket."] });
  const recording = { invoke: async (messages: BaseMessage[]) => (seen.push(messages.map((m) => String(m.content)).join("\n")), model.invoke(messages)) };
  const second = withMemory(appGraph(recording as unknown as FakeListChatModel), { memory }).compile({ checkpointer: memory.checkpointer });
  const out = await second.invoke({ messages: [new HumanMessage("Which Portuguese words do I need for the train?")] }, { configurable: { ...scope, thread_id: "t2" } });

  const memories = out.memories.map((m) => m.text);
  if (!memories.includes("User is learning Portuguese.")) fail(`the memory was not retrieved: ${JSON.stringify(memories)}`);
  if (!seen[0]?.includes("User is learning Portuguese.")) fail("the memory is not in the prompt");
  if (out.extractedThroughMessageId !== out.messages[out.messages.length - 1].id) fail("extraction was not scheduled");
  if (out.turns !== 1) fail(`the app's own channel: turns ${out.turns}`);
  // langchain is absent at run time (scripts/test-package.mjs): the middleware says what to install.
  let peer = "";
  try {
    memoryMiddleware(memory);
  } catch (err) {
    peer = (err as { code?: string }).code ?? String(err);
  }
  if (peer !== "PEER_MISSING") fail(`memoryMiddleware without langchain: ${peer || "no error"}`);
  console.log(JSON.stringify({ ok: true, memories, answer: out.messages[out.messages.length - 1].content }));
} finally {
  await memory.close();
}
