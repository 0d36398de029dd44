/**
 * One embedded data folder, several processes at once (issue 18 item 4): the app (createMemory, a
 * graph on the checkpointer) owns the folder and serves it on its socket; `serve`, `worker` and
 * `memories list` — real child processes — connect to it, and each sees what the others wrote.
 * When the owner dies, the others carry on: one takes the folder over, the rest connect to it.
 */
import { afterAll, describe, expect, it } from "@jest/globals";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../../src/db/open.js";
import { PostgresCheckpointer } from "../../src/checkpointer/postgres-checkpointer.js";
import { SharedPgliteClient } from "../../src/db/shared-pglite-client.js";
import { openSharedFolder } from "../../src/db/shared-pglite.js";
import { withUserWriteLock } from "../../src/store/user-write-lock.js";

const CLI = join(process.cwd(), "src/cli/run.ts");
const APP = join(process.cwd(), "test/integration/fixtures/shared-folder-app.ts");
const COUNTER = join(process.cwd(), "test/integration/fixtures/shared-folder-counter.ts");
const LOCK_HOLDER = join(process.cwd(), "test/reliability/fixtures/lock-contender.ts");
const TOKEN = "alice-shared-token-0123456789";

interface Child {
  child: ChildProcess;
  /** Resolves with the first new line (stdout or stderr) matching `pattern`. */
  line(pattern: RegExp): Promise<string>;
  exited: Promise<number | null>;
  output(): string;
  stdout(): string;
}

function start(args: string[], env: NodeJS.ProcessEnv = {}): Child {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  delete childEnv.NODE_OPTIONS; // jest's --experimental-vm-modules is not for the child
  delete childEnv.MODEL;
  delete childEnv.DATABASE_URL;
  const child = spawn(process.execPath, ["--import", "tsx", ...args], { env: childEnv, stdio: ["pipe", "pipe", "pipe"] });
  let text = "";
  let stdout = "";
  let seen = 0;
  const waiters: Array<{ pattern: RegExp; resolve: (l: string) => void }> = [];
  const check = () => {
    const lines = text.split("\n");
    for (const w of [...waiters]) {
      const l = lines.slice(seen).find((x) => w.pattern.test(x));
      if (l !== undefined) {
        waiters.splice(waiters.indexOf(w), 1);
        seen = lines.indexOf(l, seen) + 1;
        w.resolve(l);
      }
    }
  };
  child.stdout!.on("data", (d: Buffer) => ((stdout += d.toString()), (text += d.toString()), check()));
  child.stderr!.on("data", (d: Buffer) => ((text += d.toString()), check()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return {
    child,
    line: (pattern) =>
      new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no line ${pattern} in 120 s\n${text}`)), 120_000);
        waiters.push({ pattern, resolve: (l) => (clearTimeout(timer), resolve(l)) });
        check();
        void exited.then(() => setTimeout(() => (clearTimeout(timer), reject(new Error(`process exited before printing ${pattern}\n${text}`))), 50));
      }),
    exited,
    output: () => text,
    stdout: () => stdout,
  };
}

async function runCli(args: string[]): Promise<{ code: number | null; stdout: string; output: string }> {
  const c = start([CLI, ...args]);
  const code = await c.exited;
  return { code, stdout: c.stdout(), output: c.output() };
}

describe("several processes on one embedded data folder", () => {
  const dir = mkdtempSync(join(tmpdir(), "lgm-shared-"));
  const url = `pglite:${join(dir, "db")}`;
  const children: Child[] = [];
  afterAll(() => {
    for (const c of children) if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  });

  it("runs the app, serve, worker and memories list at once, and survives the owner's exit", async () => {
    const app = start([APP, url]);
    children.push(app);
    expect(await app.line(/^ready /)).toBe("ready pglite owner");
    expect(existsSync(join(dir, "db", ".s.PGSQL.5432"))).toBe(true);
    // The processes of a folder share the owner's schema.
    await expect(openDatabase(url, { schema: "elsewhere" })).rejects.toMatchObject({ code: "DB_OPEN_FAILED", details: { schema: "langgraph_memory" } });

    const serve = start([CLI, "serve", "--port", "0", "--no-viewer", "--database-url", url], {
      LANGGRAPH_MEMORY_TOKENS: JSON.stringify({ [TOKEN]: { tenantId: "acme", userId: "alice" } }),
    });
    children.push(serve);
    const base = /API on (http:\/\/127\.0\.0\.1:\d+\/)/.exec(await serve.line(/API on http/))![1];
    const api = (path: string, init: RequestInit = {}) =>
      fetch(`${base}${path}`, { ...init, headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json", ...init.headers } });
    // serve reads what the app wrote, and writes the profile.
    const listed = (await (await api("api/memories")).json()) as { memories: Array<{ text: string }> };
    expect(listed.memories.map((m) => m.text)).toContain("Prefers metric units.");
    const patched = await api("api/profile", { method: "PATCH", body: JSON.stringify({ location: "Berlin office" }) });
    expect(patched.status).toBe(200);

    // worker claims the job the app queued and writes the extracted memory.
    const worker = start([CLI, "worker", "--poll-ms", "100", "--database-url", url]);
    children.push(worker);
    expect(await worker.line(/^worker .* started/)).toContain("(pglite,");
    await worker.line(/^job \d+: added 1/);

    // memories list, a fourth process, sees the app's memory and the worker's.
    const list = await runCli(["memories", "list", "--tenant", "acme", "--user", "alice", "--json", "--database-url", url]);
    expect(list.code).toBe(0);
    const texts = (JSON.parse(list.stdout) as { memories: Array<{ text: string }> }).memories.map((m) => m.text).sort();
    expect(texts).toEqual(["Prefers metric units.", "User prefers tea over coffee."]);

    // The app sees the worker's memory and serve's profile edit; this process reads the app's thread.
    app.child.stdin!.write("check\n");
    const seen = JSON.parse((await app.line(/^check /)).slice("check ".length)) as { memories: string[]; profile: Record<string, unknown>; messages: string[] };
    expect(seen.memories).toEqual(["Prefers metric units.", "User prefers tea over coffee."]);
    expect(seen.profile).toMatchObject({ location: "Berlin office" });
    const db = await openDatabase(url);
    try {
      expect(db).toBeInstanceOf(SharedPgliteClient);
      const tuple = await PostgresCheckpointer.fromDatabase(db).getTuple({ configurable: { thread_id: "t1", tenant_id: "acme", user_id: "alice" } });
      expect((tuple!.checkpoint.channel_values.messages as Array<{ content: string }>).map((m) => m.content)).toEqual(["I prefer tea over coffee.", "Noted."]);
    } finally {
      await db.close();
    }

    // The owner dies. serve's next requests fail at most briefly, then it (or the worker) owns the folder.
    app.child.kill("SIGKILL");
    await app.exited;
    let status = 0;
    for (let i = 0; i < 10 && status !== 200; i++) {
      status = (await api("api/memories")).status;
      if (status !== 200) expect(status).toBe(503);
    }
    expect(status).toBe(200);
    const again = await runCli(["memories", "list", "--tenant", "acme", "--user", "alice", "--json", "--database-url", url]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("User prefers tea over coffee.");

    serve.child.kill("SIGTERM");
    worker.child.kill("SIGTERM");
    expect(await serve.exited).toBe(0);
    expect(await worker.exited).toBe(0);
    // Both closed: the folder is free, and the next process owns it alone.
    expect(existsSync(join(dir, "db", "langgraph-memory.lock"))).toBe(false);
  }, 400_000);

  it("a folder locked by a process that never serves it: DB_OPEN_FAILED naming it, after the wait", async () => {
    const dataDir = join(dir, "held");
    const holder = start([LOCK_HOLDER]);
    children.push(holder);
    await holder.line(/^READY/);
    holder.child.stdin!.write(`race ${dataDir} ${Date.now()}\n`);
    expect(await holder.line(/^(WON|LOST)/)).toBe("WON");
    const never = async (): Promise<never> => {
      throw new Error("the lock is held: this process must not open PGlite");
    };
    const err = await openSharedFolder({ dataDir, schema: "public", waitMs: 300 }, never).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "DB_OPEN_FAILED", details: { pid: holder.child.pid } });
    expect((err as Error).message).toContain(`in use by process ${holder.child.pid}, which has not shared it within 300 ms`);
    holder.child.stdin!.write("exit\n");
  }, 60_000);

  it("a user's write lock holds across the processes of a folder: no lost update between read and write", async () => {
    const db = await openDatabase(`pglite:${join(dir, "counter")}`);
    try {
      await db.exec("CREATE TABLE lgm_test_counter (n int); INSERT INTO lgm_test_counter VALUES (0)");
      const rounds = 40;
      const other = start([COUNTER, `pglite:${join(dir, "counter")}`, String(rounds)]);
      children.push(other);
      await other.line(/^opened/);
      other.child.stdin!.write("go\n");
      for (let i = 0; i < rounds; i++) {
        await withUserWriteLock(db, { tenantId: "acme", userId: "alice" }, async () => {
          const { rows } = await db.query<{ n: number }>("SELECT n FROM lgm_test_counter");
          await new Promise((resolve) => setTimeout(resolve, 3)); // as a pass awaits its embeddings
          await db.query("UPDATE lgm_test_counter SET n = $1", [rows[0].n + 1]);
        });
      }
      await other.line(/^done/);
      expect(await other.exited).toBe(0);
      expect((await db.query<{ n: number }>("SELECT n FROM lgm_test_counter")).rows[0].n).toBe(2 * rounds);
    } finally {
      await db.close();
    }
  }, 180_000);
});
