/** The statements of `memoryStatus` (read-only). */

/** Whether the server offers pgvector (installed or not). */
export const PGVECTOR_AVAILABLE_SQL = "SELECT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') AS a";

/** Whether table `$1` (schema-qualified) exists: its name, or NULL. */
export const TABLE_EXISTS_SQL = "SELECT to_regclass($1)::text AS t";
