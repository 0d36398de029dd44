import { randomBytes } from "node:crypto";
import type { Queryable } from "./database.js";

const SEAL_PURPOSES_SQL = "SELECT purpose FROM memory_seal_keys ORDER BY purpose";
const RESEAL_SQL = "UPDATE memory_seal_keys SET key = $2, created_at = now() WHERE purpose = $1";
const STAMP_MIGRATIONS_SQL = (schemaSql: string) => `UPDATE ${schemaSql}.migrations SET applied_at = now()`;

/**
 * Make a database restored from the template its own: new seal keys (the template's were made
 * once, on the machine that built it, and must never be shared between databases) and the
 * migrations recorded as applied now, when this database came to have them.
 */
export async function personalizeTemplateCopy(tx: Queryable, schemaSql: string): Promise<void> {
  const { rows } = await tx.query<{ purpose: string }>(SEAL_PURPOSES_SQL);
  for (const { purpose } of rows) await tx.query(RESEAL_SQL, [purpose, randomBytes(32)]);
  await tx.query(STAMP_MIGRATIONS_SQL(schemaSql));
}
