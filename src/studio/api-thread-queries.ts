/**
 * The SQL of the LangGraph API's thread registry (migration 0013's `api_threads`). A thread the
 * API knows is one it registered (`POST /threads`, a run) or one the checkpointer holds (a
 * `threads` row, e.g. written by an app's own graph): both are listed, the registry's metadata
 * on top of the checkpointer's timestamps.
 */

/** Columns of one listed thread. */
export interface ApiThreadRow {
  thread_id: string;
  metadata: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

const THREAD_COLUMNS = `coalesce(a.thread_id, t.thread_id) AS thread_id, coalesce(a.metadata, '{}'::jsonb) AS metadata,
  coalesce(a.created_at, t.created_at) AS created_at, greatest(a.updated_at, t.updated_at) AS updated_at`;

/** One thread ($1) by id, from the registry and/or the checkpointer's row; no row when neither has it. */
export const GET_API_THREAD_SQL = `
SELECT ${THREAD_COLUMNS}
FROM (SELECT * FROM api_threads WHERE thread_id = $1) a
FULL JOIN (SELECT thread_id, created_at, updated_at FROM threads WHERE thread_id = $1) t ON true`;

/** Register thread $1 with metadata $2 (jsonb), replacing what it had. */
export const PUT_API_THREAD_SQL = `
INSERT INTO api_threads (thread_id, metadata) VALUES ($1, $2::jsonb)
ON CONFLICT (thread_id) DO UPDATE SET metadata = EXCLUDED.metadata, updated_at = now()`;

/** Merge metadata $2 (jsonb) into thread $1's, registering it if needed. */
export const PATCH_API_THREAD_SQL = `
INSERT INTO api_threads (thread_id, metadata) VALUES ($1, $2::jsonb)
ON CONFLICT (thread_id) DO UPDATE SET metadata = api_threads.metadata || EXCLUDED.metadata, updated_at = now()`;

const SORT_COLUMNS = { created_at: "created_at", updated_at: "updated_at" } as const;

/**
 * A page of threads whose metadata contains $1 (jsonb), $2 rows from offset $3, with the total
 * count of matches on every row.
 */
export function searchApiThreadsSql(sortBy: keyof typeof SORT_COLUMNS, order: "asc" | "desc"): string {
  const column = SORT_COLUMNS[sortBy];
  const direction = order === "asc" ? "ASC" : "DESC";
  return `
WITH listed AS (
  SELECT ${THREAD_COLUMNS}
  FROM api_threads a FULL JOIN threads t ON t.thread_id = a.thread_id
)
SELECT *, count(*) OVER () AS total FROM listed
WHERE metadata @> $1::jsonb
ORDER BY ${column} ${direction}, thread_id ${direction}
LIMIT $2 OFFSET $3`;
}
