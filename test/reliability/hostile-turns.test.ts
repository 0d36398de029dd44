/**
 * Large and odd user messages through the memory agent graph (`withMemory`, queued extraction and
 * the in-process worker; inline extraction too), on both engines: the turn is never dropped.
 *
 * - a message over 16,000 characters (4 × writePolicy.maxTextChars): the search uses the first
 *   16,000 characters, the message is kept whole in the thread, and its fact is extracted;
 * - a NUL character or an unpaired surrogate anywhere in a message: replaced where the message
 *   enters the job payload (and the inline write path), so the turn's extraction is not lost;
 * - `additional_kwargs` nested deeper than the checkpoint serializer can walk: a typed
 *   INVALID_INPUT saying what to change before any node reads or writes (no checkpoint, no job).
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import type { Database } from "../../src/db/database.js";
import { isMemoryError } from "../../src/errors.js";
import { memoryWorker, withMemory } from "../../src/graph/index.js";
import { createMemory, type LangGraphMemory } from "../../src/memory.js";
import { openTestDatabase, testEngines } from "../helpers/db.js";
import { deepJson } from "./helpers/hostile.js";

describe.each(testEngines())("hostile user turns on %s", (engine) => {
  let db: Database;
  let memory: LangGraphMemory;
  let seq = 0;
  const errors: string[] = [];

  beforeAll(async () => {
    db = await openTestDatabase(engine);
    memory = await createMemory({ db });
  });
  afterAll(async () => {
    await memory.close();
    await db.close();
  });

  const graphFor = (extraction: "queue" | "inline") =>
    withMemory({ memory, extraction, debounceMs: 0, agent: async () => ({ messages: [new AIMessage("Noted.")] }), onError: (err) => errors.push(String((err as Error).message)) }).compile({
      checkpointer: memory.checkpointer,
    });

  /** One turn of a fresh user; the worker drained; what was stored and what the thread kept. */
  async function turn(message: HumanMessage, extraction: "queue" | "inline" = "queue") {
    const user = `u${++seq}`;
    const thread = `t${seq}`;
    errors.length = 0;
    const config = { configurable: { thread_id: thread, tenant_id: "acme", user_id: user } };
    const state = await graphFor(extraction).invoke({ messages: [message] }, config);
    const drained = await memoryWorker(memory).drain();
    const memories = (await memory.store.list({ tenantId: "acme", userId: user })).filter((m) => m.kind !== "episode").map((m) => m.text);
    const jobs = (await db.query<{ state: string; code: string | null }>("SELECT state, last_error_code AS code FROM memory_jobs WHERE user_id = $1", [user])).rows;
    return { state, drained, memories, jobs, errors: [...errors], user, thread };
  }

  it("a 20,000-character message: the turn answers, the message is kept whole, and its fact is extracted", async () => {
    const text = `I prefer aisle seats on trains. ${"Here is the log line again. ".repeat(720)}`;
    expect(text.length).toBeGreaterThan(20_000);
    const r = await turn(new HumanMessage({ id: `long-${seq}`, content: text }));
    expect(r.errors).toEqual([]);
    expect(r.state.messages[0].content).toBe(text);
    expect(r.state.messages.at(-1)!.content).toBe("Noted.");
    expect(r.memories).toContain("User prefers aisle seats on trains.");
  });

  it("a search query over the bound is searched by its first 16,000 characters and 1,000 words, not refused", async () => {
    const scope = { tenantId: "acme", userId: `q${++seq}` };
    await memory.store.add(scope, { kind: "fact", text: "User lives in Porto." });
    const hits = await memory.store.search(scope, `Where do I live, Porto? ${"x ".repeat(20_000)}`, { minSimilarity: 0 });
    expect(hits.map((h) => h.text)).toEqual(["User lives in Porto."]);
  });

  for (const [label, odd] of [
    ["a NUL character", "\u0000"],
    ["an unpaired high surrogate", "\uD800"],
    ["an unpaired low surrogate", "\uDC00"],
  ] as const) {
    for (const extraction of ["queue", "inline"] as const) {
      it(`${label} in a message (${extraction} extraction): the rest of the turn is extracted`, async () => {
        const text = `I prefer aisle seats${odd} on trains. My dog is called Rex${odd}.`;
        const r = await turn(new HumanMessage({ id: `odd-${seq}`, content: text }), extraction);
        expect(r.errors).toEqual([]);
        expect(r.jobs.every((j) => j.state === "done")).toBe(true);
        expect(r.memories.length).toBe(2);
        expect(r.memories.some((m) => m.startsWith("User prefers aisle seats"))).toBe(true);
        // The thread keeps the message as it was sent.
        expect(r.state.messages[0].content).toBe(text);
      });
    }
  }

  it("additional_kwargs nested 20,000 levels deep: INVALID_INPUT naming what to change, no checkpoint and no job stored", async () => {
    const thread = `deep-${++seq}`;
    let caught: unknown;
    try {
      await graphFor("queue").invoke(
        { messages: [new HumanMessage({ content: "I live in Porto.", additional_kwargs: { meta: deepJson(20_000) } })] },
        { configurable: { thread_id: thread, tenant_id: "acme", user_id: `u${seq}` } },
      );
    } catch (err) {
      caught = err;
    }
    expect(isMemoryError(caught)).toBe(true);
    expect({ code: (caught as { code: string }).code, says: /nested|deep/i.test((caught as Error).message) }).toEqual({ code: "INVALID_INPUT", says: true });
    const count = async (sql: string) => Number((await db.query<{ n: number }>(sql, [thread])).rows[0].n);
    expect({
      checkpoints: await count("SELECT count(*) AS n FROM checkpoints WHERE thread_id = $1"),
      jobs: await count("SELECT (SELECT count(*) FROM memory_jobs WHERE group_key = $1) + (SELECT count(*) FROM memory_jobs_inbox WHERE group_key = $1) AS n"),
      // No state was written. LangGraph may record that the task failed (an `__error__` write)
      // or not, depending on whether the refused input checkpoint or the failed task settles first.
      stateWrites: (await db.query<{ w: string }>("SELECT writes::text AS w FROM checkpoint_writes WHERE thread_id = $1", [thread])).rows
        .flatMap((r) => JSON.parse(r.w).map((w: unknown[]) => w[1]))
        .filter((channel: unknown) => channel !== "__error__"),
    }).toEqual({ checkpoints: 0, jobs: 0, stateWrites: [] });
    // The same thread works with a plain message afterwards.
    const ok = await graphFor("queue").invoke({ messages: [new HumanMessage("I live in Porto.")] }, { configurable: { thread_id: thread, tenant_id: "acme", user_id: `u${seq}` } });
    expect(ok.messages.at(-1)!.content).toBe("Noted.");
  });
});
