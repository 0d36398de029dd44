import { countTokens as countO200k } from "gpt-tokenizer/encoding/o200k_base";
import { countTokens as countCl100k } from "gpt-tokenizer/encoding/cl100k_base";
import { BoundedCache } from "../cache/bounded-cache.js";
import { countInPieces } from "./token-count-pieces.js";

/** Tokenizer encodings we count with (offline, bundled in `gpt-tokenizer`). */
export type TokenEncoding = "o200k_base" | "cl100k_base";

/**
 * The encoding for a model name (`gpt-4o-mini`, `openai:gpt-4.1`, `claude-…`). Older OpenAI
 * models (gpt-4, gpt-3.5) use cl100k; everything else is counted with o200k, a close estimate
 * for non-OpenAI models too.
 */
export function encodingForModel(model?: string): TokenEncoding {
  if (!model) return "o200k_base";
  const name = model.includes(":") ? model.slice(model.indexOf(":") + 1) : model;
  if (/^(gpt-4(?!o|\.1|\.5)(-|$)|gpt-3\.5|text-embedding)/i.test(name)) return "cl100k_base";
  return "o200k_base";
}

/**
 * The encoders {@link countTextTokens} hands its pieces to (`gpt-tokenizer`'s `countTokens`).
 * Replaceable so a test can count the work they are given.
 */
export const TOKEN_ENCODERS: Record<TokenEncoding, (text: string) => number> = { o200k_base: countO200k, cl100k_base: countCl100k };

/**
 * Count the tokens of a string, offline, in work linear in its length and bounded past
 * `MAX_EXACT_CHARS` (256 Ki characters): exact for text with spaces, within a few per cent on long
 * runs without (CJK, base64), and estimated from evenly spaced samples beyond that length — such a
 * text is far over any budget anyway (see `token-count-pieces.ts`). Never `@langchain/core`'s
 * counter: it downloads tables and hangs for ~100 s without a network.
 *
 * @example
 * countTextTokens("Prefers metric units.") // → 5
 */
export function countTextTokens(text: string, encoding: TokenEncoding = "o200k_base"): number {
  if (!text) return 0;
  // Piece by piece: the encoder is quadratic in a run without spaces (see token-count-pieces.ts).
  return countInPieces(text, TOKEN_ENCODERS[encoding === "cl100k_base" ? "cl100k_base" : "o200k_base"]);
}

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
