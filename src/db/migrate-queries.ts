/**
 * The statements of the migrator (`migrate.ts`). The bookkeeping table lives in the memory's own
 * schema, so its statements take the schema (already quoted: `db.schemaSql`).
 */

/** The migrators' advisory lock, one per schema (`$1`: the schema's name): concurrent migrators queue up. */
export const LOCK_MIGRATIONS_SQL = "SELECT pg_advisory_lock(hashtext('langgraph-memory'), hashtext($1))";

export const UNLOCK_MIGRATIONS_SQL = "SELECT pg_advisory_unlock(hashtext('langgraph-memory'), hashtext($1))";

export function createSchemaSql(schemaSql: string): string {
  return `CREATE SCHEMA IF NOT EXISTS ${schemaSql}`;
}

/** The record of applied migrations: one row per migration, with the checksum it had when applied. */
export function createMigrationsTableSql(schemaSql: string): string {
  return `CREATE TABLE IF NOT EXISTS ${schemaSql}.migrations (
        id integer PRIMARY KEY,
        name text NOT NULL,
        checksum text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`;
}

/** Record migration `$1` (`$2` name, `$3` checksum) before running it: a concurrent migrator that slipped past the lock fails here on the key. */
export function insertMigrationSql(schemaSql: string): string {
  return `INSERT INTO ${schemaSql}.migrations (id, name, checksum) VALUES ($1, $2, $3)`;
}

/** The migrations recorded in the database, in order. */
export function selectAppliedMigrationsSql(schemaSql: string): string {
  return `SELECT id, name, checksum, applied_at FROM ${schemaSql}.migrations ORDER BY id`;
}
