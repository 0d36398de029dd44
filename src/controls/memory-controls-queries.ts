/**
 * Named SQL of `MemoryControls` (inspect, delete-all requests, version chains). Every statement is
 * filtered by the tenant and user it is given ($1, $2).
 */

/** The user's memories that $3 superseded directly, oldest first. */
export const SUPERSEDED_BY_SQL =
  "SELECT id FROM memories WHERE scope = 'user' AND tenant_id = $1 AND user_id = $2 AND superseded_by = $3::uuid ORDER BY created_at, id";

/** Records the user's "forget everything" request ($3 its change source as JSON), creating their settings row if needed. */
export const RECORD_DELETE_ALL_REQUEST_SQL = `INSERT INTO memory_settings AS m (tenant_id, user_id, delete_all_requested_at, delete_all_request_source) VALUES ($1, $2, now(), $3::jsonb)
           ON CONFLICT (tenant_id, user_id) DO UPDATE SET delete_all_requested_at = now(), delete_all_request_source = excluded.delete_all_request_source`;

/** Clears the user's pending "forget everything" request once their data is deleted. */
export const CLEAR_DELETE_ALL_REQUEST_SQL =
  "UPDATE memory_settings SET delete_all_requested_at = NULL, delete_all_request_source = NULL WHERE tenant_id = $1 AND user_id = $2 AND delete_all_requested_at IS NOT NULL";

/** The user's pending "forget everything" request (null columns when there is none). */
export const DELETE_ALL_REQUEST_SQL =
  "SELECT delete_all_requested_at AS at, delete_all_request_source AS source FROM memory_settings WHERE tenant_id = $1 AND user_id = $2";

/** The memory $3 and every older version it superseded, transitively (the user's own rows only, at most 10,000). */
export const VERSION_CHAIN_SQL = `WITH RECURSIVE chain(id) AS (
       SELECT m.id FROM memories m WHERE m.scope = 'user' AND m.tenant_id = $1 AND m.user_id = $2 AND m.id = $3::uuid
       UNION
       SELECT m.id FROM memories m JOIN chain c ON m.superseded_by = c.id
       WHERE m.scope = 'user' AND m.tenant_id = $1 AND m.user_id = $2)
     SELECT id FROM chain LIMIT 10000`;
