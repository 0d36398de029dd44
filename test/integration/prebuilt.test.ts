/**
 * Memory in prebuilt agents, on both engines: LangGraph's `createReactAgent` (spread
 * `reactAgentMemory`) and LangChain v1's `createAgent` (`memoryMiddleware`), each with our
 * checkpointer, our store, the memory tools and the memory context in the system prompt. The chat
 * model is a recording fake that calls the tools, so the test sees exactly what it was sent. The
 * agents are built by examples/prebuilt-agents.ts, so the example is what is tested.
 */
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { createReactAgent } from "@langchain/langgraph/prebuilt";
import { createAgent } from "langchain";
import { buildReactAgent, buildV1Agent } from "../../examples/prebuilt-agents.js";
import type { Database } from "../../src/db/database.js";
import { createMemory, type LangGraphMemory } from "../../src/index.js";
import { memoryMiddleware, memoryWorker, reactAgentMemory } from "../../src/graph/index.js";
import { openTestDatabase, testEngines } from "../helpers/db.js";
import { RecordingChatModel } from "../helpers/fake-chat-model.js";

let seq = 0;

describe.each(testEngines())("prebuilt agents with memory on %s", (engine) => {
  let db: Database;
  let memory: LangGraphMemory;
  let user: { tenantId: string; userId: string };
  const config = (thread: string) => ({ configurable: { thread_id: `${user.userId}:${thread}`, tenant_id: user.tenantId, user_id: user.userId } });
  const systemText = (messages: BaseMessage[]) => (messages[0]?.getType() === "system" ? String(messages[0].content) : "");

  beforeAll(async () => {
    db = await openTestDatabase(engine);
    memory = await createMemory({ db });
  });
  afterAll(async () => {
    await memory.close();
    await db.close();
  });
  beforeEach(() => {
    user = { tenantId: "acme", userId: `prebuilt-user-${++seq}` };
  });
  afterEach(async () => {
    await db.query("DELETE FROM memory_jobs_inbox");
    await db.query("DELETE FROM memory_jobs");
  });

  it("createReactAgent: the agent saves with manage_memory, the next thread's system prompt carries it, extraction is queued once per turn", async () => {
    const model = new RecordingChatModel({
      responses: [
        { toolCalls: [{ name: "manage_memory", args: { action: "create", content: "User prefers window seats on trains.", kind: "preference" } }] },
        "Noted: window seats.",
        "Booked a window seat from Lisbon to Porto.",
      ],
    });
    const agent = buildReactAgent(memory, model);

    const first = await agent.invoke({ messages: [new HumanMessage("Remember: I always want a window seat on trains.")] }, config("r1"));
    expect(first.messages.map((x: BaseMessage) => x.getType())).toEqual(["human", "ai", "tool", "ai"]);
    expect(JSON.parse(String(first.messages[2].content))).toMatchObject({ status: "created" });
    expect(model.calls[0].boundTools.sort()).toEqual(["manage_memory", "search_memory"]);
    expect(systemText(model.calls[0].messages)).toContain("You are a travel assistant.");
    // One extraction job for the turn (queued after the final answer, not after the tool call).
    const jobs = await memory.jobs.list(user);
    expect(jobs).toHaveLength(1);
    expect(first.extractedThroughMessageId).toBe(first.messages[3].id);

    const second = await agent.invoke({ messages: [new HumanMessage("Book me a train seat from Lisbon to Porto tomorrow.")] }, config("r2"));
    expect(second.messages[second.messages.length - 1].content).toBe("Booked a window seat from Lisbon to Porto.");
    const prompt = systemText(model.calls[2].messages);
    expect(prompt).toContain("You are a travel assistant.");
    expect(prompt).toContain("User prefers window seats on trains.");
    expect(second.memories.map((x: { text: string }) => x.text)).toContain("User prefers window seats on trains.");
    // Our checkpointer holds the threads; our BaseStore door is the agent's store.
    expect((await memory.checkpointer.getTuple(config("r1")))?.checkpoint).toBeDefined();
    expect(reactAgentMemory(memory).store).toBe(memory.langgraphStore);
  });

  it("createAgent (LangChain v1) with memoryMiddleware: memory in the system message, tools registered, extraction after the agent", async () => {
    const model = new RecordingChatModel({
      responses: [
        "Hello!",
        { toolCalls: [{ name: "search_memory", args: { query: "which language is the user learning, Portuguese?" } }] },
        "You're learning Portuguese, so: \"Um bilhete para o Porto, por favor.\"",
      ],
    });
    const agent = buildV1Agent(memory, model);
    await agent.invoke({ messages: [new HumanMessage("Hi, I live in Lisbon and I'm learning Portuguese.")] }, config("c1"));
    expect(model.calls[0].boundTools.sort()).toEqual(["manage_memory", "search_memory"]);
    expect(systemText(model.calls[0].messages)).toContain("You are a travel assistant.");
    expect(await memory.jobs.list(user)).toHaveLength(1);
    expect(await memoryWorker(memory).drain()).toMatchObject({ completed: 1, failed: 0 });

    const out = await agent.invoke({ messages: [new HumanMessage("How do I ask for a train ticket to Porto in Portuguese?")] }, config("c2"));
    const prompt = systemText(model.calls[1].messages);
    expect(prompt).toContain("You are a travel assistant.");
    expect(prompt).toContain("User is learning Portuguese.");
    // Where the user lives is a profile field: always in the memory block.
    expect(prompt).toContain('- location: "Lisbon"');
    // The tool result came back through the loop; the memory block stayed in the system message.
    expect(systemText(model.calls[2].messages)).toContain("User is learning Portuguese.");
    const toolResult = out.messages.find((x: BaseMessage) => x.getType() === "tool");
    expect(JSON.parse(String(toolResult!.content)).memories[0].text).toBe("User is learning Portuguese.");
    expect(out.messages[out.messages.length - 1].content).toBe("You're learning Portuguese, so: \"Um bilhete para o Porto, por favor.\"");
  });

  it("both refuse a run without the user's scope", async () => {
    const m = reactAgentMemory(memory);
    const model = new RecordingChatModel({ defaultResponse: "hi" });
    const agent = createReactAgent({ llm: model, ...m });
    await expect(agent.invoke({ messages: [new HumanMessage("hi")] }, { configurable: { thread_id: "x" } })).rejects.toMatchObject({ code: "SCOPE_REQUIRED" });
    const v1 = createAgent({ model, tools: [], middleware: [memoryMiddleware(memory)], checkpointer: memory.checkpointer });
    await expect(v1.invoke({ messages: [new HumanMessage("hi")] }, { configurable: { thread_id: "y" } })).rejects.toMatchObject({ code: "SCOPE_REQUIRED" });
    expect(model.calls).toHaveLength(0);
  });
});
