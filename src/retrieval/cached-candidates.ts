/**
 * `memory_search_candidates` (migration 0007) for one user's own memories, over rows held in
 * process (`CandidateCache`): the same rows chosen with the same vector similarity, recency and
 * matched lexemes, so `MemoryRepository.rankCandidates` ranks them as it ranks the statement's rows.
 * test/integration/candidate-cache.test.ts checks the two agree on both engines.
 */
import type { MemoryRow } from "../store/memory-row.js";
import type { CandidateRow, CandidateSqlParams } from "../store/memory-queries.js";
import { TSVECTOR_ENTRY, unquoteLexeme } from "../store/hybrid-scoring.js";
import { dot } from "../embeddings/vector.js";

/** One memory as the cache holds it: its columns, and what ranking reads, parsed once. */
export interface CachedMemory {
  row: MemoryRow;
  /** The stored vector, as float4 values. */
  embedding: Float32Array;
  /** Lexeme → its entry in the tsvector's text form (`'hike':2A,9`). */
  terms: Map<string, string>;
  docLen: number;
  createdMs: number;
  /** Last use (null: never used). */
  lastUsedMs: number | null;
  expiresMs: number | null;
  archived: boolean;
}

/** Lexemes of a tsvector's text form, each with its entry (lexeme unescaped as Postgres prints it). */
export function tsvectorEntries(text: string): Map<string, string> {
  const out = new Map<string, string>();
  const re = new RegExp(TSVECTOR_ENTRY);
  for (let m = re.exec(text); m; m = re.exec(text)) out.set(unquoteLexeme(m[1]), m[0]);
  return out;
}

/** A real[] in text form (`{0.1,-2e-05}`) as float4 values. */
export function parseRealArray(text: string): Float32Array {
  const body = text.slice(1, -1);
  if (body === "") return new Float32Array(0);
  const parts = body.split(",");
  const out = new Float32Array(parts.length);
  for (let i = 0; i < parts.length; i++) out[i] = Number(parts[i]);
  return out;
}

/**
 * One user's cached memories, indexed for searches: each lexeme's rows, and the rows newest first
 * by last use (or creation) for standing memories. A search then touches the rows holding a query
 * word and the few newest, not every row (unless rows without a query word can pass the floor,
 * which a neural embedder's weights allow: then every row's vector similarity is needed, as in SQL).
 */
export class CachedUserMemories {
  private readonly postings = new Map<string, CachedMemory[]>();
  /** Newest first: (last use or creation) descending, then id ascending, as the statement orders standing rows. */
  private readonly newest: CachedMemory[];
  private readonly docLenSum: number;
  /** The earliest expiry among the rows (Infinity: none expires). */
  private readonly firstExpiry: number;

  constructor(readonly memories: readonly CachedMemory[]) {
    let docLenSum = 0;
    let firstExpiry = Number.POSITIVE_INFINITY;
    for (const m of memories) {
      docLenSum += m.docLen;
      if (m.expiresMs !== null && m.expiresMs < firstExpiry) firstExpiry = m.expiresMs;
      for (const lexeme of m.terms.keys()) {
        const list = this.postings.get(lexeme);
        if (list) list.push(m);
        else this.postings.set(lexeme, [m]);
      }
    }
    this.docLenSum = docLenSum;
    this.firstExpiry = firstExpiry;
    this.newest = [...memories].sort(newerFirst);
  }

  /** A row's last use moved forward (a usage mark): keep the newest-first order. */
  touched(m: CachedMemory): void {
    const from = this.newest.indexOf(m);
    if (from < 0) return;
    this.newest.splice(from, 1);
    let at = 0;
    while (at < this.newest.length && newerFirst(this.newest[at], m) < 0) at++;
    this.newest.splice(at, 0, m);
  }

  /**
   * The candidate rows the search statement would return for `params` (a user-scope search of the
   * user's own memories), given the query's lexemes as Postgres stems them. The rows are the
   * user's retrievable memories (not superseded, not deactivated); expiry and kinds apply here.
   * `bridgeLexemes`: the expansion terms' lexemes as `memory_bridge_lexemes` gives them (migration
   * 0011; null: none): rows holding one are chosen as rows holding a query word, with `bridged`.
   */
  select(params: CandidateSqlParams, lexemes: readonly string[], bridgeLexemes: string | null = null): CandidateRow[] {
    const nowMs = params.now.getTime();
    const kinds = params.kinds ? new Set<string>(params.kinds) : null;
    const inScope = (m: CachedMemory) => (kinds === null || kinds.has(m.row.kind)) && (m.expiresMs === null || m.expiresMs > nowMs);

    // The scope's BM25 stats: precomputed unless a kinds filter or an expired row narrows it.
    let count = this.memories.length;
    let docLenSum = this.docLenSum;
    if (kinds !== null || this.firstExpiry <= nowMs) {
      count = 0;
      docLenSum = 0;
      for (const m of this.memories) {
        if (!inScope(m)) continue;
        count++;
        docLenSum += m.docLen;
      }
    }
    const avgdl = count === 0 ? 1 : docLenSum / count;

    // Rows holding a query word, with the entries of those words.
    const matchedOf = new Map<CachedMemory, string>();
    for (const lexeme of new Set(lexemes)) {
      for (const m of this.postings.get(lexeme) ?? []) {
        if (!inScope(m)) continue;
        const entry = m.terms.get(lexeme)!;
        const before = matchedOf.get(m);
        matchedOf.set(m, before === undefined ? entry : `${before} ${entry}`);
      }
    }
    // Rows holding an expansion term's lexeme, with those entries in the order Postgres prints a
    // tsvector (byte order: the lexemes are lowercase ASCII), as `bridged` comes from SQL.
    const bridgedOf = new Map<CachedMemory, string>();
    for (const lexeme of bridgeSet(bridgeLexemes)) {
      for (const m of this.postings.get(lexeme) ?? []) {
        if (!inScope(m)) continue;
        const entry = m.terms.get(lexeme)!;
        const before = bridgedOf.get(m);
        bridgedOf.set(m, before === undefined ? entry : `${before} ${entry}`);
      }
    }
    // Standing rows: the newest of the standing kinds, not archived.
    const standing = new Set<CachedMemory>();
    if (params.standingLimit > 0 && params.standingKinds && params.standingKinds.length > 0) {
      const standingKinds = new Set<string>(params.standingKinds);
      for (const m of this.newest) {
        if (standing.size >= params.standingLimit) break;
        if (!m.archived && standingKinds.has(m.row.kind) && inScope(m)) standing.add(m);
      }
    }

    // The query vector as the statement sees it: a real[] parameter, so float4 values.
    const query = Float32Array.from(params.embedding);
    const decaySeconds = 86400 * params.recencyDecayDays;
    const recencyOf = (m: CachedMemory) => Math.exp(-Math.max((nowMs - (m.lastUsedMs ?? m.createdMs)) / 1000, 0) / decaySeconds);
    // Object.assign, not a spread: a spread literal this wide costs ~9 µs a row in V8 (Node 20), this ~1.
    const row = (m: CachedMemory, vsim: number, recency: number): CandidateRow =>
      Object.assign({}, m.row, {
        doc_len: m.docLen,
        vsim,
        recency,
        matched: matchedOf.get(m) ?? null,
        scope_count: count,
        scope_avgdl: avgdl,
        bridged: bridgedOf.get(m) ?? null,
        bridge_lexemes: bridgeLexemes,
      });

    const out: CandidateRow[] = [];
    const hits = new Set<CachedMemory>(matchedOf.keys());
    for (const m of bridgedOf.keys()) hits.add(m);
    for (const m of hits) out.push(row(m, dot(m.embedding, query), recencyOf(m)));
    // Rows without a query word compete for vectorOnlyLimit places when any of them can pass its floor.
    const vectorOnly: { m: CachedMemory; vsim: number; recency: number; v: number }[] = [];
    if (params.minVectorSimilarity <= 1 || params.archivedMinVectorSimilarity <= 1) {
      for (const m of this.memories) {
        if (hits.has(m) || !inScope(m)) continue;
        const min = m.archived ? params.archivedMinVectorSimilarity : params.minVectorSimilarity;
        if (min > 1) continue;
        const vsim = dot(m.embedding, query);
        if (vsim < min) continue;
        const recency = recencyOf(m);
        vectorOnly.push({ m, vsim, recency, v: params.vectorOnlyWeight * Math.max(vsim, 0) + params.recencyWeight * recency });
      }
      vectorOnly.sort((a, b) => b.v - a.v || compareIds(a.m.row.id, b.m.row.id));
    }
    const chosen = new Set<CachedMemory>(hits);
    for (const c of vectorOnly.slice(0, params.vectorOnlyLimit)) {
      chosen.add(c.m);
      out.push(row(c.m, c.vsim, c.recency));
    }
    for (const m of standing) if (!chosen.has(m)) out.push(row(m, dot(m.embedding, query), recencyOf(m)));
    return out;
  }
}

/**
 * The candidate rows the search statement would return (see {@link CachedUserMemories.select});
 * indexes `rows` first, for a single search.
 */
export function selectCachedCandidates(rows: readonly CachedMemory[], params: CandidateSqlParams, lexemes: readonly string[], bridgeLexemes: string | null = null): CandidateRow[] {
  return new CachedUserMemories(rows).select(params, lexemes, bridgeLexemes);
}

/** The distinct lexemes of a `bridge_lexemes` value, in byte order. */
function bridgeSet(bridgeLexemes: string | null): string[] {
  if (!bridgeLexemes) return [];
  return [...new Set(bridgeLexemes.split(" ").filter((l) => l !== ""))].sort(compareIds);
}

/** Newest first by last use (or creation), then id ascending. */
function newerFirst(a: CachedMemory, b: CachedMemory): number {
  return (b.lastUsedMs ?? b.createdMs) - (a.lastUsedMs ?? a.createdMs) || compareIds(a.row.id, b.row.id);
}

/** uuid order as Postgres sorts it (byte order = the lowercase text's order). */
function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
