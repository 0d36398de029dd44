/**
 * Who a conversation thread belongs to: the one definition the checkpointer and the memory nodes
 * share (migration 0008's `thread_owners`). A thread's owner is the tenant and user of the call
 * that first used it, recorded then and never changed; a thread first used without a scope belongs
 * to nobody (both null). A call may use a thread exactly when its own pair equals the owner: a
 * scoped call never adopts an unscoped thread, an unscoped call never reads a scoped one, and a
 * thread nobody has used yet is free. The check (`requireThreadOwner`) and the memo of owners this
 * process verified sit here too. Below the checkpointer and the store (it knows only the database),
 * so neither depends on the other.
 */
import { readScopeId } from "../core/scope.js";
import type { Queryable } from "../db/database.js";
import { ErrorCodes, MemoryError } from "../errors.js";
import { CLAIM_THREAD_SQL } from "./thread-owner-queries.js";

/** A thread's owner, or a call's scope: both null for nobody (an unscoped call). */
export interface ThreadOwner {
  tenantId: string | null;
  userId: string | null;
}

/**
 * The scope of a call from `config.configurable`: `tenant_id` and `user_id`, each read by the one
 * rule of every scope id (`readScopeId` in core/scope.ts); an absent id is null.
 *
 * @example
 * ownerOfConfigurable({ thread_id: "t1", tenant_id: "acme", user_id: "alice" }); // { tenantId: "acme", userId: "alice" }
 */
export function ownerOfConfigurable(configurable: Record<string, unknown> | undefined): ThreadOwner {
  return {
    tenantId: readScopeId(configurable?.tenant_id, "config.configurable.tenant_id"),
    userId: readScopeId(configurable?.user_id, "config.configurable.user_id"),
  };
}

/**
 * THREAD_SCOPE_MISMATCH: the thread is another scope's. The message never says whose it is, nor
 * whether it exists beyond that.
 */
export function threadScopeMismatch(threadId?: string, cause?: unknown): MemoryError {
  return new MemoryError(
    ErrorCodes.THREAD_SCOPE_MISMATCH,
    `${threadId === undefined ? "the thread" : `thread ${JSON.stringify(threadId)}`} belongs to another tenant or user (or was started without one): nothing of it was read or written — ` +
      "continue only your own threads, with the same config.configurable.tenant_id and user_id that started them, or start a new thread_id",
    { details: threadId === undefined ? {} : { threadId }, cause },
  );
}

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
