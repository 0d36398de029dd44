import type { DatabaseCapabilities, Queryable } from "./database.js";

/** Read what the connected database can do. */
export async function readCapabilities(db: Queryable): Promise<DatabaseCapabilities> {
  const { rows } = await db.query<{ pgvector: boolean; version: string }>(
    `SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'vector') AS pgvector,
            current_setting('server_version') AS version`,
  );
  return { pgvector: rows[0].pgvector, serverVersion: rows[0].version.split(" ")[0] };
}
