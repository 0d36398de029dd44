/**
 * Named SQL of the typed memory door. Scope predicates are built from fixed fragments (never from
 * caller text): every statement filters by tenant and user on the server side.
 */
import type { ResolvedScope } from "../core/scope.js";
import { MEMORY_COLUMNS, vectorLiteral, type MemoryRow } from "./memory-row.js";
import { notOptedOutSql } from "./opt-out.js";

/**
 * Rows one scope may read. `params` receives the tenant/user values; the returned SQL references
 * them by position. A user scope may add its tenant's and the global knowledge — never another
 * user's rows.
 */
export function visibleScopeSql(
  scope: ResolvedScope,
  params: unknown[],
  include: { tenant?: boolean; global?: boolean } = {},
  alias = "m",
): string {
  const parts: string[] = [];
  if (scope.level === "user") {
    params.push(scope.tenantId, scope.userId);
    const t = `$${params.length - 1}`;
    parts.push(`(${alias}.tenant_id = ${t} AND ${alias}.user_id = $${params.length} AND ${alias}.scope = 'user')`);
    if (include.tenant) parts.push(`(${alias}.tenant_id = ${t} AND ${alias}.user_id IS NULL AND ${alias}.scope = 'tenant')`);
  } else if (scope.level === "tenant") {
    params.push(scope.tenantId);
    parts.push(`(${alias}.tenant_id = $${params.length} AND ${alias}.user_id IS NULL AND ${alias}.scope = 'tenant')`);
  }
  if (scope.level === "global" || include.global) parts.push(`(${alias}.tenant_id IS NULL AND ${alias}.user_id IS NULL AND ${alias}.scope = 'global')`);
  return parts.length === 1 ? parts[0] : `(${parts.join(" OR ")})`;
}

/** Rows of exactly this scope (writes, deletes, lists). */
export function exactScopeSql(scope: ResolvedScope, params: unknown[], alias = "m"): string {
  return visibleScopeSql(scope, params, {}, alias);
}

/**
 * Retrievable at `nowParam`: not superseded, not expired, not deactivated — the one definition,
 * SQL function `memory_is_active` (migration 0015), which the planner inlines (partial indexes
 * still match).
 */
export const ACTIVE_SQL = (alias: string, nowParam: string) =>
  `memory_is_active(${alias}.superseded_by, ${alias}.expires_at, ${alias}.deactivated_at, ${nowParam})`;

/**
 * The opt-out read gate for a user scope (see opt-out.ts); "TRUE" for tenant and global scopes,
 * which belong to no one user.
 */
export function readGateSql(scope: ResolvedScope, params: unknown[]): string {
  return scope.level === "user" ? notOptedOutSql({ tenantId: scope.tenantId!, userId: scope.userId! }, params) : "TRUE";
}

/** Multi-row insert through unnest: one statement per batch, embeddings as real[] literals. */
export const INSERT_MEMORIES_SQL = `
INSERT INTO memories AS m (id, scope, tenant_id, user_id, kind, text, context, embedding, source_thread_id,
  source_message_id, source_run_id, origin, confidence, created_at, updated_at, expires_at, metadata)
SELECT u.id, $1, $2, $3, u.kind, u.text, u.context, u.embedding::real[], u.thread_id, u.message_id, u.run_id,
  u.origin, u.confidence, u.created_at, u.created_at, u.expires_at, u.metadata::jsonb
FROM unnest($4::uuid[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[],
  $12::text[], $13::real[], $14::timestamptz[], $15::timestamptz[], $16::text[])
  AS u(id, kind, text, context, embedding, thread_id, message_id, run_id, origin, confidence, created_at, expires_at, metadata)
RETURNING ${MEMORY_COLUMNS}`;

/** A row of `memory_search_candidates`: the memory's columns (with `archived_at`) and what ranking needs. */
export type CandidateRow = MemoryRow & {
  doc_len: number;
  vsim: number;
  recency: number;
  matched: string | null;
  scope_count: number;
  scope_avgdl: number;
  /** The expansion terms' lexemes this memory holds, as tsvector text, or null (migration 0011). */
  bridged: string | null;
  /** The lexeme of each expansion term, space-separated in their order ('' for none), or null without terms. */
  bridge_lexemes: string | null;
};

export interface CandidateSqlParams {
  scope: ResolvedScope;
  include: { tenant?: boolean; global?: boolean };
  query: string;
  embedding: number[];
  kinds: readonly string[] | null;
  now: Date;
  recencyDecayDays: number;
  /** Rows without a word of the query need at least this cosine to pass the floor. */
  minVectorSimilarity: number;
  /** How many such rows to return (best by their possible score). */
  vectorOnlyLimit: number;
  /** Their score without lexical relevance: a·max(cosine, 0) + b·recency. */
  vectorOnlyWeight: number;
  recencyWeight: number;
  /** `minVectorSimilarity` for archived rows (their floor is `retrieval.archivedRelevanceFloor`). */
  archivedMinVectorSimilarity: number;
  /** Standing memories: the newest `standingLimit` rows of these kinds come back whatever their relevance (null / 0: none). */
  standingKinds: readonly string[] | null;
  standingLimit: number;
  /**
   * Expansion terms of the query (`VocabularyBridge`: single lowercase words), matched like query
   * words and weighed below them in ranking; null or []: none.
   */
  bridgeTerms: readonly string[] | null;
}

/**
 * Hybrid search candidates in one index scan of the scope (btree on tenant/user), through the
 * `memory_search_candidates` SQL function (migration 0007; plan cached per session): every
 * retrievable row's exact vector similarity (`memory_vector_dot`: pgvector or plain SQL) and
 * recency, and the query lexemes it holds — archived rows included, flagged by `archived_at`.
 * Returned, with their columns: every row holding a query word (BM25 needs them all for document
 * frequencies) and the best few of the rest, each with the scope's row count (`scope_count`) and
 * average length (`scope_avgdl`). Ranking happens in `hybrid-scoring.ts`.
 */
export function hybridCandidatesSql(p: CandidateSqlParams): { sql: string; params: unknown[] } {
  const user = p.scope.level === "user";
  const params = hybridCandidateArgs(p);
  // An opted-out user's search returns nothing: the gate is uncorrelated, so it runs once as a
  // one-time filter and the function is not even called.
  const gate = user ? ` WHERE ${notOptedOutSql({ tenantId: p.scope.tenantId!, userId: p.scope.userId! }, params)}` : "";
  return {
    sql: `SELECT * FROM memory_search_candidates(${SEARCH_ARGUMENTS.map((a, i) => `${a.name} => $${i + 1}::${a.type}`).join(", ")})${gate}`,
    params,
  };
}

/**
 * The search arguments of `memory_search_candidates` (migration 0011), by name and type, in the
 * order of {@link hybridCandidateArgs}; `memory_load_context` takes them after its own (from
 * `p_include_tenant` on). Statements name them, so an argument added later shifts nothing.
 */
export const SEARCH_ARGUMENTS: readonly { name: string; type: string }[] = [
  { name: "p_tenant", type: "text" },
  { name: "p_user", type: "text" },
  { name: "p_include_tenant", type: "boolean" },
  { name: "p_include_global", type: "boolean" },
  { name: "p_kinds", type: "text[]" },
  { name: "p_now", type: "timestamptz" },
  { name: "p_query", type: "text" },
  { name: "p_embedding", type: "real[]" },
  { name: "p_decay_days", type: "float8" },
  { name: "p_min_vsim", type: "float8" },
  { name: "p_vector_limit", type: "int" },
  { name: "p_vector_weight", type: "float8" },
  { name: "p_recency_weight", type: "float8" },
  { name: "p_archived_min_vsim", type: "float8" },
  { name: "p_standing_kinds", type: "text[]" },
  { name: "p_standing_limit", type: "int" },
  { name: "p_bridge_terms", type: "text" },
];

/** The values of {@link SEARCH_ARGUMENTS}, in order. */
export function hybridCandidateArgs(p: CandidateSqlParams): unknown[] {
  const user = p.scope.level === "user";
  return [
    p.scope.tenantId,
    user ? p.scope.userId : null,
    p.scope.level === "tenant" || (user && Boolean(p.include.tenant)),
    p.scope.level === "global" || Boolean(p.include.global),
    p.kinds,
    p.now,
    p.query,
    vectorLiteral(p.embedding),
    p.recencyDecayDays,
    p.minVectorSimilarity,
    p.vectorOnlyLimit,
    p.vectorOnlyWeight,
    p.recencyWeight,
    p.archivedMinVectorSimilarity,
    p.standingKinds,
    p.standingLimit,
    bridgeTermsArgument(p.bridgeTerms),
  ];
}

/** The nearest active memories of one kind in exactly one scope, by embedding cosine. */
export function nearestMemoriesSql(scope: ResolvedScope, kind: string, embedding: number[], limit: number, now: Date): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const scopeSql = exactScopeSql(scope, params);
  const gate = readGateSql(scope, params);
  params.push(kind, vectorLiteral(embedding), limit, now);
  const n = params.length;
  return {
    sql: `SELECT ${MEMORY_COLUMNS}, memory_vector_dot(m.embedding, memory_query_vector($${n - 2}::real[])) AS similarity
FROM memories m
WHERE ${scopeSql} AND ${gate} AND m.kind = $${n - 3} AND ${ACTIVE_SQL("m", `$${n}::timestamptz`)}
ORDER BY similarity DESC, m.created_at DESC
LIMIT $${n - 1}`,
    params,
  };
}

/**
 * Record batched use of memories (the deferred marks of `pending-usage.ts`): per id, how many
 * times it was used and when last. Ids the scope may not read, and an opted-out user's, are left
 * alone; `last_used_at` never moves back (a later direct mark wins).
 */
export function markUsedBatchSql(
  scope: ResolvedScope,
  include: { tenant?: boolean; global?: boolean },
  ids: readonly string[],
  ats: readonly Date[],
  counts: readonly number[],
): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const where = visibleScopeSql(scope, params, include);
  const gate = readGateSql(scope, params);
  params.push([...ids], [...ats], [...counts]);
  const n = params.length;
  return {
    // Being used again brings an archived memory back (archived_at cleared).
    sql: `UPDATE memories m SET last_used_at = greatest(m.last_used_at, u.at), access_count = m.access_count + u.n, archived_at = NULL
FROM unnest($${n - 2}::uuid[], $${n - 1}::timestamptz[], $${n}::int[]) AS u(id, at, n)
WHERE ${where} AND ${gate} AND m.id = u.id`,
    params,
  };
}

/** Expansion terms as the statements take them: one text, space-separated (null: none). */
export function bridgeTermsArgument(terms: readonly string[] | null): string | null {
  return terms && terms.length > 0 ? terms.join(" ") : null;
}

/**
 * The keys among `keys`/`values` (item values as JSON text, in order) that match a BaseStore
 * search filter: the same compiled filter `store_items` searches use, so both namespaces of the
 * door filter alike. `filterSql` is `compileItemFilter(…, params, "i")` with `params` starting at $3.
 */
export function matchingItemKeysSql(filterSql: string): string {
  return `SELECT i.key FROM unnest($1::text[], $2::jsonb[]) WITH ORDINALITY AS i(key, value, n) WHERE ${filterSql} ORDER BY i.n`;
}
