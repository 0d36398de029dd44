import type { BaseMessage } from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";
import type { MemoryUsage, RetrievedMemory } from "../state/types.js";
import type { MemoryState, MemoryUpdate } from "../state/annotation.js";
import { BudgetsSchema, type Budgets } from "../config.js";
import type { MemoryStore } from "../store/memory-store.js";
import type { MemoryScope } from "../store/scope.js";
import type { MemorySearchOptions } from "../store/types.js";
import type { TokenEncoding } from "../tokens/count-text.js";
import { retrieveMemoriesWithoutSessions } from "../sessions/memories-without-sessions.js";
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

/** What the node returns: the state update with `memories` and `memoryUsage` always set. */
export type LoadMemoryResult = Partial<MemoryUpdate> & { memories: RetrievedMemory[]; memoryUsage: MemoryUsage };

export interface LoadMemoryNodeOptions {
  store: MemoryStore;
  /** Token budgets (`memories` caps the retrieved block; default DESIGN §3's 1,000). */
  budgets?: Partial<Budgets>;
  /** Search options (k, kinds, include tenant/global knowledge, floor). */
  search?: Omit<MemorySearchOptions, "queryEmbedding" | "now">;
  /** Record what was injected (default true). */
  markUsed?: boolean;
  /** Further sections (profile, rules, …), run in order after retrieval. */
  loaders?: MemoryLoader[];
  encoding?: TokenEncoding;
}

/**
 * A graph node that puts the long-term memories relevant to the latest user message into state
 * (`memories`) with what they cost (`memoryUsage`). Scope comes from `config.configurable`
 * (`tenant_id`, `user_id`); a run without it fails with SCOPE_REQUIRED.
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
  return async function loadMemory(state: Pick<MemoryState, "messages">, config: RunnableConfig = {}): Promise<LoadMemoryResult> {
    const scope = scopeFromConfig(config);
    const query = latestUserText(state.messages ?? []);
    let memories: RetrievedMemory[] = [];
    let memoryTokens = 0;
    if (query) {
      // Past-session summaries have their own section (`pastSessions`, src/sessions): not among memories.
      const result = await retrieveMemoriesWithoutSessions(options.store, scope, query, {
        ...options.search,
        maxTokens: budgets.memories,
        markUsed: options.markUsed ?? true,
        encoding: options.encoding,
      });
      memories = result.memories;
      memoryTokens = result.tokens;
    }
    const usage: MemoryUsage = { profile: 0, rules: 0, memories: memoryTokens, summary: 0, pastSessions: 0, total: 0 };
    let update: Partial<MemoryUpdate> = {};
    for (const loader of options.loaders ?? []) {
      const extra = await loader({ scope, query, state, config });
      update = { ...update, ...extra.update };
      for (const [k, v] of Object.entries(extra.usage ?? {})) usage[k as keyof Omit<MemoryUsage, "total">] += v ?? 0;
    }
    usage.total = usage.profile + usage.rules + usage.memories + usage.summary + usage.pastSessions;
    return { ...update, memories, memoryUsage: usage };
  };
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
