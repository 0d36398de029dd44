import { existsSync, readFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { openDatabase, type OpenDatabaseOptions } from "../../src/db/open.js";
import type { Database } from "../../src/db/database.js";
import { quoteIdent } from "../../src/db/identifier.js";
import { PGLITE_TEMPLATE_PATH, type TestEngine } from "./engines.js";

export { testEngines, type TestEngine } from "./engines.js";

/** A unique schema name so parallel test files (and parallel developers) never share tables. */
export function uniqueSchema(prefix = "lgm_test"): string {
  return `${prefix}_${process.pid}_${randomBytes(4).toString("hex")}`;
}

let template: Blob | undefined;

function pgliteTemplate(): Blob | undefined {
  if (!template && existsSync(PGLITE_TEMPLATE_PATH)) template = new Blob([readFileSync(PGLITE_TEMPLATE_PATH)]);
  return template;
}

/**
 * A fresh, migrated database for one test file: an in-memory PGlite restored from the template,
 * or a new schema on the DATABASE_URL server, dropped again by `close()`.
 */
export async function openTestDatabase(engine: TestEngine, options: OpenDatabaseOptions = {}): Promise<Database> {
  if (engine === "pglite") {
    const schema = options.schema;
    // The template holds the default schema; another schema is migrated on top.
    return openDatabase("memory://", { ...options, loadDataDir: pgliteTemplate(), schema });
  }
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("openTestDatabase('postgres') needs DATABASE_URL");
  const schema = options.schema ?? uniqueSchema();
  const db = await openDatabase(url, { ...options, schema });
  const close = db.close.bind(db);
  db.close = async () => {
    if (db.closed) return;
    // The pool first: work still in flight (a candidate cache fill the last test started) finishes
    // on it, and anything later sees a closed database instead of a schema dropped under it.
    await close();
    await dropSchema(url, schema);
  };
  return db;
}

/** Drop a test schema with a separate connection (the pool may be mid-shutdown). */
export async function dropSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${quoteIdent(schema)} CASCADE`);
  } finally {
    await client.end();
  }
}
