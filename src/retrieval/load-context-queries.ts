/**
 * The load-memory node's reads in one round trip: `memory_load_context` (migration 0007) returns
 * the opt-out flag, the profile document, the approved rules and the hybrid search candidates of
 * one user in a single PL/pgSQL call, whose plans Postgres caches per session. A caller holding
 * the user's memories in its cache calls `memory_load_head` instead: the same context, the
 * memories version and, while that is current, the query's lexemes — no search. For a turn of a
 * thread, migration 0008's `memory_thread_load_context` / `memory_thread_load_head` first record or
 * check the thread's owner in the same round trip (another scope: THREAD_SCOPE_MISMATCH, nothing read).
 */
import type { Queryable } from "../db/database.js";
import { ErrorCodes, isMemoryError } from "../errors.js";
import { threadScopeMismatch } from "../threads/thread-owner.js";
import type { ActiveRule, ProfileDocument } from "../state/types.js";
import { SEARCH_ARGUMENTS, bridgeTermsArgument, hybridCandidateArgs, type CandidateRow, type CandidateSqlParams } from "../store/memory-queries.js";

/** The context arguments of `memory_load_head` / `memory_load_context` (migration 0011), first, by name and type. */
const HEAD_ARGUMENTS: readonly { name: string; type: string }[] = [
  { name: "p_tenant", type: "text" },
  { name: "p_user", type: "text" },
  { name: "p_profile", type: "boolean" },
  { name: "p_rules", type: "boolean" },
  { name: "p_task_type", type: "text" },
  { name: "p_rule_limit", type: "int" },
  { name: "p_search", type: "boolean" },
];
const CACHED_ARGUMENTS: readonly { name: string; type: string }[] = [
  { name: "p_query", type: "text" },
  { name: "p_cached_version", type: "bigint" },
  { name: "p_bridge_terms", type: "text" },
];
const THREAD_ARGUMENT = { name: "p_thread_id", type: "text" };

/** `SELECT * FROM fn(a => $1::t, …)`: arguments by name, so one added later shifts nothing. */
function callSql(fn: string, args: readonly { name: string; type: string }[]): string {
  return `SELECT * FROM ${fn}(${args.map((a, i) => `${a.name} => $${i + 1}::${a.type}`).join(", ")})`;
}

/** The search arguments `memory_load_context` passes on (all but tenant and user, which it has). */
const CONTEXT_SEARCH_ARGUMENTS = SEARCH_ARGUMENTS.slice(2);

export const LOAD_CONTEXT_SQL = callSql("memory_load_context", [...HEAD_ARGUMENTS, ...CONTEXT_SEARCH_ARGUMENTS]);

export const LOAD_HEAD_SQL = callSql("memory_load_head", [...HEAD_ARGUMENTS, ...CACHED_ARGUMENTS]);

/** {@link LOAD_CONTEXT_SQL} for a turn of thread $1 (its owner is checked first); the other arguments follow. */
export const THREAD_LOAD_CONTEXT_SQL = callSql("memory_thread_load_context", [THREAD_ARGUMENT, ...HEAD_ARGUMENTS, ...CONTEXT_SEARCH_ARGUMENTS]);

/** {@link LOAD_HEAD_SQL} for a turn of thread $1. */
export const THREAD_LOAD_HEAD_SQL = callSql("memory_thread_load_head", [THREAD_ARGUMENT, ...HEAD_ARGUMENTS, ...CACHED_ARGUMENTS]);

export interface LoadContextInput {
  tenantId: string;
  userId: string;
  /**
   * The thread this turn belongs to: its owner is recorded (first turn) or checked in the same
   * statement, and a thread of another scope fails with THREAD_SCOPE_MISMATCH before anything is read.
   */
  threadId?: string | null;
  /** Read the profile document. */
  profile: boolean;
  /** Read the approved rules for this task type (null = none), at most `limit`; null: no rules. */
  rules: { taskType: string | null; limit: number } | null;
  /** The search candidates' statement arguments (`MemoryRepository.candidateParams`); null: no search. */
  search: CandidateSqlParams | null;
  /**
   * The user's memories version the caller holds in its cache (`CandidateCache`): only the context
   * is read (`memory_load_head`), with `queryLexemes` while the version is current and
   * `searchSkipped` when it is not. Only for a search of the user's own memories (no tenant or global knowledge).
   */
  cachedVersion?: string | null;
}

export interface LoadedContext {
  optedOut: boolean;
  /** The stored document (null: none stored, not asked for, or opted out). */
  profile: ProfileDocument | null;
  /** Highest priority first ([] when not asked for or opted out). */
  rules: ActiveRule[];
  /** Rows for `MemoryRepository.rankCandidates` ([] without a search, when opted out, or when the cache is current). */
  candidates: CandidateRow[];
  /** The user's memories version (null: no search, opted out, or none recorded yet). */
  memoriesVersion: string | null;
  /** The query's lexemes when `cachedVersion` was current (the search was skipped); null otherwise. */
  queryLexemes: string[] | null;
  /** With `queryLexemes`, the expansion terms' lexemes (`CandidateRow.bridge_lexemes`; null: no terms). */
  queryBridge: string | null;
  /** A search was asked for with a `cachedVersion` that is no longer current: no candidates were read; search separately. */
  searchSkipped: boolean;
}

type LoadContextRow = CandidateRow & {
  opted_out: boolean | null;
  profile: ProfileDocument | string | null;
  rules: RawRule[] | string | null;
  memories_version: string | number | bigint | null;
  query_lexemes: string[] | null;
  query_bridge: string | null;
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
 * opted-out user's call reads nothing else and returns `optedOut: true`. With `threadId`, the
 * thread must be the user's (or new: it becomes theirs), else THREAD_SCOPE_MISMATCH.
 *
 * @example
 * const ctx = await loadContext(db, { tenantId: "acme", userId: "alice", profile: true, rules: { taskType: null, limit: 50 }, search });
 */
export async function loadContext(tx: Queryable, input: LoadContextInput): Promise<LoadedContext> {
  const head = [input.tenantId, input.userId, input.profile, input.rules !== null, input.rules?.taskType ?? null, input.rules?.limit ?? null, input.search !== null];
  // Holding a version, the caller expects no search: the head alone (no query vector to send). If
  // the version is no longer current, `searchSkipped` tells the caller to search.
  const held = input.search !== null ? (input.cachedVersion ?? null) : null;
  const thread = input.threadId ?? null;
  const args =
    held !== null
      ? [...head, input.search!.query, held, bridgeTermsArgument(input.search!.bridgeTerms)]
      : [...head, ...(input.search ? hybridCandidateArgs(input.search).slice(2) : new Array<unknown>(CONTEXT_SEARCH_ARGUMENTS.length).fill(null))];
  let rows: LoadContextRow[];
  try {
    ({ rows } =
      thread === null
        ? await tx.query<LoadContextRow>(held !== null ? LOAD_HEAD_SQL : LOAD_CONTEXT_SQL, args)
        : await tx.query<LoadContextRow>(held !== null ? THREAD_LOAD_HEAD_SQL : THREAD_LOAD_CONTEXT_SQL, [thread, ...args]));
  } catch (err) {
    if (thread !== null && isMemoryError(err, ErrorCodes.THREAD_SCOPE_MISMATCH)) throw threadScopeMismatch(thread, err);
    throw err;
  }
  // The context row is the one without a memory id; the rest are candidates.
  let context: LoadContextRow | undefined;
  const candidates: CandidateRow[] = [];
  for (const row of rows) {
    if (row.id === null || row.id === undefined) context = row;
    else candidates.push(row);
  }
  if (!context) throw new Error("memory_load_context returned no context row");
  const rules = typeof context.rules === "string" ? (JSON.parse(context.rules) as RawRule[]) : (context.rules ?? []);
  return {
    optedOut: context.opted_out === true,
    profile: typeof context.profile === "string" ? (JSON.parse(context.profile) as ProfileDocument) : context.profile,
    rules: rules.map((r) => ({ id: r.id, text: r.text, priority: Number(r.priority), scope: r.scope, taskType: r.taskType })),
    candidates,
    memoriesVersion: context.memories_version === null || context.memories_version === undefined ? null : String(context.memories_version),
    queryLexemes: context.query_lexemes ?? null,
    queryBridge: context.query_bridge ?? null,
    searchSkipped: held !== null && context.opted_out !== true && (context.query_lexemes ?? null) === null,
  };
}
