/**
 * What the typed memory door tells the layers above it about users' memories, so that a cache
 * built over the store (the load-memory node's `CandidateCache`, src/retrieval) stays right
 * without the store knowing it: the store publishes, the cache subscribes where the parts are
 * assembled (`createMemory`, `candidateCacheOf`). The store never imports the retrieval layer.
 */
import type { ResolvedScope } from "../core/scope.js";

/** A user's scope, as events name it. */
export type UserMemoryScope = Pick<ResolvedScope, "tenantId" | "userId"> & { level: "user" };

/**
 * A subscriber to a store's usage and change events ({@link MemoryRepository.onUsage}).
 *
 * @example
 * const stop = store.onUsage({ onUsed: (scope, ids, at) => console.log(scope.userId, ids.length, at), onChanged: (scope) => cache.forget(scope) });
 * stop(); // unsubscribed
 */
export interface MemoryUsageListener {
  /**
   * Usage marks of a user's memories were queued (`markUsedLater`) at `at`: they will be written
   * (`last_used_at` never moves back, `access_count` + 1) without changing the user's version.
   */
  onUsed?(scope: UserMemoryScope, ids: readonly string[], at: Date): void;
  /**
   * A user's memories changed in a way their version may not show (a direct `markUsed` may move
   * `last_used_at` back; an erasure outside the store's methods): drop what is held for them.
   */
  onChanged?(scope: UserMemoryScope): void;
}

/**
 * How the load-memory node's in-process cache over a store is sized
 * ({@link MemoryRepositoryOptions.candidateCache}); the cache itself is built by the retrieval
 * layer (`CandidateCache`, src/retrieval/candidate-cache.ts).
 */
export interface CandidateCacheOptions {
  /** Most memories held, over all users (least recently used users go first; 0 turns the cache off). Default 20,000. */
  maxMemories?: number;
  /** An entry older than this is refilled before it is used again (default 300,000 ms). */
  maxAgeMs?: number;
  /**
   * Run before a user's rows are read (the store writes its queued usage marks here, so the rows
   * read hold them; marks queued while the read runs are applied on top).
   */
  beforeRead?: () => Promise<unknown>;
  /** Milliseconds now (tests move it). */
  now?: () => number;
  warn?: (message: string) => void;
}
