import { createHash } from "node:crypto";
import { join } from "node:path";
import { lockDataDir } from "./data-dir-lock.js";
import { ErrorCodes, isMemoryError } from "../errors.js";

/** Keys share this many lock files per folder, so the folder holds a bounded number of them. */
const STRIPES = 64;
const RETRY_MS = 20;

/** The stripe `key` locks: keys of one stripe exclude each other across processes. */
export function lockStripe(key: string): number {
  return createHash("sha256").update(key).digest().readUInt16BE(0) % STRIPES;
}

/**
 * Run `fn` holding a lock shared by every process of an embedded data folder: a lock file under
 * `<dataDir>/write-locks/<stripe>/`, taken like the folder's own lock (atomically, a dead
 * holder's taken over). Waits while another process holds it. The caller serialises its own
 * process's holders of one stripe (a second one here would be refused as "already open in this
 * process").
 *
 * @example
 * await withFolderLock(dataDir, lockStripe(key), () => writePass());
 */
export async function withFolderLock<T>(dataDir: string, stripe: number, fn: () => Promise<T>): Promise<T> {
  const dir = join(dataDir, "write-locks", String(stripe));
  let release: () => void;
  for (;;) {
    try {
      release = lockDataDir(dir);
      break;
    } catch (err) {
      const heldElsewhere = isMemoryError(err, ErrorCodes.DB_OPEN_FAILED) && err.details !== undefined && "pid" in err.details;
      if (!heldElsewhere) throw err;
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
  }
  try {
    return await fn();
  } finally {
    release();
  }
}
