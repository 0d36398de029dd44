import type { Queryable } from "../db/database.js";
import { CLAIM_THREAD_SQL } from "./thread-owner-queries.js";
import { threadScopeMismatch, type ThreadOwner } from "./thread-owner.js";

/**
 * Thread owners this process has verified, per database object: a thread's owner never changes
 * while the thread exists, so a verified pair stays true until the thread is deleted (this
 * process's deletions forget it, see `forgetOwners`). Only pairs the database confirmed are held —
 * a pair nobody verified always goes to the database. Bounded per database: the oldest go first.
 *
 * One staleness is accepted: a thread deleted by another process and then started by another
 * user still passes here for its first owner. Every path that could show that owner the new
 * thread's content checks in SQL each time (the checkpointer's reads and the load node's
 * statement); the paths that use this memo only write what the run already holds.
 */
const MAX_THREADS_PER_DATABASE = 20_000;

const verified = new WeakMap<object, Map<string, string>>();

function ownerKey(owner: ThreadOwner): string {
  return JSON.stringify([owner.tenantId, owner.userId]);
}

/** True when this process verified `owner` as the thread's owner on `db`. */
export function verifiedOwner(db: object, threadId: string, owner: ThreadOwner): boolean {
  return verified.get(db)?.get(threadId) === ownerKey(owner);
}

/** Record that the database confirmed `owner` as the thread's owner. */
export function rememberOwner(db: object, threadId: string, owner: ThreadOwner): void {
  let threads = verified.get(db);
  if (!threads) {
    threads = new Map();
    verified.set(db, threads);
  }
  threads.delete(threadId);
  if (threads.size >= MAX_THREADS_PER_DATABASE) {
    let drop = MAX_THREADS_PER_DATABASE >> 3;
    for (const k of threads.keys()) {
      threads.delete(k);
      if (--drop === 0) break;
    }
  }
  threads.set(threadId, ownerKey(owner));
}

/** The threads were deleted: their ids are free again. */
export function forgetOwners(db: object, threadIds: Iterable<string>): void {
  const threads = verified.get(db);
  if (!threads) return;
  for (const id of threadIds) threads.delete(id);
}

/**
 * Check that `owner` owns the thread (recording it as the owner when the thread has none yet), or
 * throw THREAD_SCOPE_MISMATCH before the caller reads or writes anything of the thread. A pair this
 * process already verified on `db` (by this check, the load node's statement or a checkpointer
 * put) costs no round trip: owners never change while a thread exists.
 *
 * @example
 * await requireThreadOwner(store.db, "t1", { tenantId: "acme", userId: "alice" });
 */
export async function requireThreadOwner(db: Queryable, threadId: string, owner: ThreadOwner): Promise<void> {
  if (verifiedOwner(db, threadId, owner)) return;
  const { rows } = await db.query<{ ok: boolean }>(CLAIM_THREAD_SQL, [threadId, owner.tenantId, owner.userId]);
  if (rows[0]?.ok !== true) throw threadScopeMismatch(threadId);
  rememberOwner(db, threadId, owner);
}
