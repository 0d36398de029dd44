/**
 * The two {@link ContextReader}s: one searches in SQL every turn, the other ranks the user's
 * memories held in process while they are current. `contextReaderOf` (per-store.ts) chooses.
 */
import { LocalHashingEmbeddings } from "../embeddings/hashing-embeddings.js";
import type { MemoryRepository, PreparedSearch } from "../store/memory-store.js";
import type { CandidateSqlParams } from "../store/memory-queries.js";
import type { CandidateCache } from "./candidate-cache.js";
import type { ScoredMemory } from "../store/types.js";
import { rememberOwner } from "../threads/thread-owner.js";
import type { ContextRead, ContextReadRequest, ContextReader } from "./context-reader.js";
import { loadContext, type LoadContextInput, type LoadedContext } from "./load-context-queries.js";

/** The search of a turn, checked and embedded before the statement (null: none, or it failed). */
export interface TurnSearch {
  prepared: PreparedSearch | null;
  params: CandidateSqlParams | null;
  /** Why the search could not be prepared: raised only once the user is known not to have opted out. */
  error?: unknown;
}

/** The statement's result and the memories it ranked (null: the turn searched nothing yet). */
export interface ContextRound {
  context: LoadedContext;
  memories: ScoredMemory[] | null;
}

/**
 * The {@link ContextReader} that searches in SQL every turn: one statement reads the opt-out flag,
 * the profile, the rules and the search candidates (`memory_load_context`), which are ranked in
 * process. The offline embedder runs before the statement (in process, in microseconds, sending
 * nothing anywhere); any other embedder (a remote API) is called only once the statement has
 * shown the user has not opted out, and a second round trip searches.
 *
 * @example
 * const read = await new StatementContextReader(store).read({ scope, threadId: null, query: "units?", search: { limit: 8 }, profile: false, rules: null });
 */
export class StatementContextReader implements ContextReader {
  protected readonly embedFirst: boolean;

  constructor(protected readonly store: MemoryRepository) {
    this.embedFirst = store.embeddings instanceof LocalHashingEmbeddings;
  }

  async read(request: ContextReadRequest): Promise<ContextRead> {
    const store = this.store;
    const search = await this.prepareFirst(request);
    const head: LoadContextInput = {
      tenantId: request.scope.tenantId,
      userId: request.scope.userId,
      threadId: request.threadId,
      profile: request.profile,
      rules: request.rules,
      search: search.params,
    };
    const round = await this.readRound(head, search);
    const { context } = round;
    if (request.threadId !== null) rememberOwner(store.db, request.threadId, request.scope);
    if (context.optedOut) return { optedOut: true, profile: null, rules: [], memories: [] };
    if (search.error !== undefined) throw search.error;
    let memories = round.memories ?? [];
    let prepared = search.prepared;
    if (request.query.trim().length > 0 && !prepared) {
      prepared = await store.prepareSearch(request.scope, request.query, request.search);
      memories = await store.searchPrepared(prepared);
    }
    return { optedOut: false, profile: context.profile, rules: context.rules, memories, queryEmbedding: prepared?.embedding };
  }

  /** The statement of the turn; a reader with a cache reads differently here. */
  protected async readRound(head: LoadContextInput, search: TurnSearch): Promise<ContextRound> {
    // One statement, no transaction around it: memory_load_context sets the row-level security
    // scope itself (BEGIN, set_config and COMMIT were three more round trips on the response path).
    const context = await loadContext(this.store.db, head);
    return { context, memories: search.prepared ? this.store.rankCandidates(context.candidates, search.prepared) : null };
  }

  /** Check and embed the search before the statement when the embedder is the offline one. */
  private async prepareFirst(request: ContextReadRequest): Promise<TurnSearch> {
    if (request.query.trim().length === 0 || !this.embedFirst) return { prepared: null, params: null };
    try {
      const prepared = await this.store.prepareSearch(request.scope, request.query, request.search);
      try {
        return { prepared, params: await this.store.candidateParams(this.store.db, prepared) };
      } catch (error) {
        return { prepared, params: null, error };
      }
    } catch (error) {
      return { prepared: null, params: null, error };
    }
  }
}

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
