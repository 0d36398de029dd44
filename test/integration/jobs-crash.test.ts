import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import type { Database } from "../../src/db/database.js";
import { JobQueue, JobWorker, type JobEvent } from "../../src/jobs/index.js";
import { openTestDatabase } from "../helpers/db.js";

// Worker processes that die for real: server Postgres only (PGlite belongs to one process; the
// same lease hand-over is tested there with an injected clock in jobs.test.ts).
const serverOnly = process.env.DATABASE_URL ? describe : describe.skip;

const FIXTURE = join(process.cwd(), "test/integration/fixtures/jobs-worker.ts");
const alice = { tenantId: "acme", userId: "alice" };

interface WorkerProcess {
  child: ChildProcess;
  /** Resolves with the first stdout line starting with `prefix`. */
  line(prefix: string): Promise<string>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output(): string;
}

function startWorkerProcess(schema: string, workerId: string, mode: string): WorkerProcess {
  const env: NodeJS.ProcessEnv = { ...process.env, JOBS_SCHEMA: schema, JOBS_WORKER_ID: workerId, JOBS_MODE: mode, JOBS_LEASE_MS: "1000" };
  delete env.NODE_OPTIONS; // jest's --experimental-vm-modules is not for the child
  const child = spawn(process.execPath, ["--import", "tsx", FIXTURE], { env, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  const waiters: Array<{ prefix: string; resolve: (l: string) => void }> = [];
  const check = () => {
    for (const w of [...waiters]) {
      const l = out.split("\n").find((x) => x.startsWith(w.prefix));
      if (l !== undefined) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(l);
      }
    }
  };
  child.stdout!.on("data", (d: Buffer) => {
    out += d.toString();
    check();
  });
  child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
  return {
    child,
    line: (prefix) =>
      new Promise<string>((resolve, reject) => {
        waiters.push({ prefix, resolve });
        check();
        exited.then(() => reject(new Error(`worker process exited before printing "${prefix}"\nstdout:\n${out}\nstderr:\n${err}`)));
      }),
    exited,
    output: () => out,
  };
}

serverOnly("job workers that die (server Postgres, child processes)", () => {
  let db: Database;
  let jobs: JobQueue;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    db = await openTestDatabase("postgres");
    jobs = new JobQueue(db);
    await db.query("CREATE TABLE job_effects (idempotency_key text NOT NULL, job_id bigint NOT NULL, worker text NOT NULL)");
  });
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
    await db.close();
  });
  afterEach(async () => {
    await db.query("DELETE FROM memory_jobs_inbox");
    await db.query("DELETE FROM memory_jobs");
    await db.query("DELETE FROM job_effects");
  });

  /** A surviving worker in this process: runs until it completed one job, writing the effect with the completion. */
  async function survivorCompletesOne(): Promise<JobEvent[]> {
    const events: JobEvent[] = [];
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
      handlers: {
        extract: (job, ctx) =>
          ctx.completeWith(async (tx) => {
            await tx.query("INSERT INTO job_effects (idempotency_key, job_id, worker) VALUES ($1, $2, 'survivor')", [job.idempotencyKey, job.id]);
          }),
      },
    });
    survivor.start();
    await completed;
    await survivor.stop();
    return events;
  }

  it.each(["hang-in-transaction", "hang-before-writes"])(
    "a worker killed mid-job (%s): after its lease expires another worker retries it and the effect is written once",
    async (mode) => {
      const { jobId } = await jobs.enqueue({ queue: "extract", scope: alice, groupKey: "t1", idempotencyKey: "t1:m7", payload: { messages: [{ id: "m7", content: "I moved to Lisbon" }] } });
      const doomed = startWorkerProcess(db.schema, "doomed", mode);
      children.push(doomed.child);
      await doomed.line(mode === "hang-in-transaction" ? `wrote ${jobId}` : `claimed ${jobId}`);
      expect(await jobs.get(jobId!)).toMatchObject({ state: "running", lockedBy: "doomed", attempts: 1 });

      doomed.child.kill("SIGKILL");
      expect(await doomed.exited).toEqual({ code: null, signal: "SIGKILL" });

      const events = await survivorCompletesOne();
      expect(events.map((e) => e.type)).toEqual(["claimed", "completed"]);
      const effects = await db.query("SELECT idempotency_key, job_id, worker FROM job_effects");
      expect(effects.rows).toEqual([{ idempotency_key: "t1:m7", job_id: jobId, worker: "survivor" }]);
      expect(await jobs.get(jobId!)).toMatchObject({ state: "done", attempts: 2, lastError: { code: "LEASE_EXPIRED" } });
    },
  );

  it("SIGTERM stops a worker process gracefully: the running job completes, then the process exits 0", async () => {
    const { jobId } = await jobs.enqueue({ queue: "extract", scope: alice, groupKey: "t1", idempotencyKey: "t1:m1", payload: { messages: [] } });
    const worker = startWorkerProcess(db.schema, "graceful", "slow");
    children.push(worker.child);
    await worker.line(`claimed ${jobId}`);
    worker.child.kill("SIGTERM");
    expect(await worker.exited).toEqual({ code: 0, signal: null });
    const lines = worker.output().trim().split("\n");
    expect(lines).toEqual(["started", `claimed ${jobId}`, `completed ${jobId}`, "stopped"]);
    expect(await jobs.get(jobId!)).toMatchObject({ state: "done", attempts: 1 });
    expect((await db.query("SELECT worker FROM job_effects")).rows).toEqual([{ worker: "graceful" }]);
  });
});
