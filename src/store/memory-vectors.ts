/**
 * The typed door's vectors: texts embedded as the store stores them (unit vectors, a context
 * mixed in by `retrieval.contextWeight`) and the embedder recorded beside them in
 * `embedding_settings` (vector set {@link MEMORY_VECTOR_SET}), which reads check against and
 * writes record. Shared by the repository's writes and the search.
 */
import type { Embeddings } from "@langchain/core/embeddings";
import type { Queryable } from "../db/database.js";
import { ErrorCodes, MemoryError } from "../errors.js";
import { normalize, validateVector } from "../embeddings/vector.js";
import { ensureEmbeddingSetting, readEmbeddingSetting, type EmbeddingSetting } from "./embedding-settings.js";

/** The vector set of the typed memory door in `embedding_settings`. */
export const MEMORY_VECTOR_SET = "memories";

/** How long reads trust their copy of the recorded embedder (a `reembed` is noticed after this). */
const RECORD_TTL_MS = 10_000;

/**
 * @example
 * const vectors = new MemoryVectors(new LocalHashingEmbeddings(), "local-hash-v1/512", 0.5);
 * const [v] = await vectors.vectorsFor([{ text: "Has a dog.", context: null }]);
 */
export class MemoryVectors {
  private recorded: EmbeddingSetting | null | undefined;
  private recordedAt = 0;

  constructor(
    readonly embeddings: Embeddings,
    readonly embedderId: string,
    /** `retrieval.contextWeight`: a context's share of its memory's vector. */
    private readonly contextWeight: number,
  ) {}

  /** Embed texts (with optional context) as the store stores them: unit vectors. */
  async vectorsFor(items: ReadonlyArray<{ text: string; context?: string | null; embedding?: number[] }>): Promise<number[][]> {
    const out: number[][] = new Array(items.length);
    const toEmbed: string[] = [];
    const slots: Array<[number, "text" | "context"]> = [];
    items.forEach((item, i) => {
      if (item.embedding) {
        out[i] = normalize(validateVector(item.embedding, items.length === 1 ? "embedding" : `memories[${i}].embedding`));
        return;
      }
      toEmbed.push(item.text);
      slots.push([i, "text"]);
      if (item.context) {
        toEmbed.push(item.context);
        slots.push([i, "context"]);
      }
    });
    if (toEmbed.length > 0) {
      const vectors = await this.embeddings.embedDocuments(toEmbed);
      if (!Array.isArray(vectors) || vectors.length !== toEmbed.length) {
        throw new MemoryError(ErrorCodes.MODEL_UNAVAILABLE, `embedder ${this.embedderId} returned ${Array.isArray(vectors) ? vectors.length : "no"} vectors for ${toEmbed.length} texts`);
      }
      slots.forEach(([i, part], j) => {
        const v = normalize(validateVector(vectors[j], `embedding from ${this.embedderId}`));
        if (part === "text") out[i] = v;
        else out[i] = normalize(out[i].map((x, d) => x + this.contextWeight * (v[d] ?? 0)));
      });
    }
    return out;
  }

  /** The recorded embedder as reads trust it: a recent copy (re-read every 10 s, so a `reembed` is noticed). */
  async recordedSetting(tx: Queryable): Promise<EmbeddingSetting | null> {
    if (this.recorded && Date.now() - this.recordedAt < RECORD_TTL_MS) return this.recorded;
    this.recorded = await readEmbeddingSetting(tx, MEMORY_VECTOR_SET);
    this.recordedAt = Date.now();
    return this.recorded;
  }

  /** Writes check the record in their own transaction (see `ensureEmbeddingSetting`). */
  async ensureRecorded(tx: Queryable, dims: number): Promise<void> {
    this.recorded = await ensureEmbeddingSetting(tx, MEMORY_VECTOR_SET, { embedder: this.embedderId, dims });
    this.recordedAt = Date.now();
  }
}
