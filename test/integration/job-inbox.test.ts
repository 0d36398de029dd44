import type { Database } from "../../src/db/database.js";
import { deleteUserJobsIn } from "../../src/controls/user-data.js";
import { ErrorCodes, isMemoryError } from "../../src/errors.js";
import { JobQueue, JobWorker, ManualClock, type Job } from "../../src/jobs/index.js";
import { openDatabase } from "../../src/db/open.js";
import { openTestDatabase, testEngines } from "../helpers/db.js";

const alice = { tenantId: "acme", userId: "alice" };
const bob = { tenantId: "acme", userId: "bob" };
const QUEUE = "inbox-test";

const turn = (group: string, n: number) => ({
  queue: QUEUE,
  scope: alice,
  groupKey: group,
  idempotencyKey: `${group}:m${n}`,
  payload: { threadId: group, lastMessageId: `m${n}`, messages: [{ id: `m${n}`, text: `turn ${n}` }] },
  debounceMs: 5_000,
  maxWaitMs: 60_000,
});

/** What a job looks like once the group name is taken out (to compare two groups' jobs). */
const shape = (job: Job) => ({
  state: job.state,
  mergedKeys: job.mergedKeys.map((k) => k.split(":")[1]),
  messages: (job.payload.messages as Array<{ id: string }>).map((m) => m.id),
  runAfter: job.runAfter.toISOString(),
  createdAt: job.createdAt.toISOString(),
  maxAttempts: job.maxAttempts,
});

describe.each(testEngines())("the job inbox (submit, then fold) on %s", (engine) => {
  let db: Database;
  let clock: ManualClock;
  let jobs: JobQueue;

  beforeAll(async () => {
    db = await openTestDatabase(engine);
  });
  afterAll(async () => {
    await db.close();
  });
  beforeEach(async () => {
    await db.query("DELETE FROM memory_jobs_inbox");
    await db.query("DELETE FROM memory_jobs");
    clock = new ManualClock();
    jobs = new JobQueue(db, { clock, notify: false });
  });
  const inboxCount = async () => (await db.query<{ n: number }>("SELECT count(*)::int AS n FROM memory_jobs_inbox")).rows[0].n;
  const jobsOf = async (group: string) => (await jobs.list(alice, { queue: QUEUE, groupKey: group })).sort((a, b) => a.id - b.id);

  it("a submitted burst becomes the same job enqueue makes at the same moments", async () => {
    for (let n = 1; n <= 4; n++) {
      await jobs.submit(turn("submitted", n));
      await jobs.enqueue(turn("enqueued", n));
      clock.advance(1_000);
    }
    // A repeat of a key already submitted (a retried request) changes nothing.
    await jobs.submit(turn("submitted", 2));
    await jobs.enqueue(turn("enqueued", 2));
    expect(await inboxCount()).toBe(5);
    expect(await db.query("SELECT 1 FROM memory_jobs WHERE group_key = 'submitted'")).toMatchObject({ rowCount: 0 });

    expect(await jobs.foldInbox()).toBe(5);
    expect(await inboxCount()).toBe(0);
    const [submitted] = await jobsOf("submitted");
    const [enqueued] = await jobsOf("enqueued");
    expect(shape(submitted)).toEqual(shape(enqueued));
    expect(shape(submitted)).toMatchObject({ state: "pending", mergedKeys: ["m1", "m2", "m3", "m4"], messages: ["m1", "m2", "m3", "m4"] });
    // Due debounceMs after the last turn, by the queue's clock at submit (not at fold).
    expect(submitted.runAfter.getTime() - submitted.createdAt.getTime()).toBe(3_000 + 5_000);
    expect(await jobs.foldInbox()).toBe(0);
  });

  it("a key whose job is already done is skipped at fold, as enqueue skips it", async () => {
    await jobs.submit(turn("t", 1));
    const job = await jobs.claim(QUEUE, "w1", { leaseMs: 60_000, ignoreRunAfter: true });
    expect(job?.mergedKeys).toEqual(["t:m1"]);
    await jobs.complete(job!);
    await jobs.submit(turn("t", 1));
    await jobs.submit(turn("t", 2));
    expect(await jobs.foldInbox()).toBe(2);
    const all = await jobsOf("t");
    expect(all.map((j) => [j.state, j.mergedKeys])).toEqual([
      ["done", ["t:m1"]],
      ["pending", ["t:m2"]],
    ]);
  });

  it("claims fold first, and the next due time counts submitted work", async () => {
    await jobs.submit(turn("due", 1));
    expect(await jobs.nextDueInMs([QUEUE])).toBe(5_000);
    expect(await jobs.nextDueInMs(["other-queue"])).toBeNull();
    // Not due yet: the claim folds, then finds nothing due.
    expect(await jobs.claim(QUEUE, "w1", { leaseMs: 60_000 })).toBeNull();
    expect(await inboxCount()).toBe(0);
    clock.advance(5_000);
    expect(await jobs.claim(QUEUE, "w1", { leaseMs: 60_000 })).toMatchObject({ groupKey: "due", state: "running" });
  });

  it("a worker's drain processes submitted work", async () => {
    const seen: string[] = [];
    for (let n = 1; n <= 3; n++) await jobs.submit(turn("drained", n));
    const worker = new JobWorker(db, {
      clock,
      notify: false,
      concurrency: 1,
      handlers: { [QUEUE]: async (job) => void seen.push(...(job.payload.messages as Array<{ id: string }>).map((m) => m.id)) },
    });
    expect(await worker.drain()).toMatchObject({ completed: 1, failed: 0 });
    expect(seen).toEqual(["m1", "m2", "m3"]);
  });

  it("bad input is refused with a typed error and nothing is stored", async () => {
    const bad = [
      { ...turn("bad", 1), payload: [1, 2] as unknown as Record<string, unknown> },
      { ...turn("bad", 1), groupKey: "" },
      { ...turn("bad", 1), maxAttempts: 0 },
      { ...turn("bad", 1), debounceMs: 10_000, maxWaitMs: 5_000 },
    ];
    for (const input of bad) {
      const err = await jobs.submit(input).catch((e: unknown) => e);
      expect(isMemoryError(err, ErrorCodes.INVALID_INPUT)).toBe(true);
    }
    expect(await inboxCount()).toBe(0);
  });

  it("erasing a user deletes their submitted work and their jobs, and nobody else's", async () => {
    await jobs.submit(turn("a", 1));
    await jobs.enqueue(turn("a2", 1));
    await jobs.submit({ ...turn("b", 1), scope: bob });
    const deleted = await db.transaction((tx) => deleteUserJobsIn(tx, alice), { scope: alice });
    expect(deleted).toBe(2);
    expect((await db.query<{ user_id: string }>("SELECT user_id FROM memory_jobs_inbox")).rows).toEqual([{ user_id: "bob" }]);
    await jobs.foldInbox();
    expect(await jobs.list(alice)).toEqual([]);
    expect((await jobs.list(bob)).map((j) => j.groupKey)).toEqual(["b"]);
  });
});

describe("the job inbox on PGlite, which runs no autovacuum", () => {
  it("is vacuumed by the folds every vacuumEveryRows rows, so a turn's insert and delete do not grow it for good", async () => {
    const db = await openTestDatabase("pglite");
    try {
      const size = async () => (await db.query<{ n: number }>("SELECT pg_relation_size('memory_jobs_inbox')::int AS n")).rows[0].n;
      const churn = async (queue: JobQueue, from: number) => {
        for (let k = from; k < from + 1_200; k++) {
          await queue.submit({ queue: QUEUE, scope: alice, groupKey: `g${k % 30}`, idempotencyKey: `k${k}`, payload: { messages: [{ id: `m${k}`, text: "a turn of ordinary length for a chat message" }] } });
          if (k % 20 === 19) await queue.foldInbox();
        }
      };
      await churn(new JobQueue(db, { notify: false, vacuumEveryRows: 0 }), 0);
      const unvacuumed = await size();
      await db.exec("VACUUM memory_jobs_inbox");
      expect(await size()).toBeLessThan(unvacuumed / 4);
      await churn(new JobQueue(db, { notify: false, vacuumEveryRows: 400 }), 10_000);
      expect(await size()).toBeLessThan(unvacuumed / 4);
      expect(() => new JobQueue(db, { vacuumEveryRows: -1 })).toThrow(/vacuumEveryRows/);
    } finally {
      await db.close();
    }
  });
});

const serverUrl = process.env.DATABASE_URL;
(serverUrl ? describe : describe.skip)("the job inbox under concurrent folds (server Postgres)", () => {
  it("two folders at once fold every row exactly once, each group's turns in submission order", async () => {
    const db = await openTestDatabase("postgres");
    // A second handle on the same schema: its own pool, as another worker process would have.
    const other = await openDatabase(serverUrl!, { schema: db.schema });
    try {
      const a = new JobQueue(db, { notify: false });
      const b = new JobQueue(other, { notify: false });
      const groups = 10;
      const turns = 30;
      for (let n = 1; n <= turns; n++) {
        for (let g = 0; g < groups; g++) {
          await a.submit({ queue: QUEUE, scope: alice, groupKey: `g${g}`, idempotencyKey: `g${g}:m${n}`, payload: { messages: [{ id: `m${n}` }] }, debounceMs: 60_000 });
        }
      }
      const folded = await Promise.all([a.foldInbox(), b.foldInbox(), a.foldInbox(), b.foldInbox()]);
      expect(folded.reduce((x, y) => x + y, 0)).toBe(groups * turns);
      const all = await a.list(alice, { queue: QUEUE, limit: 1_000 });
      expect(all).toHaveLength(groups);
      const expected = Array.from({ length: turns }, (_, i) => `m${i + 1}`);
      for (const job of all) {
        expect((job.payload.messages as Array<{ id: string }>).map((m) => m.id)).toEqual(expected);
        expect(job.mergedKeys).toEqual(expected.map((m) => `${job.groupKey}:${m}`));
      }
    } finally {
      await other.close();
      await db.close();
    }
  });
});
