/**
 * Fault: an extraction worker is SIGKILLed mid-extraction, several times, while it works through
 * a queue of real extraction jobs (server Postgres; the worker is a child process running the
 * real handler with the offline rules, its store slowed down so a job spends time both before and
 * after it writes). Each kill lands at another moment: before a job's memories are written, or
 * after they are written but before the job completes. A surviving worker then takes over.
 * Expected: every job whose worker died is retried once its lease expires (attempts > 1, last
 * error LEASE_EXPIRED), every job ends done, and every statement sent is stored exactly once —
 * counted against what was sent.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { join } from "node:path";
import type { Database } from "../../src/db/database.js";
import { EXTRACTION_QUEUE, createExtractionJobHandler, createScheduleExtractionNode } from "../../src/extraction/node/index.js";
import { JobQueue, JobWorker, type JobEvent } from "../../src/jobs/index.js";
import { MemoryRepository } from "../../src/store/memory-store.js";
import { openTestDatabase } from "../helpers/db.js";
import { startTsx, type Child } from "./helpers/child.js";
import { report, size } from "./helpers/sizes.js";

const URL = process.env.DATABASE_URL;
const describeServer = URL ? describe : describe.skip;
const WORKER = join(process.cwd(), "test/reliability/fixtures/slow-extraction-worker.ts");
const STEP_MS = 300;
const LEASE_MS = 1000;
/** One job per statement; each statement becomes one memory. */
const HOBBIES = ["kayaking", "pottery", "chess", "birdwatching", "origami", "calligraphy", "beekeeping", "fencing", "juggling", "astronomy", "knitting", "archery"];
const JOBS = size(8, 12);
/**
 * When each worker dies, after it printed its first "claimed": at once (before the write, during
 * the store's first step), after a job wrote its memories (before completing), or in between.
 */
const ALL_KILLS: Array<{ after: "claimed" | "wrote"; delayMs: number }> = [
  { after: "claimed", delayMs: 0 },
  { after: "wrote", delayMs: 0 },
  { after: "claimed", delayMs: STEP_MS + 100 },
  { after: "wrote", delayMs: 50 },
];
const KILLS = ALL_KILLS.slice(0, size(3, 4));

describeServer("an extraction worker killed (SIGKILL) mid-extraction, again and again", () => {
  let db: Database;
  let store: MemoryRepository;
  let queue: JobQueue;
  const children: Child[] = [];
  const user = { tenantId: "kill-co", userId: "worker-kill" };

  beforeAll(async () => {
    db = await openTestDatabase("postgres");
    store = new MemoryRepository(db);
    queue = new JobQueue(db);
  });
  afterAll(async () => {
    for (const c of children) if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill("SIGKILL");
    await db?.close();
  });

  it(`${KILLS.length} workers killed at different moments of a job: each interrupted job is retried after its lease, each memory stored once`, async () => {
    const schedule = createScheduleExtractionNode({ store, debounceMs: 0 });
    const sent = HOBBIES.slice(0, JOBS);
    for (const [i, hobby] of sent.entries()) {
      await schedule(
        { messages: [new HumanMessage({ id: `wk-${i}-u`, content: `I like ${hobby}.` }), new AIMessage({ id: `wk-${i}-a`, content: "Noted." })] },
        { configurable: { thread_id: `wk-${i}`, tenant_id: user.tenantId, user_id: user.userId } },
      );
    }
    const jobIds = (await queue.list(user, { limit: 100 })).map((j) => j.id);
    expect(jobIds).toHaveLength(JOBS);

    // The doomed workers: each killed at its moment; what it claimed and did not complete was interrupted.
    const interrupted = new Set<number>();
    const moments: Array<{ kill: string; claimed: number; wrote: number; completed: number; interrupted: number }> = [];
    for (const [k, kill] of KILLS.entries()) {
      const doomed = startTsx(WORKER, [], { WORKER_SCHEMA: db.schema, WORKER_ID: `doomed-${k}`, WORKER_LEASE_MS: String(LEASE_MS), WORKER_STEP_MS: String(STEP_MS) });
      children.push(doomed);
      await doomed.waitFor((l) => l.startsWith(`${kill.after} `));
      if (kill.delayMs > 0) await new Promise((r) => setTimeout(r, kill.delayMs));
      doomed.child.kill("SIGKILL");
      expect(await doomed.exited).toEqual({ code: null, signal: "SIGKILL" });
      const lines = doomed.lines();
      const claimed = lines.filter((l) => l.startsWith("claimed ")).map((l) => Number(l.split(" ")[1]));
      const completed = new Set(lines.filter((l) => l.startsWith("completed ")).map((l) => Number(l.split(" ")[1])));
      const cut = claimed.filter((id) => !completed.has(id));
      for (const id of cut) interrupted.add(id);
      moments.push({ kill: `${kill.after}+${kill.delayMs}ms`, claimed: claimed.length, wrote: lines.filter((l) => l.startsWith("wrote ")).length, completed: completed.size, interrupted: cut.length });
    }
    // Not vacuous: every kill interrupted a running job (one of them after a write).
    expect(moments.filter((m) => m.interrupted === 0)).toEqual([]);
    expect(moments.some((m) => m.wrote > m.completed)).toBe(true);
    const running = await Promise.all([...interrupted].map((id) => queue.get(id)));
    expect(running.filter((j) => j?.state === "running").length).toBeGreaterThan(0);

    // The survivor: completes everything, retrying the interrupted jobs once their leases expire.
    const events: JobEvent[] = [];
    const survivor = new JobWorker(db, {
      workerId: "survivor",
      concurrency: 2,
      pollIntervalMs: 100,
      leaseMs: 10_000,
      onEvent: (e) => void (e.type !== "idle" && events.push(e)),
      handlers: { [EXTRACTION_QUEUE]: createExtractionJobHandler({ store }) },
    });
    survivor.start();
    try {
      for (let i = 0; i < 600; i++) {
        const jobs = await Promise.all(jobIds.map((id) => queue.get(id)));
        if (jobs.every((j) => j?.state === "done")) break;
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      await survivor.stop({ timeoutMs: 10_000 });
    }
    const jobs = await Promise.all(jobIds.map((id) => queue.get(id)));
    expect(jobs.map((j) => [j?.id, j?.state])).toEqual(jobIds.map((id) => [id, "done"]));
    expect(events.filter((e) => e.type === "failed" || e.type === "error")).toEqual([]);
    for (const id of interrupted) {
      const job = jobs.find((j) => j?.id === id)!;
      expect({ id, attempts: job.attempts > 1, lastError: job.lastError?.code }).toEqual({ id, attempts: true, lastError: "LEASE_EXPIRED" });
    }

    // Every statement sent is stored exactly once, and nothing else.
    const { rows } = await db.query<{ text: string; n: number }>(
      "SELECT text, count(*)::int AS n FROM memories WHERE tenant_id = $1 AND user_id = $2 GROUP BY text ORDER BY text",
      [user.tenantId, user.userId],
    );
    expect(rows).toEqual(sent.map((h) => ({ text: `User likes ${h}.`, n: 1 })).sort((a, b) => (a.text < b.text ? -1 : 1)));

    report("worker SIGKILL mid-extraction", {
      kills: KILLS.length,
      jobs: JOBS,
      interruptedJobs: interrupted.size,
      workers: moments,
      retriedBySurvivor: events.filter((e) => e.type === "claimed" && e.attempts > 1).length,
      memories: rows.length,
      duplicates: rows.filter((r) => r.n > 1).length,
    });
  }, 180_000);
});
