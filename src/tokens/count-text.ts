import { countTokens as countO200k } from "gpt-tokenizer/encoding/o200k_base";
import { countTokens as countCl100k } from "gpt-tokenizer/encoding/cl100k_base";

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
 * Count the tokens of a string, offline. (Never `@langchain/core`'s counter: it downloads
 * tables and hangs for ~100 s without a network.)
 *
 * @example
 * countTextTokens("Prefers metric units.") // → 5
 */
export function countTextTokens(text: string, encoding: TokenEncoding = "o200k_base"): number {
  if (!text) return 0;
  return encoding === "cl100k_base" ? countCl100k(text) : countO200k(text);
}
