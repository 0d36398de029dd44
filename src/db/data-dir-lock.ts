import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync, accessSync, constants } from "node:fs";
import { join } from "node:path";
import { ErrorCodes, MemoryError } from "../errors.js";

const LOCK_FILE = "langgraph-memory.lock";

/**
 * PGlite is single-process: two processes opening one data folder corrupt it. Take a lock file
 * holding our pid; a lock left by a dead process is taken over. Returns the release function.
 */
export function lockDataDir(dataDir: string): () => void {
  try {
    mkdirSync(dataDir, { recursive: true });
    accessSync(dataDir, constants.W_OK);
  } catch (err) {
    throw new MemoryError(ErrorCodes.DB_OPEN_FAILED, `cannot use data folder ${dataDir}: ${(err as Error).message}; check that it exists, is writable and the disk has space`, { cause: err });
  }
  const path = join(dataDir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, "wx");
      try {
        writeSync(fd, String(process.pid));
      } finally {
        closeSync(fd);
      }
      return () => rmSync(path, { force: true });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== "EEXIST") {
        throw new MemoryError(ErrorCodes.DB_OPEN_FAILED, `cannot lock data folder ${dataDir}: ${(err as Error).message}; check permissions and free disk space`, { cause: err });
      }
      const holder = Number(readFileSafe(path));
      if (holder && holder !== process.pid && isAlive(holder)) {
        throw new MemoryError(
          ErrorCodes.DB_OPEN_FAILED,
          `data folder ${dataDir} is in use by process ${holder}; the embedded database serves one process at a time — stop it, or use a server Postgres URL for several processes`,
          { details: { pid: holder } },
        );
      }
      if (holder === process.pid) {
        throw new MemoryError(ErrorCodes.DB_OPEN_FAILED, `data folder ${dataDir} is already open in this process; share one Database instance`);
      }
      rmSync(path, { force: true }); // stale lock from a dead process
    }
  }
  throw new MemoryError(ErrorCodes.DB_OPEN_FAILED, `cannot lock data folder ${dataDir}`);
}

function readFileSafe(path: string): string {
  try {
    return readFileSync(path, "utf8").trim();
  } catch {
    return "";
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
