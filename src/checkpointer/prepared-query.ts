import { createHash } from "node:crypto";
import type { Database, QueryResult } from "../db/database.js";

const names = new Map<string, string>();

/**
 * Run one of the checkpointer's hot statements as a named prepared statement on server Postgres:
 * the put and read statements are long CTEs whose planning (~0.4 ms) costs as much as running
 * them. PGlite runs in-process and ignores the name.
 */
export async function queryPrepared<R>(db: Database, sql: string, params: readonly unknown[]): Promise<QueryResult<R>> {
  let name = names.get(sql);
  if (!name) {
    name = `lgm_cp_${createHash("sha1").update(sql).digest("hex").slice(0, 20)}`;
    names.set(sql, name);
  }
  return db.query<R>(sql, params, { name });
}
