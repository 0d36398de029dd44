import { HumanMessage } from "@langchain/core/messages";
import { StateGraph, MessagesAnnotation, START, END } from "@langchain/langgraph";
import { AIMessage } from "@langchain/core/messages";
import { createMemory, type LangGraphMemory } from "../../src/memory.js";
import { openTestDatabase, testEngines } from "../helpers/db.js";
import type { Database } from "../../src/db/database.js";

describe.each(testEngines())("createMemory on %s", (engine) => {
  let db: Database;
  let memory: LangGraphMemory;
  beforeAll(async () => {
    db = await openTestDatabase(engine);
    memory = await createMemory({ db });
  });
  afterAll(async () => {
    await memory.close();
    expect(db.closed).toBe(false); // a database passed in stays open
    await db.close();
  });

  it("wires every part onto the one database, offline by default", async () => {
    expect(memory.model).toBeUndefined();
    expect(memory.db).toBe(db);
    const alice = { tenantId: "acme", userId: "alice" };
    await memory.store.add(alice, { kind: "preference", text: "Prefers metric units." });
    await memory.profiles.applyPatch(alice, { timezone: "Europe/Paris" }, { kind: "user_edit" });
    const seen = await memory.controls.inspect(alice);
    expect(seen.memories.map((m) => m.text)).toEqual(["Prefers metric units."]);
    expect(seen.profile?.document).toMatchObject({ timezone: "Europe/Paris" });
  });

  it("gives a checkpointer and a BaseStore a compiled graph can use", async () => {
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("echo", async (s) => ({ messages: [new AIMessage(`echo ${s.messages.length}`)] }))
      .addEdge(START, "echo")
      .addEdge("echo", END)
      .compile({ checkpointer: memory.checkpointer, store: memory.langgraphStore });
    const config = { configurable: { thread_id: "t-facade", tenant_id: "acme", user_id: "alice" } };
    await graph.invoke({ messages: [new HumanMessage("hi")] }, config);
    const out = await graph.invoke({ messages: [new HumanMessage("again")] }, config);
    expect(out.messages.map((m) => m.content)).toEqual(["hi", "echo 1", "again", "echo 3"]);
    await memory.langgraphStore.put(["notes"], "k", { text: "x" });
    expect((await memory.langgraphStore.get(["notes"], "k"))?.value).toEqual({ text: "x" });
  });

  it("refuses an unusable model spec with MODEL_UNAVAILABLE", async () => {
    await expect(createMemory({ db, model: "openai:gpt-4o-mini" })).rejects.toMatchObject({ code: "MODEL_UNAVAILABLE" });
  });
});
