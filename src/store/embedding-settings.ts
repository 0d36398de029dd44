import type { Queryable } from "../db/database.js";
import { ErrorCodes, MemoryError } from "../errors.js";
import { dimensionMismatch } from "../embeddings/vector.js";
import { cliCommand } from "../core/cli-name.js";
import {
  INSERT_EMBEDDING_SETTING_SQL,
  SELECT_EMBEDDING_SETTING_FOR_SHARE_SQL,
  SELECT_EMBEDDING_SETTING_SQL,
  UPSERT_EMBEDDING_SETTING_SQL,
} from "./embedding-settings-queries.js";

/** The embedder and dimension recorded for one vector set ("memories", "items:<tenant>"). */
export interface EmbeddingSetting {
  embedder: string;
  dims: number;
}

export async function readEmbeddingSetting(db: Queryable, vectorSet: string): Promise<EmbeddingSetting | null> {
  const { rows } = await db.query<EmbeddingSetting>(SELECT_EMBEDDING_SETTING_SQL, [vectorSet]);
  return rows[0] ?? null;
}

/**
 * Inside a write transaction: record the embedder of a vector set the first time a vector is
 * written, and afterwards refuse a vector of another length or from another embedder. The row is
 * read FOR SHARE, so writers never wait for each other but do wait for a running `reembed` (which
 * holds it FOR UPDATE) and then see its new embedder.
 */
export async function ensureEmbeddingSetting(db: Queryable, vectorSet: string, wanted: EmbeddingSetting): Promise<EmbeddingSetting> {
  const read = async () =>
    (await db.query<EmbeddingSetting>(SELECT_EMBEDDING_SETTING_FOR_SHARE_SQL, [vectorSet])).rows[0];
  let recorded = await read();
  if (!recorded) {
    await db.query(INSERT_EMBEDDING_SETTING_SQL, [
      vectorSet,
      wanted.embedder,
      wanted.dims,
    ]);
    recorded = await read();
  }
  checkEmbeddingSetting(recorded, wanted);
  return recorded;
}

/** Throw EMBEDDING_DIMENSION_MISMATCH when `wanted` differs from what is recorded. */
export function checkEmbeddingSetting(recorded: EmbeddingSetting | null, wanted: EmbeddingSetting): void {
  if (!recorded) return;
  if (recorded.dims !== wanted.dims) throw dimensionMismatch(wanted.dims, recorded.dims, recorded.embedder);
  if (recorded.embedder !== wanted.embedder) {
    throw new MemoryError(
      ErrorCodes.EMBEDDING_DIMENSION_MISMATCH,
      `the stored vectors were written by embedder ${recorded.embedder} but the store is configured with ${wanted.embedder}; ` +
        `their similarities are not comparable — configure the original embedder or run \`${cliCommand("reembed")}\``,
      { details: { recorded: recorded.embedder, configured: wanted.embedder } },
    );
  }
}

/** Overwrite the record (used by `reembed` once every vector is rewritten). */
export async function writeEmbeddingSetting(db: Queryable, vectorSet: string, setting: EmbeddingSetting): Promise<void> {
  await db.query(
    UPSERT_EMBEDDING_SETTING_SQL,
    [vectorSet, setting.embedder, setting.dims],
  );
}
