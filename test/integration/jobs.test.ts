import type { Database } from "../../src/db/database.js";
import { openDatabase } from "../../src/db/open.js";
import { JobQueue, JobWorker, ManualClock, backoffDelayMs, runWorker, type ClaimedJob, type JobContext, type JobEvent } from "../../src/jobs/index.js";
import { openTestDatabase, testEngines } from "../helpers/db.js";

const alice = { tenantId: "acme", userId: "alice" };
const bob = { tenantId: "acme", userId: "bob" };

interface Message {
  id: string;
  role: string;
  content: string;
}
interface TurnPayload {
  [key: string]: unknown;
  threadId: string;
  lastMessageId: string;
  messages: Message[];
}

function turn(threadId: string, n: number, content = `turn ${n} text`): TurnPayload {
  return { threadId, lastMessageId: `m${n}`, messages: [{ id: `m${n}`, role: "user", content }] };
}

/** Resolves when `predicate` holds, checking after every event (no sleeping on wall-clock time). */
function eventsUntil(events: JobEvent[], predicate: (events: JobEvent[]) => boolean): { push: (e: JobEvent) => void; reached: Promise<void> } {
  let resolve!: () => void;
  const reached = new Promise<void>((r) => (resolve = r));
  return {
    push(e) {
      events.push(e);
      if (predicate(events)) resolve();
    },
    reached,
  };
}

describe.each(testEngines())("job queue on %s", (engine) => {
  let db: Database;
  let jobs: JobQueue;

  beforeAll(async () => {
    db = await openTestDatabase(engine);
    jobs = new JobQueue(db);
    await db.query("CREATE TABLE job_effects (idempotency_key text NOT NULL, job_id bigint NOT NULL, worker text NOT NULL)");
  });
  afterAll(async () => {
    await db.close();
  });
  afterEach(async () => {
    await db.query("DELETE FROM memory_jobs_inbox");
    await db.query("DELETE FROM memory_jobs");
    await db.query("DELETE FROM job_effects");
  });

  describe("enqueue", () => {
    it("merges a burst of turns into one pending job carrying every message, newest key and scalars", async () => {
      const results = [];
      for (let n = 1; n <= 4; n++) {
        results.push(await jobs.enqueue({ queue: "extract", scope: alice, groupKey: "t1", idempotencyKey: `t1:m${n}`, payload: turn("t1", n), debounceMs: 5_000 }));
      }
      expect(results.map((r) => r.outcome)).toEqual(["inserted", "merged", "merged", "merged"]);
      expect(new Set(results.map((r) => r.jobId)).size).toBe(1);
      const job = await jobs.get<TurnPayload>(results[0].jobId!);
      expect(job).toMatchObject({ state: "pending", groupKey: "t1", idempotencyKey: "t1:m4", mergedKeys: ["t1:m1", "t1:m2", "t1:m3", "t1:m4"], attempts: 0 });
      expect(job!.payload.messages.map((m) => m.id)).toEqual(["m1", "m2", "m3", "m4"]);
      expect(job!.payload.lastMessageId).toBe("m4");
      // Each merge pushed run_after: the job is due a debounce after the last turn.
      expect(results[3].runAfter!.getTime()).toBeGreaterThanOrEqual(results[0].runAfter!.getTime());
      expect(job!.runAfter.getTime() - job!.updatedAt.getTime()).toBe(5_000);
      // Other groups and other users get their own jobs.
      const other = await jobs.enqueue({ queue: "extract", scope: alice, groupKey: "t2", idempotencyKey: "t2:m1", payload: turn("t2", 1) });
      const bobs = await jobs.enqueue({ queue: "extract", scope: bob, groupKey: "t1", idempotencyKey: "t1:m1", payload: turn("t1", 1) });
      expect([other.outcome, bobs.outcome]).toEqual(["inserted", "inserted"]);
      expect(new Set([results[0].jobId, other.jobId, bobs.jobId]).size).toBe(3);
    });

    it("pushes run_after by the debounce on every merge but never past created + maxWait", async () => {
      const clock = new ManualClock();
      const q = new JobQueue(db, { clock });
      const t0 = clock.now().getTime();
      const enqueue = (n: number) => q.enqueue({ queue: "extract", scope: alice, groupKey: "t1", idempotencyKey: `t1:m${n}`, payload: turn("t1", n), debounceMs: 5_000, maxWaitMs: 8_000 });
      expect((await enqueue(1)).runAfter!.getTime()).toBe(t0 + 5_000);
      clock.advance(2_000);
      expect((await enqueue(2)).runAfter!.getTime()).toBe(t0 + 7_000);
      clock.advance(2_000);
      expect((await enqueue(3)).runAfter!.getTime()).toBe(t0 + 8_000);
    });

    it("combines payloads with the named strategy: append, replace or keep", async () => {
      const payloads = [
        { messages: [{ id: "a" }], note: "first", tags: ["x"], only_first: 1 },
        { messages: [{ id: "b" }], note: "second", tags: "not-an-array", only_second: 2 },
      ];
      const outcome = async (merge: "append" | "replace" | "keep", group: string) => {
        let id = 0;
        for (const [i, payload] of payloads.entries()) {
          id = (await jobs.enqueue({ queue: "merge", scope: alice, groupKey: group, idempotencyKey: `${group}:${i}`, payload, merge })).jobId!;
        }
        return (await jobs.get(id))!.payload;
      };
      expect(await outcome("append", "g-append")).toEqual({ messages: [{ id: "a" }, { id: "b" }], note: "second", tags: "not-an-array", only_first: 1, only_second: 2 });
      expect(await outcome("replace", "g-replace")).toEqual(payloads[1]);
      expect(await outcome("keep", "g-keep")).toEqual(payloads[0]);
    });

    it("memory_jobs_merge equals the set-based definition of append, replace and keep, nulls included", async () => {
      // The definition in SQL terms (what merge-strategies.ts documents): the full outer join of
      // both payloads' keys, arrays present on both sides concatenated, else the newer value.
      const reference = `SELECT CASE $1::text WHEN 'replace' THEN $3::jsonb WHEN 'keep' THEN $2::jsonb ELSE (
          SELECT COALESCE(jsonb_object_agg(COALESCE(n.key, o.key),
            CASE WHEN jsonb_typeof(o.value) = 'array' AND jsonb_typeof(n.value) = 'array' THEN o.value || n.value
                 ELSE COALESCE(n.value, o.value) END), '{}'::jsonb)
          FROM jsonb_each($2::jsonb) o FULL JOIN jsonb_each($3::jsonb) n ON n.key = o.key) END AS merged`;
      const payloads: Array<string | null> = [
        null,
        "{}",
        '{"messages":[{"id":"a"}],"v":1,"threadId":"t1"}',
        '{"messages":[{"id":"b"},{"id":"c"}],"v":2,"threadId":"t1"}',
        '{"messages":"not-an-array","tags":["x"],"only_older":null}',
        '{"tags":["y",{"z":[1]}],"messages":[],"":[0],"a,b":[1],"{k}":[2],"nested":{"messages":[9]}}',
        '{"":[1],"a,b":[2],"{k}":[3],"nested":{"messages":[8]},"tags":null}',
      ];
      for (const strategy of ["append", "replace", "keep", null]) {
        for (const older of payloads) {
          for (const newer of payloads) {
            const params = [strategy, older, newer];
            const expected = (await db.query<{ merged: unknown }>(reference, params)).rows[0].merged;
            const actual = (await db.query<{ merged: unknown }>("SELECT memory_jobs_merge($1::text, $2::jsonb, $3::jsonb) AS merged", params)).rows[0].merged;
            expect({ strategy, older, newer, merged: actual }).toEqual({ strategy, older, newer, merged: expected });
          }
        }
      }
      // Non-object payloads cannot be appended (the table only ever holds objects).
      await expect(db.query("SELECT memory_jobs_merge('append', '[1]'::jsonb, '{}'::jsonb)")).rejects.toThrow(/JSON objects/);
      await expect(db.query("SELECT memory_jobs_merge('append', '{}'::jsonb, '[1]'::jsonb)")).rejects.toThrow(/JSON objects/);
    });

    it("skips a key already queued, running or done, and re-queues it after a permanent failure", async () => {
      const enqueue = (n: number) => jobs.enqueue({ queue: "extract", scope: alice, groupKey: "t1", idempotencyKey: `t1:m${n}`, payload: turn("t1", n) });
      const first = await enqueue(1);
      await enqueue(2);
      // Queued (even when it is not the newest key of the pending job): no duplicate messages.
      expect(await enqueue(1)).toEqual({ outcome: "skipped", jobId: null, runAfter: null });
      const running = await jobs.claim("extract", "w1", { leaseMs: 60_000 });
      expect(running!.id).toBe(first.jobId);
      expect((await enqueue(2)).outcome).toBe("skipped");
      await jobs.complete(running!);
      expect((await enqueue(1)).outcome).toBe("skipped");
      expect((await enqueue(2)).outcome).toBe("skipped");
      const done = await jobs.get(first.jobId!);
      expect(done).toMatchObject({ state: "done", payload: {} });
      expect(done!.finishedAt).toBeInstanceOf(Date);
      // A new turn is new work.
      const third = await enqueue(3);
      expect(third.outcome).toBe("inserted");
      const job3 = await jobs.claim("extract", "w1", { leaseMs: 60_000 });
      await jobs.fail(job3!, new Error("boom"), { permanent: true });
      expect((await jobs.get(third.jobId!))!.state).toBe("failed");
      expect((await enqueue(3)).outcome).toBe("inserted");
    });

    it("enqueues inside the caller's transaction: a rollback leaves no job", async () => {
      const input = { queue: "extract", scope: alice, groupKey: "t1", idempotencyKey: "t1:m1", payload: turn("t1", 1) };
      const rollback = new Error("rollback");
      await expect(
        db.transaction(async (tx) => {
          expect((await jobs.enqueue(input, { tx })).outcome).toBe("inserted");
          throw rollback;
        }),
      ).rejects.toBe(rollback);
      expect(await jobs.list(alice)).toEqual([]);
      await db.transaction(async (tx) => jobs.enqueue(input, { tx }));
      expect((await jobs.list(alice)).map((j) => j.idempotencyKey)).toEqual(["t1:m1"]);
    });

    it("refuses bad input with typed errors and stores nothing", async () => {
      const base = { queue: "extract", scope: alice, groupKey: "t1", idempotencyKey: "t1:m1", payload: turn("t1", 1) };
      await expect(jobs.enqueue({ ...base, scope: { tenantId: "acme" } as never })).rejects.toMatchObject({ code: "SCOPE_REQUIRED" });
      await expect(jobs.enqueue({ ...base, scope: { tenantId: "", userId: "alice" } })).rejects.toMatchObject({ code: "SCOPE_REQUIRED" });
      await expect(jobs.enqueue({ ...base, merge: "union" as never })).rejects.toMatchObject({ code: "INVALID_INPUT", details: { field: "merge" } });
      await expect(jobs.enqueue({ ...base, payload: [1, 2] as never })).rejects.toMatchObject({ code: "INVALID_INPUT", details: { field: "payload" } });
      await expect(jobs.enqueue({ ...base, debounceMs: -1 })).rejects.toMatchObject({ code: "INVALID_INPUT", details: { field: "debounceMs" } });
      await expect(jobs.enqueue({ ...base, groupKey: "" })).rejects.toMatchObject({ code: "INVALID_INPUT", details: { field: "groupKey" } });
      await expect(jobs.enqueue({ ...base, maxAttempts: 0 })).rejects.toMatchObject({ code: "INVALID_INPUT", details: { field: "maxAttempts" } });
      expect((await db.query("SELECT count(*)::int AS n FROM memory_jobs")).rows[0]).toEqual({ n: 0 });
    });
  });

  describe("claim, complete, fail", () => {
    it("claims only due jobs, oldest first, and drain ignores the debounce", async () => {
      const clock = new ManualClock();
      const q = new JobQueue(db, { clock });
      await q.enqueue({ queue: "extract", scope: alice, groupKey: "late", idempotencyKey: "late:1", payload: turn("late", 1), debounceMs: 10_000 });
      await q.enqueue({ queue: "extract", scope: alice, groupKey: "soon", idempotencyKey: "soon:1", payload: turn("soon", 1), debounceMs: 1_000 });
      expect(await q.claim("extract", "w1", { leaseMs: 60_000 })).toBeNull();
      clock.advance(1_000);
      const soon = await q.claim("extract", "w1", { leaseMs: 60_000 });
      expect(soon).toMatchObject({ groupKey: "soon", state: "running", attempts: 1, lockedBy: "w1" });
      expect(soon!.lockedUntil.getTime()).toBe(clock.now().getTime() + 60_000);
      expect(await q.claim("extract", "w1", { leaseMs: 60_000 })).toBeNull();
      await q.complete(soon!);

      const handled: string[] = [];
      const worker = new JobWorker(db, { clock, handlers: { extract: async (job) => void handled.push(job.groupKey) } });
      expect(await worker.drain()).toEqual({ completed: 1, retried: 0, failed: 0, leaseLost: 0 });
      expect(handled).toEqual(["late"]);
      expect(await worker.drain()).toEqual({ completed: 0, retried: 0, failed: 0, leaseLost: 0 });
    });

    it("runs one job per group at a time: a group's next job waits for the running one", async () => {
      await jobs.enqueue({ queue: "extract", scope: alice, groupKey: "t1", idempotencyKey: "t1:m1", payload: turn("t1", 1) });
      const first = await jobs.claim("extract", "w1", { leaseMs: 60_000 });
      await jobs.enqueue({ queue: "extract", scope: alice, groupKey: "t1", idempotencyKey: "t1:m2", payload: turn("t1", 2) });
      await jobs.enqueue({ queue: "extract", scope: alice, groupKey: "t2", idempotencyKey: "t2:m1", payload: turn("t2", 1) });
      const other = await jobs.claim("extract", "w2", { leaseMs: 60_000 });
      expect(other!.groupKey).toBe("t2");
      expect(await jobs.claim("extract", "w2", { leaseMs: 60_000 })).toBeNull();
      await jobs.complete(first!);
      const next = await jobs.claim("extract", "w2", { leaseMs: 60_000 });
      expect(next).toMatchObject({ groupKey: "t1", idempotencyKey: "t1:m2" });
    });

    it("retries with an increasing, capped backoff, then fails with the error code and no payload text", async () => {
      const clock = new ManualClock();
      const backoff = { baseMs: 1_000, factor: 2, maxMs: 5_000, jitter: 0.2 };
      const q = new JobQueue(db, { clock, backoff, random: () => 0.5 });
      const secret = "My neighbour Ingrid Halvorsen lives at Birkelunden 7";
      const { jobId } = await q.enqueue({ queue: "extract", scope: alice, groupKey: "t1", idempotencyKey: "t1:m1", payload: turn("t1", 1, secret), maxAttempts: 5 });
      const delays: number[] = [];
      for (let attempt = 1; attempt <= 5; attempt++) {
        const job = await q.claim("extract", "w1", { leaseMs: 60_000 });
        expect(job).toMatchObject({ id: jobId, attempts: attempt });
        const err = Object.assign(new Error(`could not parse "${secret}"\nstack-like second line ${secret}`), { code: "PARSE_FAILED" });
        const failedAt = clock.now().getTime();
        const r = await q.fail(job!, err);
        if (attempt < 5) {
          expect(r.state).toBe("pending");
          delays.push(r.runAfter.getTime() - failedAt);
          expect(await q.claim("extract", "w1", { leaseMs: 60_000 })).toBeNull(); // not before the backoff
          clock.advance(r.runAfter.getTime() - failedAt);
        } else {
          expect(r.state).toBe("failed");
        }
      }
      // 1 s, 2 s, 4 s, then the 5 s cap; each × (1 − 0.2 · 0.5).
      expect(delays).toEqual([1_000, 2_000, 4_000, 5_000].map((d) => d * 0.9));
      expect(delays).toEqual([...delays].sort((a, b) => a - b));
      expect(delays).toEqual([1, 2, 3, 4].map((a) => backoffDelayMs(a, backoff, () => 0.5)));
      const failed = await q.get(jobId!);
      expect(failed).toMatchObject({ state: "failed", attempts: 5, lastError: { code: "PARSE_FAILED" }, lockedBy: null });
      expect(failed!.finishedAt).toBeInstanceOf(Date);
      const stored = (await db.query<{ last_error_code: string; last_error_message: string }>("SELECT last_error_code, last_error_message FROM memory_jobs WHERE id = $1", [jobId])).rows[0];
      for (const word of ["Ingrid", "Halvorsen", "Birkelunden", "neighbour", "lives"]) {
        expect(stored.last_error_message).not.toContain(word);
      }
      expect(stored.last_error_message).toMatch(/^could not parse/);
    });

    it("records a database error by SQLSTATE only (driver messages can quote row values)", async () => {
      await jobs.enqueue({ queue: "extract", scope: alice, groupKey: "t1", idempotencyKey: "t1:m1", payload: turn("t1", 1), maxAttempts: 1 });
      const worker = new JobWorker(db, {
        handlers: {
          extract: async (_job, ctx) => {
            await ctx.completeWith(async (tx) => {
              await tx.query("INSERT INTO job_effects (idempotency_key, job_id, worker) VALUES ('k', 1, 'w')");
              await tx.query("SELECT 'Ingrid Halvorsen'::int");
            });
          },
        },
      });
      expect(await worker.drain()).toMatchObject({ failed: 1 });
      const [job] = await jobs.list(alice);
      expect(job.lastError).toEqual({ code: "DB_QUERY_FAILED", message: "database error (SQLSTATE 22P02)" });
      // The failed transaction kept nothing: neither the effect nor the completion.
      expect((await db.query("SELECT count(*)::int AS n FROM job_effects")).rows[0]).toEqual({ n: 0 });
    });

    it("a retry absorbs the newer pending job of its group, keeping the messages in order", async () => {
      await jobs.enqueue({ queue: "extract", scope: alice, groupKey: "t1", idempotencyKey: "t1:m1", payload: turn("t1", 1) });
      const job = await jobs.claim("extract", "w1", { leaseMs: 60_000 });
      const newer = await jobs.enqueue({ queue: "extract", scope: alice, groupKey: "t1", idempotencyKey: "t1:m2", payload: turn("t1", 2), debounceMs: 1_000 });
      expect(newer.outcome).toBe("inserted");
      const r = await jobs.fail(job!, new Error("model timeout"));
      expect(r).toMatchObject({ state: "pending", absorbedJobId: newer.jobId });
      expect(await jobs.get(newer.jobId!)).toBeNull();
      const retried = await jobs.get<TurnPayload>(job!.id);
      expect(retried).toMatchObject({ state: "pending", attempts: 1, idempotencyKey: "t1:m2", mergedKeys: ["t1:m1", "t1:m2"] });
      expect(retried!.payload.messages.map((m) => m.id)).toEqual(["m1", "m2"]);
      expect((await jobs.enqueue({ queue: "extract", scope: alice, groupKey: "t1", idempotencyKey: "t1:m2", payload: turn("t1", 2) })).outcome).toBe("skipped");
    });

    it("hands a dead worker's job to another after the lease, and the late worker can neither complete nor fail it", async () => {
      const clock = new ManualClock();
      const q = new JobQueue(db, { clock });
      const { jobId } = await q.enqueue({ queue: "extract", scope: alice, groupKey: "t1", idempotencyKey: "t1:m1", payload: turn("t1", 1) });
      const dead = await q.claim("extract", "worker-a", { leaseMs: 30_000 });
      expect(dead!.id).toBe(jobId);
      clock.advance(29_000);
      expect(await q.claim("extract", "worker-b", { leaseMs: 30_000 })).toBeNull();
      clock.advance(1_000);
      const retaken = await q.claim("extract", "worker-b", { leaseMs: 30_000 });
      expect(retaken).toMatchObject({ id: jobId, attempts: 2, lockedBy: "worker-b", lastError: { code: "LEASE_EXPIRED" } });

      const writeEffect = (job: ClaimedJob, worker: string) =>
        q.completeWith(job, (tx) => tx.query("INSERT INTO job_effects (idempotency_key, job_id, worker) VALUES ($1, $2, $3)", [job.idempotencyKey, job.id, worker]));
      // The presumed-dead worker wakes up late: its writes and completion are refused together.
      await expect(writeEffect(dead!, "worker-a")).rejects.toMatchObject({ code: "JOB_LEASE_LOST" });
      await expect(q.fail(dead!, new Error("late"))).rejects.toMatchObject({ code: "JOB_LEASE_LOST" });
      await expect(q.extendLease(dead!, 30_000)).rejects.toMatchObject({ code: "JOB_LEASE_LOST" });
      await writeEffect(retaken!, "worker-b");
      await expect(writeEffect(retaken!, "worker-b")).rejects.toMatchObject({ code: "JOB_LEASE_LOST" });
      const effects = await db.query("SELECT idempotency_key, worker FROM job_effects");
      expect(effects.rows).toEqual([{ idempotency_key: "t1:m1", worker: "worker-b" }]);
      expect((await q.get(jobId!))!.state).toBe("done");
    });

    it("fails a job whose lease expired on its last attempt instead of running it again", async () => {
      const clock = new ManualClock();
      const q = new JobQueue(db, { clock });
      const { jobId } = await q.enqueue({ queue: "extract", scope: alice, groupKey: "t1", idempotencyKey: "t1:m1", payload: turn("t1", 1), maxAttempts: 1 });
      await q.claim("extract", "worker-a", { leaseMs: 1_000 });
      clock.advance(1_000);
      expect(await q.claim("extract", "worker-b", { leaseMs: 1_000 })).toBeNull();
      expect(await q.get(jobId!)).toMatchObject({ state: "failed", attempts: 1, lastError: { code: "LEASE_EXPIRED" } });
    });

    it("purges finished jobs older than the cutoff and keeps pending and running ones", async () => {
      const clock = new ManualClock();
      const q = new JobQueue(db, { clock });
      for (const g of ["done", "failed", "running", "pending"]) {
        await q.enqueue({ queue: "extract", scope: alice, groupKey: g, idempotencyKey: `${g}:1`, payload: turn(g, 1) });
      }
      const a = await q.claim("extract", "w", { leaseMs: 600_000 });
      await q.complete(a!);
      const b = await q.claim("extract", "w", { leaseMs: 600_000 });
      await q.fail(b!, new Error("x"), { permanent: true });
      await q.claim("extract", "w", { leaseMs: 600_000 });
      clock.advance(60_000);
      expect(await q.purgeFinished({ olderThan: 120_000 })).toBe(0);
      expect(await q.purgeFinished({ olderThan: 30_000, batchSize: 1 })).toBe(2);
      const left = (await q.list(alice)).map((j) => [j.groupKey, j.state]).sort();
      expect(left).toEqual([
        ["pending", "pending"],
        ["running", "running"],
      ]);
    });
  });

  describe("workers", () => {
    it("two workers racing over many jobs never take the same job and do each exactly once", async () => {
      // On server Postgres the second worker has its own connection pool, as a second process would.
      const db2 = engine === "postgres" ? await openDatabase(process.env.DATABASE_URL, { schema: db.schema }) : db;
      try {
        const total = 120;
        for (let i = 0; i < total; i++) {
          await jobs.enqueue({ queue: "extract", scope: i % 2 ? alice : bob, groupKey: `t${i}`, idempotencyKey: `t${i}:m1`, payload: turn(`t${i}`, 1) });
        }
        const claims: Array<{ jobId: number; workerId: string }> = [];
        const onEvent = (e: JobEvent) => {
          if (e.type === "claimed") claims.push({ jobId: e.jobId, workerId: e.workerId });
        };
        const handler = async (job: ClaimedJob, ctx: JobContext, worker: string) => {
          await ctx.completeWith((tx) => tx.query("INSERT INTO job_effects (idempotency_key, job_id, worker) VALUES ($1, $2, $3)", [job.idempotencyKey, job.id, worker]));
        };
        const w1 = new JobWorker(db, { workerId: "w1", concurrency: 4, onEvent, handlers: { extract: (job, ctx) => handler(job, ctx, "w1") } });
        const w2 = new JobWorker(db2, { workerId: "w2", concurrency: 4, onEvent, handlers: { extract: (job, ctx) => handler(job, ctx, "w2") } });
        const [r1, r2] = await Promise.all([w1.drain(), w2.drain()]);
        expect(r1.completed + r2.completed).toBe(total);
        expect(r1.failed + r2.failed + r1.leaseLost + r2.leaseLost + r1.retried + r2.retried).toBe(0);
        expect(claims).toHaveLength(total);
        expect(new Set(claims.map((c) => c.jobId)).size).toBe(total);
        const perJob = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM job_effects GROUP BY job_id");
        expect(perJob.rows).toHaveLength(total);
        expect(perJob.rows.every((r) => r.n === 1)).toBe(true);
        const states = await db.query<{ state: string; attempts: number; n: number }>("SELECT state, attempts, count(*)::int AS n FROM memory_jobs GROUP BY state, attempts");
        expect(states.rows).toEqual([{ state: "done", attempts: 1, n: total }]);
        if (engine === "postgres") {
          // Both pools really took part.
          expect(new Set(claims.map((c) => c.workerId))).toEqual(new Set(["w1", "w2"]));
        }
      } finally {
        if (db2 !== db) await db2.close();
      }
    });

    it("a started worker wakes on a local enqueue, and stop() waits for the running job", async () => {
      const events: JobEvent[] = [];
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const idle = eventsUntil([], (es) => es.some((e) => e.type === "idle"));
      const started = eventsUntil(events, (es) => es.some((e) => e.type === "claimed"));
      const order: string[] = [];
      const worker = new JobWorker(db, {
        pollIntervalMs: 60_000, // only the wake-up can get the job claimed during this test
        onEvent: (e) => (e.type === "idle" ? idle.push(e) : started.push(e)),
        handlers: {
          extract: async (_job, ctx) => {
            await gate;
            await ctx.completeWith((tx) => tx.query("INSERT INTO job_effects VALUES ('t1:m1', 0, 'loop')"));
            order.push("handler finished");
          },
        },
      });
      worker.start();
      await idle.reached; // asleep for a minute: only the wake-up can bring the job in
      await jobs.enqueue({ queue: "extract", scope: alice, groupKey: "t1", idempotencyKey: "t1:m1", payload: turn("t1", 1) });
      await started.reached;
      const stopped = worker.stop().then(() => order.push("stop resolved"));
      release();
      await stopped;
      expect(order).toEqual(["handler finished", "stop resolved"]);
      expect(events.map((e) => e.type)).toEqual(["claimed", "completed"]);
      expect((await jobs.list(alice))[0].state).toBe("done");
      expect(worker.running).toBe(false);
    });

    it("renews the lease while a long handler runs", async () => {
      const { jobId } = await jobs.enqueue({ queue: "extract", scope: alice, groupKey: "t1", idempotencyKey: "t1:m1", payload: turn("t1", 1) });
      const worker = new JobWorker(db, {
        leaseMs: 3_000,
        heartbeatMs: 50,
        handlers: {
          extract: async (job) => {
            const first = job.lockedUntil.getTime();
            // Wait for two renewals: each moves locked_until forward.
            for (let seen = 0, last = first; seen < 2; ) {
              await new Promise((r) => setTimeout(r, 20));
              const now = (await jobs.get(job.id))!.lockedUntil!.getTime();
              if (now > last) {
                seen++;
                last = now;
              }
            }
            expect(job.lockedUntil.getTime()).toBeGreaterThan(first);
          },
        },
      });
      expect(await worker.drain()).toMatchObject({ completed: 1 });
      expect((await jobs.get(jobId!))!.state).toBe("done");
    });

    it("runWorker stops gracefully on its abort signal", async () => {
      const controller = new AbortController();
      const handled: number[] = [];
      const events: JobEvent[] = [];
      const done = eventsUntil(events, (es) => es.some((e) => e.type === "completed"));
      done.reached.then(() => controller.abort());
      await jobs.enqueue({ queue: "extract", scope: alice, groupKey: "t1", idempotencyKey: "t1:m1", payload: turn("t1", 1) });
      await runWorker({ db, abortSignal: controller.signal, signals: [], onEvent: done.push, handlers: { extract: async (job) => void handled.push(job.id) } });
      expect(handled).toHaveLength(1);
      expect((await jobs.list(alice))[0].state).toBe("done");
    });

    if (engine === "postgres") {
      it("wakes a worker of another pool through LISTEN/NOTIFY", async () => {
        const db2 = await openDatabase(process.env.DATABASE_URL, { schema: db.schema });
        const events: JobEvent[] = [];
        const completed = eventsUntil(events, (es) => es.some((e) => e.type === "completed"));
        const idle = eventsUntil([], (es) => es.some((e) => e.type === "idle" && e.listening));
        const worker = new JobWorker(db2, {
          pollIntervalMs: 120_000,
          onEvent: (e) => (e.type === "idle" ? idle.push(e) : completed.push(e)),
          handlers: { extract: async () => undefined },
        });
        try {
          worker.start();
          // Asleep for two minutes with LISTEN in place; db2 shares no in-process emitter with db.
          await idle.reached;
          await jobs.enqueue({ queue: "extract", scope: alice, groupKey: "t1", idempotencyKey: "t1:m1", payload: turn("t1", 1) });
          await completed.reached;
          expect((await jobs.list(alice))[0].state).toBe("done");
        } finally {
          await worker.stop();
          await db2.close();
        }
      });
    }
  });
});
