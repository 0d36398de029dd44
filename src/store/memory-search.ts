/**
 * The typed door's hybrid search: options checked and the query embedded (`prepareSearch`), the
 * arguments of the candidates statement (`candidateParams`, checked against the recorded
 * embedder), and BM25 + vector fusion over the candidate rows (`rankCandidates`). The load-memory
 * node runs the halves around a statement of its own; `search` runs them in one transaction.
 */
import { type Database, dbScopeOf, type Queryable } from "../db/database.js";
import type { RetrievalConfig } from "../config.js";
import type { MemoryKind } from "../state/types.js";
import { LocalHashingEmbeddings } from "../embeddings/hashing-embeddings.js";
import { normalize, validateVector } from "../embeddings/vector.js";
import { storableText } from "../core/well-formed-text.js";
import { VocabularyBridge, type BridgeTerm } from "../language/lexicon/index.js";
import { contentWords } from "../embeddings/text-features.js";
import { resolveScope, type MemoryScope, type ResolvedScope } from "../core/scope.js";
import { memoryFromRow } from "./memory-row.js";
import { hybridCandidatesSql, type CandidateRow, type CandidateSqlParams } from "./memory-queries.js";
import { rankHybrid, type Candidate } from "./hybrid-scoring.js";
import { checkEmbeddingSetting } from "./embedding-settings.js";
import { MemoryKindsSchema, StandingSchema, parseInclude, parseInput, QuerySchema, SearchLimitSchema } from "./memory-input-schemas.js";
import type { MemoryVectors } from "./memory-vectors.js";
import type { MemorySearchOptions, ScoredMemory } from "./types.js";

/**
 * Words of a query searched at most. The full-text part of a search turns every word into a
 * tsquery operand, and PGlite's tsquery code recurses once per operand: at about 8,000 words its
 * WASM stack overflowed, the statement returned no row and the engine answered nothing after.
 */
export const MAX_QUERY_WORDS = 1_000;

/** Content words of a query that are expanded through the vocabulary bridge, at most (its first). */
export const MAX_BRIDGED_WORDS = 24;

/** A search checked and embedded ({@link MemorySearch.prepareSearch}). */
export interface PreparedSearch {
  scope: ResolvedScope;
  /**
   * The query text as searched: NUL characters replaced, unpaired surrogates made U+FFFD, and cut
   * to its first `4 × writePolicy.maxTextChars` characters (16,000 by default) and
   * {@link MAX_QUERY_WORDS} words.
   */
  query: string;
  /** The query's unit vector. */
  embedding: number[];
  /** The caller gave the embedding (its embedder is not checked, only its dimension). */
  embeddingGiven: boolean;
  include: { tenant?: boolean; global?: boolean };
  kinds: MemoryKind[] | null;
  limit: number;
  floor: number;
  now: Date;
  /** Standing memories asked for (`MemorySearchOptions.standing`), or null. */
  standing: { kinds: MemoryKind[]; limit: number } | null;
  /** The query's expansion terms (`retrieval.vocabularyBridge`), best first; [] when off. */
  bridge: readonly BridgeTerm[];
}

/**
 * @example
 * const search = new MemorySearch(db, vectors, retrieval, { maxTextChars: 4000, clock });
 * const hits = await search.search(alice, "which units?");
 */
export class MemorySearch {
  /** Query expansion (`retrieval.vocabularyBridge`), or null when off. */
  private readonly bridge: VocabularyBridge | null;

  constructor(
    private readonly db: Database,
    private readonly vectors: MemoryVectors,
    private readonly retrieval: RetrievalConfig,
    private readonly limits: { maxTextChars: number; clock: { now(): Date } },
  ) {
    const vb = retrieval.vocabularyBridge;
    this.bridge = vb.enabled && vb.weight > 0 && vb.maxTerms > 0 ? new VocabularyBridge(undefined, { weight: vb.weight, maxTerms: vb.maxTerms, termsPerWord: vb.termsPerWord }) : null;
  }

  /** Lexical share of the hybrid similarity (config, or by embedder when unset). */
  get lexicalWeight(): number {
    return this.retrieval.lexicalWeight ?? (this.vectors.embeddings instanceof LocalHashingEmbeddings ? 0.7 : 0.3);
  }

  async search(scope: MemoryScope, query: string, options: MemorySearchOptions = {}): Promise<ScoredMemory[]> {
    return this.searchPrepared(await this.prepareSearch(scope, query, options));
  }

  async searchPrepared(prepared: PreparedSearch): Promise<ScoredMemory[]> {
    return this.db.transaction(async (tx) => {
      const candidates = await this.candidateParams(tx, prepared);
      if (!candidates) return [];
      const { sql, params } = hybridCandidatesSql(candidates);
      const { rows } = await tx.query<CandidateRow>(sql, params);
      return this.rankCandidates(rows, prepared);
    }, { scope: dbScopeOf(prepared.scope) });
  }

  async prepareSearch(scope: MemoryScope, query: string, options: MemorySearchOptions = {}): Promise<PreparedSearch> {
    const checked = this.checkSearch(scope, query, options);
    const embedding = options.queryEmbedding
      ? normalize(validateVector(options.queryEmbedding, "queryEmbedding"))
      : normalize(validateVector(await this.vectors.embeddings.embedQuery(checked.query), "embedding of the query"));
    return { ...checked, embedding, embeddingGiven: options.queryEmbedding !== undefined };
  }

  checkSearch(scope: MemoryScope, query: string, options: MemorySearchOptions = {}): Omit<PreparedSearch, "embedding" | "embeddingGiven"> {
    const s = resolveScope(scope);
    parseInput(QuerySchema, query, "query");
    const include = parseInclude(options.include, s);
    const kinds = parseInput(MemoryKindsSchema, options.kinds, "kinds");
    const limit = parseInput(SearchLimitSchema, options.limit ?? this.retrieval.topK, "limit");
    const floor = options.minSimilarity ?? this.retrieval.relevanceFloor;
    const standing = parseInput(StandingSchema, options.standing, "standing");
    // A long message is searched by its beginning (the turn goes on; the message itself is kept).
    const searched = storableText(boundedQuery(query.replace(/\0/g, " "), this.limits.maxTextChars * 4));
    return { scope: s, query: searched, include, kinds, limit, floor, now: options.now ?? this.limits.clock.now(), standing, bridge: this.expandQuery(searched) };
  }

  expandQuery(query: string): BridgeTerm[] {
    if (!this.bridge) return [];
    // The first words of a long message are what it is about; each new word costs a few lookups.
    return this.bridge.expand(contentWords(query).slice(0, MAX_BRIDGED_WORDS));
  }

  async candidateParams(tx: Queryable, prepared: PreparedSearch): Promise<CandidateSqlParams | null> {
    const recorded = await this.vectors.recordedSetting(tx);
    if (!recorded) return null;
    checkEmbeddingSetting(recorded, { embedder: prepared.embeddingGiven ? recorded.embedder : this.vectors.embedderId, dims: prepared.embedding.length });
    const lexicalWeight = this.lexicalWeight;
    // Without a query word, similarity = (1 − lexicalWeight)·cosine: it passes the floor only at a
    // cosine of at least this. From 1 up (the offline embedder's weights: 0.3 / (1 − 0.7)) only an
    // exact copy of the query's vector could, and float rounding decides whether its cosine reaches
    // 1: no row without a query word is a candidate then, and SQL skips their vector similarity.
    const vectorFloor = (floor: number) => {
      const min = lexicalWeight >= 1 ? Number.POSITIVE_INFINITY : floor / (1 - lexicalWeight);
      return min >= 1 - 1e-9 ? Number.POSITIVE_INFINITY : min;
    };
    return {
      scope: prepared.scope,
      include: prepared.include,
      query: prepared.query,
      embedding: prepared.embedding,
      kinds: prepared.kinds,
      now: prepared.now,
      recencyDecayDays: this.retrieval.recencyDecayDays,
      minVectorSimilarity: vectorFloor(prepared.floor),
      vectorOnlyLimit: prepared.limit,
      vectorOnlyWeight: this.retrieval.similarityWeight * (1 - lexicalWeight),
      recencyWeight: this.retrieval.recencyWeight,
      archivedMinVectorSimilarity: vectorFloor(this.archivedFloor(prepared)),
      standingKinds: prepared.standing?.kinds ?? null,
      standingLimit: prepared.standing?.limit ?? 0,
      bridgeTerms: prepared.bridge.length > 0 ? prepared.bridge.map((t) => t.term) : null,
    };
  }

  archivedFloor(prepared: Pick<PreparedSearch, "floor">): number {
    return Math.max(prepared.floor, this.retrieval.archivedRelevanceFloor);
  }

  rankCandidates(rows: readonly CandidateRow[], prepared: PreparedSearch): ScoredMemory[] {
    if (rows.length === 0) return [];
    const standingKinds = new Set<string>(prepared.standing?.kinds ?? []);
    const weights = {
      lexicalWeight: this.lexicalWeight,
      lexicalSaturation: this.retrieval.lexicalSaturation,
      bm25K1: this.retrieval.bm25K1,
      bm25B: this.retrieval.bm25B,
      bm25PriorDocs: this.retrieval.bm25PriorDocs,
      contextWeight: this.retrieval.contextWeight,
      similarityWeight: this.retrieval.similarityWeight,
      recencyWeight: this.retrieval.recencyWeight,
      floor: prepared.floor,
      archivedFloor: this.archivedFloor(prepared),
      limit: prepared.limit,
    };
    const candidates: Candidate[] = rows.map((r) => ({
      id: r.id,
      vsim: Number(r.vsim),
      recency: Number(r.recency),
      docLen: Number(r.doc_len),
      matched: r.matched,
      bridged: r.bridged ?? null,
      archived: r.archived_at !== null && r.archived_at !== undefined,
      standing: standingKinds.has(r.kind) && (r.archived_at === null || r.archived_at === undefined),
    }));
    const ranked = rankHybrid(candidates, { count: Number(rows[0].scope_count), avgDocLen: Number(rows[0].scope_avgdl) }, weights, bridgeWeightsOf(rows, prepared.bridge));
    const byId = new Map(rows.map((r) => [r.id, r]));
    // Object.assign, not a spread literal: at this width V8 copies a spread far slower (docs/benchmarks.md).
    return ranked.map((r) =>
      Object.assign(memoryFromRow(byId.get(r.id)!), { score: r.score, similarity: r.similarity, vectorSimilarity: r.vectorSimilarity, lexicalScore: r.lexicalScore, recency: r.recency }),
    );
  }
}

/**
 * Each expansion lexeme's weight: the rows' `bridge_lexemes` give the lexeme of each term sent
 * (in order); a lexeme several terms stem to keeps the best weight. Undefined without terms.
 */
export function bridgeWeightsOf(rows: readonly CandidateRow[], bridge: readonly BridgeTerm[]): Map<string, number> | undefined {
  if (bridge.length === 0) return undefined;
  const aligned = rows.find((r) => r.bridge_lexemes)?.bridge_lexemes;
  if (!aligned) return undefined;
  const out = new Map<string, number>();
  aligned.split(" ").forEach((lexeme, i) => {
    const term = bridge[i];
    if (lexeme === "" || term === undefined) return;
    if ((out.get(lexeme) ?? 0) < term.weight) out.set(lexeme, term.weight);
  });
  return out;
}

/**
 * The first `max` characters and {@link MAX_QUERY_WORDS} words of a query, cut at a space when one
 * is in the last tenth (never inside a surrogate pair).
 */
export function boundedQuery(query: string, max: number): string {
  let cut = Math.min(query.length, max);
  const words = /\S+/g;
  for (let n = 0; words.exec(query) && words.lastIndex <= cut; ) {
    if (++n === MAX_QUERY_WORDS) {
      cut = words.lastIndex;
      break;
    }
  }
  if (cut === query.length) return query;
  const space = query.lastIndexOf(" ", cut);
  if (space > cut * 0.9) cut = space;
  else if (/[\uD800-\uDBFF]/.test(query[cut - 1])) cut--;
  return query.slice(0, cut);
}
