/** Memory tools for agents: see docs/extraction.md ("Memory tools"). */
export { createMemoryTools, type MemoryToolsOptions } from "./memory-tools.js";
export { createManageMemoryTool, manageMemory, ManageMemorySchema, MANAGE_MEMORY_TOOL_NAME, MANAGE_MEMORY_DESCRIPTION, type ManageMemoryInput, type ManageMemoryToolOptions } from "./manage-memory-tool.js";
export { createSearchMemoryTool, searchMemory, SearchMemorySchema, SEARCH_MEMORY_TOOL_NAME, SEARCH_MEMORY_DESCRIPTION, type SearchMemoryInput, type SearchMemoryToolOptions } from "./search-memory-tool.js";
export { toolCallContext, type ToolCallContext } from "./tool-context.js";
