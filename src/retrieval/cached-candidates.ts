/**
 * `memory_search_candidates` (migration 0007) for one user's own memories, over rows held in
 * process (`CandidateCache`): the same rows chosen with the same vector similarity, recency and
 * matched lexemes, so `MemoryStore.rankCandidates` ranks them as it ranks the statement's rows.
 * test/integration/candidate-cache.test.ts checks the two agree on both engines.
 */
import type { MemoryRow } from "../store/memory-row.js";
import type { CandidateRow, CandidateSqlParams } from "../store/memory-queries.js";
import { TSVECTOR_ENTRY, unquoteLexeme } from "../store/hybrid-scoring.js";

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
 * The candidate rows the search statement would return for `params` (a user-scope search of the
 * user's own memories), given the query's lexemes as Postgres stems them. Rows are the cached
 * user's retrievable memories (not superseded, not deactivated); expiry and kinds apply here.
 */
export function selectCachedCandidates(rows: readonly CachedMemory[], params: CandidateSqlParams, lexemes: readonly string[]): CandidateRow[] {
  const nowMs = params.now.getTime();
  const kinds = params.kinds ? new Set<string>(params.kinds) : null;
  const standingKinds = params.standingLimit > 0 && params.standingKinds ? new Set<string>(params.standingKinds) : null;
  // One pass: the scoped rows, their BM25 stats, the rows holding a query word, and the newest
  // standing rows (kept sorted, at most standingLimit).
  const scoped: CachedMemory[] = [];
  const matchedOf = new Map<CachedMemory, string>();
  const standing: CachedMemory[] = [];
  let docLenSum = 0;
  for (const m of rows) {
    if ((kinds !== null && !kinds.has(m.row.kind)) || (m.expiresMs !== null && m.expiresMs <= nowMs)) continue;
    scoped.push(m);
    docLenSum += m.docLen;
    let matched: string | null = null;
    for (const lexeme of lexemes) {
      const entry = m.terms.get(lexeme);
      if (entry !== undefined) matched = matched === null ? entry : `${matched} ${entry}`;
    }
    if (matched !== null) matchedOf.set(m, matched);
    if (standingKinds !== null && !m.archived && standingKinds.has(m.row.kind)) insertNewest(standing, m, params.standingLimit);
  }
  const count = scoped.length;
  const avgdl = count === 0 ? 1 : docLenSum / count;
  const standingSet = new Set(standing);

  // The query vector as the statement sees it: a real[] parameter, so float4 values.
  const query = Float32Array.from(params.embedding);
  const decaySeconds = 86400 * params.recencyDecayDays;
  const out: CandidateRow[] = [];
  // Object.assign, not a spread: a spread literal this wide costs ~9 µs a row in V8 (Node 20), this ~1.
  const row = (m: CachedMemory, vsim: number, recency: number): CandidateRow =>
    Object.assign({}, m.row, { doc_len: m.docLen, vsim, recency, matched: matchedOf.get(m) ?? null, scope_count: count, scope_avgdl: avgdl });
  const recencyOf = (m: CachedMemory) => Math.exp(-Math.max((nowMs - (m.lastUsedMs ?? m.createdMs)) / 1000, 0) / decaySeconds);
  // Rows without a query word compete for vectorOnlyLimit places when any of them can pass its floor.
  const vectorOnly: { m: CachedMemory; vsim: number; recency: number; v: number }[] = [];
  for (const m of scoped) {
    const hit = matchedOf.has(m);
    const min = m.archived ? params.archivedMinVectorSimilarity : params.minVectorSimilarity;
    if (!hit && !standingSet.has(m) && min > 1) continue;
    const vsim = dot(m.embedding, query);
    const recency = recencyOf(m);
    if (hit) out.push(row(m, vsim, recency));
    else if (vsim >= min) vectorOnly.push({ m, vsim, recency, v: params.vectorOnlyWeight * Math.max(vsim, 0) + params.recencyWeight * recency });
    else if (standingSet.has(m)) out.push(row(m, vsim, recency));
  }
  vectorOnly.sort((a, b) => b.v - a.v || compareIds(a.m.row.id, b.m.row.id));
  vectorOnly.forEach((c, i) => {
    if (i < params.vectorOnlyLimit || standingSet.has(c.m)) out.push(row(c.m, c.vsim, c.recency));
  });
  return out;
}

/** Insert into a list kept newest first (last use or creation, then id) and cut to `limit`. */
function insertNewest(list: CachedMemory[], m: CachedMemory, limit: number): void {
  const t = m.lastUsedMs ?? m.createdMs;
  let i = list.length;
  while (i > 0) {
    const prev = list[i - 1];
    const p = prev.lastUsedMs ?? prev.createdMs;
    if (p > t || (p === t && prev.row.id < m.row.id)) break;
    i--;
  }
  if (i >= limit) return;
  list.splice(i, 0, m);
  if (list.length > limit) list.pop();
}

function dot(a: Float32Array, b: Float32Array): number {
  const n = Math.min(a.length, b.length);
  let sum = 0;
  for (let i = 0; i < n; i++) sum += a[i] * b[i];
  return sum;
}

/** uuid order as Postgres sorts it (byte order = the lowercase text's order). */
function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
