/**
 * The LangGraph API of `langgraph-memory dev` (createMemoryDevServer) end to end through
 * `@langchain/langgraph-sdk`, on each engine: threads, runs (wait and stream), state history and a
 * fork, all stored by our PostgresCheckpointer — what the API writes is read back with the
 * checkpointer directly, and a thread the checkpointer wrote directly is read and continued
 * through the API. The memory viewer and controls API answer on the same port. Offline graphs.
 */
import { Client } from "@langchain/langgraph-sdk";
import { createMemory, type LangGraphMemory } from "../../src/memory.js";
import { withMemory } from "../../src/index.js";
import { createMemoryAgentNode, memoryToolsFor } from "../../src/exports/graph.js";
import { createMemoryDevServer, type MemoryDevServer } from "../../src/studio/memory-dev-server.js";
import type { ServedGraph } from "../../src/studio/langgraph-routes.js";
import { openTestDatabase, testEngines } from "../helpers/db.js";
import { echoBuilder, graph as echoGraph, parentGraph } from "./studio-graphs.js";

const TIMEOUT = 120_000;
type Message = { type?: string; content?: unknown };
type EchoValues = { messages: Message[]; turns: number };
const texts = (values: unknown) => ((values as EchoValues).messages ?? []).map((m) => m.content);
/** The contents of a stored checkpoint's messages channel (read with the checkpointer directly). */
const storedTexts = (tuple: { checkpoint: { channel_values: Record<string, unknown> } } | undefined) =>
  ((tuple?.checkpoint.channel_values.messages ?? []) as Array<{ content: unknown }>).map((m) => m.content);

describe.each(testEngines())("LangGraph API on our checkpointer (%s)", (engine) => {
  let memory: LangGraphMemory;
  let dev: MemoryDevServer;
  let url: string;
  let client: Client;
  const alice = { tenant_id: "acme", user_id: "alice" };
  const token = "studio-test-token-0123456789abcdef0123456789";

  beforeAll(async () => {
    const db = await openTestDatabase(engine);
    memory = await createMemory({ db, model: null });
    const tools = memoryToolsFor(memory);
    const agent = withMemory({ memory, agent: createMemoryAgentNode({ memory, tools }), tools, extraction: "inline" }).compile({ name: "memory_agent" });
    const graphs = new Map<string, ServedGraph>([
      ["echo", { graph: echoGraph }],
      ["memory_agent", { graph: agent }],
      ["parent", { graph: parentGraph }],
    ]);
    dev = await createMemoryDevServer({ memory, graphs, http: { tokens: { [token]: { tenantId: "acme", userId: "alice" } } } });
    url = await dev.listen({ port: 0 });
    client = new Client({ apiUrl: url });
  }, TIMEOUT);

  afterAll(async () => {
    await dev?.close();
    const db = memory?.db;
    await memory?.close();
    await db?.close();
  }, 30_000);

  it("runs (wait and stream) write the thread through our checkpointer, with its owner", async () => {
    const thread = await client.threads.create({ metadata: { purpose: "e2e" } });
    const waited = await client.runs.wait(thread.thread_id, "echo", { input: { messages: [{ role: "user", content: "one" }] }, config: { configurable: alice } });
    expect(texts(waited)).toEqual(["one", "echo: one"]);

    const events: Array<{ event: string; data: unknown }> = [];
    for await (const chunk of client.runs.stream(thread.thread_id, "echo", {
      input: { messages: [{ role: "user", content: "two" }] },
      config: { configurable: alice },
      streamMode: ["values", "updates"],
    })) {
      events.push(chunk);
    }
    const updates = events.filter((e) => e.event === "updates").map((e) => e.data);
    expect(updates).toEqual([{ respond: { messages: [expect.objectContaining({ content: "echo: two" })], turns: 1 } }]);
    const values = events.filter((e) => e.event === "values");
    expect(texts(values.at(-1)?.data)).toEqual(["one", "echo: one", "two", "echo: two"]);

    // The checkpointer holds exactly what the API shows, and the thread is alice's.
    const direct = await memory.checkpointer.getTuple({ configurable: { thread_id: thread.thread_id, ...alice } });
    const state = await client.threads.getState<EchoValues>(thread.thread_id);
    expect(direct?.checkpoint.id).toBe(state.checkpoint.checkpoint_id);
    expect(storedTexts(direct)).toEqual(texts(state.values));
    expect(direct?.checkpoint.channel_values.turns).toBe(2);
    expect(await memory.checkpointer.getThread(thread.thread_id)).toMatchObject({ tenantId: "acme", userId: "alice", messageCount: 4 });
    await expect(memory.checkpointer.getTuple({ configurable: { thread_id: thread.thread_id, tenant_id: "acme", user_id: "bob" } })).rejects.toThrow(/another tenant or user/);

    // History through the API is the checkpointer's list, newest first.
    const history = await client.threads.getHistory(thread.thread_id, { limit: 100 });
    const listed = [];
    for await (const t of memory.checkpointer.list({ configurable: { thread_id: thread.thread_id, ...alice } })) listed.push(t.checkpoint.id);
    expect(history.map((h) => h.checkpoint.checkpoint_id)).toEqual(listed);
    expect(history.length).toBeGreaterThanOrEqual(6);
    expect((await client.threads.get(thread.thread_id)).metadata).toMatchObject({ purpose: "e2e", graph_id: "echo" });
  }, TIMEOUT);

  it("forks: a state update at an earlier checkpoint and a run from it make a branch, the original stays", async () => {
    const thread = await client.threads.create();
    await client.runs.wait(thread.thread_id, "echo", { input: { messages: [{ role: "user", content: "first" }] }, config: { configurable: alice } });
    await client.runs.wait(thread.thread_id, "echo", { input: { messages: [{ role: "user", content: "second" }] }, config: { configurable: alice } });
    const history = await client.threads.getHistory<EchoValues>(thread.thread_id, { limit: 100 });
    const afterFirst = history.find((h) => h.next.length === 0 && texts(h.values).length === 2);
    expect(afterFirst).toBeDefined();
    const original = history[0].checkpoint.checkpoint_id!;

    // Edit the past: replace the first answer, as Studio's "edit state" does.
    const firstAnswer = (afterFirst!.values.messages[1] as { id?: string }).id;
    const forked = await client.threads.updateState(thread.thread_id, {
      values: { messages: [{ type: "ai", content: "edited answer", id: firstAnswer }] },
      checkpointId: afterFirst!.checkpoint.checkpoint_id!,
      asNode: "respond",
    });
    // The API answers { checkpoint: { thread_id, checkpoint_ns, checkpoint_id } } (the SDK types it loosely).
    const forkId = (forked as unknown as { checkpoint: { checkpoint_id: string } }).checkpoint.checkpoint_id;
    const forkTuple = await memory.checkpointer.getTuple({ configurable: { thread_id: thread.thread_id, checkpoint_id: forkId, ...alice } });
    expect(forkTuple?.parentConfig?.configurable?.checkpoint_id).toBe(afterFirst!.checkpoint.checkpoint_id);

    // Run on from the fork: the branch has the edit and the new turn, not "second".
    const branch = await client.runs.wait(thread.thread_id, "echo", {
      input: { messages: [{ role: "user", content: "third" }] },
      config: { configurable: alice },
      checkpointId: forkId,
    });
    expect(texts(branch)).toEqual(["first", "edited answer", "third", "echo: third"]);
    expect(texts((await client.threads.getState(thread.thread_id)).values)).toEqual(["first", "edited answer", "third", "echo: third"]);

    // The original line is still there, read through the API and with the checkpointer.
    const old = await client.threads.getState(thread.thread_id, original);
    expect(texts(old.values)).toEqual(["first", "echo: first", "second", "echo: second"]);
    const oldDirect = await memory.checkpointer.getTuple({ configurable: { thread_id: thread.thread_id, checkpoint_id: original, ...alice } });
    expect(storedTexts(oldDirect)).toEqual(texts(old.values));

    // Re-running from a checkpoint without an edit (Studio's "rerun from here") branches too.
    const rerun = await client.runs.wait(thread.thread_id, "echo", { input: null, config: { configurable: alice }, checkpointId: afterFirst!.checkpoint.checkpoint_id! });
    expect(texts(rerun)).toEqual(["first", "echo: first"]);
  }, TIMEOUT);

  it("a thread written with PostgresCheckpointer directly is listed, read and continued through the API", async () => {
    const threadId = crypto.randomUUID();
    const appGraph = echoBuilder.compile({ checkpointer: memory.checkpointer });
    await appGraph.invoke({ messages: [{ role: "user", content: "from the app" }] }, { configurable: { thread_id: threadId, ...alice } });

    expect((await client.threads.get(threadId)).thread_id).toBe(threadId);
    const state = await client.threads.getState<EchoValues>(threadId);
    expect(texts(state.values)).toEqual(["from the app", "echo: from the app"]);
    const history = await client.threads.getHistory(threadId);
    const listed = [];
    for await (const t of memory.checkpointer.list({ configurable: { thread_id: threadId, ...alice } })) listed.push(t.checkpoint.id);
    expect(history.map((h) => h.checkpoint.checkpoint_id)).toEqual(listed);
    const found = await client.threads.search({ limit: 100 });
    expect(found.map((t) => t.thread_id)).toContain(threadId);

    await client.runs.wait(threadId, "echo", { input: { messages: [{ role: "user", content: "from the API" }] }, config: { configurable: alice } });
    const after = await appGraph.getState({ configurable: { thread_id: threadId, ...alice } });
    expect(texts(after.values)).toEqual(["from the app", "echo: from the app", "from the API", "echo: from the API"]);
    expect(after.values.turns).toBe(2);
  }, TIMEOUT);

  it("refuses another user's run on a thread, and deletes a thread with its checkpoints", async () => {
    const thread = await client.threads.create();
    await client.runs.wait(thread.thread_id, "echo", { input: { messages: [{ role: "user", content: "mine" }] }, config: { configurable: alice } });
    await expect(
      client.runs.wait(thread.thread_id, "echo", { input: { messages: [{ role: "user", content: "yours?" }] }, config: { configurable: { tenant_id: "acme", user_id: "eve" } }, raiseError: true }),
    ).rejects.toThrow(/THREAD_SCOPE_MISMATCH|another tenant or user/);
    expect(texts((await client.threads.getState(thread.thread_id)).values)).toEqual(["mine", "echo: mine"]);

    await client.threads.delete(thread.thread_id);
    expect(await memory.checkpointer.getThread(thread.thread_id)).toBeUndefined();
    await expect(client.threads.get(thread.thread_id)).rejects.toThrow(/404|not found/i);
  }, TIMEOUT);

  it("a user's delete-all removes the API's record of their threads with the threads", async () => {
    const zed = { tenant_id: "acme", user_id: "zed" };
    const thread = await client.threads.create({ metadata: { label: "zed's notes" } });
    await client.runs.wait(thread.thread_id, "echo", { input: { messages: [{ role: "user", content: "note" }] }, config: { configurable: zed } });
    const rows = async () => (await memory.db.query<{ n: number }>("SELECT count(*)::int AS n FROM api_threads WHERE thread_id = $1", [thread.thread_id])).rows[0].n;
    expect(await rows()).toBe(1);
    const user = { tenantId: "acme", userId: "zed" };
    const { token: confirmation } = await memory.controls.requestDeleteAll(user);
    await memory.controls.deleteAll(user, confirmation);
    expect(await rows()).toBe(0);
    await expect(client.threads.get(thread.thread_id)).rejects.toThrow(/404|not found/i);
  }, TIMEOUT);

  it("serves the memory agent, the viewer and the controls API on the same port, on one memory", async () => {
    const thread = await client.threads.create();
    const out = await client.runs.wait(thread.thread_id, "memory_agent", { input: { messages: [{ role: "user", content: "I live in Lisbon. Please always use metric units." }] }, config: { configurable: alice } });
    expect(texts(out).at(-1)).toMatch(/^\[offline responder\]/);

    const page = await fetch(`${url}/memory/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/<html/i);
    expect((await fetch(`${url}/memory/api/profile`)).status).toBe(401);
    const profile = await fetch(`${url}/memory/api/profile`, { headers: { authorization: `Bearer ${token}` } });
    expect(profile.status).toBe(200);
    // Inline extraction wrote alice's profile during the run; the controls API reads the same database.
    expect(JSON.stringify(await profile.json())).toMatch(/Lisbon/);

    // A viewer sign-in link works through the same port.
    const code = dev.loginPath({ tenantId: "acme", userId: "alice" }).split("#login=")[1];
    const session = await fetch(`${url}/memory/api/session`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ code }) });
    expect(session.status).toBe(200);

    const schemas = await client.assistants.getSchemas("memory_agent");
    expect(Object.keys((schemas.input_schema as { properties?: object })?.properties ?? {})).toEqual(["messages"]);
    expect((await client.assistants.search()).map((a) => a.assistant_id).sort()).toEqual(["echo", "memory_agent", "parent"]);
  }, TIMEOUT);

  it("a graph with a subgraph: its schema and the subgraph's checkpoints, streamed and stored in their namespace", async () => {
    const subgraphs = await client.assistants.getSubgraphs("parent");
    expect(Object.keys(subgraphs)).toEqual(["inner"]);
    const thread = await client.threads.create();
    const namespaces = new Set<string>();
    for await (const chunk of client.runs.stream(thread.thread_id, "parent", {
      input: { messages: [{ role: "user", content: "deep" }] },
      config: { configurable: alice },
      streamMode: ["updates"],
      streamSubgraphs: true,
    })) {
      if (chunk.event.startsWith("updates|")) namespaces.add(chunk.event.split("|")[1].split(":")[0]);
    }
    expect([...namespaces]).toEqual(["inner"]);
    expect(texts((await client.threads.getState(thread.thread_id)).values)).toEqual(["deep", "echo: deep"]);
    const stored = new Set<string>();
    for await (const t of memory.checkpointer.list({ configurable: { thread_id: thread.thread_id, ...alice } })) stored.add(String(t.config.configurable?.checkpoint_ns).split(":")[0]);
    expect([...stored].sort()).toEqual(["", "inner"]);
  }, TIMEOUT);

  it("answers CORS for Studio's origin only, never on the memory routes", async () => {
    const preflight = (path: string, origin: string) =>
      fetch(`${url}${path}`, { method: "OPTIONS", headers: { origin, "access-control-request-method": "POST", "access-control-request-private-network": "true" } });
    const studio = await preflight("/threads/search", "https://smith.langchain.com");
    expect(studio.headers.get("access-control-allow-origin")).toBe("https://smith.langchain.com");
    expect(studio.headers.get("access-control-allow-private-network")).toBe("true");
    const other = await preflight("/threads/search", "https://evil.example");
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
    const memoryRoute = await preflight("/memory/api/memories", "https://smith.langchain.com");
    expect(memoryRoute.headers.get("access-control-allow-origin")).toBeNull();
  }, TIMEOUT);
});
