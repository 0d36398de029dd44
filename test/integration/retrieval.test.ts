import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { END, START, StateGraph } from "@langchain/langgraph";
import type { Database } from "../../src/db/database.js";
import { MemoryRepository } from "../../src/store/memory-store.js";
import { MemoryRetriever } from "../../src/retrieval/memory-retriever.js";
import { createLoadMemoryNode, latestUserText } from "../../src/graph/load-memory-node.js";
import { capMemoriesByTokens, retrieveMemories } from "../../src/retrieval/retrieve-memories.js";
import { MemoryAnnotation } from "../../src/state/annotation.js";
import { formatMemoryContext } from "../../src/context/format-memories.js";
import { countTextTokens } from "../../src/tokens/count-text.js";
import { openTestDatabase, testEngines } from "../helpers/db.js";

describe.each(testEngines())("retrieval on %s", (engine) => {
  let db: Database;
  let store: MemoryRepository;
  const alice = { tenantId: "acme", userId: "alice" };
  const config = { configurable: { thread_id: "t1", tenant_id: "acme", user_id: "alice" } };

  beforeAll(async () => {
    db = await openTestDatabase(engine);
    store = new MemoryRepository(db);
  });
  afterAll(async () => {
    await db.close();
  });
  beforeEach(async () => {
    await db.query("DELETE FROM memories");
    await store.addMany(alice, [
      { kind: "preference", text: "Prefers metric units for recipes and weather.", createdAt: "2026-03-02T10:00:00Z" },
      { kind: "fact", text: "Keeps bees on the roof.", createdAt: "2026-02-01T10:00:00Z" },
      { kind: "fact", text: "Lives in Porto, Portugal." },
    ]);
    await store.add({ tenantId: "acme", userId: "bob" }, { kind: "preference", text: "Prefers imperial units for recipes." });
  });

  it("MemoryRetriever returns Documents with id, kind, score and dates in metadata", async () => {
    const retriever = new MemoryRetriever({ store, scope: alice, search: { limit: 2 } });
    const docs = await retriever.invoke("convert this recipe to metric units");
    expect(docs.length).toBeGreaterThan(0);
    expect(docs[0].pageContent).toBe("Prefers metric units for recipes and weather.");
    expect(docs[0].id).toBe(docs[0].metadata.id);
    expect(docs[0].metadata).toMatchObject({ kind: "preference", scope: "user", createdAt: "2026-03-02T10:00:00.000Z", lastUsedAt: null });
    expect(docs[0].metadata.score).toBeGreaterThan(0);
    expect(docs.every((d) => !d.pageContent.includes("imperial"))).toBe(true);
    // Read-only: the retriever does not mark use.
    const m = await store.get(alice, docs[0].metadata.id);
    expect(m!.accessCount).toBe(0);
  });

  it("the load-memory node puts the memories for the latest user message into graph state and marks them used", async () => {
    const seen: string[] = [];
    const graph = new StateGraph(MemoryAnnotation)
      .addNode("load_memory", createLoadMemoryNode({ store }))
      .addNode("agent", async (state) => {
        seen.push(formatMemoryContext(state.memories));
        return { messages: [new AIMessage("ok")] };
      })
      .addEdge(START, "load_memory")
      .addEdge("load_memory", "agent")
      .addEdge("agent", END)
      .compile();
    const out = await graph.invoke(
      { messages: [new HumanMessage("I have bees here, is that a problem?"), new AIMessage("Let me check."), new HumanMessage("Any recipe ideas with metric units?")] },
      config,
    );
    expect(out.memories[0].text).toBe("Prefers metric units for recipes and weather.");
    expect(out.memories.some((m) => m.text.includes("imperial"))).toBe(false);
    expect(out.memoryUsage).toMatchObject({ memories: countTextTokens(formatMemoryContext(out.memories)), profile: 0, rules: 0 });
    expect(out.memoryUsage!.total).toBe(out.memoryUsage!.memories);
    expect(seen[0]).toContain('- (2026-03-02, preference) "Prefers metric units for recipes and weather."');
    const used = await store.get(alice, out.memories[0].id);
    expect(used!.accessCount).toBe(1);
    expect(used!.lastUsedAt).not.toBeNull();
  });

  it("a run without tenant_id or user_id fails with SCOPE_REQUIRED", async () => {
    const node = createLoadMemoryNode({ store });
    await expect(node({ messages: [new HumanMessage("metric?")] }, { configurable: { thread_id: "t", user_id: "alice" } })).rejects.toMatchObject({ code: "SCOPE_REQUIRED" });
    await expect(node({ messages: [new HumanMessage("metric?")] }, { configurable: { thread_id: "t", tenant_id: "acme" } })).rejects.toMatchObject({ code: "SCOPE_REQUIRED" });
    await expect(node({ messages: [new HumanMessage("metric?")] }, undefined as never)).rejects.toMatchObject({ code: "SCOPE_REQUIRED" });
  });

  it("no user message → no memories and no query", async () => {
    const node = createLoadMemoryNode({ store });
    const out = await node({ messages: [new AIMessage("hello")] }, config);
    expect(out.memories).toEqual([]);
    expect(out.memoryUsage!.total).toBe(0);
  });

  it("the token cap is hard: the rendered block never exceeds the memories budget", async () => {
    await store.addMany(
      alice,
      Array.from({ length: 12 }, (_, i) => ({ kind: "fact" as const, text: `Recipe note ${i}: keeps metric measuring cups, a kitchen scale and ${"spices ".repeat(10)}` })),
    );
    const node = createLoadMemoryNode({ store, budgets: { memories: 120 }, search: { limit: 20 } });
    const out = await node({ messages: [new HumanMessage("metric recipe measuring")] }, config);
    expect(out.memories!.length).toBeGreaterThan(0);
    expect(countTextTokens(formatMemoryContext(out.memories!))).toBeLessThanOrEqual(120);
    expect(out.memoryUsage!.memories).toBe(countTextTokens(formatMemoryContext(out.memories!)));
    const uncapped = await retrieveMemories(store, alice, "metric recipe measuring", { limit: 20, markUsed: false });
    expect(uncapped.memories.length).toBeGreaterThan(out.memories!.length);
  });

  it("loaders add their sections and usage beside the memories (the seam for profile and rules)", async () => {
    const node = createLoadMemoryNode({
      store,
      loaders: [async ({ scope, query }) => ({ update: { profile: { name: scope.userId, asked: query } }, usage: { profile: 7 } })],
    });
    const out = await node({ messages: [new HumanMessage("metric units please")] }, config);
    expect(out.profile).toEqual({ name: "alice", asked: "metric units please" });
    expect(out.memoryUsage!.profile).toBe(7);
    expect(out.memoryUsage!.total).toBe(7 + out.memoryUsage!.memories);
  });
});

describe("retrieval helpers", () => {
  it("latestUserText reads the newest human message, string or content parts", () => {
    expect(latestUserText([new HumanMessage("first"), new AIMessage("x"), new HumanMessage({ content: [{ type: "text", text: "second" }] })])).toBe("second");
    expect(latestUserText([new AIMessage("only ai")])).toBe("");
  });

  it("capMemoriesByTokens skips a memory that does not fit and keeps a later one that does", () => {
    const mk = (id: string, text: string) => ({ id, kind: "fact" as const, text, score: 1, similarity: 1, recency: 1, scope: "user" as const, createdAt: "2026-01-01T00:00:00Z" });
    const list = [mk("a", "short one"), mk("b", "long ".repeat(200)), mk("c", "short two")];
    const cap = countTextTokens(formatMemoryContext([list[0], list[2]]));
    const { memories, tokens } = capMemoriesByTokens(list, cap);
    expect(memories.map((m) => m.id)).toEqual(["a", "c"]);
    expect(tokens).toBe(cap);
    expect(capMemoriesByTokens(list, 5).memories).toEqual([]);
  });
});
