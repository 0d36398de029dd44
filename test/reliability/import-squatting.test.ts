/**
 * No squatting through `controls.import`, on both engines. Ids some writer derives from the user
 * (a thread's past-session id, an extracted memory's deterministic id) can be computed by anyone
 * who knows the user and thread; an import that kept the ids it was given let mallory plant a row
 * at bob's future session id, and every later turn of bob then failed (`session:
 * DB_QUERY_FAILED`). And "skipped" told mallory which of bob's ids exist. Now an import gives each
 * item an id of the importing user's own (derived from the user and the exported id; a thread's
 * session memory gets that user's session id for the thread), so neither can happen, and importing
 * the same document again is still harmless.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { randomUUID } from "node:crypto";
import type { Database } from "../../src/db/database.js";
import { deterministicMemoryId } from "../../src/extraction/write/deterministic-id.js";
import { normaliseStatement } from "../../src/extraction/write/statement-match.js";
import { memoryWorker, withMemory } from "../../src/graph/index.js";
import { createMemory, type LangGraphMemory } from "../../src/memory.js";
import { sessionMemoryId } from "../../src/sessions/session-memory-id.js";
import type { ExportedMemory } from "../../src/store/types.js";
import { openTestDatabase, testEngines } from "../helpers/db.js";

describe.each(testEngines())("import cannot squat another user's ids on %s", (engine) => {
  let db: Database;
  let memory: LangGraphMemory;
  let n = 0;

  beforeAll(async () => {
    db = await openTestDatabase(engine);
    memory = await createMemory({ db });
  });
  afterAll(async () => {
    await memory.close();
    await db.close();
  });

  const exportOf = (tenantId: string, userId: string, memories: Array<Partial<ExportedMemory> & { id: string; text: string }>) => ({
    format: "langgraph-memory/user-export",
    version: 1,
    exportedAt: new Date().toISOString(),
    tenantId,
    userId,
    memories: memories.map((m) => ({ kind: "fact", context: null, source: { threadId: null, messageId: null, runId: null, origin: "user_stated" }, metadata: {}, supersededBy: null, ...m })),
    profile: null,
    rules: [],
    settings: null,
  });

  it("a row imported at bob's future session id and extracted-memory id: bob's turns, session and extraction all work", async () => {
    const bob = { tenantId: "acme", userId: `bob-${++n}` };
    const mallory = { tenantId: "acme", userId: `mallory-${n}` };
    const thread = `bob-thread-${n}`;
    const firstMessage = `${thread}-m1`;
    const squatted = [
      sessionMemoryId(bob, thread),
      deterministicMemoryId([bob.tenantId, bob.userId, "extraction", thread, firstMessage, "preference", normaliseStatement("User prefers aisle seats on trains.")]),
    ];
    const result = await memory.controls.import(mallory, exportOf(mallory.tenantId, mallory.userId, squatted.map((id, i) => ({ id, text: `Planted ${i}.` }))));
    expect(result.memories).toEqual({ imported: 2, skipped: 0 });
    // Mallory got her two rows, under ids of her own.
    const planted = await memory.store.export(mallory);
    expect(planted.map((m) => m.text).sort()).toEqual(["Planted 0.", "Planted 1."]);
    for (const m of planted) expect(squatted).not.toContain(m.id);

    const errors: string[] = [];
    const graph = withMemory({ memory, debounceMs: 0, agent: async () => ({ messages: [new AIMessage("Noted.")] }), onError: (err, stage) => errors.push(`${stage}: ${(err as Error).message}`) }).compile({
      checkpointer: memory.checkpointer,
    });
    const config = { configurable: { thread_id: thread, tenant_id: bob.tenantId, user_id: bob.userId } };
    await graph.invoke({ messages: [new HumanMessage({ id: firstMessage, content: "I prefer aisle seats on trains." })] }, config);
    await graph.invoke({ messages: [new HumanMessage({ id: `${thread}-m2`, content: "My dog is called Rex." })] }, config);
    const drained = await memoryWorker(memory).drain();
    expect(errors).toEqual([]);
    expect(drained.failed + drained.retried).toBe(0);
    const bobs = await memory.store.export(bob);
    expect(bobs.find((m) => m.id === sessionMemoryId(bob, thread))?.kind).toBe("episode");
    expect(bobs.map((m) => m.text)).toEqual(expect.arrayContaining(["User prefers aisle seats on trains.", "User's dog is called Rex."]));
  });

  it("import counts are the same whether the ids exist for another user or nowhere", async () => {
    const bob = { tenantId: "acme", userId: `bob-${++n}` };
    const mallory = { tenantId: "acme", userId: `mallory-${n}` };
    const existing = await memory.store.add(bob, { kind: "fact", text: "User keeps bees." });
    const probe = async (id: string) => (await memory.controls.import(mallory, exportOf(mallory.tenantId, mallory.userId, [{ id, text: `Probe ${id}.` }]))).memories;
    expect({ bobs: await probe(existing.id), nobodys: await probe(randomUUID()) }).toEqual({ bobs: { imported: 1, skipped: 0 }, nobodys: { imported: 1, skipped: 0 } });
    // Bob's row is untouched.
    expect((await memory.store.export(bob)).map((m) => [m.id, m.text])).toEqual([[existing.id, "User keeps bees."]]);
  });

  it("the user's own export: importing it again skips everything; after delete-all it comes back with its chains and its thread's session id", async () => {
    const alice = { tenantId: "acme", userId: `alice-${++n}` };
    const old = await memory.store.add(alice, { kind: "fact", text: "User lives in Berlin." });
    const { current } = await memory.store.supersede(alice, old.id, { kind: "fact", text: "User lives in Lisbon." });
    const thread = `alice-thread-${n}`;
    await memory.store.add(alice, { id: sessionMemoryId(alice, thread), kind: "episode", text: "User planned a trip.", metadata: { session: { threadId: thread, firstAt: "2026-01-01T00:00:00.000Z", lastAt: "2026-01-01T00:00:00.000Z", turns: 2, messages: 4, versions: 1, coversThroughMessageId: null, summaryUpdatedAt: null, redacted: [] } } });
    const backup = await memory.controls.export(alice);
    expect((await memory.controls.import(alice, backup)).memories).toEqual({ imported: 0, skipped: 3 });

    await memory.controls.deleteAll(alice, (await memory.controls.requestDeleteAll(alice)).token);
    expect((await memory.controls.import(alice, backup)).memories).toEqual({ imported: 3, skipped: 0 });
    const restored = await memory.controls.export(alice);
    const byText = new Map(restored.memories.map((m) => [m.text, m]));
    expect(byText.get("User lives in Berlin.")!.supersededBy).toBe(byText.get("User lives in Lisbon.")!.id);
    expect(byText.get("User planned a trip.")!.id).toBe(sessionMemoryId(alice, thread));
    // Everything else as it was.
    const strip = (m: ExportedMemory) => ({ ...m, id: "", supersededBy: m.supersededBy ? "set" : null });
    expect(restored.memories.map(strip)).toEqual(backup.memories.map(strip));
    expect(byText.get("User lives in Lisbon.")!.id).not.toBe(current.id);
    // …and importing the same backup once more is harmless.
    expect((await memory.controls.import(alice, backup)).memories).toEqual({ imported: 0, skipped: 3 });
  });
});
