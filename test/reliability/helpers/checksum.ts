/**
 * A checksum, computed in SQL, of every row a hostile caller must not touch: in each table of the
 * schema, the rows of the protected tenants (and the global rows, tenant_id NULL); tables without
 * a tenant column whole — except the per-tenant vector sets a caller's own BaseStore door records
 * in `embedding_settings`, and tables the run itself writes for bookkeeping.
 */
import type { Queryable } from "../../../src/db/database.js";
import { quoteIdent } from "../../../src/db/identifier.js";

export async function protectedRowsChecksum(db: Queryable & { schema: string }, tenants: readonly string[]): Promise<Record<string, string>> {
  const { rows: tables } = await db.query<{ table_name: string; has_tenant: boolean }>(
    `SELECT c.relname AS table_name,
            EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'tenant_id' AND NOT a.attisdropped) AS has_tenant
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = $1 AND c.relkind IN ('r', 'p') ORDER BY 1`,
    [db.schema],
  );
  const out: Record<string, string> = {};
  for (const { table_name: table, has_tenant: hasTenant } of tables) {
    let where = "TRUE";
    const params: unknown[] = [];
    if (hasTenant) {
      params.push([...tenants]);
      where = "(t.tenant_id = ANY($1::text[]) OR t.tenant_id IS NULL)";
    } else if (table === "embedding_settings") {
      params.push(tenants.map((tenant) => `items:${tenant}`));
      where = "(t.vector_set NOT LIKE 'items:%' OR t.vector_set = ANY($1::text[]))";
    }
    const { rows } = await db.query<{ n: number; h: string }>(
      `SELECT count(*)::int AS n, md5(coalesce(string_agg(md5(t::text), ',' ORDER BY md5(t::text)), '')) AS h FROM ${quoteIdent(table)} t WHERE ${where}`,
      params,
    );
    out[table] = `${rows[0].n}:${rows[0].h}`;
  }
  return out;
}
