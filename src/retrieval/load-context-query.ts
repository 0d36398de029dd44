/**
 * The load-memory node's reads in one round trip: `memory_load_context` (migration 0007) returns
 * the opt-out flag, the profile document, the approved rules and the hybrid search candidates of
 * one user in a single PL/pgSQL call, whose plans Postgres caches per session.
 */
import type { Queryable } from "../db/database.js";
import type { ActiveRule, ProfileDocument } from "../state/types.js";
import { hybridCandidateArgs, type CandidateRow, type CandidateSqlParams } from "../store/memory-queries.js";

export const LOAD_CONTEXT_SQL = `SELECT * FROM memory_load_context($1::text, $2::text, $3::boolean, $4::boolean, $5::text, $6::int, $7::boolean,
  $8::boolean, $9::boolean, $10::text[], $11::timestamptz, $12::text, $13::real[], $14::float8, $15::float8, $16::int, $17::float8, $18::float8, $19::float8, $20::text[], $21::int, $22::bigint)`;

export interface LoadContextInput {
  tenantId: string;
  userId: string;
  /** Read the profile document. */
  profile: boolean;
  /** Read the approved rules for this task type (null = none), at most `limit`; null: no rules. */
  rules: { taskType: string | null; limit: number } | null;
  /** The search candidates' statement arguments (`MemoryStore.candidateParams`); null: no search. */
  search: CandidateSqlParams | null;
  /**
   * The user's memories version the caller holds in its cache (`CandidateCache`): when it is still
   * current the search is skipped and `queryLexemes` is returned instead; when it is not, no search
   * runs either (`searchSkipped`). Only for a search of the user's own memories (no tenant or global knowledge).
   */
  cachedVersion?: string | null;
}

export interface LoadedContext {
  optedOut: boolean;
  /** The stored document (null: none stored, not asked for, or opted out). */
  profile: ProfileDocument | null;
  /** Highest priority first ([] when not asked for or opted out). */
  rules: ActiveRule[];
  /** Rows for `MemoryStore.rankCandidates` ([] without a search, when opted out, or when the cache is current). */
  candidates: CandidateRow[];
  /** The user's memories version (null: no search, opted out, or none recorded yet). */
  memoriesVersion: string | null;
  /** The query's lexemes when `cachedVersion` was current (the search was skipped); null otherwise. */
  queryLexemes: string[] | null;
  /**
   * A search was asked for with a `cachedVersion` that is no longer current: no candidates were
   * read (the query vector was not sent); search separately.
   */
  searchSkipped: boolean;
}

type LoadContextRow = CandidateRow & {
  opted_out: boolean | null;
  profile: ProfileDocument | string | null;
  rules: RawRule[] | string | null;
  memories_version: string | number | bigint | null;
  query_lexemes: string[] | null;
};

interface RawRule {
  id: string;
  text: string;
  priority: number;
  scope: ActiveRule["scope"];
  taskType: string | null;
}

/**
 * Read a user's memory context in one statement. The function scopes its own reads to the user
 * (row-level security settings, transaction-local), so it needs no transaction around it. An
 * opted-out user's call reads nothing else and returns `optedOut: true`.
 *
 * @example
 * const ctx = await loadContext(db, { tenantId: "acme", userId: "alice", profile: true, rules: { taskType: null, limit: 50 }, search });
 */
export async function loadContext(tx: Queryable, input: LoadContextInput): Promise<LoadedContext> {
  // Holding a version, the caller expects no search: the query vector is not sent. If the version
  // is no longer current the statement returns no candidates (`searchSkipped`), and the caller searches.
  const held = input.search !== null ? (input.cachedVersion ?? null) : null;
  const searchArgs = input.search ? hybridCandidateArgs(input.search, { withoutEmbedding: held !== null }).slice(2) : new Array<unknown>(14).fill(null);
  const { rows } = await tx.query<LoadContextRow>(LOAD_CONTEXT_SQL, [
    input.tenantId,
    input.userId,
    input.profile,
    input.rules !== null,
    input.rules?.taskType ?? null,
    input.rules?.limit ?? null,
    input.search !== null,
    ...searchArgs,
    held,
  ]);
  // The context row is the one without a memory id; the rest are candidates.
  let head: LoadContextRow | undefined;
  const candidates: CandidateRow[] = [];
  for (const row of rows) {
    if (row.id === null) head = row;
    else candidates.push(row);
  }
  if (!head) throw new Error("memory_load_context returned no context row");
  const rules = typeof head.rules === "string" ? (JSON.parse(head.rules) as RawRule[]) : (head.rules ?? []);
  return {
    optedOut: head.opted_out === true,
    profile: typeof head.profile === "string" ? (JSON.parse(head.profile) as ProfileDocument) : head.profile,
    rules: rules.map((r) => ({ id: r.id, text: r.text, priority: Number(r.priority), scope: r.scope, taskType: r.taskType })),
    candidates,
    memoriesVersion: head.memories_version === null || head.memories_version === undefined ? null : String(head.memories_version),
    queryLexemes: head.query_lexemes ?? null,
    searchSkipped: held !== null && head.opted_out !== true && (head.query_lexemes ?? null) === null,
  };
}
