import { createManageMemoryTool, type ManageMemoryToolOptions } from "./manage-memory-tool.js";
import { createSearchMemoryTool, type SearchMemoryToolOptions } from "./search-memory-tool.js";
// Named here so the emitted .d.ts says @langchain/core (a required peer), not a re-export of an optional one.
import type {} from "@langchain/core/tools";

export type MemoryToolsOptions = ManageMemoryToolOptions & Pick<SearchMemoryToolOptions, "include">;

/**
 * Both memory tools for an agent: `manage_memory` and `search_memory`, sharing the store and targets.
 *
 * @example
 * const tools = createMemoryTools({ store, targets: { profile, rules, settings } });
 * const agent = createReactAgent({ llm, tools, checkpointer });
 */
export function createMemoryTools(options: MemoryToolsOptions) {
  return [createManageMemoryTool(options), createSearchMemoryTool(options)] as const;
}
