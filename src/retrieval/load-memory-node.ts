import type { BaseMessage } from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";
import type { ActiveRule, MemoryUsage, ProfileDocument, RetrievedMemory } from "../state/types.js";
import type { MemoryState, MemoryUpdate } from "../state/annotation.js";
import { BudgetsSchema, type Budgets } from "../config.js";
import type { MemoryStore } from "../store/memory-store.js";
import type { MemoryScope } from "../store/scope.js";
import type { MemorySearchOptions } from "../store/types.js";
import type { TokenEncoding } from "../tokens/count-text.js";
import { retrieveMemoriesWithoutSessions } from "../sessions/memories-without-sessions.js";
import type { SettingsTarget } from "../extraction/write-targets.js";
import { ProfileStore } from "../profile/profile-store.js";
import { RuleStore } from "../procedural/rule-store.js";
import { MemorySettingsStore } from "../controls/settings-store.js";
import { fitProfile } from "../context/format-profile.js";
import { formatRules } from "../context/format-rules.js";
import type { RetrieveResult } from "./retrieve-memories.js";
import { scopeFromConfig } from "./scope-from-config.js";

/** What a loader gets: the run's scope, the latest user message, the state and the config. */
export interface MemoryLoaderInput {
  scope: MemoryScope & { tenantId: string; userId: string };
  query: string;
  state: Pick<MemoryState, "messages">;
  config: RunnableConfig;
}

/**
 * An extra section loaded beside the retrieved memories (profile and rules plug in here): it
 * returns state channels to set and the tokens they add.
 */
export type MemoryLoader = (input: MemoryLoaderInput) => Promise<{ update: Partial<MemoryUpdate>; usage?: Partial<Omit<MemoryUsage, "total">> }>;

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
  store: MemoryStore;
  /** Token budgets (`memories` caps the retrieved block; default DESIGN §3's 1,000). */
  budgets?: Partial<Budgets>;
  /** Search options (k, kinds, include tenant/global knowledge, floor). */
  search?: Omit<MemorySearchOptions, "queryEmbedding" | "now">;
  /** Record what was injected (default true). */
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
}

/**
 * A graph node that builds the user's whole memory context in one call: the profile (fitted to
 * `budgets.profile`, lowest-priority fields dropped first), the approved behavioral rules for the
 * task (fitted, highest priority first), and the long-term memories relevant to the latest user
 * message (capped at `budgets.memories`, marked used) — with the tokens of each section in
 * `memoryUsage`. Scope comes from `config.configurable` (`tenant_id`, `user_id`); a run without it
 * fails with SCOPE_REQUIRED. An opted-out user gets an empty context: nothing is read, embedded or
 * marked for them, and the extra loaders do not run.
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
  const profiles = options.profiles === false ? null : (options.profiles ?? new ProfileStore(options.store.db));
  const rules = options.rules === false ? null : (options.rules ?? new RuleStore(options.store.db));
  const settings = options.settings ?? new MemorySettingsStore(options.store.db);
  const ruleTokens = options.ruleTokens ?? budgets.system;
  const maxRules = options.maxRules ?? 50;
  return async function loadMemory(state: Pick<MemoryState, "messages">, config: RunnableConfig = {}): Promise<LoadMemoryResult> {
    const scope = scopeFromConfig(config);
    const usage: MemoryUsage = { profile: 0, rules: 0, memories: 0, summary: 0, pastSessions: 0, total: 0 };
    let update: Partial<MemoryUpdate> = {};
    if (profiles) update.profile = null;
    if (rules) update.rules = [];
    if (await settings.isOptedOut(scope)) return { ...update, memories: [], memoryUsage: usage } as LoadMemoryResult;

    const query = latestUserText(state.messages ?? []);
    const taskType = options.taskType ? options.taskType({ state, config }) : taskTypeFromConfig(config);
    const [retrieved, document, active] = await Promise.all([
      // Past-session summaries have their own section (`pastSessions`, src/sessions): not among memories.
      query
        ? retrieveMemoriesWithoutSessions(options.store, scope, query, {
            ...options.search,
            maxTokens: budgets.memories,
            markUsed: options.markUsed ?? true,
            encoding,
          })
        : Promise.resolve<RetrieveResult>({ memories: [], tokens: 0 }),
      profiles ? profiles.getDocument(scope) : Promise.resolve(null),
      rules ? rules.activeFor(scope, { taskType: taskType ?? null, limit: maxRules }) : Promise.resolve<ActiveRule[]>([]),
    ]);
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
      const extra = await loader({ scope, query, state, config });
      update = { ...update, ...extra.update };
      for (const [k, v] of Object.entries(extra.usage ?? {})) usage[k as keyof Omit<MemoryUsage, "total">] += v ?? 0;
    }
    usage.total = usage.profile + usage.rules + usage.memories + usage.summary + usage.pastSessions;
    // Loaders return plain channel values (their profile/rules, if any, replace the built-in ones).
    return { ...update, memories: retrieved.memories, memoryUsage: usage } as LoadMemoryResult;
  };
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
