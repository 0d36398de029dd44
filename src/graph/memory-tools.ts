import { tool } from "@langchain/core/tools";
import { toolCallContext, toolResult } from "../tools/tool-context.js";
import { MANAGE_MEMORY_DESCRIPTION, MANAGE_MEMORY_TOOL_NAME, ManageMemorySchema, manageMemory, type ManageMemoryInput } from "../tools/manage-memory-tool.js";
import { SEARCH_MEMORY_DESCRIPTION, SEARCH_MEMORY_TOOL_NAME, SearchMemorySchema, searchMemory, type SearchMemoryInput } from "../tools/search-memory-tool.js";
import { memoryGetter, type MemoryProvider } from "./memory-source.js";
import { writeTargetsOf } from "./write-targets.js";

/**
 * `manage_memory` and `search_memory` on a memory, with every write target (profile, rules,
 * opt-out, audited deletes) — and, unlike `createMemoryTools`, usable before the memory is open:
 * a function source is opened on the first tool call (graph modules build their tools at import).
 *
 * @example
 * const tools = memoryToolsFor(memory);
 * const graph = withMemory({ memory, agent, tools }).compile();
 */
export function memoryToolsFor(source: MemoryProvider) {
  const getMemory = memoryGetter(source);
  const manage = tool(
    async (input: ManageMemoryInput, config) => {
      const memory = await getMemory();
      return toolResult(await manageMemory(input, toolCallContext(config), { store: memory.store, targets: writeTargetsOf(memory), policy: memory.config.writePolicy }));
    },
    { name: MANAGE_MEMORY_TOOL_NAME, description: MANAGE_MEMORY_DESCRIPTION, schema: ManageMemorySchema },
  );
  const search = tool(
    async (input: SearchMemoryInput, config) => {
      const memory = await getMemory();
      return toolResult(await searchMemory(input, toolCallContext(config), { store: memory.store, targets: { settings: memory.settings } }));
    },
    { name: SEARCH_MEMORY_TOOL_NAME, description: SEARCH_MEMORY_DESCRIPTION, schema: SearchMemorySchema },
  );
  return [manage, search];
}
