import { contentWords } from "./content-words.js";

/**
 * Plain Okapi BM25 (k1 1.2, b 0.75, Lucene's non-negative IDF) over short documents, tokenised by
 * {@link contentWords}: the baseline a memory system has to beat, kept in the bench so it never
 * depends on the store's own ranking.
 *
 * @example
 * const index = new Bm25Index(["I adopted a greyhound", "we went hiking"]);
 * index.rank("what dog did I adopt?"); // [{ doc: 0, score: … }]
 */
export class Bm25Index {
  private readonly docs: Array<Map<string, number>>;
  private readonly lengths: number[];
  private readonly df = new Map<string, number>();
  private readonly avgLength: number;

  constructor(
    texts: readonly string[],
    private readonly k1 = 1.2,
    private readonly b = 0.75,
  ) {
    this.docs = texts.map((t) => {
      const tf = new Map<string, number>();
      for (const w of contentWords(t)) tf.set(w, (tf.get(w) ?? 0) + 1);
      for (const w of tf.keys()) this.df.set(w, (this.df.get(w) ?? 0) + 1);
      return tf;
    });
    this.lengths = this.docs.map((tf) => [...tf.values()].reduce((a, n) => a + n, 0));
    this.avgLength = this.lengths.reduce((a, n) => a + n, 0) / Math.max(1, this.lengths.length);
  }

  /** Documents matching at least one query word, best first (ties: earlier document first). */
  rank(query: string): Array<{ doc: number; score: number }> {
    const terms = [...new Set(contentWords(query))];
    const n = this.docs.length;
    const out: Array<{ doc: number; score: number }> = [];
    this.docs.forEach((tf, doc) => {
      let score = 0;
      for (const term of terms) {
        const f = tf.get(term);
        if (!f) continue;
        const df = this.df.get(term)!;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        score += (idf * f * (this.k1 + 1)) / (f + this.k1 * (1 - this.b + (this.b * this.lengths[doc]) / (this.avgLength || 1)));
      }
      if (score > 0) out.push({ doc, score });
    });
    return out.sort((a, b) => b.score - a.score || a.doc - b.doc);
  }
}
