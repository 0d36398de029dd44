import type { RunnableConfig } from "@langchain/core/runnables";
import { BudgetsSchema, type Budgets } from "../config.js";
import { PAST_SESSIONS_HEADER, fitMemories } from "../context/memory-block.js";
import { invalidInput } from "../errors.js";
import type { MemoryLoader } from "../retrieval/memory-loader.js";
import type { MemoryRepository } from "../store/memory-store.js";
import type { Memory } from "../store/types.js";
import type { TokenEncoding } from "../tokens/count-text.js";
import { checkScope, type SessionScope } from "./index-session.js";
import { toPastSession, sessionRecency, type PastSession } from "./past-session-item.js";
import { sessionInfoOf, type SessionInfo } from "./session-metadata.js";

/** Sessions searched per loader call before the current thread and non-session episodes are set aside. */
const CANDIDATES = 50;

export interface FindPastSessionsOptions {
  /** The current thread: never returned. */
  excludeThreadId?: string | null;
  /** Most sessions returned. Default 3. */
  limit?: number;
  /** Token budget of the rendered "Relevant past interactions" section. Default `budgets.pastSessions` (500). */
  maxTokens?: number;
  /** Relevance floor on similarity. Default the store's `retrieval.relevanceFloor` (0.3). */
  minSimilarity?: number;
  /** Record use of what is returned. Default true. */
  markUsed?: boolean;
  encoding?: TokenEncoding;
  /** Clock for recency (tests). Default the store's clock (`store.clock`). */
  now?: Date;
}

export interface FindPastSessionsResult {
  sessions: PastSession[];
  /** Tokens of the rendered section (`formatMemoryContext(sessions, PAST_SESSIONS_HEADER)`), 0 when empty. */
  tokens: number;
}

/**
 * The user's past sessions most relevant to a message: the store's hybrid search over session
 * memories (similarity as for any memory), re-ranked with recency of each session's *last
 * activity*, the current thread left out, and whole sessions kept while the rendered section fits
 * `maxTokens`. Never another user's: the search runs in the user's scope.
 *
 * @example
 * const { sessions } = await findPastSessions(store, alice, "the Lisbon trip again", { excludeThreadId: "t2" });
 */
export async function findPastSessions(store: MemoryRepository, scope: SessionScope, query: string, options: FindPastSessionsOptions = {}): Promise<FindPastSessionsResult> {
  const s = checkScope(scope);
  const limit = options.limit ?? 3;
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw invalidInput("limit", "must be an integer from 1 to 100");
  const maxTokens = options.maxTokens ?? BudgetsSchema.parse({}).pastSessions;
  if (!(maxTokens >= 0)) throw invalidInput("maxTokens", "must be a non-negative number of tokens");
  if (typeof query !== "string" || query.trim() === "" || maxTokens === 0) return { sessions: [], tokens: 0 };
  const now = options.now ?? store.clock.now();
  const { similarityWeight, recencyWeight, recencyDecayDays } = store.retrieval;

  const found = await store.search(s, query, { kinds: ["episode"], limit: Math.max(CANDIDATES, limit * 4), minSimilarity: options.minSimilarity, now });
  const ranked = found.flatMap((m) => {
    const session = sessionInfoOf(m.metadata);
    if (!session || (options.excludeThreadId != null && session.threadId === options.excludeThreadId)) return [];
    const recency = sessionRecency(session, now, recencyDecayDays);
    return [{ memory: m, session, recency, score: similarityWeight * m.similarity + recencyWeight * recency }];
  });
  ranked.sort((a, b) => b.score - a.score || b.session.lastAt.localeCompare(a.session.lastAt));
  const top = ranked
    .slice(0, limit)
    .map((r) => toPastSession(r.memory, { score: r.score, similarity: r.memory.similarity, recency: r.recency }, options.encoding))
    .filter((p): p is PastSession => p !== null);
  const fitted = fitMemories(top, { maxTokens, encoding: options.encoding, header: PAST_SESSIONS_HEADER });
  const sessions = fitted.included.map((i) => top[i]);
  if ((options.markUsed ?? true) && sessions.length > 0) await store.markUsed(s, sessions.map((p) => p.id), { now });
  return { sessions, tokens: fitted.tokens };
}

export interface PastSessionsLoaderOptions extends Omit<FindPastSessionsOptions, "excludeThreadId" | "maxTokens" | "now"> {
  store: MemoryRepository;
  /** Budgets (`pastSessions` caps the section; default 500 tokens). */
  budgets?: Partial<Budgets>;
}

/**
 * A loader for `createLoadMemoryNode({ loaders })` that fills `pastSessions` ("Relevant past
 * interactions") for the latest user message, leaving out the run's own thread
 * (`config.configurable.thread_id`), within `budgets.pastSessions`.
 *
 * @example
 * const load = createLoadMemoryNode({ store, budgets: config.budgets, loaders: [createPastSessionsLoader({ store, budgets: config.budgets })] });
 */
export function createPastSessionsLoader(options: PastSessionsLoaderOptions): MemoryLoader {
  const { store, budgets, ...find } = options;
  const maxTokens = BudgetsSchema.parse(budgets ?? {}).pastSessions;
  return async ({ scope, query, config }) => {
    const { sessions, tokens } = await findPastSessions(store, scope, query, { ...find, maxTokens, excludeThreadId: threadIdOf(config) });
    return { update: { pastSessions: sessions }, usage: { pastSessions: tokens } };
  };
}

export interface ListRecentSessionsOptions {
  /** Leave out this thread (usually the current one). */
  excludeThreadId?: string | null;
  encoding?: TokenEncoding;
  now?: Date;
}

/** Episodes read per page while collecting a user's sessions. */
const LIST_PAGE = 1000;

/**
 * The user's last `n` sessions, newest activity first ("what did we talk about last time?").
 * Items carry score 0 and similarity 0 (nothing was matched), recency of the last activity.
 * Reads through the store's typed door (so opt-out, expiry and supersede apply as everywhere):
 * the user's active episodes, sorted by `lastAt` here — a thread indexed long ago may have been
 * active today, so creation order cannot stop the scan early. Per-user episode sets are small.
 *
 * @example
 * const last3 = await listRecentSessions(store, { tenantId: "acme", userId: "alice" }, 3);
 * return { pastSessions: last3 };
 */
export async function listRecentSessions(store: MemoryRepository, scope: SessionScope, n: number, options: ListRecentSessionsOptions = {}): Promise<PastSession[]> {
  const s = checkScope(scope);
  if (!Number.isInteger(n) || n < 1 || n > 1000) throw invalidInput("n", "must be an integer from 1 to 1000");
  const now = options.now ?? store.clock.now();
  const sessions: Array<{ memory: Memory; session: SessionInfo }> = [];
  for (let offset = 0; ; offset += LIST_PAGE) {
    const page = await store.list(s, { kinds: ["episode"], limit: LIST_PAGE, offset });
    for (const memory of page) {
      const session = sessionInfoOf(memory.metadata);
      if (session && (options.excludeThreadId == null || session.threadId !== options.excludeThreadId)) sessions.push({ memory, session });
    }
    if (page.length < LIST_PAGE) break;
  }
  sessions.sort((a, b) => b.session.lastAt.localeCompare(a.session.lastAt) || b.memory.updatedAt.getTime() - a.memory.updatedAt.getTime());
  return sessions
    .slice(0, n)
    .map(({ memory, session }) => toPastSession(memory, { score: 0, similarity: 0, recency: sessionRecency(session, now, store.retrieval.recencyDecayDays) }, options.encoding))
    .filter((p): p is PastSession => p !== null);
}

function threadIdOf(config: RunnableConfig | undefined): string | null {
  const id = (config?.configurable as Record<string, unknown> | undefined)?.thread_id;
  return typeof id === "string" && id !== "" ? id : typeof id === "number" ? String(id) : null;
}
