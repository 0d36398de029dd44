/**
 * The user export holds the user's conversation threads (delete-all removes them, so the export is
 * the user's copy): every message each thread held, also those a summary later removed from the
 * state, never another user's thread; and import still reads exports made before threads were
 * exported.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { AIMessage, HumanMessage, RemoveMessage, mapStoredMessagesToChatMessages, type BaseMessage } from "@langchain/core/messages";
import { MemorySaver, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import type { Database } from "../../src/db/database.js";
import { MemoryControls } from "../../src/controls/memory-controls.js";
import { MemoryRepository } from "../../src/store/memory-store.js";
import { PostgresCheckpointer } from "../../src/checkpointer/postgres-checkpointer.js";
import { parseUserExport } from "../../src/controls/user-export.js";
import { openTestDatabase, testEngines } from "../helpers/db.js";

const alice = { tenantId: "acme", userId: "alice" };
const bob = { tenantId: "acme", userId: "bob" };

/** A graph that answers each message, and on "forget the start" removes the first two messages (as summarization does). */
function echoGraph(saver: BaseCheckpointSaver) {
  return new StateGraph(MessagesAnnotation)
    .addNode("agent", (state: typeof MessagesAnnotation.State) => {
      const last = state.messages[state.messages.length - 1];
      const reply = new AIMessage({ id: `ai-${state.messages.length}`, content: `You said: ${last.content}` });
      if (last.content === "forget the start") return { messages: [...state.messages.slice(0, 2).map((m) => new RemoveMessage({ id: m.id! })), reply] };
      return { messages: [reply] };
    })
    .addEdge(START, "agent")
    .compile({ checkpointer: saver });
}

async function talk(saver: BaseCheckpointSaver, threadId: string, user: typeof alice, lines: string[]): Promise<void> {
  const graph = echoGraph(saver);
  const config = { configurable: { thread_id: threadId, tenant_id: user.tenantId, user_id: user.userId } };
  for (const [i, line] of lines.entries()) await graph.invoke({ messages: [new HumanMessage({ id: `${threadId}-h${i}`, content: line })] }, config);
}

const texts = (messages: BaseMessage[]) => messages.map((m) => `${m.getType()}: ${m.content}`);

describe.each(testEngines())("user export with threads on %s", (engine) => {
  let db: Database;
  let checkpointer: PostgresCheckpointer;

  beforeAll(async () => {
    db = await openTestDatabase(engine);
    checkpointer = PostgresCheckpointer.fromDatabase(db);
    await talk(checkpointer, "alice-trip", alice, ["I fly to Porto on Friday", "Book the Alfama hotel", "forget the start"]);
    await talk(checkpointer, "alice-2", alice, ["Hello again"]);
    await talk(checkpointer, "bob-1", bob, ["Bob's secret plan"]);
    await new MemoryRepository(db).add(alice, { kind: "fact", text: "Flies to Porto on Friday." });
  }, 60_000);
  afterAll(async () => {
    await checkpointer.close();
    await db.close();
  });

  it("has every message of each of the user's threads, in order, also those removed from the state", async () => {
    for (const threads of [checkpointer, "sql"] as const) {
      const doc = await new MemoryControls(db, { threads }).export(alice);
      expect(doc.threads?.map((t) => t.threadId)).toEqual(["alice-2", "alice-trip"]);
      const trip = doc.threads!.find((t) => t.threadId === "alice-trip")!;
      // The state now holds only the last messages; the export has the whole conversation.
      const state = await echoGraph(checkpointer).getState({ configurable: { thread_id: "alice-trip", tenant_id: "acme", user_id: "alice" } });
      expect(state.values.messages).toHaveLength(4);
      expect(texts(mapStoredMessagesToChatMessages(trip.messages))).toEqual([
        "human: I fly to Porto on Friday",
        "ai: You said: I fly to Porto on Friday",
        "human: Book the Alfama hotel",
        "ai: You said: Book the Alfama hotel",
        "human: forget the start",
        "ai: You said: forget the start",
      ]);
      expect(trip.checkpoints).toBeGreaterThanOrEqual(6);
      expect(trip.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
      // Never another user's thread or words.
      expect(JSON.stringify(doc)).not.toContain("secret plan");
      expect(doc.memories).toHaveLength(1);
    }
  });

  it("reads threads through another checkpointer the controls delete with (MemorySaver); none with threads: false", async () => {
    const saver = new MemorySaver();
    await talk(saver, "alice-elsewhere", alice, ["Held by MemorySaver"]);
    // The memory nodes record the owner of a thread any checkpointer holds; here, by hand.
    await db.query("INSERT INTO thread_owners (thread_id, tenant_id, user_id) VALUES ('alice-elsewhere', 'acme', 'alice') ON CONFLICT DO NOTHING");
    const doc = await new MemoryControls(db, { threads: saver }).export(alice);
    const elsewhere = doc.threads!.find((t) => t.threadId === "alice-elsewhere")!;
    expect(elsewhere).toMatchObject({ createdAt: null, updatedAt: null });
    expect(texts(mapStoredMessagesToChatMessages(elsewhere.messages))).toEqual(["human: Held by MemorySaver", "ai: You said: Held by MemorySaver"]);
    expect("threads" in (await new MemoryControls(db, { threads: false }).export(alice))).toBe(false);
    await db.query("DELETE FROM thread_owners WHERE thread_id = 'alice-elsewhere'");
  });

  it("import reads exports with threads and exports made before threads were exported", async () => {
    const controls = new MemoryControls(db, { threads: checkpointer });
    const doc = await controls.export(alice);
    const { threads, ...old } = doc;
    expect(threads).toBeDefined();
    expect(parseUserExport(old)).toBe(old);
    const carol = { tenantId: "acme", userId: "carol" };
    expect((await controls.import(carol, old)).memories).toEqual({ imported: 1, skipped: 0 });
    const dave = { tenantId: "acme", userId: "dave" };
    expect((await controls.import(dave, JSON.parse(JSON.stringify(doc)))).memories).toEqual({ imported: 1, skipped: 0 });
    // A malformed threads field is named, and nothing is imported.
    await expect(controls.import({ tenantId: "acme", userId: "erin" }, { ...old, threads: [{ messages: [] }] })).rejects.toThrow(/threads\.0\.threadId/);
    expect((await controls.inspect({ tenantId: "acme", userId: "erin" })).memories).toHaveLength(0);
  });

  it("delete-all removes what the export held; the export before it is the user's copy", async () => {
    const controls = new MemoryControls(db, { threads: checkpointer });
    const before = await controls.export(alice);
    expect(before.threads!.flatMap((t) => t.messages)).toHaveLength(8);
    const { token } = await controls.requestDeleteAll(alice);
    expect((await controls.deleteAll(alice, token)).threads).toBe(2);
    expect((await controls.export(alice)).threads).toEqual([]);
    expect((await controls.export(bob)).threads!.map((t) => t.threadId)).toEqual(["bob-1"]);
  });
});
