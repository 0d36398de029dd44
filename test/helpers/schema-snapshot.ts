import type { Database } from "../../src/db/database.js";

/** What else a snapshot holds besides the schema's objects (all off by default). */
export interface SnapshotOptions {
  /** Objects of these schemas too (e.g. `["public"]`, where PGlite's extensions put theirs). */
  alsoSchemas?: readonly string[];
  /** Each column's position (`ordinal_position`), so a column order that differs shows. */
  columnOrder?: boolean;
  /** The installed extensions with their versions and schemas. */
  extensions?: boolean;
  /** The names of the database's schemas (not `pg_*`). */
  schemaNames?: boolean;
  /** The rows of the schema's `migrations` table (id, name, checksum; not when they ran). */
  migrationRows?: boolean;
  /** The purposes and lengths of the seal keys (`memory_seal_keys`; never the per-install keys themselves). */
  sealPurposes?: boolean;
}

/**
 * Everything a migration can change in the database's schema, as sorted text lines with the
 * schema's own name replaced by `<schema>`, so two schemas built differently compare equal exactly
 * when they hold the same tables, columns, defaults, constraints, indexes, functions, triggers,
 * views and row-level-security policies. Options add what else a test compares (see
 * {@link SnapshotOptions}); each line starts with its kind (`column`, `extension`, `migration`, …).
 */
export async function schemaSnapshot(db: Database, options: SnapshotOptions = {}): Promise<string[]> {
  // $1 the schemas read, $2 the database's own schema (replaced in function and view bodies).
  const params = [[db.schema, ...(options.alsoSchemas ?? [])], db.schema];
  const position = options.columnOrder ? " || ' position=' || ordinal_position" : "";
  const queries = [
    `SELECT 'column ' || table_schema || '.' || table_name || '.' || column_name || ' ' || udt_name || ' null=' || is_nullable
       || ' default=' || coalesce(column_default, '') || ' generated=' || coalesce(generation_expression, '')${position} AS line
     FROM information_schema.columns WHERE table_schema = ANY($1::text[])`,
    `SELECT 'constraint ' || n.nspname || ' ' || c.conrelid::regclass::text || ' ' || c.conname || ' ' || pg_get_constraintdef(c.oid) AS line
     FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace WHERE n.nspname = ANY($1::text[])`,
    `SELECT 'index ' || schemaname || ' ' || indexname || ' ' || indexdef AS line FROM pg_indexes WHERE schemaname = ANY($1::text[])`,
    // Functions and procedures by their whole definition (body, result, volatility, security);
    // aggregates and window functions (an extension's) by kind, result and source.
    `SELECT 'function ' || n.nspname || '.' || p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ') '
       || CASE WHEN p.prokind IN ('f', 'p') THEN md5(replace(pg_get_functiondef(p.oid), $2, '<schema>'))
          ELSE p.prokind::text || ' ' || pg_get_function_result(p.oid) || ' ' || md5(p.prosrc) END AS line
     FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = ANY($1::text[])`,
    `SELECT 'trigger ' || n.nspname || ' ' || t.tgrelid::regclass::text || ' ' || t.tgname || ' ' || pg_get_triggerdef(t.oid) AS line
     FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = ANY($1::text[]) AND NOT t.tgisinternal`,
    `SELECT 'view ' || schemaname || '.' || viewname || ' ' || md5(replace(definition, $2, '<schema>')) AS line FROM pg_views WHERE schemaname = ANY($1::text[])`,
    `SELECT 'policy ' || schemaname || '.' || tablename || ' ' || policyname || ' ' || cmd || ' ' || coalesce(qual, '') || ' ' || coalesce(with_check, '') AS line
     FROM pg_policies WHERE schemaname = ANY($1::text[])`,
    `SELECT 'rls ' || n.nspname || '.' || relname || ' ' || relrowsecurity::text || ' ' || relforcerowsecurity::text AS line
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = ANY($1::text[]) AND c.relkind = 'r'`,
  ];
  const lines: string[] = [];
  for (const sql of queries) {
    // Server Postgres refuses a parameter the statement does not use.
    const { rows } = await db.query<{ line: string }>(sql, sql.includes("$2") ? params : params.slice(0, 1));
    for (const r of rows) lines.push(r.line);
  }
  const extra: string[] = [];
  if (options.extensions) extra.push("SELECT 'extension ' || extname || ' ' || extversion || ' ' || extnamespace::regnamespace::text AS line FROM pg_extension");
  if (options.schemaNames) extra.push("SELECT 'schema ' || nspname AS line FROM pg_namespace WHERE nspname NOT LIKE 'pg\\_%'");
  if (options.migrationRows) extra.push("SELECT 'migration ' || id || ' ' || name || ' ' || checksum AS line FROM migrations");
  if (options.sealPurposes) extra.push("SELECT 'seal ' || purpose || ' ' || length(key) AS line FROM memory_seal_keys");
  for (const sql of extra) {
    const { rows } = await db.query<{ line: string }>(sql);
    for (const r of rows) lines.push(r.line);
  }
  return lines.map((line) => line.split(db.schema).join("<schema>")).sort();
}
