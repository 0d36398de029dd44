import { closeSync, constants, accessSync, linkSync, mkdirSync, openSync, readFileSync, statSync, unlinkSync, writeFileSync, writeSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { ErrorCodes, MemoryError } from "../errors.js";

const LOCK_FILE = "langgraph-memory.lock";
/** A lock file without a pid in it younger than this is being created (see createWithPid), not stale. */
const EMPTY_GRACE_MS = 5_000;
/** Takeover claims are held for a few system calls: how often to look again, and for how long. */
const CLAIM_WAIT_MS = 2;
const ATTEMPTS = 200;
/** A takeover claim left by a dead process is itself taken over under a claim, this deep at most. */
const MAX_CLAIM_DEPTH = 4;

/**
 * PGlite is single-process: two processes opening one data folder corrupt it. Lock the folder
 * for this process: the lock file `langgraph-memory.lock` holding our pid. Throws
 * `DB_OPEN_FAILED` when a live process holds it (`details.pid`) or this process already does; a
 * lock left by a dead process is taken over. Returns the release function.
 *
 * Race-free between processes:
 * - the file appears with the pid already in it (written to a private temp file, then hard-linked
 *   into place: `link` fails when the name exists), so nobody ever reads a half-made lock;
 * - a stale lock is removed only under a takeover claim named after the dead pid (created the
 *   same way), after reading the lock again under the claim: of several processes that all judged
 *   it stale, one removes it and the others find it changed. The lock itself is then won by
 *   exclusive creation again, so there is one winner.
 *
 * @example
 * const release = lockDataDir("./.langgraph-memory");
 * try { ... } finally { release(); }
 */
export function lockDataDir(dataDir: string): () => void {
  try {
    mkdirSync(dataDir, { recursive: true });
    accessSync(dataDir, constants.W_OK);
  } catch (err) {
    throw new MemoryError(ErrorCodes.DB_OPEN_FAILED, `cannot use data folder ${dataDir}: ${(err as Error).message}; check that it exists, is writable and the disk has space`, { cause: err });
  }
  const path = join(dataDir, LOCK_FILE);
  const fail = (err: unknown) =>
    new MemoryError(ErrorCodes.DB_OPEN_FAILED, `cannot lock data folder ${dataDir}: ${(err as Error).message}; check permissions and free disk space`, { cause: err });
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    try {
      if (createWithPid(path)) return () => releaseLock(path);
    } catch (err) {
      throw fail(err);
    }
    const held = readLock(path);
    if (held.state === "gone") continue; // released meanwhile
    if (held.state === "pid" && held.pid === process.pid) {
      throw new MemoryError(ErrorCodes.DB_OPEN_FAILED, `data folder ${dataDir} is already open in this process; share one Database instance`);
    }
    if (held.state === "creating" || (held.state === "pid" && isAlive(held.pid))) {
      const pid = held.state === "pid" ? held.pid : undefined;
      throw new MemoryError(
        ErrorCodes.DB_OPEN_FAILED,
        `data folder ${dataDir} is in use by ${pid ? `process ${pid}` : "another process"}; the embedded database serves one process at a time — stop it, or use a server Postgres URL for several processes`,
        { details: { pid } },
      );
    }
    try {
      removeStale(path, held.raw, 0);
    } catch (err) {
      throw fail(err);
    }
  }
  throw new MemoryError(ErrorCodes.DB_OPEN_FAILED, `cannot lock data folder ${dataDir}: other processes keep taking it over; try again`);
}

type LockState = { state: "gone" } | { state: "creating"; raw: string } | { state: "stale"; raw: string } | { state: "pid"; pid: number; raw: string };

function readLock(path: string): LockState {
  let raw: string;
  try {
    raw = readFileSync(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return { state: "gone" };
    throw err;
  }
  const pid = /^\s*(\d+)\s*$/.test(raw) ? Number(raw) : 0;
  if (pid > 0) return { state: "pid", pid, raw };
  // No pid: a lock being written where hard links are not supported (or by an older release that
  // wrote the pid after creating the file) — held while young, stale after.
  try {
    return Date.now() - statSync(path).mtimeMs < EMPTY_GRACE_MS ? { state: "creating", raw } : { state: "stale", raw };
  } catch {
    return { state: "gone" };
  }
}

/**
 * Create `path` holding our pid, atomically: false when it exists. A temp file is written and
 * hard-linked into place; where the file system has no hard links, exclusive create then write.
 */
function createWithPid(path: string): boolean {
  const temp = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  writeFileSync(temp, String(process.pid), { flag: "wx" });
  try {
    linkSync(temp, path);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "EEXIST") return false;
    if (code !== "EPERM" && code !== "ENOTSUP" && code !== "ENOSYS" && code !== "EOPNOTSUPP") throw err;
  } finally {
    unlinkQuiet(temp);
  }
  try {
    const fd = openSync(path, "wx");
    try {
      writeSync(fd, String(process.pid));
    } finally {
      closeSync(fd);
    }
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw err;
  }
}

/**
 * Remove the stale lock (or claim) at `path`, which held `raw` when it was judged stale — under a
 * claim named after it, and only if it still holds `raw` and its holder is still not running.
 * Returns when done, or when another process is doing it (the caller looks again).
 */
function removeStale(path: string, raw: string, depth: number): void {
  if (depth > MAX_CLAIM_DEPTH) throw new Error(`stale takeover claims pile up beside ${path}; remove ${path}.takeover-* by hand`);
  const claim = `${path}.takeover-${/^\d+$/.test(raw.trim()) ? raw.trim() : "nopid"}`;
  if (createWithPid(claim)) {
    try {
      const now = readLock(path);
      const unchanged = now.state !== "gone" && now.raw === raw;
      if (unchanged && (now.state === "stale" || (now.state === "pid" && !isAlive(now.pid)))) unlinkQuiet(path);
    } finally {
      unlinkQuiet(claim);
    }
    return;
  }
  const claimer = readLock(claim);
  if (claimer.state === "gone") return;
  if (claimer.state === "creating" || (claimer.state === "pid" && isAlive(claimer.pid))) {
    sleepSync(CLAIM_WAIT_MS); // another process is taking it over right now
    return;
  }
  removeStale(claim, claimer.raw, depth + 1); // its claimer died mid-takeover
}

function releaseLock(path: string): void {
  const held = readLock(path);
  if (held.state === "pid" && held.pid === process.pid) unlinkQuiet(path);
}

function unlinkQuiet(path: string): void {
  try {
    unlinkSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
