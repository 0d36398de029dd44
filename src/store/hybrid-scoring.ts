/**
 * The ranking half of hybrid search, in plain TypeScript: SQL returns each candidate's vector
 * similarity, recency and the query lexemes it contains (as tsvector text); this computes BM25
 * with the scope's document frequencies, fuses it with the vector similarity and ranks. Keeping
 * it here makes the SQL a single cheap index scan on both engines (no per-row set functions,
 * little planning) and the formula unit-testable.
 */

export interface Candidate {
  id: string;
  /** Cosine similarity of the embeddings. */
  vsim: number;
  /** exp(−age/decay) in (0, 1]. */
  recency: number;
  /** Body lexemes of the memory (BM25 length). */
  docLen: number;
  /** The query lexemes this memory contains, as tsvector text (`'hike':2A,9`), or null. */
  matched: string | null;
  /** The expansion terms' lexemes this memory contains (same form), or null: weighed by `bridgeWeights`. */
  bridged?: string | null;
  /** Archived by retention: it must reach `archivedFloor` instead of `floor`. */
  archived?: boolean;
  /** A standing memory (a durable fact or preference asked for whatever its relevance): no floor. */
  standing?: boolean;
}

export interface ScopeStats {
  /** Active memories in the searched scope. */
  count: number;
  /** Their average body length in lexemes. */
  avgDocLen: number;
}

export interface HybridWeights {
  lexicalWeight: number;
  lexicalSaturation: number;
  bm25K1: number;
  bm25B: number;
  bm25PriorDocs: number;
  contextWeight: number;
  similarityWeight: number;
  recencyWeight: number;
  floor: number;
  /** The floor of archived candidates (default `floor`). */
  archivedFloor?: number;
  limit: number;
}

export interface Ranked {
  id: string;
  score: number;
  similarity: number;
  vectorSimilarity: number;
  lexicalScore: number;
  recency: number;
}

/**
 * One entry of a tsvector's text form: `'lexeme':1A,5,7D` — quotes inside a lexeme are doubled,
 * backslashes escaped. Groups: the quoted lexeme, the positions.
 */
export const TSVECTOR_ENTRY = /'((?:[^'\\]|''|\\.)*)'(?::([0-9A-D,]+))?/g;

/** A lexeme as a tsvector's text form quotes it, unquoted. */
export function unquoteLexeme(quoted: string): string {
  return quoted.replace(/''/g, "'").replace(/\\(.)/g, "$1");
}

/** Term frequencies of a tsvector's text form: body positions (weight A) and the others. */
export function parseTsvector(text: string): Map<string, { body: number; context: number }> {
  const out = new Map<string, { body: number; context: number }>();
  const re = new RegExp(TSVECTOR_ENTRY);
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const lexeme = unquoteLexeme(m[1]);
    let body = 0;
    let context = 0;
    for (const pos of (m[2] ?? "").split(",")) {
      if (!pos) continue;
      if (pos.endsWith("A")) body++;
      else context++;
    }
    if (!m[2]) body++;
    out.set(lexeme, { body, context });
  }
  return out;
}

/**
 * BM25 per candidate (IDF from the scope: N = count + priorDocs, df = candidates holding the
 * lexeme), saturated to [0, 1) as bm25/(bm25+K), fused with max(cosine, 0), plus recency; floor on
 * the fused similarity (`archivedFloor` for archived candidates), best `limit` first (ties: higher
 * vector similarity, then id). An expansion lexeme (`bridged`) adds its BM25 term times its
 * weight in `bridgeWeights` (below 1; a lexeme missing there adds nothing).
 */
export function rankHybrid(candidates: readonly Candidate[], stats: ScopeStats, w: HybridWeights, bridgeWeights?: ReadonlyMap<string, number>): Ranked[] {
  const parsed = candidates.map((c) => (c.matched ? parseTsvector(c.matched) : undefined));
  const bridged = candidates.map((c) => (c.bridged && bridgeWeights ? parseTsvector(c.bridged) : undefined));
  const df = new Map<string, number>();
  for (const terms of parsed) if (terms) for (const lexeme of terms.keys()) df.set(lexeme, (df.get(lexeme) ?? 0) + 1);
  for (const terms of bridged) if (terms) for (const lexeme of terms.keys()) df.set(lexeme, (df.get(lexeme) ?? 0) + 1);
  const n = stats.count + w.bm25PriorDocs;
  const avgdl = Math.max(stats.avgDocLen, 1);
  const ranked: Ranked[] = [];
  candidates.forEach((c, i) => {
    const termScore = (lexeme: string, f: { body: number; context: number }) => {
      const tf = f.body + w.contextWeight * f.context;
      const d = df.get(lexeme)!;
      const idf = Math.log(1 + (n - d + 0.5) / (d + 0.5));
      return (idf * tf * (w.bm25K1 + 1)) / (tf + w.bm25K1 * (1 - w.bm25B + (w.bm25B * c.docLen) / avgdl));
    };
    let bm25 = 0;
    const terms = parsed[i];
    if (terms) for (const [lexeme, f] of terms) bm25 += termScore(lexeme, f);
    const near = bridged[i];
    if (near) for (const [lexeme, f] of near) bm25 += (bridgeWeights!.get(lexeme) ?? 0) * termScore(lexeme, f);
    const lexical = bm25 / (bm25 + w.lexicalSaturation);
    const similarity = w.lexicalWeight * lexical + (1 - w.lexicalWeight) * Math.max(c.vsim, 0);
    if (!c.standing && similarity < (c.archived ? (w.archivedFloor ?? w.floor) : w.floor)) return;
    ranked.push({ id: c.id, score: w.similarityWeight * similarity + w.recencyWeight * c.recency, similarity, vectorSimilarity: c.vsim, lexicalScore: lexical, recency: c.recency });
  });
  ranked.sort((a, b) => b.score - a.score || b.vectorSimilarity - a.vectorSimilarity || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return ranked.slice(0, w.limit);
}
