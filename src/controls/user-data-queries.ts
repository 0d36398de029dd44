/**
 * Named SQL of "delete everything of a user" (`user-data.ts`). Every statement is filtered by the
 * tenant and user it is given ($1, $2): never a row of anyone else.
 */

/** The user's submitted inbox rows (a fold in progress holds them locked, so this waits for it). */
export const DELETE_USER_INBOX_SQL = "DELETE FROM memory_jobs_inbox WHERE tenant_id = $1 AND user_id = $2";

/** The user's background jobs (their payloads hold the user's messages). */
export const DELETE_USER_JOBS_SQL = "DELETE FROM memory_jobs WHERE tenant_id = $1 AND user_id = $2";

/** The user's memories (rows, embeddings and full-text entries are one row). */
export const DELETE_USER_MEMORIES_SQL = "DELETE FROM memories WHERE scope = 'user' AND tenant_id = $1 AND user_id = $2";

/**
 * The user's memories version (its row names the user; a later memory starts a new one, never
 * equal to a version a cache may still hold, see migration 0007).
 */
export const DELETE_USER_MEMORY_VERSION_SQL = "DELETE FROM memory_versions WHERE tenant_id = $1 AND user_id = $2";

/** The user's pending confirmations. */
export const DELETE_USER_CONFIRMATIONS_SQL = "DELETE FROM memory_confirmations WHERE tenant_id = $1 AND user_id = $2";

/** The threads recorded as the user's (migration 0008), whichever checkpointer holds them. */
export const USER_THREADS_SQL = "SELECT thread_id FROM thread_owners WHERE tenant_id = $1 AND user_id = $2 ORDER BY thread_id";

/**
 * The checkpointer's rows of every thread of the user, and those threads' owner records, in one
 * statement (the same tables `deleteThread` clears, with the LangGraph API's record of them).
 * Returns the deleted thread ids.
 */
export const DELETE_USER_THREADS_SQL = `WITH t AS (SELECT o.thread_id FROM thread_owners o JOIN threads th ON th.thread_id = o.thread_id WHERE o.tenant_id = $1 AND o.user_id = $2),
          w AS (DELETE FROM checkpoint_writes x USING t WHERE x.thread_id = t.thread_id),
          i AS (DELETE FROM checkpoint_items x USING t WHERE x.thread_id = t.thread_id),
          c AS (DELETE FROM checkpoints x USING t WHERE x.thread_id = t.thread_id),
          o AS (DELETE FROM thread_owners x USING t WHERE x.thread_id = t.thread_id),
          a AS (DELETE FROM api_threads x USING t WHERE x.thread_id = t.thread_id)
     DELETE FROM threads x USING t WHERE x.thread_id = t.thread_id RETURNING x.thread_id`;
