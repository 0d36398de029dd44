import type { Embeddings } from "@langchain/core/embeddings";
import type { Database } from "../db/database.js";
import { invalidInput } from "../errors.js";
import { MemoryRepository, MEMORY_VECTOR_SET } from "./memory-store.js";
import { vectorLiteral } from "./memory-row.js";
import { readEmbeddingSetting, writeEmbeddingSetting, type EmbeddingSetting } from "./embedding-settings.js";
import {
  COUNT_ALL_MEMORIES_SQL,
  INSERT_PLACEHOLDER_EMBEDDING_SETTING_SQL,
  LOCK_EMBEDDING_SETTING_SQL,
  MEMORIES_TO_REEMBED_SQL,
  UPDATE_MEMORY_EMBEDDINGS_SQL,
} from "./reembed-queries.js";

export interface ReembedOptions {
  /** Rows embedded per call to the embedder and per UPDATE (default 256). */
  batchSize?: number;
  /** Called after each batch with (done, total). */
  onProgress?: (done: number, total: number) => void;
  /** Name recorded for the new embedder (default derived from `embeddings`). */
  embedderId?: string;
}

export interface ReembedResult {
  memories: number;
  previous: EmbeddingSetting | null;
  current: EmbeddingSetting;
}

/**
 * Re-embed every memory (all scopes, superseded and expired included) with `embeddings` and
 * record the new embedder and dimension. One transaction: searches keep seeing the old vectors
 * until it commits, and writers wait for it (they read the embedder record FOR SHARE; this holds
 * it FOR UPDATE), then refuse vectors of the old embedder. An operator's job, not a user's:
 * it is not scoped.
 *
 * @example
 * await reembedMemories(db, new OpenAIEmbeddings({ model: "text-embedding-3-small" }), { onProgress: (d, t) => bar.update(d) });
 */
export async function reembedMemories(db: Database, embeddings: Embeddings, options: ReembedOptions = {}): Promise<ReembedResult> {
  const batchSize = options.batchSize ?? 256;
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 10_000) throw invalidInput("batchSize", "must be an integer from 1 to 10000");
  const store = new MemoryRepository(db, { embeddings, embedderId: options.embedderId });
  return db.transaction(async (tx) => {
    // Lock the record (creating a placeholder when none exists yet) so writers wait for us.
    const previous = await readEmbeddingSetting(tx, MEMORY_VECTOR_SET);
    await tx.query(INSERT_PLACEHOLDER_EMBEDDING_SETTING_SQL, [
      MEMORY_VECTOR_SET,
      store.embedderId,
    ]);
    await tx.query(LOCK_EMBEDDING_SETTING_SQL, [MEMORY_VECTOR_SET]);
    const total = (await tx.query<{ n: number }>(COUNT_ALL_MEMORIES_SQL)).rows[0].n;
    let done = 0;
    let last: string | null = null;
    let dims: number | undefined;
    options.onProgress?.(0, total);
    for (;;) {
      const { rows }: { rows: Array<{ id: string; text: string; context: string | null }> } = await tx.query(
        MEMORIES_TO_REEMBED_SQL,
        [last, batchSize],
      );
      if (rows.length === 0) break;
      const vectors = await store.vectorsFor(rows);
      dims ??= vectors[0].length;
      await tx.query(
        UPDATE_MEMORY_EMBEDDINGS_SQL,
        [rows.map((r) => r.id), vectors.map(vectorLiteral)],
      );
      done += rows.length;
      last = rows[rows.length - 1].id;
      options.onProgress?.(done, total);
    }
    dims ??= (await store.vectorsFor([{ text: "dimension probe", context: null }]))[0].length;
    const current = { embedder: store.embedderId, dims };
    await writeEmbeddingSetting(tx, MEMORY_VECTOR_SET, current);
    return { memories: done, previous, current };
  });
}
