import type { Queryable } from "../db/database.js";
import { ErrorCodes, MemoryError } from "../errors.js";
import { dimensionMismatch } from "../embeddings/vector.js";
import { cliCommand } from "../core/cli-name.js";

/** The embedder and dimension recorded for one vector set ("memories", "items:<tenant>"). */
export interface EmbeddingSetting {
  embedder: string;
  dims: number;
}

export async function readEmbeddingSetting(db: Queryable, vectorSet: string): Promise<EmbeddingSetting | null> {
  const { rows } = await db.query<EmbeddingSetting>("SELECT embedder, dims FROM embedding_settings WHERE vector_set = $1", [vectorSet]);
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
    (await db.query<EmbeddingSetting>("SELECT embedder, dims FROM embedding_settings WHERE vector_set = $1 FOR SHARE", [vectorSet])).rows[0];
  let recorded = await read();
  if (!recorded) {
    await db.query("INSERT INTO embedding_settings (vector_set, embedder, dims) VALUES ($1, $2, $3) ON CONFLICT (vector_set) DO NOTHING", [
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
    `INSERT INTO embedding_settings (vector_set, embedder, dims) VALUES ($1, $2, $3)
     ON CONFLICT (vector_set) DO UPDATE SET embedder = excluded.embedder, dims = excluded.dims, updated_at = now()`,
    [vectorSet, setting.embedder, setting.dims],
  );
}
