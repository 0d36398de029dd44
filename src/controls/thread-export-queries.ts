/** The threads recorded as the user's (migration 0008), with this schema's thread row when it has one. */
export const USER_THREADS_FOR_EXPORT_SQL = `SELECT o.thread_id, t.created_at, t.updated_at
  FROM thread_owners o LEFT JOIN threads t ON t.thread_id = o.thread_id
  WHERE o.tenant_id = $1 AND o.user_id = $2 ORDER BY o.thread_id`;
