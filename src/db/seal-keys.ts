import { randomBytes } from "node:crypto";
import { ErrorCodes, MemoryError } from "../errors.js";
import type { Queryable } from "./database.js";
import { ADD_SEAL_KEY_SQL, READ_SEAL_KEY_SQL } from "./seal-keys-queries.js";

/** What each seal key protects (rows of migration 0008's `memory_seal_keys`). */
export type SealPurpose = "summary";

const keys = new WeakMap<object, Map<SealPurpose, Promise<Uint8Array>>>();

/**
 * The database's key for `purpose`, read once per database object and process.
 *
 * @example
 * const key = await sealKey(memory.db, "summary");
 */
export function sealKey(db: Queryable, purpose: SealPurpose): Promise<Uint8Array> {
  let perDb = keys.get(db);
  if (!perDb) {
    perDb = new Map();
    keys.set(db, perDb);
  }
  let key = perDb.get(purpose);
  if (!key) {
    key = readOrAdd(db, purpose);
    perDb.set(purpose, key);
    // A failed read (database down) is not remembered: the next turn asks again.
    key.catch(() => perDb!.delete(purpose));
  }
  return key;
}

async function readOrAdd(db: Queryable, purpose: SealPurpose): Promise<Uint8Array> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const { rows } = await db.query<{ key: Uint8Array }>(READ_SEAL_KEY_SQL, [purpose]);
    if (rows[0]) return new Uint8Array(rows[0].key);
    await db.query(ADD_SEAL_KEY_SQL, [purpose, randomBytes(32)]);
  }
  throw new MemoryError(ErrorCodes.DB_QUERY_FAILED, `memory_seal_keys has no "${purpose}" key and none could be added; run the migrations again`);
}
