import { AIMessage, HumanMessage, RemoveMessage, type BaseMessage } from "@langchain/core/messages";
import { END, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import { DeltaSnapshot, MemorySaver, emptyCheckpoint, uuid6, type BaseCheckpointSaver, type Checkpoint } from "@langchain/langgraph-checkpoint";
import type { RunnableConfig } from "@langchain/core/runnables";
import { PostgresCheckpointer } from "../../src/checkpointer/index.js";
import type { Database } from "../../src/db/database.js";
import { isMemoryError } from "../../src/errors.js";
import { countTextTokens } from "../../src/tokens/count-text.js";
import pg from "pg";
import { randomUUID } from "node:crypto";
import { JsonPlusSerializer } from "@langchain/langgraph-checkpoint";
import { openTestDatabase, testEngines } from "../helpers/db.js";

/**
 * A chat graph whose "model" answers deterministically; `removeFirstAfter` keeps a window of
 * messages. With `ids` its replies carry ids (as chat models' messages do); without, LangGraph's
 * reducer assigns them.
 */
function chatGraph(checkpointer: PostgresCheckpointer, options: { removeFirstAfter?: number; ids?: boolean } = {}) {
  return new StateGraph(MessagesAnnotation)
    .addNode("agent", async (state) => {
      const last = state.messages[state.messages.length - 1];
      const content = `You said: ${String(last.content)}. Noted, number ${state.messages.length}.`;
      const reply = options.ids ? new AIMessage({ id: randomUUID(), content }) : new AIMessage(content);
      const limit = options.removeFirstAfter;
      if (limit !== undefined && state.messages.length > limit) {
        const drop = state.messages.slice(0, state.messages.length - limit).map((m) => new RemoveMessage({ id: m.id! }));
        return { messages: [...drop, reply] };
      }
      return { messages: [reply] };
    })
    .addEdge(START, "agent")
    .addEdge("agent", END)
    .compile({ checkpointer });
}

/** A user message with an id. */
const human = (content: string) => new HumanMessage({ id: randomUUID(), content });

const cfg = (thread_id: string, extra: Record<string, unknown> = {}): RunnableConfig => ({ configurable: { thread_id, ...extra } });

async function count(db: Database, table: string, threadId: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE thread_id = $1`, [threadId]);
  return rows[0].n;
}

function texts(messages: BaseMessage[]): string[] {
  return messages.map((m) => String(m.content));
}

/** The reference the latest checkpoint of the thread holds for a channel. */
async function latestRef(db: Database, threadId: string, channel = "messages"): Promise<unknown> {
  const { rows } = await db.query<{ ref: unknown }>(
    "SELECT vals -> $2 AS ref FROM checkpoints WHERE thread_id = $1 ORDER BY checkpoint_id DESC LIMIT 1",
    [threadId, channel],
  );
  const ref = rows[0]?.ref;
  return typeof ref === "string" ? JSON.parse(ref) : ref;
}

/** A value stored as exactly these bytes, typed json (as a custom serializer may write). */
class Raw {
  constructor(readonly bytes: Uint8Array) {}
}

/** The default serializer, plus {@link Raw} values; records the type and bytes of every load. */
class RecordingSerde extends JsonPlusSerializer {
  readonly loads: Array<[string, Uint8Array]> = [];
  override async dumpsTyped(obj: unknown): Promise<[string, Uint8Array]> {
    return obj instanceof Raw ? ["json", obj.bytes] : super.dumpsTyped(obj);
  }
  override async loadsTyped(type: string, data: Uint8Array | string): Promise<unknown> {
    const bytes = Uint8Array.from(typeof data === "string" ? new TextEncoder().encode(data) : data);
    this.loads.push([type, bytes]);
    try {
      return await super.loadsTyped(type, data);
    } catch {
      return new Raw(bytes);
    }
  }
}

describe.each(testEngines())("PostgresCheckpointer on %s", (engine) => {
  let db: Database;
  const serde = new JsonPlusSerializer();
  beforeAll(async () => {
    db = await openTestDatabase(engine);
  });
  afterAll(async () => {
    await db.close();
  });

  it("a thread of 50 turns stores each message exactly once (rows and bytes); the value is one item range", async () => {
    const checkpointer = PostgresCheckpointer.fromDatabase(db);
    const graph = chatGraph(checkpointer, { ids: true });
    for (let i = 0; i < 50; i++) await graph.invoke({ messages: [human(`question ${i}`)] }, cfg("once"));
    const state = await graph.getState(cfg("once"));
    expect(state.values.messages).toHaveLength(100);
    expect(String(state.values.messages[98].content)).toBe("question 49");
    // The graph's input, the nodes' output writes and the channel value all refer to the same items.
    expect(await count(db, "checkpoint_items", "once")).toBe(100);
    let messageBytes = 0;
    for (const m of state.values.messages as BaseMessage[]) messageBytes += (await serde.dumpsTyped(m))[1].byteLength;
    const { rows } = await db.query<{ items: number; writes: number; vals: number }>(
      `SELECT (SELECT sum(octet_length(blob))::int FROM checkpoint_items WHERE thread_id = $1) AS items,
              (SELECT max(octet_length(writes::text))::int FROM checkpoint_writes WHERE thread_id = $1) AS writes,
              (SELECT max(octet_length(vals::text))::int FROM checkpoints WHERE thread_id = $1) AS vals`,
      ["once"],
    );
    expect(rows[0].items).toBe(messageBytes);
    // Writes and checkpoints hold references only (a few numbers), never message text.
    expect(rows[0].writes).toBeLessThan(80);
    expect(rows[0].vals).toBeLessThan(120);
    const ref = (await latestRef(db, "once")) as number[];
    expect(ref).toHaveLength(2);
    expect(ref[1] - ref[0] + 1).toBe(100);
    // Every earlier checkpoint still reads back its own value, from a fresh process too.
    const fresh = PostgresCheckpointer.fromDatabase(db, { readCache: false });
    const lengths: number[] = [];
    for await (const t of fresh.list(cfg("once"))) lengths.push((t.checkpoint.channel_values.messages as unknown[] | undefined)?.length ?? 0);
    expect(lengths).toHaveLength(150);
    expect(lengths.slice(0, 4)).toEqual([100, 99, 98, 98]);
    expect(lengths[lengths.length - 1]).toBe(0);
  });

  it("messages without an id are stored as written and once more with the id LangGraph gives them; the value stays one range", async () => {
    const checkpointer = PostgresCheckpointer.fromDatabase(db);
    const graph = chatGraph(checkpointer);
    for (let i = 0; i < 25; i++) await graph.invoke({ messages: [new HumanMessage(`question ${i}`)] }, cfg("linear"));
    const state = await graph.getState(cfg("linear"));
    expect(state.values.messages).toHaveLength(50);
    expect(String(state.values.messages[48].content)).toBe("question 24");
    expect(await count(db, "checkpoint_items", "linear")).toBe(100);
    const ref = (await latestRef(db, "linear")) as number[];
    expect(ref).toHaveLength(2);
    expect(ref[1] - ref[0] + 1).toBe(50);
    // The pending write holds the message as the node returned it (no id), the value holds it with its id.
    const history = [];
    for await (const t of checkpointer.list(cfg("linear"), { limit: 3 })) history.push(t);
    const [, afterInput] = history;
    const written = afterInput.pendingWrites!.find(([, channel]) => channel === "messages")![2] as BaseMessage[];
    expect(written[0].id).toBeUndefined();
    expect((history[0].checkpoint.channel_values.messages as BaseMessage[])[49].id).toEqual(expect.any(String));
    const lengths: number[] = [];
    for await (const snapshot of graph.getStateHistory(cfg("linear"))) lengths.push(snapshot.values.messages?.length ?? 0);
    expect(lengths).toHaveLength(75);
    expect(lengths.slice(0, 4)).toEqual([50, 49, 48, 48]);
    expect(lengths[lengths.length - 1]).toBe(0);
  });

  it("continues a thread from a fresh process (cold cache) without copying it", async () => {
    const first = chatGraph(PostgresCheckpointer.fromDatabase(db), { ids: true });
    for (let i = 0; i < 5; i++) await first.invoke({ messages: [human(`a${i}`)] }, cfg("cold"));
    const second = chatGraph(PostgresCheckpointer.fromDatabase(db), { ids: true });
    const out = await second.invoke({ messages: [human("after restart")] }, cfg("cold"));
    expect(out.messages).toHaveLength(12);
    expect(await count(db, "checkpoint_items", "cold")).toBe(12);
  });

  it("falls back to storing afresh when a value is not an extension (removals), and reads it back exactly", async () => {
    const checkpointer = PostgresCheckpointer.fromDatabase(db);
    const graph = chatGraph(checkpointer, { removeFirstAfter: 6, ids: true });
    let expected: string[] = [];
    for (let i = 0; i < 12; i++) {
      const out = await graph.invoke({ messages: [human(`w${i}`)] }, cfg("window"));
      expected = texts(out.messages);
    }
    expect(expected).toHaveLength(7);
    expect(expected[expected.length - 2]).toBe("w11");
    const fresh = PostgresCheckpointer.fromDatabase(db, { readCache: false });
    const tuple = await fresh.getTuple(cfg("window"));
    expect(texts(tuple!.checkpoint.channel_values.messages as BaseMessage[])).toEqual(expected);
    // Each message is stored once even though the window slides: no full copies (the other items
    // are the RemoveMessages the node wrote).
    const { rows } = await db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM checkpoint_items WHERE thread_id = 'window' AND convert_from(blob, 'UTF8') NOT LIKE '%RemoveMessage%'",
    );
    expect(rows[0].n).toBe(24);
  });

  it("forks from an older checkpoint without disturbing the original branch", async () => {
    const checkpointer = PostgresCheckpointer.fromDatabase(db);
    const graph = chatGraph(checkpointer);
    for (let i = 0; i < 4; i++) await graph.invoke({ messages: [new HumanMessage(`q${i}`)] }, cfg("fork"));
    const history = [];
    for await (const s of graph.getStateHistory(cfg("fork"))) history.push(s);
    const atTwo = history.find((s) => s.values.messages?.length === 4 && s.next.length === 0)!;
    const forked = await graph.invoke({ messages: [new HumanMessage("fork")] }, atTwo.config);
    expect(texts(forked.messages).slice(-2)).toEqual(["fork", "You said: fork. Noted, number 5."]);
    expect(forked.messages).toHaveLength(6);
    // The original branch's last checkpoint still holds its 8 messages, read by a fresh process.
    const original = history[0];
    const fresh = PostgresCheckpointer.fromDatabase(db, { readCache: false });
    const tuple = await fresh.getTuple(original.config);
    expect(texts(tuple!.checkpoint.channel_values.messages as BaseMessage[])).toEqual(texts(original.values.messages));
    expect(await fresh.getTuple(cfg("fork")).then((t) => (t!.checkpoint.channel_values.messages as BaseMessage[]).length)).toBe(6);
  });

  it("two branches that reach the same channel versions each read their own values as they go on", async () => {
    const checkpointer = PostgresCheckpointer.fromDatabase(db);
    const graph = chatGraph(checkpointer, { ids: true });
    for (let i = 0; i < 3; i++) await graph.invoke({ messages: [human(`main ${i}`)] }, cfg("branches"));
    const history = [];
    for await (const snapshot of graph.getStateHistory(cfg("branches"))) history.push(snapshot);
    const fork = history.find((snapshot) => snapshot.values.messages?.length === 2 && snapshot.next.length === 0)!;
    let branch = fork.config;
    for (let i = 0; i < 2; i++) {
      await graph.invoke({ messages: [human(`side ${i}`)] }, branch);
      branch = (await graph.getState(cfg("branches"))).config;
    }
    // Both branches now hold checkpoints with the same integer versions and different values.
    const fresh = PostgresCheckpointer.fromDatabase(db, { readCache: false });
    const side = (await fresh.getTuple(branch))!;
    const main = (await fresh.getTuple(history[0].config))!;
    expect(side.checkpoint.channel_versions.messages).toBe(main.checkpoint.channel_versions.messages);
    expect(texts(side.checkpoint.channel_values.messages as BaseMessage[]).filter((_, i) => i % 2 === 0)).toEqual(["main 0", "side 0", "side 1"]);
    expect(texts(main.checkpoint.channel_values.messages as BaseMessage[]).filter((_, i) => i % 2 === 0)).toEqual(["main 0", "main 1", "main 2"]);
  });

  it("round-trips checkpoints exactly, also an unusual ts and fields of old checkpoints, and carries values from an ancestor", async () => {
    const checkpointer = PostgresCheckpointer.fromDatabase(db);
    const base = cfg("shapes", { checkpoint_ns: "" });
    const first: Checkpoint = {
      ...emptyCheckpoint(), id: uuid6(0), ts: "yesterday", channel_values: { kept: "a value carried along", big: { text: "x".repeat(100) } },
      channel_versions: { kept: 1, big: 1 }, versions_seen: { node: { kept: 1 } },
    };
    const a = await checkpointer.put(base, first, { source: "input", step: -1, parents: {} }, { kept: 1, big: 1 });
    // The next checkpoint does not carry `kept` at the parent's version: it stores nothing for it.
    const second: Checkpoint = { ...emptyCheckpoint(), id: uuid6(1), channel_values: {}, channel_versions: { kept: 7, big: 1 }, versions_seen: {} };
    const b = await checkpointer.put(a, second, { source: "loop", step: 0, parents: {} }, {});
    // Its child names version 1 again, which only the grandparent holds.
    const third = { ...emptyCheckpoint(), id: uuid6(2), pending_sends: [], channel_values: {}, channel_versions: { kept: 1, big: 1 }, versions_seen: {} } as Checkpoint;
    const c = await checkpointer.put(b, third, { source: "loop", step: 1, parents: {} }, {});
    const fresh = PostgresCheckpointer.fromDatabase(db, { readCache: false });
    const readFirst = (await fresh.getTuple(a))!.checkpoint;
    expect(readFirst).toEqual(first);
    expect(readFirst.ts).toBe("yesterday");
    expect((await fresh.getTuple(b))!.checkpoint).toEqual({ ...second, channel_values: { big: first.channel_values.big } });
    const readThird = (await fresh.getTuple(c))!.checkpoint;
    expect(readThird).toEqual({ ...third, channel_values: first.channel_values });
    const { rows } = await db.query<{ ts: Date | null; v: number | null }>("SELECT ts, v FROM checkpoints WHERE thread_id = 'shapes' ORDER BY checkpoint_id");
    expect(rows.map((r) => r.ts === null)).toEqual([true, false, false]);
    expect(rows.map((r) => r.v)).toEqual([4, 4, 4]);
  });

  it("reads every item back as the exact bytes stored: JSON (sent as text), binary and JSON with a byte-order mark (as bytea) in one read, and not-UTF-8 or NUL bytes typed json", async () => {
    const utf8 = new TextEncoder();
    const values = {
      messages: [new HumanMessage({ id: "h", content: "héllo wörld 🎉 — ".repeat(3) }), new AIMessage({ id: "a", content: "ok ✓ \u2028 done" })],
      bin: Uint8Array.from({ length: 256 }, (_, i) => i),
      bom: new Raw(utf8.encode(`\uFEFF${JSON.stringify({ x: "y".repeat(40) })}`)),
    };
    const odd = {
      notUtf8: new Raw(Uint8Array.from([0x7b, 0xff, 0xfe, ...utf8.encode("z".repeat(40)), 0x7d])),
      nul: new Raw(utf8.encode(`{"a":"\u0000${"z".repeat(40)}"}`)),
    };
    expect(odd.nul.bytes).toContain(0);
    const cases: Array<[string, Record<string, unknown>]> = [["encodings", values], ["encodings-odd", { ...values, ...odd }]];
    for (const [thread, channelValues] of cases) {
      const serde = new RecordingSerde();
      const writer = PostgresCheckpointer.fromDatabase(db, { serde });
      const versions = Object.fromEntries(Object.keys(channelValues).map((k) => [k, 1]));
      const checkpoint: Checkpoint = { ...emptyCheckpoint(), id: uuid6(0), channel_values: channelValues, channel_versions: versions, versions_seen: {} };
      const config = await writer.put(cfg(thread, { checkpoint_ns: "" }), checkpoint, { source: "input", step: -1, parents: {} }, versions);
      const { rows } = await db.query<{ type: string; blob: Uint8Array }>("SELECT type, blob FROM checkpoint_items WHERE thread_id = $1 ORDER BY seq", [thread]);
      expect(rows.map((r) => r.type).sort()).toEqual([...(thread === "encodings" ? [] : ["json", "json"]), "bytes", "json", "json", "json"].sort());

      const fresh = PostgresCheckpointer.fromDatabase(db, { serde, readCache: false });
      const read = (await fresh.getTuple(config))!.checkpoint.channel_values;
      for (const r of rows) expect(serde.loads).toContainEqual([r.type, Uint8Array.from(r.blob)]);
      expect((read.messages as BaseMessage[]).map((m) => m.content)).toEqual(values.messages.map((m) => m.content));
      expect(read.bin).toEqual(values.bin);
      expect(read.bom).toEqual({ x: "y".repeat(40) });
      if (thread === "encodings-odd") {
        expect(read.notUtf8).toEqual(odd.notUtf8);
        expect(read.nul).toEqual(odd.nul);
      }
    }
  });

  it("keeps a thread row with tenant, user, times and token counts", async () => {
    const checkpointer = PostgresCheckpointer.fromDatabase(db);
    const graph = chatGraph(checkpointer);
    const config = cfg("owned", { tenant_id: "acme", user_id: "alice" });
    const a = await graph.invoke({ messages: [new HumanMessage("Hello, my name is Priya.")] }, config);
    const first = await checkpointer.getThread("owned");
    const b = await graph.invoke({ messages: [new HumanMessage("What is the weather in Oslo?")] }, config);
    const thread = await checkpointer.getThread("owned");
    expect(thread).toMatchObject({ threadId: "owned", tenantId: "acme", userId: "alice", messageCount: 4 });
    expect(thread!.messageTokens).toBe(b.messages.reduce((s: number, m: BaseMessage) => s + countTextTokens(String(m.content)), 0));
    expect(first!.messageCount).toBe(a.messages.length);
    expect(thread!.updatedAt.getTime()).toBeGreaterThanOrEqual(first!.updatedAt.getTime());
    expect(thread!.createdAt.getTime()).toBe(first!.createdAt.getTime());
    expect(await checkpointer.getThread("nobody")).toBeUndefined();
  });

  it("deleteThread removes every row of the thread and nothing else", async () => {
    const checkpointer = PostgresCheckpointer.fromDatabase(db);
    const graph = chatGraph(checkpointer);
    await graph.invoke({ messages: [new HumanMessage("x")] }, cfg("doomed"));
    await graph.invoke({ messages: [new HumanMessage("y")] }, cfg("kept"));
    await checkpointer.deleteThread("doomed");
    for (const table of ["threads", "checkpoints", "checkpoint_items", "checkpoint_writes"]) {
      expect(await count(db, table, "doomed")).toBe(0);
      expect(await count(db, table, "kept")).toBeGreaterThan(0);
    }
    expect(await checkpointer.getTuple(cfg("doomed"))).toBeUndefined();
    // The thread starts again from empty.
    const again = await graph.invoke({ messages: [new HumanMessage("new start")] }, cfg("doomed"));
    expect(texts(again.messages)).toEqual(["new start", "You said: new start. Noted, number 1."]);
  });

  it("retention is off by default and keeps the last N checkpoints when configured", async () => {
    const unlimited = chatGraph(PostgresCheckpointer.fromDatabase(db));
    for (let i = 0; i < 6; i++) await unlimited.invoke({ messages: [new HumanMessage(`u${i}`)] }, cfg("keep-all"));
    expect(await count(db, "checkpoints", "keep-all")).toBe(18);

    const checkpointer = PostgresCheckpointer.fromDatabase(db, { retention: { keepLast: 4, pruneEvery: 3 } });
    const graph = chatGraph(checkpointer, { ids: true });
    for (let i = 0; i < 10; i++) await graph.invoke({ messages: [human(`r${i}`)] }, cfg("pruned"));
    expect(await checkpointer.pruneThread("pruned")).toBeGreaterThanOrEqual(0);
    expect(await count(db, "checkpoints", "pruned")).toBe(4);
    // Items only the deleted checkpoints needed are gone; the kept ones still read in full.
    const fresh = PostgresCheckpointer.fromDatabase(db, { readCache: false });
    const kept = [];
    for await (const t of fresh.list(cfg("pruned"))) kept.push(t);
    expect(kept).toHaveLength(4);
    expect((kept[0].checkpoint.channel_values.messages as BaseMessage[]).length).toBe(20);
    expect(await count(db, "checkpoint_items", "pruned")).toBe(20);
    // The run goes on after pruning.
    const out = await graph.invoke({ messages: [human("after prune")] }, cfg("pruned"));
    expect(out.messages).toHaveLength(22);
    expect(await count(db, "checkpoint_items", "pruned")).toBe(22);
  });

  it("retention never deletes an ancestor a delta channel still needs", async () => {
    const checkpointer = PostgresCheckpointer.fromDatabase(db);
    const thread = "delta-retention";
    let config: RunnableConfig = cfg(thread, { checkpoint_ns: "" });
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) {
      const snapshot = i === 0 || i === 5;
      const checkpoint: Checkpoint = {
        ...emptyCheckpoint(),
        id: uuid6(i),
        channel_values: snapshot ? { messages: new DeltaSnapshot([`s${i}`]) } : {},
        channel_versions: { messages: i + 1 },
      };
      const metadata = { source: "loop" as const, step: i, parents: {}, ...(snapshot ? {} : { counters_since_delta_snapshot: { messages: [i % 5, i % 5] as [number, number] } }) };
      config = await checkpointer.put(config, checkpoint, metadata, snapshot ? { messages: i + 1 } : {});
      await checkpointer.putWrites(config, [["messages", [`w${i}`]]], `task${i}`);
      ids.push(checkpoint.id);
    }
    expect(await checkpointer.pruneThread(thread, 2)).toBe(5);
    const left = (await db.query<{ id: string }>("SELECT checkpoint_id AS id FROM checkpoints WHERE thread_id = $1 ORDER BY 1", [thread])).rows.map((r) => r.id);
    expect(left).toEqual(ids.slice(5));
    const history = await checkpointer.getDeltaChannelHistory({ config, channels: ["messages"] });
    expect((history.messages.seed as DeltaSnapshot<string[]>).value).toEqual(["s5"]);
    expect(history.messages.writes.map((w) => w[2])).toEqual([["w5"], ["w6"], ["w7"], ["w8"]]);
  });

  it("sweeps threads idle longer than the TTL (only when asked or configured)", async () => {
    const checkpointer = PostgresCheckpointer.fromDatabase(db);
    await expect(checkpointer.sweepIdleThreads()).rejects.toMatchObject({ code: "INVALID_INPUT" });
    const graph = chatGraph(checkpointer);
    await graph.invoke({ messages: [new HumanMessage("old")] }, cfg("idle"));
    await graph.invoke({ messages: [new HumanMessage("new")] }, cfg("active"));
    await db.query("UPDATE threads SET updated_at = now() - interval '3 days' WHERE thread_id = 'idle'");
    const swept = await checkpointer.sweepIdleThreads(24 * 3600 * 1000);
    expect(swept).toContain("idle");
    expect(swept).not.toContain("active");
    for (const table of ["threads", "checkpoints", "checkpoint_items", "checkpoint_writes"]) expect(await count(db, table, "idle")).toBe(0);
    expect(await checkpointer.getTuple(cfg("active"))).toBeDefined();
  });

  it("rejects a put whose parent is not stored, and stores nothing", async () => {
    const checkpointer = PostgresCheckpointer.fromDatabase(db);
    const err = await checkpointer
      .put(cfg("orphan", { checkpoint_ns: "", checkpoint_id: uuid6(0) }), emptyCheckpoint(), { source: "loop", step: 0, parents: {} }, {})
      .catch((e) => e);
    expect(isMemoryError(err, "CHECKPOINT_PARENT_MISSING")).toBe(true);
    expect(await count(db, "threads", "orphan")).toBe(0);
    expect(await count(db, "checkpoints", "orphan")).toBe(0);
  });

  it("rejects bad input with INVALID_INPUT", async () => {
    const checkpointer = PostgresCheckpointer.fromDatabase(db);
    await expect(checkpointer.put({ configurable: {} }, emptyCheckpoint(), { source: "loop", step: 0, parents: {} }, {})).rejects.toMatchObject({ code: "INVALID_INPUT" });
    await expect(checkpointer.putWrites(cfg("x"), [], "t")).rejects.toMatchObject({ code: "INVALID_INPUT" });
    expect(() => PostgresCheckpointer.fromDatabase(db, { retention: { keepLast: 0 } })).toThrow(/retention.keepLast/);
  });

  it("refuses a thread id holding a NUL with INVALID_INPUT naming it, at every door (not the driver's encoding error)", async () => {
    const checkpointer = PostgresCheckpointer.fromDatabase(db);
    const nul = { configurable: { thread_id: "n\u0000ul", checkpoint_ns: "" } };
    const named = { code: "INVALID_INPUT", details: expect.objectContaining({ field: "config.configurable.thread_id" }) };
    await expect(checkpointer.getTuple(nul)).rejects.toMatchObject(named);
    await expect(checkpointer.put(nul, emptyCheckpoint(), { source: "loop", step: 0, parents: {} }, {})).rejects.toMatchObject(named);
    await expect(checkpointer.putWrites({ configurable: { ...nul.configurable, checkpoint_id: "1" } }, [], "t")).rejects.toMatchObject(named);
    const listed = async () => {
      for await (const _ of checkpointer.list(nul)) break;
    };
    await expect(listed()).rejects.toMatchObject(named);
  });

  it("reports a corrupt row as CHECKPOINT_CORRUPT and a missing item as CHECKPOINT_PARENT_MISSING", async () => {
    const graph = chatGraph(PostgresCheckpointer.fromDatabase(db), { ids: true });
    await graph.invoke({ messages: [human("fine")] }, cfg("corrupt"));
    await graph.invoke({ messages: [human("fine")] }, cfg("missing"));
    await db.query("UPDATE checkpoint_items SET blob = '\\x7b6e6f7420a9'::bytea WHERE thread_id = 'corrupt' AND seq = (SELECT min(seq) FROM checkpoint_items WHERE thread_id = 'corrupt')");
    await db.query("DELETE FROM checkpoint_items WHERE thread_id = 'missing' AND seq = (SELECT max(seq) FROM checkpoint_items WHERE thread_id = 'missing')");
    const fresh = PostgresCheckpointer.fromDatabase(db);
    await expect(fresh.getTuple(cfg("corrupt"))).rejects.toMatchObject({ code: "CHECKPOINT_CORRUPT" });
    await expect(fresh.getTuple(cfg("missing"))).rejects.toMatchObject({ code: "CHECKPOINT_PARENT_MISSING" });
  });

  it("a failing statement in the middle of a put leaves nothing behind", async () => {
    const checkpointer = PostgresCheckpointer.fromDatabase(db);
    const graph = chatGraph(checkpointer);
    await graph.invoke({ messages: [new HumanMessage("before")] }, cfg("atomic"));
    const before = await Promise.all(["checkpoints", "checkpoint_items", "checkpoint_writes"].map((t) => count(db, t, "atomic")));
    const latest = (await checkpointer.getTuple(cfg("atomic")))!;
    const messages = [...(latest.checkpoint.channel_values.messages as BaseMessage[]), new HumanMessage("never stored")];
    const next: Checkpoint = { ...latest.checkpoint, id: uuid6(9), channel_values: { messages }, channel_versions: { ...latest.checkpoint.channel_versions, messages: 99 } };
    // A NUL character is valid JSON but not valid jsonb: the statement fails after planning its items.
    const err = await checkpointer.put(latest.config, next, { source: "loop", step: 9, parents: {}, note: "\u0000" } as never, { messages: 99 }).catch((e) => e);
    expect(isMemoryError(err, "DB_QUERY_FAILED")).toBe(true);
    const after = await Promise.all(["checkpoints", "checkpoint_items", "checkpoint_writes"].map((t) => count(db, t, "atomic")));
    expect(after).toEqual(before);
    // The next put (same cache) still works and reads back.
    const out = await graph.invoke({ messages: [new HumanMessage("after")] }, cfg("atomic"));
    expect(texts(out.messages)).toEqual(["before", "You said: before. Noted, number 1.", "after", "You said: after. Noted, number 3."]);
  });

  it("two processes writing one thread stay consistent (a stale cache retries afresh)", async () => {
    const one = chatGraph(PostgresCheckpointer.fromDatabase(db));
    const two = chatGraph(PostgresCheckpointer.fromDatabase(db));
    await one.invoke({ messages: [new HumanMessage("1")] }, cfg("shared"));
    await two.invoke({ messages: [new HumanMessage("2")] }, cfg("shared"));
    const out = await one.invoke({ messages: [new HumanMessage("3")] }, cfg("shared"));
    expect(texts(out.messages).filter((_, i) => i % 2 === 0)).toEqual(["1", "2", "3"]);
    const fresh = PostgresCheckpointer.fromDatabase(db, { readCache: false });
    expect(texts((await fresh.getTuple(cfg("shared")))!.checkpoint.channel_values.messages as BaseMessage[])).toEqual(texts(out.messages));
  });

  it("writes numbered from a block a process holds land once, and after another process re-creates the thread they start afresh", async () => {
    const one = PostgresCheckpointer.fromDatabase(db);
    const two = PostgresCheckpointer.fromDatabase(db);
    const first = { ...emptyCheckpoint(), id: uuid6(1), channel_values: { messages: [human("hello")] }, channel_versions: { messages: 1 } };
    const c1 = await one.put(cfg("recreated"), first, { source: "loop", step: 0, parents: {} }, { messages: 1 });
    // The first write reserves a block of item numbers; the second is numbered from it.
    await one.putWrites(c1, [["messages", [new AIMessage({ id: "w1", content: "first write" })]]], "task-1");
    await one.putWrites(c1, [["messages", [new AIMessage({ id: "w2", content: "second write" })]]], "task-2");
    const read = await PostgresCheckpointer.fromDatabase(db, { readCache: false }).getTuple(c1);
    expect(read!.pendingWrites!.map(([task, , value]) => [task, texts(value as BaseMessage[])])).toEqual([["task-1", ["first write"]], ["task-2", ["second write"]]]);
    expect(await count(db, "checkpoint_items", "recreated")).toBe(3);

    await two.deleteThread("recreated");
    const again = { ...emptyCheckpoint(), id: uuid6(2), channel_values: { messages: [human("anew")] }, channel_versions: { messages: 1 } };
    const c2 = await two.put(cfg("recreated"), again, { source: "loop", step: 0, parents: {} }, { messages: 1 });
    // `one` still holds its block of the deleted thread: the write must not be numbered from it.
    await one.putWrites(c2, [["messages", [new AIMessage({ id: "w3", content: "after re-creation" })]]], "task-3");
    const fresh = await PostgresCheckpointer.fromDatabase(db, { readCache: false }).getTuple(c2);
    expect(texts(fresh!.checkpoint.channel_values.messages as BaseMessage[])).toEqual(["anew"]);
    expect(fresh!.pendingWrites!.map(([task, , value]) => [task, texts(value as BaseMessage[])])).toEqual([["task-3", ["after re-creation"]]]);
    expect(await count(db, "checkpoint_items", "recreated")).toBe(2);
    // The thread goes on in `two`, numbering items from its own block: nothing collides with the write.
    let config = c2;
    let previous: Checkpoint = again;
    for (let step = 3; step < 8; step += 1) {
      const next = { ...emptyCheckpoint(), id: uuid6(step), channel_values: { messages: [...(previous.channel_values.messages as BaseMessage[]), human(`more ${step}`)] }, channel_versions: { messages: step } };
      config = await two.put(config, next, { source: "loop", step, parents: {} }, { messages: step });
      previous = next;
    }
    const last = await PostgresCheckpointer.fromDatabase(db, { readCache: false }).getTuple(config);
    expect(texts(last!.checkpoint.channel_values.messages as BaseMessage[])).toEqual(["anew", "more 3", "more 4", "more 5", "more 6", "more 7"]);
    expect(texts((await PostgresCheckpointer.fromDatabase(db, { readCache: false }).getTuple(c2))!.pendingWrites![0][2] as BaseMessage[])).toEqual(["after re-creation"]);
  });

  describe("pending writes refer to items", () => {
    /** Two parallel nodes; "flaky" throws while `state.fail` is set, so "good"'s writes stay pending. */
    function parallelGraph(checkpointer: BaseCheckpointSaver, state: { fail: boolean; good: number; flaky: number }) {
      return new StateGraph(MessagesAnnotation)
        .addNode("good", async () => {
          state.good += 1;
          return { messages: [new AIMessage({ id: randomUUID(), content: `good result ${state.good}` })] };
        })
        .addNode("flaky", async () => {
          if (state.fail) throw new Error("boom");
          state.flaky += 1;
          return { messages: [new AIMessage({ id: randomUUID(), content: `flaky result ${state.flaky}` })] };
        })
        .addEdge(START, "good")
        .addEdge(START, "flaky")
        .addEdge("good", END)
        .addEdge("flaky", END)
        .compile({ checkpointer });
    }

    async function itemsContaining(threadId: string, text: string): Promise<number> {
      const { rows } = await db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM checkpoint_items WHERE thread_id = $1 AND position($2 in convert_from(blob, 'UTF8')) > 0",
        [threadId, text],
      );
      return rows[0].n;
    }

    it("round-trip exactly, resume without re-running the task that succeeded, and store its message once", async () => {
      const calls = { fail: true, good: 0, flaky: 0 };
      const graph = parallelGraph(PostgresCheckpointer.fromDatabase(db), calls);
      await expect(graph.invoke({ messages: [human("go")] }, cfg("pending"))).rejects.toThrow("boom");

      const fresh = PostgresCheckpointer.fromDatabase(db, { readCache: false });
      const failed = (await fresh.getTuple(cfg("pending")))!;
      const good = failed.pendingWrites!.filter(([, channel]) => channel === "messages");
      expect(good).toHaveLength(1);
      const [message] = good[0][2] as BaseMessage[];
      expect(message).toBeInstanceOf(AIMessage);
      expect(message.content).toBe("good result 1");
      expect(message.id).toEqual(expect.any(String));
      expect(failed.pendingWrites!.some(([, channel]) => channel === "__error__")).toBe(true);
      // The same process reads the same writes (its cache holds them) as a fresh one does.
      const same = (await PostgresCheckpointer.fromDatabase(db).getTuple(cfg("pending")))!;
      expect(same.pendingWrites).toEqual(failed.pendingWrites);

      calls.fail = false;
      const out = await graph.invoke(null, cfg("pending"));
      // LangGraph applies a step's writes in task-path order ("flaky" before "good"), as with MemorySaver.
      expect(texts(out.messages)).toEqual(["go", "flaky result 1", "good result 1"]);
      expect(calls.good).toBe(1);
      // The pending write and the channel value that took it in share one item: three messages,
      // three items (the others are the errors LangGraph recorded).
      expect(await itemsContaining("pending", "good result 1")).toBe(1);
      expect(await itemsContaining("pending", '"lc":1')).toBe(3);
    });

    it("a fork from an old checkpoint with pending writes runs as with MemorySaver and leaves the original branch as it was", async () => {
      /** Fail, resume, go on, then fork from the failed checkpoint; what the graph returns each time. */
      async function scenario(checkpointer: BaseCheckpointSaver, thread: string) {
        const calls = { fail: true, good: 0, flaky: 0 };
        const graph = parallelGraph(checkpointer, calls);
        const config = cfg(thread);
        await expect(graph.invoke({ messages: [new HumanMessage({ id: "h1", content: "first" })] }, config)).rejects.toThrow("boom");
        const failed = (await checkpointer.getTuple(config))!;
        calls.fail = false;
        const resumed = texts((await graph.invoke(null, config)).messages);
        const original = await graph.getState(config);
        const second = texts((await graph.invoke({ messages: [new HumanMessage({ id: "h2", content: "second" })] }, config)).messages);
        const forked = texts((await graph.invoke(null, failed.config)).messages);
        const head = texts((await graph.getState(config)).values.messages);
        // The failed checkpoint now also holds what "flaky" wrote when the run resumed.
        const later = (await checkpointer.getTuple(failed.config))!.pendingWrites!;
        const pending = later.map(([, channel, value]) => [channel, channel === "messages" ? texts(value as BaseMessage[]) : value]).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
        return { failed, original, outputs: { resumed, second, forked, head, calls, pending } };
      }
      const reference = await scenario(new MemorySaver(), "fork-pending");
      const checkpointer = PostgresCheckpointer.fromDatabase(db);
      const ours = await scenario(checkpointer as unknown as BaseCheckpointSaver, "fork-pending");
      expect(ours.outputs).toEqual(reference.outputs);
      expect(ours.outputs.forked).toEqual(ours.outputs.head);

      // The failed checkpoint keeps its pending writes and the original branch its messages, read
      // back by a fresh process.
      const fresh = PostgresCheckpointer.fromDatabase(db, { readCache: false });
      const again = (await fresh.getTuple(ours.failed.config))!;
      expect(again.pendingWrites).toEqual((await checkpointer.getTuple(ours.failed.config))!.pendingWrites);
      expect(again.pendingWrites).toEqual(expect.arrayContaining(ours.failed.pendingWrites!));
      const branch = (await fresh.getTuple(ours.original.config))!;
      expect(texts(branch.checkpoint.channel_values.messages as BaseMessage[])).toEqual(ours.outputs.resumed);
      expect(await itemsContaining("fork-pending", "good result 1")).toBe(1);
    });

    it("retention keeps the items a kept checkpoint's pending writes need", async () => {
      const calls = { fail: true, good: 0, flaky: 0 };
      const checkpointer = PostgresCheckpointer.fromDatabase(db);
      const graph = parallelGraph(checkpointer, calls);
      await graph.invoke({ messages: [human("one")] }, { ...cfg("prune-pending") }).catch(() => undefined);
      calls.fail = false;
      await graph.invoke(null, cfg("prune-pending"));
      calls.fail = true;
      await expect(graph.invoke({ messages: [human("two")] }, cfg("prune-pending"))).rejects.toThrow("boom");
      expect(await checkpointer.pruneThread("prune-pending", 1)).toBeGreaterThan(0);
      expect(await count(db, "checkpoints", "prune-pending")).toBe(1);
      // "good result 2" is referred to only by the kept checkpoint's pending write.
      expect(await itemsContaining("prune-pending", "good result 2")).toBe(1);
      expect(await itemsContaining("prune-pending", "good result 1")).toBe(1);
      const fresh = PostgresCheckpointer.fromDatabase(db, { readCache: false });
      const kept = (await fresh.getTuple(cfg("prune-pending")))!;
      const written = kept.pendingWrites!.find(([, channel]) => channel === "messages")![2] as BaseMessage[];
      expect(written[0].content).toBe("good result 2");
      calls.fail = false;
      const out = await graph.invoke(null, cfg("prune-pending"));
      expect(texts(out.messages)).toEqual(["one", "flaky result 1", "good result 1", "two", "flaky result 2", "good result 2"]);
    });

    it("keep a write exactly as it was handed over, though LangGraph gives its message an id right after", async () => {
      const checkpointer = PostgresCheckpointer.fromDatabase(db);
      const config = await checkpointer.put(cfg("exact", { checkpoint_ns: "" }), { ...emptyCheckpoint(), id: uuid6(0) }, { source: "loop", step: 0, parents: {} }, {});
      const message = new HumanMessage("no id yet");
      const stored = checkpointer.putWrites(config, [["messages", [message]]], "task-1");
      message.id = "assigned-later"; // what LangGraph's messages reducer does, in place
      message.lc_kwargs.id = message.id;
      await stored;
      for (const reader of [checkpointer, PostgresCheckpointer.fromDatabase(db, { readCache: false })]) {
        const tuple = (await reader.getTuple(config))!;
        const [written] = tuple.pendingWrites![0][2] as BaseMessage[];
        expect(written.content).toBe("no id yet");
        expect(written.id).toBeUndefined();
      }
    });

    it("parallel tasks' writes are numbered in turn, and the next checkpoint refers to them instead of storing them again", async () => {
      const checkpointer = PostgresCheckpointer.fromDatabase(db);
      const first = { ...emptyCheckpoint(), id: uuid6(0) };
      const config = await checkpointer.put(cfg("parallel", { checkpoint_ns: "" }), first, { source: "loop", step: 0, parents: {} }, {});
      const replies = Array.from({ length: 5 }, (_, i) => new AIMessage({ id: `p${i}`, content: `parallel ${i}` }));
      await Promise.all(replies.map((m, i) => checkpointer.putWrites(config, [["messages", [m]], ["branch:to:x", null]], `task-${i}`)));
      expect(await count(db, "checkpoint_items", "parallel")).toBe(5);
      const next: Checkpoint = { ...emptyCheckpoint(), id: uuid6(1), channel_values: { messages: replies }, channel_versions: { messages: 2 } };
      await checkpointer.put(config, next, { source: "loop", step: 1, parents: {} }, { messages: 2 });
      expect(await count(db, "checkpoint_items", "parallel")).toBe(5);
      const ref = (await latestRef(db, "parallel")) as number[];
      expect(ref.length).toBeLessThanOrEqual(10);
      const fresh = PostgresCheckpointer.fromDatabase(db, { readCache: false });
      const pending = (await fresh.getTuple(config))!.pendingWrites!;
      expect(pending.filter(([, c]) => c === "messages").map(([, , v]) => (v as BaseMessage[])[0].content).sort()).toEqual(replies.map((m) => m.content));
      expect(pending.filter(([, c]) => c === "branch:to:x").map(([, , v]) => v)).toEqual([null, null, null, null, null]);
      expect(texts((await fresh.getTuple(cfg("parallel")))!.checkpoint.channel_values.messages as BaseMessage[])).toEqual(texts(replies));
    });
  });

  it("lists across pages in checkpoint order, with before, limit and metadata filter", async () => {
    const checkpointer = PostgresCheckpointer.fromDatabase(db);
    let config: RunnableConfig = cfg("paged", { checkpoint_ns: "" });
    const ids: string[] = [];
    for (let i = 0; i < 130; i++) {
      const checkpoint = { ...emptyCheckpoint(), id: uuid6(i) };
      config = await checkpointer.put(config, checkpoint, { source: i % 2 ? "loop" : "input", step: i, parents: {} }, {});
      ids.push(checkpoint.id);
    }
    const all = [];
    for await (const t of checkpointer.list(cfg("paged"))) all.push(t.checkpoint.id);
    expect(all).toEqual([...ids].reverse());
    const limited = [];
    for await (const t of checkpointer.list(cfg("paged"), { limit: 105, before: { configurable: { checkpoint_id: ids[120] } }, filter: { source: "loop" } })) limited.push(t.checkpoint.id);
    expect(limited).toEqual(ids.filter((_, i) => i < 120 && i % 2 === 1).reverse());
  });
});

const serverUrl = process.env.DATABASE_URL;
(serverUrl ? describe : describe.skip)("PostgresCheckpointer on server Postgres: a put killed mid-write", () => {
  it("leaves no partial checkpoint, and the thread reads consistently afterwards", async () => {
    const db = await openTestDatabase("postgres");
    const admin = new pg.Client({ connectionString: serverUrl });
    const blocker = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await blocker.connect();
    try {
      const checkpointer = PostgresCheckpointer.fromDatabase(db);
      const graph = chatGraph(checkpointer);
      for (let i = 0; i < 3; i++) await graph.invoke({ messages: [new HumanMessage(`m${i}`)] }, cfg("killed"));
      const latest = (await checkpointer.getTuple(cfg("killed")))!;
      const before = await Promise.all(["threads", "checkpoints", "checkpoint_items", "checkpoint_writes"].map((t) => count(db, t, "killed")));
      const messages = [...(latest.checkpoint.channel_values.messages as BaseMessage[]), new HumanMessage("lost with the connection")];
      const next: Checkpoint = { ...latest.checkpoint, id: uuid6(50), channel_values: { messages }, channel_versions: { ...latest.checkpoint.channel_versions, messages: 500.5 } };

      // Hold the thread row so the put's single statement stops mid-way, then kill its connection.
      const blockerPid = (await blocker.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0].pid;
      await blocker.query("BEGIN");
      await blocker.query(`SELECT 1 FROM ${db.schemaSql}.threads WHERE thread_id = 'killed' FOR UPDATE`);
      const pending = checkpointer.put(latest.config, next, { source: "loop", step: 50, parents: {} }, { messages: 500.5 }).then(() => "stored", (e: unknown) => e);
      let victim: number | undefined;
      for (let i = 0; i < 200 && victim === undefined; i++) {
        const { rows } = await admin.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))", [blockerPid]);
        victim = rows[0]?.pid;
        if (victim === undefined) await new Promise((r) => setTimeout(r, 25));
      }
      expect(victim).toBeDefined();
      await admin.query("SELECT pg_terminate_backend($1)", [victim]);
      const err = await pending;
      expect(isMemoryError(err, "DB_UNAVAILABLE")).toBe(true);
      expect((err as { retryable: boolean }).retryable).toBe(true);
      await blocker.query("ROLLBACK");

      const after = await Promise.all(["threads", "checkpoints", "checkpoint_items", "checkpoint_writes"].map((t) => count(db, t, "killed")));
      expect(after).toEqual(before);
      const fresh = PostgresCheckpointer.fromDatabase(db, { readCache: false });
      const reread = (await fresh.getTuple(cfg("killed")))!;
      expect(reread.checkpoint.id).toBe(latest.checkpoint.id);
      expect(texts(reread.checkpoint.channel_values.messages as BaseMessage[])).toEqual(texts(latest.checkpoint.channel_values.messages as BaseMessage[]));
      // The same checkpointer (its pool replaced the dead connection) carries on.
      const out = await graph.invoke({ messages: [new HumanMessage("retry")] }, cfg("killed"));
      expect(out.messages).toHaveLength(8);
    } finally {
      await blocker.end().catch(() => undefined);
      await admin.end();
      await db.close();
    }
  });
});

describe("unreachable database", () => {
  it("is a retryable DB_UNAVAILABLE", async () => {
    const err = await PostgresCheckpointer.fromUrl("postgres://postgres@127.0.0.1:1/none").catch((e) => e);
    expect(isMemoryError(err, "DB_UNAVAILABLE")).toBe(true);
    expect(err.retryable).toBe(true);
  });
});
