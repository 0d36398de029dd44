import type { RunnableConfig } from "@langchain/core/runnables";
import type { UserScope } from "../core/scope.js";
import type { MemoryState, MemoryUpdate } from "../state/annotation.js";
import type { MemoryUsage } from "../state/types.js";

/** What a loader gets: the run's scope, the latest user message, the state and the config. */
export interface MemoryLoaderInput {
  scope: UserScope;
  query: string;
  state: Pick<MemoryState, "messages">;
  config: RunnableConfig;
  /**
   * The query's unit vector when the node embedded it (its store's embedder): pass it to searches
   * of the same store as `queryEmbedding` instead of embedding the query again.
   */
  queryEmbedding?: number[];
}

/**
 * An extra section the load node reads beside the retrieved memories (past sessions plug in
 * here): it returns state channels to set and the tokens they add.
 *
 * @example
 * const loader: MemoryLoader = async ({ scope, query }) => ({ update: { pastSessions: await find(scope, query) }, usage: { pastSessions: 120 } });
 */
export type MemoryLoader = (input: MemoryLoaderInput) => Promise<{ update: Partial<MemoryUpdate>; usage?: Partial<Omit<MemoryUsage, "total">> }>;
