/** The session advisory lock that serialises one user's write passes on server Postgres (`$1`: the lock key). */

export const LOCK_USER_WRITES_SQL = "SELECT pg_advisory_lock(hashtextextended($1, 0))";

export const UNLOCK_USER_WRITES_SQL = "SELECT pg_advisory_unlock(hashtextextended($1, 0))";
