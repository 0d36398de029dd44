/**
 * How the load-memory node reads a user's context for one turn: the opt-out flag, the profile, the
 * approved rules and the memories relevant to the turn's text. One interface, two readers, chosen
 * where the parts are assembled (`contextReaderOf`, called by `createMemory`): the
 * {@link StatementContextReader} searches in SQL every turn (`memory_load_context`, migration
 * 0007); the {@link CachedContextReader} holds each user's memories in process and, while they are
 * current, ranks them there after a statement that only checks their version. The node knows
 * neither: it asks, then fits what it gets to the budgets.
 */
import type { ActiveRule, ProfileDocument } from "../state/types.js";
import type { UserScope } from "../core/scope.js";
import type { MemorySearchOptions, ScoredMemory } from "../store/types.js";

/** What one turn reads. */
export interface ContextReadRequest {
  scope: UserScope;
  /** The turn's thread: its owner is recorded (first turn) or checked in the same statement; null without one. */
  threadId: string | null;
  /** The text to search for (the latest user message); "" reads no memories. */
  query: string;
  /** Search options (limit, kinds, include, floor, standing); checked only for a user who has not opted out. */
  search: Omit<MemorySearchOptions, "queryEmbedding" | "now">;
  /** Read the profile document in the statement (false: the caller asks its own profile store, or none). */
  profile: boolean;
  /** Read the approved rules for this task type, at most `limit`, in the statement; null: none. */
  rules: { taskType: string | null; limit: number } | null;
}

/** What one turn read. */
export interface ContextRead {
  /** The user opted out: nothing else was read (profile null, rules and memories empty). */
  optedOut: boolean;
  profile: ProfileDocument | null;
  /** Highest priority first. */
  rules: ActiveRule[];
  /** Ranked, best first, at most `search.limit`. */
  memories: ScoredMemory[];
  /** The query's embedding, when the search embedded it (passed on to further loaders). */
  queryEmbedding?: number[];
}

/**
 * Reads one turn's memory context.
 *
 * @example
 * const reader = contextReaderOf(store);
 * const read = await reader.read({ scope, threadId: "t1", query: "which units?", search: { limit: 8 }, profile: true, rules: { taskType: null, limit: 50 } });
 */
export interface ContextReader {
  read(request: ContextReadRequest): Promise<ContextRead>;
}
