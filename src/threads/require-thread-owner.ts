import type { Queryable } from "../db/database.js";
import { CLAIM_THREAD_SQL } from "./thread-owner-queries.js";
import { threadScopeMismatch, type ThreadOwner } from "./thread-owner.js";
import { rememberOwner, verifiedOwner } from "./verified-owners.js";

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
