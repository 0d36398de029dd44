/**
 * `langgraph-memory status` (read-only) on both engines: the database without its password, the
 * schema version, pgvector, the queue's depth and oldest job, the workers' last heartbeat, and a
 * warning when jobs wait with no worker — and the same as JSON with `--json`.
 */
import { afterAll, afterEach, beforeEach, describe, expect, it, jest } from "@jest/globals";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { main } from "../../src/cli/main.js";
import { openDatabase } from "../../src/db/open.js";
import { loadMigrations } from "../../src/db/migrations.js";
import { dropSchema, uniqueSchema } from "../helpers/db.js";
import { JobQueue, JobWorker, ManualClock } from "../../src/jobs/index.js";
import type { MemoryStatus } from "../../src/status/memory-status.js";
import { testEngines } from "../helpers/engines.js";

const dir = mkdtempSync(join(tmpdir(), "lgm-status-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.each(testEngines())("langgraph-memory status on %s", (engine) => {
  const schema = uniqueSchema("lgm_status");
  const url = engine === "pglite" ? `pglite:${join(dir, "db")}` : process.env.DATABASE_URL!;
  const args = ["--database-url", url, ...(engine === "postgres" ? ["--schema", schema] : [])];
  let out: string[];
  beforeEach(() => {
    out = [];
    jest.spyOn(console, "log").mockImplementation((...a: unknown[]) => void out.push(a.join(" ")));
  });
  afterEach(() => {
    jest.restoreAllMocks();
  });
  afterAll(async () => {
    if (engine === "postgres") await dropSchema(url, schema);
  });

  const status = async (): Promise<MemoryStatus> => {
    out = [];
    expect(await main(["status", ...args, "--json"])).toBe(0);
    return JSON.parse(out.join("\n")) as MemoryStatus;
  };
  const withDb = async (fn: (db: Awaited<ReturnType<typeof openDatabase>>) => Promise<void>) => {
    const db = await openDatabase(url, { schema: engine === "postgres" ? schema : undefined });
    try {
      await fn(db);
    } finally {
      await db.close();
    }
  };

  it("before migrating: nothing applied, no queue yet, a warning to migrate — and nothing changed", async () => {
    const s = await status();
    expect(s.migrations).toMatchObject({ applied: 0, known: loadMigrations().length, latest: null });
    expect(s.queue).toBeNull();
    expect(s.warnings.join("\n")).toMatch(/not applied: run `npx langgraph-memory migrate`/);
    expect((await status()).migrations.applied).toBe(0);
  });

  it("migrated, with a job waiting an hour and no worker: depth, oldest age, never a heartbeat, and a warning; then a worker's heartbeat", async () => {
    await withDb(async (db) => {
      const hourAgo = new ManualClock(new Date(Date.now() - 3_600_000));
      await new JobQueue(db, { clock: hourAgo, notify: false }).enqueue({ queue: "memory-extraction", scope: { tenantId: "acme", userId: "alice" }, groupKey: "t1", idempotencyKey: "t1:m1", payload: { v: 1 } });
      await new JobQueue(db, { notify: false }).submit({ queue: "memory-extraction", scope: { tenantId: "acme", userId: "bob" }, groupKey: "t2", idempotencyKey: "t2:m1", payload: { v: 1 } });
    });
    const s = await status();
    expect(s.database).toMatchObject({ engine, schema: engine === "postgres" ? schema : "langgraph_memory" });
    expect(s.database.url).not.toMatch(/:[^/:@]+@/); // no password
    expect(s.migrations).toMatchObject({ applied: loadMigrations().length, pending: [], unknown: [] });
    expect(s.database.pgvector).toBe(engine === "pglite" ? true : s.database.pgvectorAvailable && s.database.pgvector);
    expect(s.queue).toMatchObject({ pending: 1, running: 0, inbox: 1, liveWorkers: 0, lastHeartbeat: null });
    expect(s.queue!.oldestAgeMs!).toBeGreaterThan(3_000_000);
    expect(s.warnings.join("\n")).toMatch(/2 queued jobs, the oldest 60 min old, and no worker polling/);

    await withDb(async (db) => {
      await new JobWorker(db, { handlers: { "memory-extraction": async () => undefined }, listen: false }).drain();
    });
    const after = await status();
    expect(after.queue).toMatchObject({ pending: 0, inbox: 0, liveWorkers: 1 });
    expect(new Date(after.queue!.lastHeartbeat!).getTime()).toBeGreaterThan(Date.now() - 600_000);
    expect(after.warnings.filter((w) => /worker/.test(w))).toEqual([]);

    // The text form: one line per part.
    out = [];
    expect(await main(["status", ...args])).toBe(0);
    const text = out.join("\n");
    expect(text).toMatch(/^database {6}/m);
    expect(text).toMatch(/^schema {8}\d+ of \d+ migrations applied/m);
    expect(text).toMatch(/^workers {7}1 live; last heartbeat \d{4}-/m);
  });
});
