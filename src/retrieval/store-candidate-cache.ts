/**
 * The candidate cache of one store, built over it by the retrieval layer: the store only carries
 * the cache's options (`MemoryRepositoryOptions.candidateCache`) and publishes its usage events;
 * the cache made here subscribes to them (queued marks are applied to the cached rows, a direct
 * mark or an erasure drops the user's entry) and writes the store's queued marks before it reads
 * a user's rows. One cache per store, made at first use: `createMemory` makes it as it assembles
 * the parts; a load-memory node over a store made elsewhere makes it when the node is made.
 */
import type { MemoryRepository } from "../store/memory-store.js";
import { CandidateCache } from "./candidate-cache.js";

const caches = new WeakMap<MemoryRepository, CandidateCache | null>();

/**
 * The store's candidate cache (null when `candidateCache: false`), made and subscribed on the
 * first call.
 *
 * @example
 * const store = new MemoryRepository(db);
 * const cache = candidateCacheOf(store);
 * await cache?.settle(); // fills in flight written (tests, benchmarks)
 */
export function candidateCacheOf(store: MemoryRepository): CandidateCache | null {
  const known = caches.get(store);
  if (known !== undefined) return known;
  const options = store.candidateCacheOptions;
  const cache =
    options === false
      ? null
      : new CandidateCache(store.db, {
          maxMemories: store.retrieval.candidateCacheMemories,
          maxAgeMs: store.retrieval.candidateCacheMaxAgeSeconds * 1000,
          beforeRead: () => store.flushUsage(),
          ...options,
        });
  if (cache) {
    store.onUsage({
      onUsed: (scope, ids, at) => cache.noteUsed(scope, ids, at),
      onChanged: (scope) => cache.forget(scope),
    });
  }
  caches.set(store, cache);
  return cache;
}
