/**
 * "Delete everything of a user": the part shared by `MemoryControls.deleteAll`, opt-out with purge,
 * and the retention sweep's purge of opted-out users.
 */
import type { Database, Queryable } from "../db/database.js";
import { ErrorCodes, MemoryError } from "../errors.js";
import type { UserScope } from "../extraction/write-targets.js";
import { recordDeletion, type DeletionContext } from "../store/deletion-audit.js";
import type { ProfileStore } from "../profile/profile-store.js";
import type { RuleStore } from "../procedural/rule-store.js";

/** How a user's conversation threads are deleted. */
export type ThreadDeletion =
  /** Through a checkpointer's public API (any LangGraph `BaseCheckpointSaver` has `deleteThread`). */
  | { deleteThread(threadId: string): Promise<void> }
  /** Plain SQL on the checkpointer tables of this schema (`threads`, `checkpoints`, `checkpoint_items`, `checkpoint_writes`). */
  | "sql"
  /** Leave threads alone (e.g. the app keeps conversations elsewhere and deletes them itself). */
  | false;

/** Rows deleted, per kind of item. */
export interface DeletedCounts {
  memories: number;
  profile: number;
  profileHistory: number;
  rules: number;
  /** Background jobs of the user (their payloads hold the user's messages). */
  jobs: number;
  threads: number;
  confirmations: number;
}

export interface UserDataDeps {
  profiles: ProfileStore;
  rules: RuleStore;
  threads: ThreadDeletion;
}

/**
 * Delete a user's queued work: submitted inbox rows first (a fold in progress holds them locked,
 * so this waits for it), then jobs, whose statement then also sees the jobs that fold made.
 * Returns how many rows went (inbox rows and jobs).
 */
export async function deleteUserJobsIn(tx: Queryable, s: UserScope): Promise<number> {
  const inbox = (await tx.query("DELETE FROM memory_jobs_inbox WHERE tenant_id = $1 AND user_id = $2", [s.tenantId, s.userId])).rowCount;
  const jobs = (await tx.query("DELETE FROM memory_jobs WHERE tenant_id = $1 AND user_id = $2", [s.tenantId, s.userId])).rowCount;
  return inbox + jobs;
}

/**
 * Inside a transaction scoped to the user: delete jobs first (a running extraction holds its job
 * row locked until it commits, so this waits for it and the memories it wrote are then deleted
 * too), then memories (rows, embeddings and full-text entries are one row), the profile with its
 * history, the user's own rules, pending confirmations and — with "sql" — the threads. Each kind
 * writes one audit row. Settings (the opt-out flag) are kept: deleting must not switch memory back
 * on. Returns the counts and, when threads go through a checkpointer, the thread ids to delete
 * after commit.
 */
export async function deleteUserDataIn(
  tx: Queryable,
  s: UserScope,
  deps: UserDataDeps,
  audit: DeletionContext & { via: string },
): Promise<{ counts: DeletedCounts; threadIds: string[] }> {
  const jobs = await deleteUserJobsIn(tx, s);
  await recordDeletion(tx, s, "job", jobs, audit);
  const memories = (await tx.query("DELETE FROM memories WHERE scope = 'user' AND tenant_id = $1 AND user_id = $2", [s.tenantId, s.userId])).rowCount;
  await recordDeletion(tx, s, "memory", memories, audit);
  // The user's memories version (its row names the user; a later memory starts a new one, never
  // equal to a version a cache may still hold, see migration 0007).
  await tx.query("DELETE FROM memory_versions WHERE tenant_id = $1 AND user_id = $2", [s.tenantId, s.userId]);
  const profile = await deps.profiles.deleteIn(tx, s, audit);
  const rules = await deps.rules.deleteUserRulesIn(tx, s, audit);
  const confirmations = (await tx.query("DELETE FROM memory_confirmations WHERE tenant_id = $1 AND user_id = $2", [s.tenantId, s.userId])).rowCount;
  await recordDeletion(tx, s, "confirmation", confirmations, audit);
  let threads = 0;
  let threadIds: string[] = [];
  if (deps.threads === "sql") {
    threads = await deleteThreadsSql(tx, s);
    await recordDeletion(tx, s, "thread", threads, audit);
  } else if (deps.threads) {
    threadIds = (await tx.query<{ thread_id: string }>("SELECT thread_id FROM threads WHERE tenant_id = $1 AND user_id = $2 ORDER BY thread_id", [s.tenantId, s.userId])).rows.map(
      (r) => r.thread_id,
    );
  }
  return { counts: { memories, profile: profile.profile, profileHistory: profile.history, rules, jobs, threads, confirmations }, threadIds };
}

/**
 * After the data transaction committed: delete the listed threads through the checkpointer (so its
 * in-process caches drop them too), then audit them. A failure leaves the remaining threads and
 * throws DB_QUERY_FAILED naming how many are left (the rest of the deletion stands).
 */
export async function deleteThreadsAfterCommit(
  db: Database,
  s: UserScope,
  saver: { deleteThread(threadId: string): Promise<void> },
  threadIds: readonly string[],
  audit: DeletionContext & { via: string },
): Promise<number> {
  let done = 0;
  let failure: unknown;
  for (const id of threadIds) {
    try {
      await saver.deleteThread(id);
      done++;
    } catch (err) {
      failure = err;
      break;
    }
  }
  if (done > 0) await db.transaction((tx) => recordDeletion(tx, s, "thread", done, audit), { scope: s });
  if (failure !== undefined) {
    throw new MemoryError(ErrorCodes.DB_QUERY_FAILED, `deleted ${done} of ${threadIds.length} threads before the checkpointer failed; delete the rest again`, {
      retryable: true,
      cause: failure,
      details: { threadsLeft: threadIds.length - done },
    });
  }
  return done;
}

/** The checkpointer's rows of every thread of the user, in one statement (the same tables `deleteThread` clears). */
async function deleteThreadsSql(tx: Queryable, s: UserScope): Promise<number> {
  const exists = (await tx.query<{ t: string | null }>("SELECT to_regclass('threads')::text AS t")).rows[0]?.t;
  if (!exists) return 0;
  const { rowCount } = await tx.query(
    `WITH t AS (SELECT thread_id FROM threads WHERE tenant_id = $1 AND user_id = $2),
          w AS (DELETE FROM checkpoint_writes x USING t WHERE x.thread_id = t.thread_id),
          i AS (DELETE FROM checkpoint_items x USING t WHERE x.thread_id = t.thread_id),
          c AS (DELETE FROM checkpoints x USING t WHERE x.thread_id = t.thread_id)
     DELETE FROM threads x USING t WHERE x.thread_id = t.thread_id`,
    [s.tenantId, s.userId],
  );
  return rowCount;
}
