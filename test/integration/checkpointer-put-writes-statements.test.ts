import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { uuid6, type Checkpoint } from "@langchain/langgraph-checkpoint";
import type { RunnableConfig } from "@langchain/core/runnables";
import pg from "pg";
import { PostgresCheckpointer } from "../../src/checkpointer/index.js";
import type { Database } from "../../src/db/database.js";
import { isMemoryError } from "../../src/errors.js";
import { openTestDatabase, testEngines } from "../helpers/db.js";

/**
 * What putWrites sends to the database (issue 19): one statement per call — no BEGIN/COMMIT, no
 * SET LOCAL, no lookup before or after — with the owner check inside that statement. Counted on a
 * wrapped Database (every engine) and, on server Postgres, at the driver too, where a transaction's
 * BEGIN and COMMIT would show up.
 */

interface Counted {
  db: Database;
  calls: string[];
}

/** The database with every call the checkpointer can make recorded (query, exec, transaction, withConnection). */
function counted(db: Database): Counted {
  const calls: string[] = [];
  const wrapped = new Proxy(db, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== "function" || !["query", "exec", "transaction", "withConnection"].includes(String(prop))) return value;
      return (...args: unknown[]) => {
        calls.push(prop === "query" || prop === "exec" ? String(args[0]).trim().split(/\s+/).slice(0, 2).join(" ") : String(prop));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { db: wrapped, calls };
}

/** Statements sent by every `pg` client while `fn` runs (server Postgres). */
async function driverStatements(fn: () => Promise<unknown>): Promise<string[]> {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  const seen: string[] = [];
  proto.query = function (this: unknown, ...args: unknown[]) {
    const q = args[0] as string | { text?: string };
    seen.push(String(typeof q === "string" ? q : q?.text).trim().split(/\s+/).slice(0, 2).join(" "));
    return original.apply(this, args);
  };
  try {
    await fn();
  } finally {
    proto.query = original;
  }
  return seen;
}

const message = (i: number) => (i % 2 === 0 ? new HumanMessage({ id: `h${i}`, content: `question ${i}` }) : new AIMessage({ id: `a${i}`, content: `answer ${i}` }));

/** A thread of `n` checkpoints, one message added per put; returns the latest config. */
async function buildThread(saver: PostgresCheckpointer, threadId: string, n: number, scope: Record<string, string> = {}): Promise<RunnableConfig> {
  let config: RunnableConfig = { configurable: { thread_id: threadId, checkpoint_ns: "", ...scope } };
  let previous: Checkpoint | undefined;
  const messages = [];
  for (let i = 0; i < n; i += 1) {
    messages.push(message(i));
    const version = saver.getNextVersion(previous?.channel_versions.messages as number | undefined);
    const checkpoint: Checkpoint = {
      v: 4, id: uuid6(i), ts: new Date().toISOString(), channel_values: { messages: messages.slice() },
      channel_versions: { messages: version }, versions_seen: { agent: { messages: previous?.channel_versions.messages ?? version } },
    };
    config = await saver.put(config, checkpoint, { source: "loop", step: i, parents: {} }, { messages: version });
    config = { configurable: { ...config.configurable, ...scope } };
    previous = checkpoint;
  }
  return config;
}

describe.each(testEngines())("putWrites statements on %s", (engine) => {
  let db: Database;
  beforeAll(async () => {
    db = await openTestDatabase(engine);
  });
  afterAll(async () => {
    await db.close();
  });

  it("a task's new message is one statement, no transaction; it is stored and read back", async () => {
    const c = counted(db);
    const saver = PostgresCheckpointer.fromDatabase(c.db);
    const config = await buildThread(saver, "one-statement", 5);
    for (let i = 0; i < 3; i += 1) {
      c.calls.length = 0;
      await saver.putWrites(config, [["messages", [message(100 + i)]]], `task-${i}`);
      // Numbered from the block the thread's puts reserved: the small statement (PUT_WRITES_IN_BLOCK_SQL).
      expect(c.calls).toEqual(["WITH th"]);
    }
    const tuple = await PostgresCheckpointer.fromDatabase(db).getTuple(config);
    expect(tuple?.pendingWrites?.map(([task, channel, value]) => [task, channel, (value as AIMessage[])[0].content])).toEqual([
      ["task-0", "messages", "question 100"],
      ["task-1", "messages", "answer 101"],
      ["task-2", "messages", "question 102"],
    ]);
  });

  it("a special write (no item) and a write re-sending a stored message are one statement each", async () => {
    const c = counted(db);
    const saver = PostgresCheckpointer.fromDatabase(c.db);
    const config = await buildThread(saver, "special-and-reuse", 3);
    const stored = (await saver.getTuple(config))!.checkpoint.channel_values.messages as AIMessage[];
    c.calls.length = 0;
    await saver.putWrites(config, [["__error__", { message: "boom" }]], "task-error");
    expect(c.calls).toEqual(["WITH th"]);
    c.calls.length = 0;
    // The message is the stored item (reused by number: the full statement checks its source row).
    await saver.putWrites(config, [["messages", [stored[0]]]], "task-reuse");
    expect(c.calls).toEqual(["WITH sources_ok"]);
    const tuple = await PostgresCheckpointer.fromDatabase(db).getTuple(config);
    const byTask = Object.fromEntries(tuple!.pendingWrites!.map(([task, channel, value]) => [task, [channel, value]]));
    expect(byTask["task-error"]).toEqual(["__error__", { message: "boom" }]);
    expect((byTask["task-reuse"][1] as AIMessage[])[0].content).toBe("question 0");
  });

  it("another scope's putWrites is refused by the same single statement, with nothing stored", async () => {
    const owner = { tenant_id: "acme", user_id: "alice" };
    const config = await buildThread(PostgresCheckpointer.fromDatabase(db), "scoped-writes", 2, owner);
    const c = counted(db);
    const saver = PostgresCheckpointer.fromDatabase(c.db);
    const foreign = { configurable: { ...config.configurable, user_id: "mallory" } };
    const err = await saver.putWrites(foreign, [["messages", [message(200)]]], "task-foreign").catch((e: unknown) => e);
    expect(isMemoryError(err, "THREAD_SCOPE_MISMATCH")).toBe(true);
    expect(c.calls).toEqual(["WITH sources_ok"]);
    const { rows } = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM checkpoint_writes WHERE thread_id = $1", ["scoped-writes"]);
    expect(rows[0].n).toBe(0);
    // The owner's own write goes through.
    await saver.putWrites(config, [["messages", [message(201)]]], "task-owner");
    const again = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM checkpoint_writes WHERE thread_id = $1", ["scoped-writes"]);
    expect(again.rows[0].n).toBe(1);
  });

  it("the small statement refuses another scope too, and a thread deleted elsewhere is written again by the full one", async () => {
    const owner = { tenant_id: "acme", user_id: "alice" };
    const c = counted(db);
    const saver = PostgresCheckpointer.fromDatabase(c.db);
    // This saver stored the thread: its writes take the small statement, which checks the owner too.
    const config = await buildThread(saver, "scoped-in-block", 2, owner);
    c.calls.length = 0;
    const foreign = { configurable: { ...config.configurable, user_id: "mallory" } };
    const err = await saver.putWrites(foreign, [["messages", [message(400)]]], "task-foreign").catch((e: unknown) => e);
    expect(isMemoryError(err, "THREAD_SCOPE_MISMATCH")).toBe(true);
    expect(c.calls).toEqual(["WITH th"]);
    const none = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM checkpoint_writes WHERE thread_id = $1", ["scoped-in-block"]);
    expect(none.rows[0].n).toBe(0);
    // Another process deletes the thread: the small statement finds it gone and stores nothing,
    // the full one stores the write (and records the owner of the thread started again).
    await PostgresCheckpointer.fromDatabase(db).deleteThread("scoped-in-block");
    c.calls.length = 0;
    await saver.putWrites(config, [["messages", [message(401)]]], "task-after-delete");
    expect(c.calls).toEqual(["WITH th", "WITH sources_ok"]);
    const { rows } = await db.query<{ n: number; tenant_id: string; user_id: string }>(
      "SELECT (SELECT count(*)::int FROM checkpoint_writes WHERE thread_id = $1) AS n, o.tenant_id, o.user_id FROM thread_owners o WHERE o.thread_id = $1",
      ["scoped-in-block"],
    );
    expect(rows).toEqual([{ n: 1, tenant_id: "acme", user_id: "alice" }]);
  });

  (engine === "postgres" ? it : it.skip)("the driver sends exactly one statement per putWrites (no BEGIN, COMMIT or SET)", async () => {
    const saver = PostgresCheckpointer.fromDatabase(db);
    const config = await buildThread(saver, "driver-count", 4);
    await saver.putWrites(config, [["messages", [message(300)]]], "task-warm");
    const seen = await driverStatements(() => saver.putWrites(config, [["messages", [message(301)]]], "task-counted"));
    expect(seen).toEqual(["WITH th"]);
  });
});
