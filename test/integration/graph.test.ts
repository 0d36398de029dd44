/**
 * `withMemory` in real LangGraph graphs on both engines: the full turn (load → summarize → agent →
 * schedule_extraction) with the memory's own checkpointer, queued and inline extraction, an agent ↔
 * tools loop leaving through schedule_extraction, missing scope, summaries and short sessions
 * indexed as past sessions, the builder form with the app's own state, and the offline responder.
 */
import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { Annotation, StateGraph } from "@langchain/langgraph";
import type { Database } from "../../src/db/database.js";
import { createMemory, type LangGraphMemory } from "../../src/index.js";
import { MemoryStateSpec } from "../../src/exports/graph.js";
import {
  createMemoryAgentNode,
  memoryPrompt,
  memoryToolsFor,
  memoryWorker,
  MEMORY_NODES,
  OFFLINE_RESPONDER_LABEL,
  withMemory,
  type MemoryGraphState,
  type MemoryTurnEvent,
} from "../../src/graph/index.js";
import { openTestDatabase, testEngines } from "../helpers/db.js";
import { RecordingChatModel } from "../helpers/fake-chat-model.js";

let seq = 0;

describe.each(testEngines())("withMemory on %s", (engine) => {
  let db: Database;
  let memory: LangGraphMemory;
  let user: { tenantId: string; userId: string };
  const config = (thread: string, extra: Record<string, unknown> = {}) => ({ configurable: { thread_id: `${user.userId}:${thread}`, tenant_id: user.tenantId, user_id: user.userId, ...extra } });
  const say = (text: string) => ({ messages: [new HumanMessage(text)] });
  const texts = async () => (await memory.store.list(user)).filter((m) => m.kind !== "episode").map((m) => m.text).sort();

  beforeAll(async () => {
    db = await openTestDatabase(engine);
    memory = await createMemory({ db });
  });
  afterAll(async () => {
    await memory.close();
    await db.close();
  });
  beforeEach(() => {
    user = { tenantId: "acme", userId: `graph-user-${++seq}` };
  });
  afterEach(async () => {
    await db.query("DELETE FROM memory_jobs_inbox");
    await db.query("DELETE FROM memory_jobs");
  });

  /** An agent whose model records each prompt it was sent. */
  function recordingAgent(model = new RecordingChatModel({ defaultResponse: "Noted." })) {
    return { model, agent: async (state: MemoryGraphState) => ({ messages: [await model.invoke(memoryPrompt(state, { system: "You are a travel agent." }))] }) };
  }

  it("answers first, extracts in the worker, and injects the memory into the next thread's prompt", async () => {
    const { model, agent } = recordingAgent();
    const events: MemoryTurnEvent[] = [];
    const graph = withMemory({ memory, agent, onEvent: (e) => events.push(e) }).compile({ checkpointer: memory.checkpointer });
    expect(Object.keys(graph.getGraph().nodes)).toEqual(expect.arrayContaining([MEMORY_NODES.load, MEMORY_NODES.summarize, "agent", MEMORY_NODES.schedule]));

    const out = await graph.invoke(say("Hi! I'm learning Portuguese."), config("t1"));
    expect(out.messages.map((m: BaseMessage) => m.content)).toEqual(["Hi! I'm learning Portuguese.", "Noted."]);
    // Queued, not extracted: nothing stored until a worker runs.
    expect(events.map((e) => e.type)).toEqual(["extraction_queued"]);
    expect(await texts()).toEqual([]);
    const drained = await memoryWorker(memory).drain();
    expect(drained).toMatchObject({ completed: 1, failed: 0 });
    expect(await texts()).toEqual(["User is learning Portuguese."]);

    const next = await graph.invoke(say("Which Portuguese words do I need for the train to Porto?"), config("t2"));
    expect(next.memories.map((m: { text: string }) => m.text)).toEqual(["User is learning Portuguese."]);
    expect(next.memoryUsage!.memories).toBeGreaterThan(0);
    const prompt = model.calls[1].messages;
    expect(prompt[0].getType()).toBe("system");
    expect(String(prompt[0].content)).toContain("You are a travel agent.");
    expect(String(prompt[0].content)).toContain("User is learning Portuguese.");
    expect(String(prompt[prompt.length - 1].content)).toBe("Which Portuguese words do I need for the train to Porto?");
    // The thread's history is in the memory's checkpointer.
    const saved = await graph.getState(config("t1"));
    expect(saved.values.messages).toHaveLength(2);
  });

  it("inline extraction stores during the run; a correction supersedes; a move updates the profile", async () => {
    const { agent } = recordingAgent();
    const graph = withMemory({ memory, agent, extraction: "inline" }).compile({ checkpointer: memory.checkpointer });
    await graph.invoke(say("I'm vegetarian."), config("a"));
    expect(await texts()).toEqual(["User is vegetarian."]);
    await graph.invoke(say("Actually I'm vegan now."), config("b"));
    const all = await memory.controls.inspect(user);
    const vegetarian = all.memories.find((m) => m.text === "User is vegetarian.")!;
    const vegan = all.memories.find((m) => m.text === "User is vegan.")!;
    expect(vegetarian.status).toBe("superseded");
    expect(vegetarian.supersededBy).toBe(vegan.id);
    expect(vegan.status).toBe("active");
    // Where the user lives is a profile field: the move replaces it, with its history.
    await graph.invoke(say("I live in Berlin."), config("c"));
    await graph.invoke(say("I moved to Lisbon last month."), config("d"));
    expect(await memory.profiles.getDocument(user)).toEqual({ location: "Lisbon" });
    expect((await memory.profiles.history(user)).map((h) => [h.field, h.oldValue, h.newValue])).toEqual([
      // The superseded value is withdrawn from the history too (docs/controls.md, "Forgetting").
      ["location", { withdrawn: true }, "Lisbon"],
    ]);
    expect(await memory.jobs.list(user)).toEqual([]);
  });

  it("loops agent ↔ tools and leaves through schedule_extraction once the agent answers", async () => {
    const tools = memoryToolsFor(memory);
    const model = new RecordingChatModel({
      responses: [
        { toolCalls: [{ name: "manage_memory", args: { action: "create", content: "User prefers vegetarian food.", kind: "preference" } }] },
        { toolCalls: [{ name: "search_memory", args: { query: "vegetarian" } }] },
        "Saved: you prefer vegetarian food.",
      ],
    });
    const events: MemoryTurnEvent[] = [];
    const graph = withMemory({
      memory,
      tools,
      agent: createMemoryAgentNode({ memory, model, tools }),
      onEvent: (e) => events.push(e),
    }).compile({ checkpointer: memory.checkpointer });
    const out = await graph.invoke(say("Remember that I prefer vegetarian food."), config("tools"));
    expect(out.messages.map((m: BaseMessage) => m.getType())).toEqual(["human", "ai", "tool", "ai", "tool", "ai"]);
    expect(out.messages[out.messages.length - 1].content).toBe("Saved: you prefer vegetarian food.");
    expect(JSON.parse(String(out.messages[2].content))).toMatchObject({ status: "created" });
    expect(JSON.parse(String(out.messages[4].content)).memories[0].text).toContain("vegetarian");
    expect(model.calls).toHaveLength(3);
    expect(model.calls[0].boundTools.sort()).toEqual(["manage_memory", "search_memory"]);
    // The tool wrote the memory with the run's scope; the turn was queued for extraction once, at the end.
    expect(await texts()).toEqual(["User prefers vegetarian food."]);
    expect(events.filter((e) => e.type === "extraction_queued")).toHaveLength(1);
    expect(out.extractedThroughMessageId).toBe(out.messages[5].id);
  });

  it("a run without tenant_id, user_id or thread_id fails with SCOPE_REQUIRED naming the missing keys, before the agent runs", async () => {
    const { model, agent } = recordingAgent();
    const graph = withMemory({ memory, agent }).compile({ checkpointer: memory.checkpointer });
    await expect(graph.invoke(say("hi"), { configurable: { thread_id: "x", tenant_id: "acme" } })).rejects.toMatchObject({
      code: "SCOPE_REQUIRED",
      message: expect.stringMatching(/missing: user_id\b/),
    });
    const noCheckpointer = withMemory({ memory, agent }).compile();
    await expect(noCheckpointer.invoke(say("hi"), { configurable: { tenant_id: "acme", user_id: "u" } })).rejects.toMatchObject({
      code: "SCOPE_REQUIRED",
      message: expect.stringMatching(/missing: thread_id/),
    });
    expect(model.calls).toHaveLength(0);
  });

  it("a long thread gets a rolling summary, indexed as a past session the next thread is given", async () => {
    const { model, agent } = recordingAgent(new RecordingChatModel({ defaultResponse: "Sounds good, let us keep planning the Kyoto itinerary step by step." }));
    const events: MemoryTurnEvent[] = [];
    const budgets = { recentMessages: 400 };
    const graph = withMemory({ memory, agent, budgets, extraction: false, onEvent: (e) => events.push(e) }).compile({ checkpointer: memory.checkpointer });
    const topics = ["temples in Kyoto", "the Fushimi Inari hike", "a ryokan near Gion", "the bamboo grove at Arashiyama", "a day trip to Nara", "the Nishiki market food tour", "the shinkansen to Osaka", "a tea ceremony"];
    for (const topic of topics) await graph.invoke(say(`For our Kyoto trip I would like to plan ${topic} on one of the days, please note the details.`), config("long"));
    const summaries = events.filter((e): e is Extract<MemoryTurnEvent, { type: "summary_changed" }> => e.type === "summary_changed");
    expect(summaries.length).toBeGreaterThanOrEqual(1);
    expect(events.some((e) => e.type === "session_indexed" && e.via === "summary")).toBe(true);
    const state = await graph.getState(config("long"));
    expect(state.values.summary.text).toMatch(/Kyoto/);
    // The prompt replaced the summarised messages with the summary block.
    expect(String(model.lastCall!.messages[0].content)).toContain("<conversation_summary>");
    expect(model.lastCall!.messages.length).toBeLessThan(state.values.messages.length);

    const next = await graph.invoke(say("What did we plan for the Kyoto trip?"), config("later"));
    expect(next.pastSessions.length).toBe(1);
    expect((next.pastSessions[0].metadata as { session: { threadId: string } }).session.threadId).toBe(`${user.userId}:long`);
    expect(next.memoryUsage!.pastSessions).toBeGreaterThan(0);
    expect(String(model.lastCall!.messages[0].content)).toContain("Relevant past interactions");
  });

  it("indexes a short thread (no summary yet) as a past session once it has two user turns", async () => {
    const { agent } = recordingAgent();
    const events: MemoryTurnEvent[] = [];
    const graph = withMemory({ memory, agent, extraction: false, onEvent: (e) => events.push(e) }).compile({ checkpointer: memory.checkpointer });
    await graph.invoke(say("Let us plan a cycling tour of the Douro valley."), config("short"));
    expect(events.filter((e) => e.type === "session_indexed")).toHaveLength(0);
    await graph.invoke(say("The Douro tour should start in Porto in May."), config("short"));
    const indexed = events.filter((e): e is Extract<MemoryTurnEvent, { type: "session_indexed" }> => e.type === "session_indexed");
    expect(indexed.map((e) => [e.via, e.result.outcome])).toEqual([["short_session", "created"]]);
    const next = await graph.invoke(say("Remind me about the Douro cycling tour."), config("other"));
    expect(next.pastSessions.map((p: { metadata?: { session?: { threadId?: string } } }) => p.metadata?.session?.threadId)).toEqual([`${user.userId}:short`]);
    expect((await memory.store.list(user, { kinds: ["episode"] })).length).toBe(1);
  });

  it("wires an existing builder with the app's own state and agent node", async () => {
    const State = Annotation.Root({ ...MemoryStateSpec, mood: Annotation<string>({ reducer: (_, b) => b, default: () => "neutral" }) });
    const builder = new StateGraph(State).addNode("assistant", async (state) => ({ messages: [new AIMessage(`(${state.mood}) ok`)], mood: "happy" }));
    const graph = withMemory(builder, { memory, agent: "assistant", extraction: "inline" }).compile({ checkpointer: memory.checkpointer });
    const out = await graph.invoke(say("I'm learning Portuguese."), config("builder"));
    expect(out.mood).toBe("happy");
    expect(out.messages[1].content).toBe("(neutral) ok");
    expect(await texts()).toEqual(["User is learning Portuguese."]);
    expect(() => withMemory(new StateGraph(State), { memory, agent: "missing" })).toThrow(/no node named "missing"/);
    const Plain = Annotation.Root({ messages: MemoryStateSpec.messages });
    expect(() => withMemory(new StateGraph(Plain), { memory, agent: async () => ({}) })).toThrow(/MemoryStateSpec/);
  });

  it("without a model, the agent node is the offline responder: labelled, answering from the injected memory", async () => {
    const graph = withMemory({ memory, agent: createMemoryAgentNode({ memory }), extraction: "inline" }).compile({ checkpointer: memory.checkpointer });
    const first = await graph.invoke(say("Please always use metric units. I'm learning Portuguese. I live in Lisbon."), config("o1"));
    expect(first.messages[1].content).toMatch(new RegExp(`^\\${OFFLINE_RESPONDER_LABEL} Nothing in memory`));
    const second = await graph.invoke(say("How far is Porto from Lisbon, and how do I say it in Portuguese?"), config("o2"));
    const answer = String(second.messages[1].content);
    expect(answer.startsWith(OFFLINE_RESPONDER_LABEL)).toBe(true);
    expect(answer).toContain('"User is learning Portuguese."');
    expect(answer).toContain("location Lisbon");
    expect(answer).toMatch(/\(\d{4}-\d{2}-\d{2}\)/);
    expect(answer).toContain("units metric");
    expect(answer).toContain("MODEL");
  });
});
