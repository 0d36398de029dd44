/**
 * Background extraction on both engines: two workers never take the same job, a job that fails
 * after part of its writes is retried and every memory is written once, and
 * `langgraph-memory worker --drain` processes a queue in its own process (PGlite folder).
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import type { Database } from "../../src/db/database.js";
import { openDatabase } from "../../src/db/open.js";
import { EXTRACTION_QUEUE, createExtractionJobHandler, createScheduleExtractionNode } from "../../src/extraction/node/index.js";
import type { WriteReport } from "../../src/extraction/write/index.js";
import { JobQueue, JobWorker, type JobEvent, type JobHandler } from "../../src/jobs/index.js";
import { MemoryRepository } from "../../src/store/memory-store.js";
import type { MemoryScope } from "../../src/core/scope.js";
import type { Memory, NewMemory } from "../../src/store/types.js";
import { openTestDatabase, testEngines } from "../helpers/db.js";

const run = promisify(execFile);
let seq = 0;

/** A store whose writes fail once, after `failAfter` successful adds (a worker dying mid-job, in-process). */
class FailingOnceStore extends MemoryRepository {
  adds = 0;
  failed = false;
  failAfter = 1;
  override async addMany(scope: MemoryScope, memories: readonly NewMemory[]): Promise<Memory[]> {
    if (!this.failed && this.adds >= this.failAfter) {
      this.failed = true;
      throw Object.assign(new Error("simulated crash in the middle of the job"), { code: "SIMULATED_CRASH" });
    }
    this.adds++;
    return super.addMany(scope, memories);
  }
}

describe.each(testEngines())("extraction workers on %s", (engine) => {
  let db: Database;
  let store: MemoryRepository;
  let queue: JobQueue;

  beforeAll(async () => {
    db = await openTestDatabase(engine);
    store = new MemoryRepository(db);
    queue = new JobQueue(db);
  });
  afterAll(async () => {
    await db.close();
  });
  afterEach(async () => {
    await db.query("DELETE FROM memory_jobs_inbox");
    await db.query("DELETE FROM memory_jobs");
  });

  /** Queue one turn through the real schedule node. */
  async function scheduleTurn(scope: { tenantId: string; userId: string }, thread: string, text: string) {
    const node = createScheduleExtractionNode({ store, debounceMs: 0 });
    const id = `${thread}-u`;
    await node({ messages: [new HumanMessage({ id, content: text }), new AIMessage({ id: `${thread}-a`, content: "Noted." })] }, { configurable: { thread_id: thread, tenant_id: scope.tenantId, user_id: scope.userId } });
  }

  it("two workers never take the same job; every job is extracted exactly once", async () => {
    const users = [0, 1, 2, 3].map((i) => ({ tenantId: "acme", userId: `pool-${++seq}-${i}` }));
    const hobbies = ["bees", "stamps", "orchids", "kites"];
    for (let i = 0; i < 16; i++) await scheduleTurn(users[i % 4], `pool-thread-${seq}-${i}`, `I like ${hobbies[Math.floor(i / 4)]}.`);
    const base = createExtractionJobHandler({ store });
    // A little real work per job so both workers hold jobs at the same time.
    const handler: JobHandler = async (job, ctx) => {
      await new Promise((r) => setTimeout(r, 5));
      await base(job, ctx);
    };
    const events: Array<JobEvent & { jobId?: number }> = [];
    const worker = (id: string) => new JobWorker(db, { workerId: id, concurrency: 2, handlers: { [EXTRACTION_QUEUE]: handler }, onEvent: (e) => events.push(e) });
    const [a, b] = await Promise.all([worker("w1").drain(), worker("w2").drain()]);

    expect(a.completed + b.completed).toBe(16);
    expect(a.failed + b.failed + a.leaseLost + b.leaseLost).toBe(0);
    const claimed = events.filter((e) => e.type === "claimed") as Array<Extract<JobEvent, { type: "claimed" }>>;
    const ids = claimed.map((e) => e.jobId);
    expect(new Set(ids).size).toBe(16);
    expect(ids).toHaveLength(16);
    // Both workers did some of the work (not a test of one worker alone).
    expect(new Set(claimed.map((e) => e.workerId))).toEqual(new Set(["w1", "w2"]));
    for (const u of users) expect((await store.list(u)).map((m) => m.text).sort()).toEqual(["User likes bees.", "User likes kites.", "User likes orchids.", "User likes stamps."]);
  });

  it("a job that dies after part of its writes is retried, and each memory is written once", async () => {
    const user = { tenantId: "acme", userId: `crash-${++seq}` };
    const failing = new FailingOnceStore(db);
    await scheduleTurn(user, "crash-thread", "I live in Berlin. I prefer metric units. I like jazz.");
    const reports: WriteReport[] = [];
    const events: JobEvent[] = [];
    const worker = new JobWorker(db, {
      handlers: { [EXTRACTION_QUEUE]: createExtractionJobHandler({ store: failing, onReport: (r) => reports.push(r) }) },
      onEvent: (e) => events.push(e),
    });
    expect(await worker.drain()).toMatchObject({ completed: 1, retried: 1, failed: 0 });
    expect(events.filter((e) => e.type === "retry").map((e) => (e as Extract<JobEvent, { type: "retry" }>).error.code)).toEqual(["SIMULATED_CRASH"]);
    // The retry found its first write (deterministic id) and wrote the rest.
    expect(reports).toEqual([expect.objectContaining({ added: 2, deduped: 1 })]);
    expect((await store.export(user)).map((m) => m.text).sort()).toEqual(["User likes jazz.", "User lives in Berlin.", "User prefers metric units."]);
    const [job] = await queue.list(user);
    expect(job).toMatchObject({ state: "done", attempts: 2, lastError: { code: "SIMULATED_CRASH" } });
  });

  it("a failing extraction model is retried with backoff and fails the job only when attempts run out", async () => {
    const user = { tenantId: "acme", userId: `model-${++seq}` };
    await scheduleTurn(user, "model-thread", "I keep bees.");
    const { RecordingChatModel } = await import("../helpers/fake-chat-model.js");
    const model = new RecordingChatModel({ defaultResponse: new Error("503 from the provider") });
    const result = await new JobWorker(db, { handlers: { [EXTRACTION_QUEUE]: createExtractionJobHandler({ store, model }) } }).drain();
    expect(result).toMatchObject({ completed: 0, retried: 4, failed: 1 });
    expect(model.calls).toHaveLength(5);
    const [job] = await queue.list(user);
    expect(job).toMatchObject({ state: "failed", attempts: 5, lastError: { code: "MODEL_UNAVAILABLE" } });
    expect(job.lastError!.message).not.toContain("bees");
  });
});

describe("langgraph-memory worker --drain (embedded database folder, its own process)", () => {
  const dir = mkdtempSync(join(tmpdir(), "lgm-worker-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("processes the queued jobs and exits 0, logging counts but no memory text", async () => {
    const url = `pglite:${dir}`;
    const user = { tenantId: "acme", userId: "cli-user" };
    let db = await openDatabase(url);
    const node = createScheduleExtractionNode({ store: new MemoryRepository(db), debounceMs: 60_000 });
    await node({ messages: [new HumanMessage({ id: "c1", content: "I'm learning Portuguese." }), new AIMessage({ id: "c2", content: "Noted." })] }, { configurable: { thread_id: "cli", tenant_id: user.tenantId, user_id: user.userId } });
    await db.close();

    const env = { ...process.env };
    delete env.NODE_OPTIONS;
    delete env.DATABASE_URL;
    delete env.MODEL;
    const { stdout, stderr } = await run(process.execPath, ["--import", "tsx", "src/cli/run.ts", "worker", "--drain", "--database-url", url], { env });
    expect(JSON.parse(stdout)).toEqual({ completed: 1, retried: 0, failed: 0, leaseLost: 0 });
    expect(stderr).toMatch(/job \d+ claimed \(attempt 1\)/);
    expect(stderr).toMatch(/job \d+: added 1, deduped 0, superseded 0, deleted 0/);
    expect(stderr).not.toContain("Portuguese");

    db = await openDatabase(url);
    try {
      expect((await new MemoryRepository(db).list(user)).map((m) => m.text)).toEqual(["User is learning Portuguese."]);
    } finally {
      await db.close();
    }
  });
});
