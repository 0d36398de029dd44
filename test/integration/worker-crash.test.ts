/**
 * Extraction workers that die for real (server Postgres, child processes, as jobs-crash.test.ts):
 * a worker SIGKILLed after writing a memory but before completing its job → the lease expires,
 * another worker retries the job, and the memory exists once. And `langgraph-memory worker` as a
 * long-running process: SIGTERM lets the running job finish, then it exits 0.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import type { Database } from "../../src/db/database.js";
import { EXTRACTION_QUEUE, createExtractionJobHandler, createScheduleExtractionNode } from "../../src/extraction/node/index.js";
import type { WriteReport } from "../../src/extraction/write/index.js";
import { JobQueue, JobWorker, type JobEvent } from "../../src/jobs/index.js";
import { MemoryRepository } from "../../src/store/memory-store.js";
import { openTestDatabase } from "../helpers/db.js";

const serverOnly = process.env.DATABASE_URL ? describe : describe.skip;
const FIXTURE = join(process.cwd(), "test/integration/fixtures/extraction-worker.ts");
const CLI = join(process.cwd(), "src/cli/run.ts");

interface Child {
  child: ChildProcess;
  /** Resolves with the first line (stdout or stderr) that starts with `prefix`. */
  line(prefix: string): Promise<string>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output(): { stdout: string; stderr: string };
}

function start(args: string[], env: NodeJS.ProcessEnv): Child {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  delete childEnv.NODE_OPTIONS; // jest's --experimental-vm-modules is not for the child
  delete childEnv.MODEL;
  const child = spawn(process.execPath, ["--import", "tsx", ...args], { env: childEnv, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  const waiters: Array<{ prefix: string; resolve: (l: string) => void }> = [];
  const check = () => {
    for (const w of [...waiters]) {
      const l = `${out}\n${err}`.split("\n").find((x) => x.startsWith(w.prefix));
      if (l !== undefined) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(l);
      }
    }
  };
  child.stdout!.on("data", (d: Buffer) => ((out += d.toString()), check()));
  child.stderr!.on("data", (d: Buffer) => ((err += d.toString()), check()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
  return {
    child,
    line: (prefix) =>
      new Promise<string>((resolve, reject) => {
        waiters.push({ prefix, resolve });
        check();
        exited.then(() => setTimeout(() => reject(new Error(`process exited before printing "${prefix}"\nstdout:\n${out}\nstderr:\n${err}`)), 50));
      }),
    exited,
    output: () => ({ stdout: out, stderr: err }),
  };
}

serverOnly("extraction workers that die (server Postgres, child processes)", () => {
  let db: Database;
  let store: MemoryRepository;
  let queue: JobQueue;
  const children: ChildProcess[] = [];
  const user = { tenantId: "acme", userId: "crash-user" };

  beforeAll(async () => {
    db = await openTestDatabase("postgres");
    store = new MemoryRepository(db);
    queue = new JobQueue(db);
  });
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
    await db.close();
  });
  afterEach(async () => {
    await db.query("DELETE FROM memory_jobs_inbox");
    await db.query("DELETE FROM memory_jobs");
    await db.query("DELETE FROM memories");
  });

  async function scheduleTurn(thread: string, text: string): Promise<number> {
    await createScheduleExtractionNode({ store, debounceMs: 0 })(
      { messages: [new HumanMessage({ id: `${thread}-u`, content: text }), new AIMessage({ id: `${thread}-a`, content: "Noted." })] },
      { configurable: { thread_id: thread, tenant_id: user.tenantId, user_id: user.userId } },
    );
    const [job] = await queue.list(user);
    return job.id;
  }

  /** A surviving worker in this process, with the real handler, until it completed one job. */
  async function survivorCompletesOne(): Promise<{ events: JobEvent[]; reports: WriteReport[] }> {
    const events: JobEvent[] = [];
    const reports: WriteReport[] = [];
    let done!: () => void;
    const completed = new Promise<void>((r) => (done = r));
    const survivor = new JobWorker(db, {
      workerId: "survivor",
      pollIntervalMs: 100,
      leaseMs: 10_000,
      onEvent: (e) => {
        if (e.type !== "idle") events.push(e);
        if (e.type === "completed") done();
      },
      handlers: { [EXTRACTION_QUEUE]: createExtractionJobHandler({ store, onReport: (r) => reports.push(r) }) },
    });
    survivor.start();
    await completed;
    await survivor.stop();
    return { events, reports };
  }

  it.each(["hang-after-write", "hang-before-write"])(
    "a worker killed mid-job (%s): the job is retried after its lease expires and each memory is written once",
    async (mode) => {
      const jobId = await scheduleTurn("t1", "I live in Berlin. I prefer metric units.");
      const doomed = start([FIXTURE], { WORKER_SCHEMA: db.schema, WORKER_ID: "doomed", WORKER_MODE: mode, WORKER_LEASE_MS: "1000" });
      children.push(doomed.child);
      await doomed.line(`claimed ${jobId}`);
      await doomed.line("hanging");
      const before = await store.export(user);
      expect(before.map((m) => m.text)).toEqual(mode === "hang-after-write" ? ["User lives in Berlin."] : []);
      expect(await queue.get(jobId)).toMatchObject({ state: "running", lockedBy: "doomed", attempts: 1 });

      doomed.child.kill("SIGKILL");
      expect(await doomed.exited).toEqual({ code: null, signal: "SIGKILL" });

      const { events, reports } = await survivorCompletesOne();
      expect(events.map((e) => e.type)).toEqual(["claimed", "completed"]);
      expect(reports).toEqual([expect.objectContaining(mode === "hang-after-write" ? { added: 1, deduped: 1 } : { added: 2, deduped: 0 })]);
      const after = await store.export(user);
      expect(after.map((m) => m.text).sort()).toEqual(["User lives in Berlin.", "User prefers metric units."]);
      if (mode === "hang-after-write") expect(after.find((m) => m.text === "User lives in Berlin.")!.id).toBe(before[0].id);
      expect(await queue.get(jobId)).toMatchObject({ state: "done", attempts: 2, lastError: { code: "LEASE_EXPIRED" } });
    },
  );

  it("`langgraph-memory worker` runs jobs as they come; SIGTERM stops it gracefully with exit 0", async () => {
    const worker = start([CLI, "worker", "--database-url", process.env.DATABASE_URL!, "--schema", db.schema, "--concurrency", "2", "--poll-ms", "50"], {});
    children.push(worker.child);
    await worker.line("worker ");
    // An episode (where the user lives would go to the profile, which the CLI worker fills too).
    const jobId = await scheduleTurn("t2", "The Porto sync failed with a lock timeout; restarting the queue fixed it.");
    await worker.line(`job ${jobId} completed`);
    expect((await store.list(user)).map((m) => m.text)).toEqual([expect.stringMatching(/^Restarting the queue fixed the problem/)]);
    worker.child.kill("SIGTERM");
    expect(await worker.exited).toEqual({ code: 0, signal: null });
    const { stderr } = worker.output();
    expect(stderr).toMatch(/worker .* started \(postgres, concurrency 2, offline rules\)/);
    expect(stderr).toContain(`job ${jobId}: added 1, deduped 0, superseded 0, deleted 0`);
    expect(stderr).toMatch(/worker stopped\s*$/);
    expect(stderr).not.toContain("Porto");
    expect(await queue.get(jobId)).toMatchObject({ state: "done", attempts: 1 });
  });
});
