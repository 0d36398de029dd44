/**
 * "Delete everything of a user": the part shared by `MemoryControls.deleteAll`, opt-out with purge,
 * and the retention sweep's purge of opted-out users.
 */
import type { Database, Queryable } from "../db/database.js";
import { ErrorCodes, MemoryError } from "../errors.js";
import type { UserScope } from "../core/scope.js";
import { recordDeletion, type DeletionContext } from "../store/deletion-audit.js";
import type { ProfileStore } from "../profile/profile-store.js";
import type { RuleStore } from "../procedural/rule-store.js";
import { DELETE_USER_THREAD_OWNERS_SQL } from "../threads/thread-owner-queries.js";
import {
  DELETE_USER_CONFIRMATIONS_SQL,
  DELETE_USER_INBOX_SQL,
  DELETE_USER_JOBS_SQL,
  DELETE_USER_MEMORIES_SQL,
  DELETE_USER_MEMORY_VERSION_SQL,
  DELETE_USER_THREADS_SQL,
  USER_THREADS_SQL,
} from "./user-data-queries.js";
import { forgetOwners } from "../threads/thread-owner.js";
import { deleteUserStoreItemsIn } from "../store/store-item-queries.js";

/**
 * How a user's conversation threads are deleted. Which threads are the user's is what migration
 * 0008's `thread_owners` recorded (by the checkpointer and by the memory nodes, whichever
 * checkpointer held the thread): never a thread of anyone else.
 */
export type ThreadDeletion =
  /**
   * Through a checkpointer's public API (any LangGraph `BaseCheckpointSaver` has `deleteThread`):
   * every thread recorded as the user's, then their owner records.
   */
  | { deleteThread(threadId: string): Promise<void> }
  /**
   * Plain SQL on the checkpointer tables of this schema (`threads`, `checkpoints`,
   * `checkpoint_items`, `checkpoint_writes`) and the owner records of the threads deleted there.
   * The owner record of a thread another checkpointer holds stays, so its id cannot be taken over
   * while that checkpointer still has the conversation.
   */
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
  /** LangGraph `BaseStore` items the user's store wrote (`LangGraphStore.forScope` / `forConfig`). */
  storeItems: number;
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
  const inbox = (await tx.query(DELETE_USER_INBOX_SQL, [s.tenantId, s.userId])).rowCount;
  const jobs = (await tx.query(DELETE_USER_JOBS_SQL, [s.tenantId, s.userId])).rowCount;
  return inbox + jobs;
}

/**
 * Inside a transaction scoped to the user: delete jobs first (a running extraction holds its job
 * row locked until it commits, so this waits for it and the memories it wrote are then deleted
 * too), then memories (rows, embeddings and full-text entries are one row), the profile with its
 * history, the user's own rules, pending confirmations, the BaseStore items the user's store wrote
 * and — with "sql" — the threads. Each kind
 * writes one audit row. Settings (the opt-out flag) are kept: deleting must not switch memory back
 * on. Returns the counts and, when threads go through a checkpointer, the thread ids to delete
 * after commit.
 */
export async function deleteUserDataIn(
  tx: Queryable,
  s: UserScope,
  deps: UserDataDeps,
  audit: DeletionContext & { via: string },
): Promise<{ counts: DeletedCounts; threadIds: string[]; deletedThreadIds: string[] }> {
  const jobs = await deleteUserJobsIn(tx, s);
  await recordDeletion(tx, s, "job", jobs, audit);
  const memories = (await tx.query(DELETE_USER_MEMORIES_SQL, [s.tenantId, s.userId])).rowCount;
  await recordDeletion(tx, s, "memory", memories, audit);
  // The user's memories version (its row names the user; a later memory starts a new one, never
  // equal to a version a cache may still hold, see migration 0007).
  await tx.query(DELETE_USER_MEMORY_VERSION_SQL, [s.tenantId, s.userId]);
  const profile = await deps.profiles.deleteIn(tx, s, audit);
  const rules = await deps.rules.deleteUserRulesIn(tx, s, audit);
  const confirmations = (await tx.query(DELETE_USER_CONFIRMATIONS_SQL, [s.tenantId, s.userId])).rowCount;
  await recordDeletion(tx, s, "confirmation", confirmations, audit);
  const storeItems = await deleteUserStoreItemsIn(tx, s);
  await recordDeletion(tx, s, "store_item", storeItems, audit);
  let threadIds: string[] = [];
  let deletedThreadIds: string[] = [];
  if (deps.threads === "sql") {
    deletedThreadIds = await deleteThreadsSql(tx, s);
    await recordDeletion(tx, s, "thread", deletedThreadIds.length, audit);
  } else if (deps.threads) {
    threadIds = (await tx.query<{ thread_id: string }>(USER_THREADS_SQL, [s.tenantId, s.userId])).rows.map((r) => r.thread_id);
  }
  return {
    counts: { memories, profile: profile.profile, profileHistory: profile.history, rules, jobs, threads: deletedThreadIds.length, confirmations, storeItems },
    threadIds,
    deletedThreadIds,
  };
}

/**
 * After the data transaction committed: delete the listed threads through the checkpointer (so its
 * in-process caches drop them too), then their owner records, then audit them. A failure leaves the
 * remaining threads and throws DB_QUERY_FAILED naming how many are left (the rest of the deletion
 * stands).
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
  if (done > 0) {
    const deleted = threadIds.slice(0, done);
    await db.transaction(async (tx) => {
      // A saver other than ours does not know them: only this user's records of the deleted threads.
      await tx.query(DELETE_USER_THREAD_OWNERS_SQL, [deleted, s.tenantId, s.userId]);
      await recordDeletion(tx, s, "thread", done, audit);
    }, { scope: s });
    forgetOwners(db, deleted);
  }
  if (failure !== undefined) {
    throw new MemoryError(ErrorCodes.DB_QUERY_FAILED, `deleted ${done} of ${threadIds.length} threads before the checkpointer failed; delete the rest again`, {
      retryable: true,
      cause: failure,
      details: { threadsLeft: threadIds.length - done },
    });
  }
  return done;
}

/**
 * The checkpointer's rows of every thread of the user, and those threads' owner records, in one
 * statement. Returns the deleted thread ids.
 */
async function deleteThreadsSql(tx: Queryable, s: UserScope): Promise<string[]> {
  const { rows } = await tx.query<{ thread_id: string }>(DELETE_USER_THREADS_SQL, [s.tenantId, s.userId]);
  return rows.map((r) => r.thread_id);
}
