/**
 * Fault: a write commits but its reply never arrives (the connection drops between COMMIT and the
 * answer — what a server crash mid-request does; seen in faults-server-restart.test.ts with
 * `-m immediate`). The caller gets the retryable DB_UNAVAILABLE and cannot know whether the write
 * happened. Deterministic here: the real database runs the statement, then the reply is dropped.
 * Expected: the thread keeps working — later turns are stored, the stored checkpoints are whole,
 * and retrying the lost turn does not duplicate it.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { END, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import { PostgresCheckpointer } from "../../src/checkpointer/index.js";
import type { Database, QueryOptions } from "../../src/db/database.js";
import { ErrorCodes, MemoryError } from "../../src/errors.js";
import { openTestDatabase, testEngines } from "../helpers/db.js";
import { checkpointIntegrity } from "./helpers/checkpoint-integrity.js";

/** The real database, except that the reply of the next statement matching `pattern` is lost after it ran. */
function dropReplyOnce(db: Database): { db: Database; arm(pattern: RegExp): void; fired(): boolean } {
  let armed: RegExp | null = null;
  let fired = false;
  const wrapper = Object.create(db) as Database;
  wrapper.query = async <R,>(sql: string, params?: readonly unknown[], options?: QueryOptions) => {
    const result = await db.query<R>(sql, params, options);
    if (armed?.test(sql)) {
      armed = null;
      fired = true;
      throw new MemoryError(ErrorCodes.DB_UNAVAILABLE, "the connection dropped after the statement ran (simulated lost reply)", { retryable: true });
    }
    return result;
  };
  return { db: wrapper, arm: (p) => void ((armed = p), (fired = false)), fired: () => fired };
}

describe.each(testEngines())("a lost reply after a committed checkpoint write on %s", (engine) => {
  let db: Database;
  beforeAll(async () => {
    db = await openTestDatabase(engine);
  });
  afterAll(async () => {
    await db.close();
  });

  it.each([
    ["the checkpoint put", /INSERT INTO checkpoints /],
    ["the pending-writes put", /INSERT INTO checkpoint_writes/],
  ])("after %s's reply is lost, the thread goes on: later turns are stored and nothing is duplicated", async (_label, pattern) => {
    const faulty = dropReplyOnce(db);
    const checkpointer = PostgresCheckpointer.fromDatabase(faulty.db);
    let answers = 0;
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("agent", async (state: typeof MessagesAnnotation.State) => ({
        messages: [new AIMessage({ id: `${String(state.messages[state.messages.length - 1].id)}-a${++answers}`, content: `ack: ${String(state.messages[state.messages.length - 1].content)}` })],
      }))
      .addEdge(START, "agent")
      .addEdge("agent", END)
      .compile({ checkpointer });
    const thread = `lost-${engine}-${pattern.source.length}`;
    const cfg = { configurable: { thread_id: thread } };
    /** One turn, retried as LangGraph resumes a failed run (see faults-server-restart.test.ts). */
    const turn = async (n: number) => {
      const id = `${thread}-u${n}`;
      for (let attempt = 0; attempt < 3; attempt++) {
        try {
          const state = await graph.getState(cfg);
          const messages = (state.values.messages ?? []) as BaseMessage[];
          const sent = messages.findIndex((m) => m.id === id);
          if (sent >= 0 && (state.next.length > 0 || state.tasks.length > 0)) return await graph.invoke(null, cfg);
          if (sent >= 0 && messages.length > sent + 1) return state.values;
          return await graph.invoke({ messages: [new HumanMessage({ id, content: `turn ${n}` })] }, cfg);
        } catch (err) {
          // Only the lost reply may fail a turn, and it says it can be retried.
          expect(err).toMatchObject({ code: "DB_UNAVAILABLE", retryable: true });
        }
      }
      throw new Error(`turn ${n} did not go through in 3 attempts`);
    };

    await turn(1);
    faulty.arm(pattern);
    await turn(2);
    expect(faulty.fired()).toBe(true);
    for (let n = 3; n <= 5; n++) await turn(n);

    const state = await graph.getState(cfg);
    const contents = (state.values.messages as BaseMessage[]).map((m) => String(m.content));
    expect(contents).toEqual([1, 2, 3, 4, 5].flatMap((n) => [`turn ${n}`, `ack: turn ${n}`]));
    const integrity = await checkpointIntegrity(db);
    expect(integrity).toMatchObject({ orphanCheckpoints: 0, missingValueItems: 0, missingWriteItems: 0, rowsWithoutThread: 0, itemsBeyondCounter: 0 });
    // A fresh process (a new checkpointer, no cache) reads the same thread.
    const fresh = await PostgresCheckpointer.fromDatabase(db).getTuple(cfg);
    expect((fresh!.checkpoint.channel_values.messages as BaseMessage[]).map((m) => String(m.content))).toEqual(contents);
  });
});
