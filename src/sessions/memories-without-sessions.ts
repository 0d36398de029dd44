import { capMemoriesByTokens, toRetrievedMemory, type RetrieveOptions, type RetrieveResult } from "../retrieval/retrieve-memories.js";
import { invalidInput } from "../errors.js";
import type { MemoryRepository } from "../store/memory-store.js";
import type { MemoryScope } from "../core/scope.js";
import { isSessionMemory } from "./session-metadata.js";

/** Extra ranks searched so session memories set aside do not shrink the memories' top k. */
const SESSION_HEADROOM = 32;

/**
 * `retrieveMemories` without past-session memories: those have their own section and budget
 * (`pastSessions`), and among memories the current thread's own summary would repeat the rolling
 * summary. Searches `SESSION_HEADROOM` ranks deeper, so up to that many sessions ranking above
 * the memories cost none of the top k; then caps, and marks used what is returned.
 *
 * @example
 * const { memories, tokens } = await retrieveMemoriesWithoutSessions(store, alice, "what units?", { maxTokens: 1000 });
 */
export async function retrieveMemoriesWithoutSessions(store: MemoryRepository, scope: MemoryScope, query: string, options: RetrieveOptions = {}): Promise<RetrieveResult> {
  const { maxTokens, markUsed = true, encoding = "o200k_base", ...search } = options;
  if (query.trim().length === 0) return { memories: [], tokens: 0 };
  const k = search.limit ?? store.retrieval.topK;
  if (!Number.isInteger(k) || k < 1 || k > 1000) throw invalidInput("limit", "must be an integer from 1 to 1000");
  const found = await store.search(scope, query, { ...search, limit: Math.min(1000, k + SESSION_HEADROOM) });
  const kept = found
    .filter((m) => !isSessionMemory(m))
    .slice(0, k)
    .map((m) => toRetrievedMemory(m, encoding));
  const result = capMemoriesByTokens(kept, maxTokens ?? Number.POSITIVE_INFINITY, encoding);
  if (markUsed && result.memories.length > 0) {
    await store.markUsed(scope, result.memories.map((m) => m.id), { include: search.include, now: search.now });
  }
  return result;
}
