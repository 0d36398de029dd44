import type { RetrievedMemory } from "../state/types.js";
import { countTextTokensCached, type TokenEncoding } from "../tokens/count-text.js";
import { MEMORY_CONTEXT_CAVEAT, MEMORY_CONTEXT_HEADER, formatMemoryLine } from "./format-memories.js";

type LineMemory = Pick<RetrievedMemory, "kind" | "text" | "createdAt">;

/** One memory's line, counted alone (the block's last line) and with its newline (any other line). */
export interface MemoryLineTokens {
  last: number;
  inner: number;
}

/** The tokens of one memory's prompt line alone (`RetrievedMemory.tokens`), cached by text. */
export function memoryLineTokenCount(memory: LineMemory, encoding: TokenEncoding = "o200k_base"): number {
  return countTextTokensCached(formatMemoryLine(memory), encoding);
}

/** The tokens of one memory's prompt line, each count cached by text. */
export function memoryLineTokens(memory: LineMemory, encoding: TokenEncoding = "o200k_base"): MemoryLineTokens {
  const line = formatMemoryLine(memory);
  return { last: countTextTokensCached(line, encoding), inner: countTextTokensCached(`${line}\n`, encoding) };
}

/** The header line of `formatMemoryContext` with its newline. */
export function memoryHeaderTokens(encoding: TokenEncoding = "o200k_base"): number {
  return countTextTokensCached(`${MEMORY_CONTEXT_HEADER} (${MEMORY_CONTEXT_CAVEAT}):\n`, encoding);
}

/**
 * Exactly `countTextTokens(formatMemoryContext(memories))`, from per-line counts cached by text:
 * the same memories come back turn after turn in new combinations, which a cache of whole blocks
 * misses. Exact because no token spans two lines. Every line but the last ends with the closing
 * quote of its JSON-quoted text and a newline, and the next starts with "- ". The o200k and cl100k
 * pre-tokenizers both end a run of punctuation at its trailing newlines, and BPE never merges
 * across pre-tokens. So the block's count is the header's, plus each line's with its newline,
 * plus the last line's alone. `test/unit/memory-block-tokens.test.ts` checks this against whole
 * blocks of random texts.
 *
 * @example
 * memoryBlockTokens(retrieved) === countTextTokens(formatMemoryContext(retrieved)) // true
 */
export function memoryBlockTokens(memories: readonly LineMemory[], encoding: TokenEncoding = "o200k_base"): number {
  if (memories.length === 0) return 0;
  let total = memoryHeaderTokens(encoding);
  for (let i = 0; i < memories.length; i++) {
    const t = memoryLineTokens(memories[i], encoding);
    total += i === memories.length - 1 ? t.last : t.inner;
  }
  return total;
}
