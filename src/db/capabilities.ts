import type { DatabaseCapabilities, Queryable } from "./database.js";
import { READ_CAPABILITIES_SQL } from "./db-queries.js";

/** Read what the connected database can do. */
export async function readCapabilities(db: Queryable): Promise<DatabaseCapabilities> {
  const { rows } = await db.query<{ pgvector: boolean; version: string }>(READ_CAPABILITIES_SQL);
  return { pgvector: rows[0].pgvector, serverVersion: rows[0].version.split(" ")[0] };
}
