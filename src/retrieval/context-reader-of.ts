import type { MemoryRepository } from "../store/memory-store.js";
import { CachedContextReader } from "./cached-context-reader.js";
import type { ContextReader } from "./context-reader.js";
import { StatementContextReader } from "./statement-context-reader.js";
import { candidateCacheOf } from "./store-candidate-cache.js";

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
