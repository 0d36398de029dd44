import type { MemoryRepository } from "../store/memory-store.js";
import type { CandidateSqlParams } from "../store/memory-queries.js";
import type { CandidateCache } from "./candidate-cache.js";
import { loadContext, type LoadContextInput } from "./load-context-query.js";
import { StatementContextReader, type ContextRound, type TurnSearch } from "./statement-context-reader.js";

/**
 * The {@link ContextReader} over a {@link CandidateCache}: while the user's memories have not
 * changed since this process read them, the statement only checks their version and returns the
 * query's lexemes (`memory_load_head`), and the cached rows are ranked in process — the same
 * results as the SQL search, without it. When the version moved, a second statement searches and
 * the cache is refilled. Searches that reach tenant or global knowledge, which the cache does not
 * hold, are read as the {@link StatementContextReader} reads them.
 *
 * @example
 * const reader = new CachedContextReader(store, candidateCacheOf(store)!);
 */
export class CachedContextReader extends StatementContextReader {
  constructor(
    store: MemoryRepository,
    private readonly cache: CandidateCache,
  ) {
    super(store);
  }

  protected override async readRound(head: LoadContextInput, search: TurnSearch): Promise<ContextRound> {
    const { prepared, params } = search;
    if (!prepared || !params || !isOwnMemories(params)) return super.readRound(head, search);
    const store = this.store;
    const cacheScope = { level: "user" as const, tenantId: head.tenantId, userId: head.userId };
    const held = this.cache.lookup(cacheScope);
    const context = await loadContext(store.db, { ...head, cachedVersion: held });
    if (context.optedOut) return { context, memories: [] };
    if (held !== null && context.queryLexemes !== null) {
      // Current: rank the cached rows (or, if another fill replaced them meanwhile, search in SQL).
      const rows = this.cache.candidates(cacheScope, held, params, context.queryLexemes, context.queryBridge);
      return { context, memories: rows ? store.rankCandidates(rows, prepared) : await store.searchPrepared(prepared) };
    }
    if (context.searchSkipped) {
      // The held version is no longer current (the user's memories changed): one more statement
      // searches (without the vector, the first one could not), and the cache is refilled.
      const searched = await loadContext(store.db, { tenantId: head.tenantId, userId: head.userId, profile: false, rules: null, search: params });
      this.cache.refresh(cacheScope, searched.memoriesVersion);
      return { context, memories: searched.optedOut ? [] : store.rankCandidates(searched.candidates, prepared) };
    }
    this.cache.refresh(cacheScope, context.memoriesVersion);
    return { context, memories: store.rankCandidates(context.candidates, prepared) };
  }
}

/** A search of the user's own memories only (the candidate cache holds no tenant or global knowledge). */
function isOwnMemories(p: CandidateSqlParams): boolean {
  return p.scope.level === "user" && !p.include.tenant && !p.include.global;
}
