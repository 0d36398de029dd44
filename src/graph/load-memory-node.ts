import type { BaseMessage } from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";
import type { ActiveRule, MemoryUsage, ProfileDocument, RetrievedMemory } from "../state/types.js";
import type { MemoryState, MemoryUpdate } from "../state/annotation.js";
import { BudgetsSchema, type Budgets } from "../config.js";
import type { MemoryRepository } from "../store/memory-store.js";
import { SearchLimitSchema } from "../store/memory-input-schemas.js";
import type { MemorySearchOptions, ScoredMemory } from "../store/types.js";
import type { TokenEncoding } from "../tokens/count-text.js";
import { isSessionMemory } from "../sessions/session-metadata.js";
import type { SettingsTarget } from "../controls/settings-target.js";
import { ProfileStore } from "../profile/profile-store.js";
import { RuleStore } from "../procedural/rule-store.js";
import { MemorySettingsStore } from "../controls/settings-store.js";
import { fitProfile } from "../context/format-profile.js";
import { formatRules } from "../context/format-rules.js";
import { capMemoriesByTokens, toRetrievedMemory, type RetrieveResult } from "../retrieval/retrieve-memories.js";
import type { ContextReader } from "../retrieval/context-reader.js";
import { contextReaderOf } from "../retrieval/per-store.js";
import type { MemoryLoader } from "../retrieval/memory-loader.js";
import { scopeFromConfig } from "../core/scope.js";
import { checkIdText } from "../core/well-formed-text.js";

/**
 * What the node returns: the state update with `memories` and `memoryUsage` always set, and
 * `profile` / `rules` unless those sections are switched off.
 */
export type LoadMemoryResult = Partial<MemoryUpdate> & {
  memories: RetrievedMemory[];
  memoryUsage: MemoryUsage;
  profile?: ProfileDocument | null;
  rules?: ActiveRule[];
};

export interface LoadMemoryNodeOptions {
  store: MemoryRepository;
  /** Token budgets (`memories` caps the retrieved block; default 1,000). */
  budgets?: Partial<Budgets>;
  /**
   * Search options (k, kinds, include tenant/global knowledge, floor, standing memories — default
   * `retrieval.standingKinds` / `retrieval.standingLimit`).
   */
  search?: Omit<MemorySearchOptions, "queryEmbedding" | "now">;
  /**
   * Record what was injected (`last_used_at`, `access_count`; default true). Written off the
   * response path, batched a moment later (`MemoryRepository.markUsedLater`).
   */
  markUsed?: boolean;
  /** Further sections (e.g. past sessions), run in order after the built-in ones; skipped for opted-out users. */
  loaders?: MemoryLoader[];
  encoding?: TokenEncoding;
  /**
   * The user's profile, always loaded and fitted to `budgets.profile` by field priority (default: a
   * `ProfileStore` on the store's database with the default schema — pass yours when the app has
   * its own schema). `false`: no profile (the `profile` channel is left alone).
   */
  profiles?: ProfileStore | false;
  /**
   * Approved, active procedural rules for the user and task, read fresh every turn (default: a
   * `RuleStore` on the store's database). `false`: no rules (the `rules` channel is left alone).
   */
  rules?: RuleStore | false;
  /** Opt-out (default: `MemorySettingsStore` on the store's database). Opted-out users get an empty context. */
  settings?: SettingsTarget;
  /** Task type for task-scoped rules (default: `config.configurable.task_type`). */
  taskType?: (input: { state: Pick<MemoryState, "messages">; config: RunnableConfig }) => string | null | undefined;
  /**
   * Token cap of the rendered "Behavioral rules" section (default: `budgets.system`, the most
   * `buildContext` gives rules, which share the system budget). Whole rules, highest priority first.
   */
  ruleTokens?: number;
  /** Most rules read per turn before fitting (default 50). */
  maxRules?: number;
  /**
   * How the turn's context is read (default `contextReaderOf(store)`: the cached reader while the
   * store has a candidate cache, else the statement reader; `createMemory` passes `memory.contextReader`).
   */
  reader?: ContextReader;
}

/**
 * A graph node that builds the user's whole memory context in one call: the profile (fitted to
 * `budgets.profile`, lowest-priority fields dropped first), the approved behavioral rules for the
 * task (fitted, highest priority first), and the long-term memories relevant to the latest user
 * message (capped at `budgets.memories`, marked used after the turn) — with the tokens of each
 * section in `memoryUsage`. One statement reads them all (`memory_load_context`, migration 0007,
 * which scopes its own reads to the user for row-level security). While the user's memories have
 * not changed since this process read them (the store's `CandidateCache`, on by default), that
 * statement only checks their version and the cached rows are ranked in process: same results,
 * no search in SQL. Scope comes from `config.configurable` (`tenant_id`,
 * `user_id`); a run without it fails with SCOPE_REQUIRED. With a `thread_id`, the same statement
 * records the thread as the user's on its first turn and checks it on every later one: a thread of
 * another tenant or user fails with THREAD_SCOPE_MISMATCH before anything is read — whichever
 * checkpointer holds the thread. An opted-out user gets an empty context:
 * nothing is read or marked for them, the extra loaders do not run, and their message goes to no
 * embedder (only the in-process offline embedder runs before the opt-out is known).
 *
 * @example
 * const graph = new StateGraph(MemoryAnnotation)
 *   .addNode("load_memory", createLoadMemoryNode({ store }))
 *   .addNode("agent", agent)
 *   .addEdge(START, "load_memory").addEdge("load_memory", "agent").compile();
 * await graph.invoke({ messages: [new HumanMessage("hi")] }, { configurable: { thread_id: "t", tenant_id: "acme", user_id: "alice" } });
 */
export function createLoadMemoryNode(options: LoadMemoryNodeOptions) {
  const budgets = BudgetsSchema.parse(options.budgets ?? {});
  const encoding = options.encoding ?? "o200k_base";
  const store = options.store;
  const profiles = options.profiles === false ? null : (options.profiles ?? new ProfileStore(store.db));
  const rules = options.rules === false ? null : (options.rules ?? new RuleStore(store.db));
  const settings = options.settings ?? new MemorySettingsStore(store.db);
  const ruleTokens = options.ruleTokens ?? budgets.system;
  const maxRules = options.maxRules ?? 50;
  const markUsed = options.markUsed ?? true;
  // The built-in stores on the store's database are read in the one statement; anything else
  // (another database, a subclass with its own reads, a custom settings target) is asked itself.
  const fold = {
    settings: isPlain(settings, MemorySettingsStore, "isOptedOut", store),
    profile: profiles !== null && isPlain(profiles, ProfileStore, "getDocument", store),
    rules: rules !== null && isPlain(rules, RuleStore, "activeFor", store),
  };
  const reader = options.reader ?? contextReaderOf(store);

  return async function loadMemory(state: Pick<MemoryState, "messages">, config: RunnableConfig = {}): Promise<LoadMemoryResult> {
    const scope = scopeFromConfig(config);
    const threadId = threadIdOf(config);
    const usage: MemoryUsage = { profile: 0, rules: 0, memories: 0, summary: 0, pastSessions: 0, total: 0 };
    let update: Partial<MemoryUpdate> = {};
    if (profiles) update.profile = null;
    if (rules) update.rules = [];
    const empty = () => ({ ...update, memories: [], memoryUsage: usage }) as LoadMemoryResult;
    if (!fold.settings && (await settings.isOptedOut(scope))) return empty();

    const query = latestUserText(state.messages ?? []);
    const taskType = (options.taskType ? options.taskType({ state, config }) : taskTypeFromConfig(config)) ?? null;
    const k = options.search?.limit ?? store.retrieval.topK;
    const read = await reader.read({
      scope,
      threadId,
      query,
      // Standing memories (the user's newest durable facts and preferences) may go below the floor:
      // the search returns them whatever their relevance and ranks them with the rest. A k the
      // store refuses is passed as it is, so the error names it (for a user who has not opted out).
      search: {
        ...options.search,
        limit: SearchLimitSchema.safeParse(k).success ? Math.min(1000, k + SESSION_HEADROOM) : k,
        standing: options.search?.standing ?? { kinds: store.retrieval.standingKinds, limit: store.retrieval.standingLimit },
      },
      profile: fold.profile,
      rules: fold.rules ? { taskType, limit: maxRules } : null,
    });
    if (fold.settings && read.optedOut) return empty();
    const found = read.memories;
    const [document, active] = await Promise.all([
      profiles && !fold.profile ? profiles.getDocument(scope) : Promise.resolve(read.profile),
      rules && !fold.rules ? rules.activeFor(scope, { taskType, limit: maxRules }) : Promise.resolve(read.rules),
    ]);

    const retrieved = memoriesForPrompt(
      found,
      k,
      budgets.memories,
      encoding,
    );
    // Recorded after the turn (batched), not in the response path: see MemoryRepository.markUsedLater.
    if (markUsed && retrieved.memories.length > 0) {
      store.markUsedLater(scope, retrieved.memories.map((m) => m.id), { include: options.search?.include });
    }
    usage.memories = retrieved.tokens;
    if (profiles) {
      const fitted = fitProfile(document, { maxTokens: budgets.profile, priorities: profiles.priorities, encoding });
      update.profile = fitted.profile;
      usage.profile = fitted.section.tokens;
    }
    if (rules) {
      // Rules come back highest priority first; keep that order for the ones that fit.
      const fitted = formatRules(active, { maxTokens: ruleTokens, encoding });
      update.rules = [...fitted.included].sort((a, b) => a - b).map((i) => active[i]);
      usage.rules = fitted.tokens;
    }
    for (const loader of options.loaders ?? []) {
      const extra = await loader({ scope, query, state, config, queryEmbedding: read.queryEmbedding });
      update = { ...update, ...extra.update };
      for (const [key, v] of Object.entries(extra.usage ?? {})) usage[key as keyof Omit<MemoryUsage, "total">] += v ?? 0;
    }
    usage.total = usage.profile + usage.rules + usage.memories + usage.summary + usage.pastSessions;
    // Loaders return plain channel values (their profile/rules, if any, replace the built-in ones).
    return { ...update, memories: retrieved.memories, memoryUsage: usage } as LoadMemoryResult;
  };
}

/**
 * Ranks searched beyond k so past-session memories set aside (they have their own section,
 * `pastSessions`) cost the memories none of their top k — as `retrieveMemoriesWithoutSessions`.
 */
const SESSION_HEADROOM = 32;

/** Past-session memories out, top k, capped to the memories budget (exact token count). */
function memoriesForPrompt(found: readonly ScoredMemory[], k: number, maxTokens: number, encoding: TokenEncoding): RetrieveResult {
  const kept = found
    .filter((m) => !isSessionMemory(m))
    .slice(0, k)
    .map((m) => toRetrievedMemory(m, encoding));
  return capMemoriesByTokens(kept, maxTokens, encoding);
}

/** A built-in store on the memory store's database whose read is not overridden. */
function isPlain<T extends object>(target: unknown, cls: abstract new (...args: never[]) => T, method: keyof T & string, store: MemoryRepository): boolean {
  return (
    target instanceof cls &&
    (target as { db?: unknown }).db === store.db &&
    (target as Record<string, unknown>)[method] === (cls.prototype as Record<string, unknown>)[method]
  );
}

/** `config.configurable.thread_id` (a string or a number, as LangGraph accepts), or null for a run without a thread. */
function threadIdOf(config: RunnableConfig): string | null {
  const t = (config.configurable as Record<string, unknown> | undefined)?.thread_id;
  if (typeof t === "string" && t !== "") return checkIdText(t, "config.configurable.thread_id");
  if (typeof t === "number" && Number.isFinite(t)) return String(t);
  return null;
}

/** `config.configurable.task_type` when it is a non-empty string. */
function taskTypeFromConfig(config: RunnableConfig): string | null {
  const t = (config.configurable as Record<string, unknown> | undefined)?.task_type;
  return typeof t === "string" && t !== "" ? t : null;
}

/** Text of the newest human message ("" when there is none). */
export function latestUserText(messages: readonly BaseMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.getType() !== "human") continue;
    const content = m.content;
    if (typeof content === "string") return content;
    if (Array.isArray(content)) {
      return content
        .map((part) => (typeof part === "string" ? part : part && typeof part === "object" && "text" in part && typeof part.text === "string" ? part.text : ""))
        .filter(Boolean)
        .join("\n");
    }
    return "";
  }
  return "";
}
