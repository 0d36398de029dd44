/**
 * The retrieval parts made once per store: its candidate cache and its context reader.
 *
 * The candidate cache of one store, built over it by the retrieval layer: the store only carries
 * the cache's options (`MemoryRepositoryOptions.candidateCache`) and publishes its usage events;
 * the cache made here subscribes to them (queued marks are applied to the cached rows, a direct
 * mark or an erasure drops the user's entry) and writes the store's queued marks before it reads
 * a user's rows. One cache per store, made at first use: `createMemory` makes it as it assembles
 * the parts; a load-memory node over a store made elsewhere makes it when the node is made.
 */
import type { MemoryRepository } from "../store/memory-store.js";
import { CandidateCache } from "./candidate-cache.js";
import type { ContextReader } from "./context-reader.js";
import { CachedContextReader, StatementContextReader } from "./context-readers.js";

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
  if (cache) store.onUsage(cache);
  caches.set(store, cache);
  return cache;
}

const readers = new WeakMap<MemoryRepository, ContextReader>();

/**
 * The context reader of one store: the {@link CachedContextReader} over the store's candidate
 * cache when it has one (`retrieval.candidateCacheMemories` > 0, the default), otherwise the
 * {@link StatementContextReader}. One per store: `createMemory` chooses it as it assembles the
 * parts; a load-memory node over a store made elsewhere gets the same one.
 *
 * @example
 * const reader = contextReaderOf(memory.store); // memory.contextReader
 */
export function contextReaderOf(store: MemoryRepository): ContextReader {
  const known = readers.get(store);
  if (known) return known;
  const cache = candidateCacheOf(store);
  const reader = cache?.enabled ? new CachedContextReader(store, cache) : new StatementContextReader(store);
  readers.set(store, reader);
  return reader;
}
