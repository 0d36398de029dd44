/**
 * A private PostgreSQL server for fault tests that restart or kill the server: initdb into a temp
 * folder, start on a free loopback port, restart on demand, stop and delete at the end. Never the
 * shared server on 5432 (other engineers' tests run against it). Postgres refuses to run as root,
 * so as root the binaries run as the `postgres` OS user (`runuser -u postgres --`), which owns the
 * folder.
 */
import { execFile, execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

export interface ThrowawayPostgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  port: number;
  dataDir: string;
  /** `pg_ctl restart -m <mode>`: fast terminates sessions, immediate crashes (recovery on start). */
  restart(mode?: "fast" | "immediate"): Promise<void>;
  stop(): Promise<void>;
}

/** The bin folder of an installed PostgreSQL (PG_BIN, `pg_config --bindir`, or the newest /usr/lib/postgresql/N/bin). */
export function postgresBinDir(): string | null {
  const candidates: string[] = [];
  if (process.env.PG_BIN) candidates.push(process.env.PG_BIN);
  try {
    candidates.push(execFileSync("pg_config", ["--bindir"], { encoding: "utf8" }).trim());
  } catch {
    // no pg_config on PATH
  }
  if (existsSync("/usr/lib/postgresql")) {
    const versions = readdirSync("/usr/lib/postgresql").filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((v) => `/usr/lib/postgresql/${v}/bin`));
  }
  return candidates.find((dir) => existsSync(join(dir, "initdb")) && existsSync(join(dir, "pg_ctl"))) ?? null;
}

/** Why a throwaway server cannot start here, or null when it can. */
export function throwawayPostgresUnavailable(): string | null {
  if (!postgresBinDir()) return "no PostgreSQL binaries (initdb, pg_ctl) found";
  if (process.getuid?.() === 0) {
    try {
      execFileSync("id", ["postgres"], { stdio: "ignore" });
      execFileSync("runuser", ["--help"], { stdio: "ignore" });
    } catch {
      return "running as root without a `postgres` OS user or runuser";
    }
  }
  return null;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Start a new server in a temp folder; call `stop()` in a `finally`/`afterAll`. */
export async function startThrowawayPostgres(): Promise<ThrowawayPostgres> {
  const bin = postgresBinDir();
  if (!bin) throw new Error("no PostgreSQL binaries found (set PG_BIN)");
  const asRoot = process.getuid?.() === 0;
  const base = mkdtempSync(join(tmpdir(), "lgm-throwaway-pg-"));
  const dataDir = join(base, "data");
  const as = (cmd: string, args: string[]) => (asRoot ? ["runuser", ["-u", "postgres", "--", join(bin, cmd), ...args]] : [join(bin, cmd), args]) as [string, string[]];
  const exec = async (cmd: string, args: string[]) => {
    const [file, argv] = as(cmd, args);
    return run(file, argv, { cwd: base, timeout: 120_000 });
  };
  if (asRoot) {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
    chownSync(base, uid, gid);
  }
  let started = false;
  const port = await freePort();
  // Should the test process end without stop() (a crash, a worker killed on timeout), the server
  // must not outlive it: stop it synchronously on exit.
  const stopOnExit = () => {
    if (!started) return;
    const [file, argv] = as("pg_ctl", ["stop", "-D", dataDir, "-m", "immediate", "-w"]);
    try {
      execFileSync(file, argv, { cwd: base, stdio: "ignore", timeout: 30_000 });
    } catch {
      // already stopped
    }
    rmSync(base, { recursive: true, force: true });
  };
  process.once("exit", stopOnExit);
  const stop = async () => {
    process.removeListener("exit", stopOnExit);
    if (started) {
      started = false;
      await exec("pg_ctl", ["stop", "-D", dataDir, "-m", "immediate", "-w"]).catch(() => undefined);
    }
    rmSync(base, { recursive: true, force: true });
  };
  try {
    await exec("initdb", ["-D", dataDir, "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8", "--locale=C"]);
    // Sockets in our own folder (not /var/run/postgresql, which the shared server uses); loopback only.
    const opts = `-p ${port} -k ${base} -c listen_addresses=127.0.0.1 -c max_connections=200 -c shared_buffers=32MB`;
    await exec("pg_ctl", ["start", "-D", dataDir, "-o", opts, "-l", join(base, "server.log"), "-w", "-t", "60"]);
    started = true;
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    dataDir,
    async restart(mode = "fast") {
      await exec("pg_ctl", ["restart", "-D", dataDir, "-m", mode, "-w", "-t", "60", "-l", join(base, "server.log")]);
    },
    stop,
  };
}
