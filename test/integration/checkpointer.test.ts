import { AIMessage, HumanMessage, RemoveMessage, type BaseMessage } from "@langchain/core/messages";
import { END, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import { DeltaSnapshot, emptyCheckpoint, uuid6, type Checkpoint } from "@langchain/langgraph-checkpoint";
import type { RunnableConfig } from "@langchain/core/runnables";
import { PostgresCheckpointer } from "../../src/checkpointer/index.js";
import type { Database } from "../../src/db/database.js";
import { isMemoryError } from "../../src/errors.js";
import { countTextTokens } from "../../src/tokens/count-text.js";
import pg from "pg";
import { openTestDatabase, testEngines } from "../helpers/db.js";

/** A chat graph whose "model" answers deterministically; `removeFirstAfter` keeps a window of messages. */
function chatGraph(checkpointer: PostgresCheckpointer, options: { removeFirstAfter?: number } = {}) {
  return new StateGraph(MessagesAnnotation)
    .addNode("agent", async (state) => {
      const last = state.messages[state.messages.length - 1];
      const reply = new AIMessage(`You said: ${String(last.content)}. Noted, number ${state.messages.length}.`);
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

const cfg = (thread_id: string, extra: Record<string, unknown> = {}): RunnableConfig => ({ configurable: { thread_id, ...extra } });

async function count(db: Database, table: string, threadId: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE thread_id = $1`, [threadId]);
  return rows[0].n;
}

function texts(messages: BaseMessage[]): string[] {
  return messages.map((m) => String(m.content));
}

describe.each(testEngines())("PostgresCheckpointer on %s", (engine) => {
  let db: Database;
  beforeAll(async () => {
    db = await openTestDatabase(engine);
  });
  afterAll(async () => {
    await db.close();
  });

  it("stores each message once: storage grows linearly, the latest value is one item range", async () => {
    const checkpointer = PostgresCheckpointer.fromDatabase(db);
    const graph = chatGraph(checkpointer);
    for (let i = 0; i < 25; i++) await graph.invoke({ messages: [new HumanMessage(`question ${i}`)] }, cfg("linear"));
    const state = await graph.getState(cfg("linear"));
    expect(state.values.messages).toHaveLength(50);
    expect(String(state.values.messages[48].content)).toBe("question 24");
    expect(await count(db, "checkpoint_items", "linear")).toBe(50);
    const { rows } = await db.query<{ items: Array<number | string> }>(
      "SELECT items FROM checkpoint_blobs WHERE thread_id = $1 AND channel = 'messages' ORDER BY version::numeric DESC LIMIT 1",
      ["linear"],
    );
    expect(rows[0].items.map(Number)).toEqual([1, 50]);
    // Every earlier checkpoint still reads back its own value.
    const lengths: number[] = [];
    for await (const snapshot of graph.getStateHistory(cfg("linear"))) lengths.push(snapshot.values.messages?.length ?? 0);
    expect(lengths).toHaveLength(75);
    expect(lengths.slice(0, 4)).toEqual([50, 49, 48, 48]);
    expect(lengths[lengths.length - 1]).toBe(0);
  });

  it("continues a thread from a fresh process (cold cache) without copying it", async () => {
    const first = chatGraph(PostgresCheckpointer.fromDatabase(db));
    for (let i = 0; i < 5; i++) await first.invoke({ messages: [new HumanMessage(`a${i}`)] }, cfg("cold"));
    const second = chatGraph(PostgresCheckpointer.fromDatabase(db));
    const out = await second.invoke({ messages: [new HumanMessage("after restart")] }, cfg("cold"));
    expect(out.messages).toHaveLength(12);
    expect(await count(db, "checkpoint_items", "cold")).toBe(12);
  });

  it("falls back to storing afresh when a value is not an extension (removals), and reads it back exactly", async () => {
    const checkpointer = PostgresCheckpointer.fromDatabase(db);
    const graph = chatGraph(checkpointer, { removeFirstAfter: 6 });
    let expected: string[] = [];
    for (let i = 0; i < 12; i++) {
      const out = await graph.invoke({ messages: [new HumanMessage(`w${i}`)] }, cfg("window"));
      expected = texts(out.messages);
    }
    expect(expected).toHaveLength(7);
    expect(expected[expected.length - 2]).toBe("w11");
    const fresh = PostgresCheckpointer.fromDatabase(db, { readCache: false });
    const tuple = await fresh.getTuple(cfg("window"));
    expect(texts(tuple!.checkpoint.channel_values.messages as BaseMessage[])).toEqual(expected);
    // Each message is stored once even though the window slides: no full copies.
    expect(await count(db, "checkpoint_items", "window")).toBe(24);
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
    for (const table of ["threads", "checkpoints", "checkpoint_blobs", "checkpoint_items", "checkpoint_writes"]) {
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
    const graph = chatGraph(checkpointer);
    for (let i = 0; i < 10; i++) await graph.invoke({ messages: [new HumanMessage(`r${i}`)] }, cfg("pruned"));
    expect(await checkpointer.pruneThread("pruned")).toBeGreaterThanOrEqual(0);
    expect(await count(db, "checkpoints", "pruned")).toBe(4);
    // Items only the deleted checkpoints needed are gone; the kept ones still read in full.
    const fresh = PostgresCheckpointer.fromDatabase(db, { readCache: false });
    const kept = [];
    for await (const t of fresh.list(cfg("pruned"))) kept.push(t);
    expect(kept).toHaveLength(4);
    expect((kept[0].checkpoint.channel_values.messages as BaseMessage[]).length).toBe(20);
    expect(await count(db, "checkpoint_items", "pruned")).toBe(20);
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM checkpoint_blobs b WHERE thread_id = 'pruned' AND NOT EXISTS (
         SELECT 1 FROM checkpoints c WHERE c.thread_id = b.thread_id AND c.checkpoint_ns = b.checkpoint_ns
           AND c.checkpoint -> 'channel_versions' ->> b.channel = b.version)`,
    );
    expect(rows[0].n).toBe(0);
    // The run goes on after pruning.
    const out = await graph.invoke({ messages: [new HumanMessage("after prune")] }, cfg("pruned"));
    expect(out.messages).toHaveLength(22);
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
    for (const table of ["threads", "checkpoints", "checkpoint_blobs", "checkpoint_items", "checkpoint_writes"]) expect(await count(db, table, "idle")).toBe(0);
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

  it("reports a corrupt row as CHECKPOINT_CORRUPT and a missing item as CHECKPOINT_PARENT_MISSING", async () => {
    const graph = chatGraph(PostgresCheckpointer.fromDatabase(db));
    await graph.invoke({ messages: [new HumanMessage("fine")] }, cfg("corrupt"));
    await graph.invoke({ messages: [new HumanMessage("fine")] }, cfg("missing"));
    await db.query("UPDATE checkpoint_items SET blob = '\\x7b6e6f7420a9'::bytea WHERE thread_id = 'corrupt' AND seq = 1");
    await db.query("DELETE FROM checkpoint_items WHERE thread_id = 'missing' AND seq = 2");
    const fresh = PostgresCheckpointer.fromDatabase(db);
    await expect(fresh.getTuple(cfg("corrupt"))).rejects.toMatchObject({ code: "CHECKPOINT_CORRUPT" });
    await expect(fresh.getTuple(cfg("missing"))).rejects.toMatchObject({ code: "CHECKPOINT_PARENT_MISSING" });
  });

  it("a failing statement in the middle of a put leaves nothing behind", async () => {
    const checkpointer = PostgresCheckpointer.fromDatabase(db);
    const graph = chatGraph(checkpointer);
    await graph.invoke({ messages: [new HumanMessage("before")] }, cfg("atomic"));
    const before = await Promise.all(["checkpoints", "checkpoint_blobs", "checkpoint_items"].map((t) => count(db, t, "atomic")));
    const latest = (await checkpointer.getTuple(cfg("atomic")))!;
    const messages = [...(latest.checkpoint.channel_values.messages as BaseMessage[]), new HumanMessage("never stored")];
    const next: Checkpoint = { ...latest.checkpoint, id: uuid6(9), channel_values: { messages }, channel_versions: { ...latest.checkpoint.channel_versions, messages: 99 } };
    // A NUL character is valid JSON but not valid jsonb: the statement fails after planning its items.
    const err = await checkpointer.put(latest.config, next, { source: "loop", step: 9, parents: {}, note: "\u0000" } as never, { messages: 99 }).catch((e) => e);
    expect(isMemoryError(err, "DB_QUERY_FAILED")).toBe(true);
    const after = await Promise.all(["checkpoints", "checkpoint_blobs", "checkpoint_items"].map((t) => count(db, t, "atomic")));
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
      const before = await Promise.all(["threads", "checkpoints", "checkpoint_blobs", "checkpoint_items"].map((t) => count(db, t, "killed")));
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

      const after = await Promise.all(["threads", "checkpoints", "checkpoint_blobs", "checkpoint_items"].map((t) => count(db, t, "killed")));
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
