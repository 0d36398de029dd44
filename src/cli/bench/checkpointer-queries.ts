/**
 * The statements of `bench checkpointer` (checkpointer.ts) beyond the savers' own: session
 * settings, the commit floor, table sizes and clean-up. Schemas come in already quoted.
 */

/** The bytes of `$2` (table names) in schema `$1`, indexes and TOAST included: what a saver stores. */
export const TABLE_BYTES_SQL = `SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::text AS bytes
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = $1 AND c.relkind = 'r' AND c.relname = ANY($2::text[])`;

/** `--synchronous-commit off`: commits return before the WAL is flushed (takes the disk out of the comparison). */
export const SYNCHRONOUS_COMMIT_OFF_SQL = "SET synchronous_commit = off";

/** Write dirty buffers out before commits are timed (needs the privilege; the caller tolerates a refusal). */
export const CHECKPOINT_SQL = "CHECKPOINT";

/** The one-column table whose one-row inserts time the floor under any durable put. */
export function createCommitFloorTableSql(schema: string): string {
  return `CREATE TABLE ${schema}.bench_commit_floor (x int)`;
}

/** One row into the commit-floor table: an INSERT and its commit, timed beside the puts. */
export function insertCommitFloorRowSql(schema: string): string {
  return `INSERT INTO ${schema}.bench_commit_floor VALUES (1)`;
}

/** Drop the commit-floor table once the puts are timed. */
export function dropCommitFloorTableSql(schema: string): string {
  return `DROP TABLE ${schema}.bench_commit_floor`;
}

/** Drop a saver's fresh schema with everything in it, after the run. */
export function dropSchemaSql(schema: string): string {
  return `DROP SCHEMA IF EXISTS ${schema} CASCADE`;
}
