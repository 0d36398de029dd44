import type { RetrievedMemory } from "../state/types.js";
import { memoryBlockTokens, memoryHeaderTokens, memoryLineTokenCount, memoryLineTokens } from "../context/memory-block-tokens.js";
import type { TokenEncoding } from "../tokens/count-text.js";
import type { MemoryRepository } from "../store/memory-store.js";
import type { MemoryScope } from "../core/scope.js";
import type { MemorySearchOptions, ScoredMemory } from "../store/types.js";

export interface RetrieveOptions extends Omit<MemorySearchOptions, "queryEmbedding"> {
  /** Hard cap on the rendered memory block, in tokens (default: no cap). */
  maxTokens?: number;
  /** Record use of what was returned (`last_used_at`, `access_count`); default true. */
  markUsed?: boolean;
  encoding?: TokenEncoding;
}

export interface RetrieveResult {
  memories: RetrievedMemory[];
  /** Tokens of `formatMemoryContext(memories)` (0 when none). */
  tokens: number;
}

/** A stored memory as it travels in graph state (plain JSON, ISO dates). */
export function toRetrievedMemory(m: ScoredMemory, encoding: TokenEncoding = "o200k_base"): RetrievedMemory {
  const createdAt = m.createdAt.toISOString();
  return {
    id: m.id,
    kind: m.kind,
    text: m.text,
    score: m.score,
    similarity: m.similarity,
    recency: m.recency,
    scope: m.scope,
    createdAt,
    lastUsedAt: m.lastUsedAt?.toISOString() ?? null,
    // Cached: the same memories come back turn after turn.
    tokens: memoryLineTokenCount({ kind: m.kind, text: m.text, createdAt }, encoding),
    metadata: m.metadata,
  };
}

/**
 * Keep memories in score order while the rendered block stays within `maxTokens`; a memory that
 * does not fit is skipped (a shorter later one may still fit). The count is of the exact text
 * `formatMemoryContext` renders.
 */
export function capMemoriesByTokens(memories: readonly RetrievedMemory[], maxTokens: number, encoding: TokenEncoding = "o200k_base"): RetrieveResult {
  // Counted line by line (memoryBlockTokens: exact, each line cached by text). A memory that does
  // not fit is skipped; the kept block's count is the header, every kept line with its newline,
  // and the last one without.
  const lines = memories.map((m) => memoryLineTokens(m, encoding));
  const kept: RetrievedMemory[] = [];
  let inner = 0; // the kept lines, each with its newline
  let lastNewline = 0; // what the newline of the kept block's last line adds
  for (let i = 0; i < memories.length; i++) {
    const base = kept.length === 0 ? memoryHeaderTokens(encoding) : 0;
    if (base + inner + lines[i].last > maxTokens) continue;
    kept.push(memories[i]);
    inner += base + lines[i].inner;
    lastNewline = lines[i].inner - lines[i].last;
  }
  return { memories: kept, tokens: kept.length === 0 ? 0 : inner - lastNewline };
}

/**
 * Search, cap to the token budget, and mark what is returned as used — the retrieval step of the
 * load-memory node as a plain function.
 *
 * @example
 * const { memories, tokens } = await retrieveMemories(store, { tenantId: "acme", userId: "alice" }, "what units?", { maxTokens: 1000 });
 */
export async function retrieveMemories(store: MemoryRepository, scope: MemoryScope, query: string, options: RetrieveOptions = {}): Promise<RetrieveResult> {
  const { maxTokens, markUsed = true, encoding = "o200k_base", ...search } = options;
  if (query.trim().length === 0) return { memories: [], tokens: 0 };
  const found = (await store.search(scope, query, search)).map((m) => toRetrievedMemory(m, encoding));
  const result =
    maxTokens === undefined
      ? { memories: found, tokens: memoryBlockTokens(found, encoding) }
      : capMemoriesByTokens(found, maxTokens, encoding);
  if (markUsed && result.memories.length > 0) {
    await store.markUsed(scope, result.memories.map((m) => m.id), { include: search.include, now: search.now });
  }
  return result;
}
