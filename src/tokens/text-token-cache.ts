import { BoundedCache } from "../cache/bounded-cache.js";
import { countTextTokens, type TokenEncoding } from "./count-text.js";

/** Strings shorter than this are tokenized directly: a Map lookup would not be cheaper. */
const MIN_CACHED_LENGTH = 16;
/** Longer strings are counted each time: the cache is bounded by entries, and keys are held whole. */
const MAX_CACHED_LENGTH = 16_384;
/** Bound on cached strings per encoding; the oldest entries are evicted first. */
const MAX_ENTRIES = 20_000;

const caches: Record<TokenEncoding, BoundedCache<string, number>> = {
  o200k_base: new BoundedCache(MAX_ENTRIES),
  cl100k_base: new BoundedCache(MAX_ENTRIES),
};

/**
 * Token count of a string with a bounded, process-wide cache keyed by the exact text.
 *
 * Why: messages loaded from a checkpoint are fresh objects every turn, so a per-object cache
 * misses after each load; the same content strings come back, so a cache keyed by text keeps
 * `buildContext` well under a millisecond on long threads.
 *
 * @example
 * countTextTokensCached("Prefers metric units.") // → 5 (tokenized once, then looked up)
 */
export function countTextTokensCached(text: string, encoding: TokenEncoding = "o200k_base"): number {
  if (text.length < MIN_CACHED_LENGTH || text.length > MAX_CACHED_LENGTH) return countTextTokens(text, encoding);
  return caches[encoding].getOrCompute(text, (t) => countTextTokens(t, encoding));
}

/** Empty the text token caches (benchmarks use it to measure cold runs). */
export function clearTextTokenCache(): void {
  for (const cache of Object.values(caches)) cache.clear();
}
