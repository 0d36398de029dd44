import { countTextTokens, type TokenEncoding } from "./count-text.js";

/** Strings shorter than this are tokenized directly: a Map lookup would not be cheaper. */
const MIN_CACHED_LENGTH = 16;
/** Bound on cached strings per encoding; the oldest entries are evicted first. */
const MAX_ENTRIES = 20_000;

const caches: Record<TokenEncoding, Map<string, number>> = {
  o200k_base: new Map(),
  cl100k_base: new Map(),
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
  if (text.length < MIN_CACHED_LENGTH) return countTextTokens(text, encoding);
  const cache = caches[encoding];
  const hit = cache.get(text);
  if (hit !== undefined) return hit;
  const tokens = countTextTokens(text, encoding);
  if (cache.size >= MAX_ENTRIES) {
    // Map iteration order is insertion order: drop the oldest eighth in one go.
    let drop = MAX_ENTRIES >> 3;
    for (const key of cache.keys()) {
      cache.delete(key);
      if (--drop === 0) break;
    }
  }
  cache.set(text, tokens);
  return tokens;
}

/** Empty the text token caches (benchmarks use it to measure cold runs). */
export function clearTextTokenCache(): void {
  for (const cache of Object.values(caches)) cache.clear();
}
