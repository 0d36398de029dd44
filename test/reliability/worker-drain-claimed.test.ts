/**
 * `worker.drain()` on a worker whose own loop is running: jobs the loop already claimed are
 * waited for, and the jobs of the same user and thread queued behind them are drained too — on
 * both engines. (Before: drain returned at once, with the claimed job still running and the next
 * job of its group left pending, 3 times out of 3.)
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import type { Database } from "../../src/db/database.js";
import { JobQueue, JobWorker, type JobHandler } from "../../src/jobs/index.js";
import { openTestDatabase, testEngines } from "../helpers/db.js";

describe.each(testEngines())("drain() with the worker's loop running on %s", (engine) => {
  let db: Database;
  let queue: JobQueue;

  beforeAll(async () => {
    db = await openTestDatabase(engine);
    queue = new JobQueue(db, { notify: false });
  });
  afterAll(async () => {
    await db.close();
  });

  it.each([1, 2, 3])("round %i: drain waits for the job the loop holds, then drains the same user's later jobs", async (round) => {
    const scope = { tenantId: "acme", userId: `drain-${round}` };
    const done: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let claimedFirst!: () => void;
    const firstClaimed = new Promise<void>((resolve) => (claimedFirst = resolve));
    const handler: JobHandler = async (job) => {
      if (job.payload.n === 1) {
        claimedFirst();
        await gate;
      }
      done.push(String(job.payload.n));
    };
    const worker = new JobWorker(db, { handlers: { q: handler }, pollIntervalMs: 20, listen: false });
    await queue.enqueue({ queue: "q", scope, groupKey: "thread-1", idempotencyKey: `k1-${round}`, payload: { n: 1 } });
    worker.start();
    await firstClaimed;
    // Queued behind the running job: one job of the same thread, one of another thread of the user.
    await queue.enqueue({ queue: "q", scope, groupKey: "thread-1", idempotencyKey: `k2-${round}`, payload: { n: 2 }, debounceMs: 60_000 });
    await queue.enqueue({ queue: "q", scope, groupKey: "thread-2", idempotencyKey: `k3-${round}`, payload: { n: 3 }, debounceMs: 60_000 });
    const draining = worker.drain();
    // Let the drain run as far as it can before the first job may finish.
    await new Promise((r) => setTimeout(r, 100));
    release();
    const result = await draining;
    const states = (await queue.list(scope)).map((j) => j.state);
    await worker.stop();
    expect({ states, done: [...done].sort() }).toEqual({ states: ["done", "done", "done"], done: ["1", "2", "3"] });
    expect(result.completed).toBe(3);
  });
});
