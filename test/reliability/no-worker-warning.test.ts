/**
 * Nothing fails silently: with the default queued extraction and no worker, the README's first
 * snippet remembered nothing and said nothing. Now the memory steps warn once (NO_WORKER through
 * `onError`, stage "queue"; by default a console warning) when a user's queued work is past its
 * due time plus a margin and no worker polls its queue — and stay quiet while a worker polls
 * (its heartbeat, `memory_workers`). Both engines.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import type { Database } from "../../src/db/database.js";
import { isMemoryError } from "../../src/errors.js";
import { memoryWorker, withMemory } from "../../src/graph/index.js";
import { NoWorkerWarning } from "../../src/jobs/no-worker-warning.js";
import { queueStatus } from "../../src/jobs/queue-health.js";
import { createMemory, type LangGraphMemory } from "../../src/memory.js";
import { openTestDatabase, testEngines } from "../helpers/db.js";

/** Wait (without asserting on time) until `done()` holds, polling. */
async function eventually(done: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (await done()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`never happened: ${what}`);
}

describe.each(testEngines())("the no-worker warning on %s", (engine) => {
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

  const agent = async () => ({ messages: [new AIMessage("Noted.")] });

  it("the README's first snippet without a worker: one loud NO_WORKER warning, not one per turn", async () => {
    const warnings: unknown[] = [];
    const graph = withMemory({
      memory,
      agent,
      debounceMs: 0,
      workerWarning: { marginMs: 0, checkEveryMs: 0 },
      onError: (err, stage) => warnings.push({ stage, err }),
    }).compile({ checkpointer: memory.checkpointer });
    const config = { configurable: { thread_id: `t${++n}`, tenant_id: "acme", user_id: `u${n}` } };
    await graph.invoke({ messages: [new HumanMessage("I prefer aisle seats on trains.")] }, config);
    await eventually(() => warnings.length > 0, "a warning");
    for (let i = 0; i < 3; i++) await graph.invoke({ messages: [new HumanMessage(`And another thing, number ${i}.`)] }, config);
    await new Promise((r) => setTimeout(r, 200));
    expect(warnings).toHaveLength(1);
    const { stage, err } = warnings[0] as { stage: string; err: unknown };
    expect(stage).toBe("queue");
    expect(isMemoryError(err, "NO_WORKER")).toBe(true);
    expect((err as Error).message).toMatch(/no worker is polling it \(no worker has ever polled this database\).*langgraph-memory worker.*memoryWorker\(memory\)/);
  });

  it("the check itself: quiet before the margin, quiet while a worker polls, a warning once the worker stopped", async () => {
    // A database of its own: the warning is given once per database.
    const own = await openTestDatabase(engine);
    const mine = await createMemory({ db: own });
    try {
      const scope = { tenantId: "acme", userId: `check-${++n}` };
      const warnings: Error[] = [];
      const check = async (marginMs: number) => {
        const w = new NoWorkerWarning(own, { marginMs, checkEveryMs: 0, warn: (e) => warnings.push(e) });
        w.noteTurn(scope);
        await w.settled();
      };
      const job = (key: string) => mine.jobs.enqueue({ queue: "memory-extraction", scope, groupKey: key, idempotencyKey: key, payload: { v: 1, threadId: key, messages: [] } });
      await job("g1");
      await check(3_600_000);
      expect(warnings).toEqual([]); // not waiting long enough yet
      const worker = memoryWorker(mine, { pollIntervalMs: 50 });
      // The worker polls (a drain records its heartbeat) without taking the job (another queue).
      await worker.drain({ queue: "session-index" });
      expect((await queueStatus(own)).liveWorkers).toBe(1);
      await check(0);
      expect(warnings).toEqual([]); // a live worker serves the queue
      worker.start();
      await eventually(async () => (await queueStatus(own)).pending === 0, "the worker took the job");
      await worker.stop(); // a stopped worker is no longer counted
      expect((await queueStatus(own)).liveWorkers).toBe(0);
      await job("g2");
      await check(0);
      await check(0);
      expect(warnings.map((w) => (w as { code?: string }).code)).toEqual(["NO_WORKER"]);
      expect(warnings[0].message).toMatch(/last heartbeat \d{4}-/);
    } finally {
      await mine.close();
      await own.close();
    }
  });
});
