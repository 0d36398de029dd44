/** Driver-level statements of the database layer: the session and transaction settings, and what the server can do. */

/** Set the scope settings for the current transaction only (`set_config(…, true)` is transaction-local): `$1` = `$2`, `$3` = `$4`. */
export const SET_SCOPE_SQL = "SELECT set_config($1, $2, true), set_config($3, $4, true)";

/** The session's search path: the memory's schema (already quoted), then public (where pgvector's types live). */
export function setSearchPathSql(schemaSql: string): string {
  return `SET search_path TO ${schemaSql}, public`;
}

/** Whether pgvector is installed, and the server's version. */
export const READ_CAPABILITIES_SQL = `SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'vector') AS pgvector,
            current_setting('server_version') AS version`;

/** Drop a schema and everything in it (`schemaSql` already quoted): the demo's fresh start, the benchmarks' clean-up. */
export function dropSchemaSql(schemaSql: string): string {
  return `DROP SCHEMA IF EXISTS ${schemaSql} CASCADE`;
}
