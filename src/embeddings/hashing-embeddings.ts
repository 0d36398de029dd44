import { Embeddings, type EmbeddingsParams } from "@langchain/core/embeddings";
import { contentWords, stemmedTerms } from "./text-features.js";

export interface HashingEmbeddingsOptions extends EmbeddingsParams {
  /** Vector length (default 512, chosen on LoCoMo: docs/benchmarks.md). */
  dims?: number;
  /** Weight of the character n-gram features relative to whole words (default 0.5). */
  charNgramWeight?: number;
}

/**
 * The offline default embedder: feature hashing of stemmed words (log-scaled counts) and of
 * character 3–5-grams of each word (so "hike"/"hiking"/"hikes" and typos still overlap), signed,
 * L2-normalised. Deterministic, no model download, microseconds per sentence. It is a lexical baseline:
 * it finds the same words, not synonyms — the store pairs it with BM25 full-text search, which is
 * what lifts LoCoMo recall (docs/memory-model.md has the measurements).
 *
 * @example
 * const embeddings = new LocalHashingEmbeddings();
 * const [v] = await embeddings.embedDocuments(["Prefers metric units"]); // v.length === 512
 */
export class LocalHashingEmbeddings extends Embeddings {
  /** Identifies the embedder in the database; bump the version when the features change. */
  static readonly ID = "local-hash-v1";
  readonly dims: number;
  readonly charNgramWeight: number;

  constructor(options: HashingEmbeddingsOptions = {}) {
    super(options);
    this.dims = options.dims ?? 512;
    this.charNgramWeight = options.charNgramWeight ?? 0.5;
  }

  /** The id recorded beside the vectors (dimension and feature version). */
  get embedderId(): string {
    return `${LocalHashingEmbeddings.ID}/${this.dims}`;
  }

  async embedDocuments(documents: string[]): Promise<number[][]> {
    return documents.map((d) => this.embedSync(d));
  }

  async embedQuery(document: string): Promise<number[]> {
    return this.embedSync(document);
  }

  /** Synchronous form, for bulk loads and benchmarks. */
  embedSync(text: string): number[] {
    const v = new Float64Array(this.dims);
    const add = (feature: string, weight: number) => {
      const h = fnv1a(feature);
      v[h % this.dims] += h & 0x80000000 ? weight : -weight;
    };
    const counts = new Map<string, number>();
    for (const term of stemmedTerms(text)) counts.set(term, (counts.get(term) ?? 0) + 1);
    for (const [term, n] of counts) add(`w:${term}`, 1 + Math.log(n));
    if (this.charNgramWeight > 0) {
      for (const word of contentWords(text)) {
        const padded = `<${word}>`;
        const w = this.charNgramWeight / padded.length;
        for (let n = 3; n <= 5; n++) for (let i = 0; i + n <= padded.length; i++) add(`c:${padded.slice(i, i + n)}`, w);
      }
    }
    let sum = 0;
    for (const x of v) sum += x * x;
    const norm = Math.sqrt(sum) || 1;
    return Array.from(v, (x) => x / norm);
  }
}

/** 32-bit FNV-1a over UTF-16 code units: fast, stable across platforms and releases. */
function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
