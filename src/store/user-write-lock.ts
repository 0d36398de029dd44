import type { Database } from "../db/database.js";
import type { UserScope } from "../core/scope.js";
import { lockStripe, withFolderLock } from "../db/folder-lock.js";
import { sharedFolderOf } from "../db/shared-pglite.js";
import { LOCK_USER_WRITES_SQL, UNLOCK_USER_WRITES_SQL } from "./user-write-lock-queries.js";

const chains = new WeakMap<Database, Map<string, Promise<void>>>();

/**
 * Run a user's write pass alone: the dedupe and supersede decisions read the user's memories and
 * then write, so two passes for one user (two threads' jobs on two workers) must not interleave or
 * both would insert the same fact. In-process passes queue on a promise chain; on server Postgres
 * a session advisory lock, held on one pooled connection while the pass runs, also serialises
 * passes of other processes. On an embedded data folder, which several processes share, a lock file
 * in the folder does (one of 64 stripes: in this process passes of one stripe queue on one chain).
 *
 * The lock holds one connection besides the pass's own queries: size the pool at least
 * 2 × concurrency + 2 for a worker.
 */
export async function withUserWriteLock<T>(db: Database, scope: UserScope, fn: () => Promise<T>): Promise<T> {
  const lockKey = `lgm-write:${JSON.stringify([db.schema, scope.tenantId, scope.userId])}`;
  const folder = sharedFolderOf(db);
  const stripe = folder ? lockStripe(lockKey) : undefined;
  const key = stripe === undefined ? lockKey : `lgm-write-stripe:${stripe}`;
  let byKey = chains.get(db);
  if (!byKey) chains.set(db, (byKey = new Map()));
  const previous = byKey.get(key) ?? Promise.resolve();
  let release!: () => void;
  const mine = new Promise<void>((resolve) => (release = resolve));
  const tail = previous.then(() => mine);
  byKey.set(key, tail);
  await previous;
  try {
    if (db.engine === "postgres" && db.withConnection) {
      return await db.withConnection(async (conn) => {
        await conn.query(LOCK_USER_WRITES_SQL, [lockKey]);
        try {
          return await fn();
        } finally {
          // A broken connection ended its session, and the lock with it.
          await conn.query(UNLOCK_USER_WRITES_SQL, [lockKey]).catch(() => undefined);
        }
      });
    }
    if (folder !== undefined && stripe !== undefined) return await withFolderLock(folder, stripe, fn);
    return await fn();
  } finally {
    release();
    if (byKey.get(key) === tail) byKey.delete(key);
  }
}
