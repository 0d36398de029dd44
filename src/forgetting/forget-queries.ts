/**
 * Named SQL of forgetting a fact everywhere (`forget-everywhere.ts`). Every statement is for one
 * user ($1 tenant, $2 user) and runs in that user's transaction; rows are locked before they are
 * rewritten, so a concurrent writer of the same row waits.
 */

/** The user's past-session memories (any state: an expired or superseded session still quotes the user). */
export const USER_SESSIONS_SQL = `
SELECT id::text AS id, text, context, metadata FROM memories
WHERE scope = 'user' AND tenant_id = $1 AND user_id = $2 AND kind = 'episode' AND metadata ? 'session'
FOR UPDATE`;

/** $3 id, $4 text, $5 context, $6 embedding, $7 metadata (JSON text). */
export const UPDATE_SESSION_SQL = `
UPDATE memories SET text = $4, context = $5, embedding = $6::real[], metadata = $7::jsonb, updated_at = now()
WHERE scope = 'user' AND tenant_id = $1 AND user_id = $2 AND id = $3::uuid`;

/** $3 ids. */
export const DELETE_SESSIONS_SQL = `DELETE FROM memories WHERE scope = 'user' AND tenant_id = $1 AND user_id = $2 AND id = ANY($3::uuid[])`;

/** The user's conversation threads (the checkpointer's thread rows). */
export const USER_THREADS_SQL = `SELECT thread_id FROM threads WHERE tenant_id = $1 AND user_id = $2 ORDER BY thread_id`;

export const PROFILE_FOR_UPDATE_SQL = `SELECT document, sources FROM profiles WHERE tenant_id = $1 AND user_id = $2 FOR UPDATE`;

/** $3 document, $4 sources (JSON text). */
export const UPDATE_PROFILE_SQL = `UPDATE profiles SET document = $3::jsonb, sources = $4::jsonb, updated_at = now() WHERE tenant_id = $1 AND user_id = $2`;

export const PROFILE_HISTORY_SQL = `SELECT id::text AS id, field, old_value, new_value FROM profile_history WHERE tenant_id = $1 AND user_id = $2`;

/** $3 id, $4 / $5 the value replacing old / new value (JSON text), or null to keep it. */
export const REDACT_PROFILE_HISTORY_SQL = `
UPDATE profile_history SET old_value = coalesce($4::jsonb, old_value), new_value = coalesce($5::jsonb, new_value)
WHERE tenant_id = $1 AND user_id = $2 AND id = $3::uuid`;

/** $3 ids. */
export const DELETE_PROFILE_HISTORY_SQL = `DELETE FROM profile_history WHERE tenant_id = $1 AND user_id = $2 AND id = ANY($3::uuid[])`;

/** The user's own rules, every review state. */
export const USER_RULES_SQL = `SELECT id::text AS id, text FROM procedural_rules WHERE scope = 'user' AND tenant_id = $1 AND user_id = $2`;

/** $3 ids. */
export const DELETE_RULES_SQL = `DELETE FROM procedural_rules WHERE scope = 'user' AND tenant_id = $1 AND user_id = $2 AND id = ANY($3::uuid[])`;

/** The user's submitted turns not folded yet, queued before $3 (null: all); a fold in progress holds them: this waits for it. */
export const USER_INBOX_SQL = `SELECT id, payload FROM memory_jobs_inbox WHERE tenant_id = $1 AND user_id = $2 AND ($3::timestamptz IS NULL OR enqueued_at < $3::timestamptz) FOR UPDATE`;

/** $3 id, $4 payload (JSON text). */
export const UPDATE_INBOX_SQL = `UPDATE memory_jobs_inbox SET payload = $4::jsonb WHERE tenant_id = $1 AND user_id = $2 AND id = $3`;

/**
 * The user's jobs that may still be extracted (or are kept for inspection), but $3 (the job doing
 * the forgetting; null: none), created before $4 (null: all).
 */
export const USER_OPEN_JOBS_SQL = `
SELECT id, state, payload FROM memory_jobs
WHERE tenant_id = $1 AND user_id = $2 AND state IN ('pending', 'running', 'failed') AND ($3::bigint IS NULL OR id <> $3::bigint)
  AND ($4::timestamptz IS NULL OR created_at < $4::timestamptz)
FOR UPDATE`;

/**
 * $3 id, $4 payload (JSON text). A running job also loses its lease (its token no longer matches
 * and it is claimable at once): its worker's writes are refused by the lease check of its write
 * pass, and the job runs again with the rewritten payload.
 */
export const UPDATE_JOB_SQL = `
UPDATE memory_jobs SET payload = $4::jsonb, updated_at = now(),
  locked_by = CASE WHEN state = 'running' THEN 'withdrawn:' || locked_by ELSE locked_by END,
  locked_until = CASE WHEN state = 'running' THEN now() ELSE locked_until END
WHERE tenant_id = $1 AND user_id = $2 AND id = $3`;

/** Whether the checkpointer's tables exist in this schema (NULL when they do not). */
export const THREADS_TABLE_SQL = "SELECT to_regclass('threads')::text AS t";

/** The memories of a withdrawal (`memory-withdrawal.ts`): the user's own memories `$3`, with their text and metadata. */
export const WITHDRAWN_MEMORIES_SQL = "SELECT id::text AS id, kind, text, metadata FROM memories WHERE scope = 'user' AND tenant_id = $1 AND user_id = $2 AND id = ANY($3::uuid[])";
