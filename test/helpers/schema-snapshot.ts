import type { Database } from "../../src/db/database.js";

/**
 * Everything a migration can change in the database's schema, as sorted text lines with the
 * schema's own name replaced by `<schema>`, so two schemas built differently compare equal exactly
 * when they hold the same tables, columns, defaults, constraints, indexes, functions, triggers,
 * views and row-level-security policies.
 */
export async function schemaSnapshot(db: Database): Promise<string[]> {
  const params = [db.schema];
  const queries = [
    `SELECT 'column ' || table_name || '.' || column_name || ' ' || udt_name || ' null=' || is_nullable
       || ' default=' || coalesce(column_default, '') || ' generated=' || coalesce(generation_expression, '') AS line
     FROM information_schema.columns WHERE table_schema = $1`,
    `SELECT 'constraint ' || c.conrelid::regclass::text || ' ' || c.conname || ' ' || pg_get_constraintdef(c.oid) AS line
     FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace WHERE n.nspname = $1`,
    `SELECT 'index ' || indexname || ' ' || indexdef AS line FROM pg_indexes WHERE schemaname = $1`,
    `SELECT 'function ' || p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ') ' || md5(replace(pg_get_functiondef(p.oid), $1, '<schema>')) AS line
     FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = $1 AND p.prokind IN ('f', 'p')`,
    `SELECT 'trigger ' || t.tgrelid::regclass::text || ' ' || t.tgname || ' ' || pg_get_triggerdef(t.oid) AS line
     FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = $1 AND NOT t.tgisinternal`,
    `SELECT 'view ' || viewname || ' ' || md5(replace(definition, $1, '<schema>')) AS line FROM pg_views WHERE schemaname = $1`,
    `SELECT 'policy ' || tablename || ' ' || policyname || ' ' || cmd || ' ' || coalesce(qual, '') || ' ' || coalesce(with_check, '') AS line
     FROM pg_policies WHERE schemaname = $1`,
    `SELECT 'rls ' || relname || ' ' || relrowsecurity::text || ' ' || relforcerowsecurity::text AS line
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind = 'r'`,
  ];
  const lines: string[] = [];
  for (const sql of queries) {
    const { rows } = await db.query<{ line: string }>(sql, params);
    for (const r of rows) lines.push(r.line.split(db.schema).join("<schema>"));
  }
  return lines.sort();
}
