/**
 * The memory agent, as the LangGraph dev server / Studio / Platform loads it (langgraph.json):
 * load_memory → summarize → agent ↔ tools → schedule_extraction.
 *
 * - Chat model: `MODEL` (e.g. `openai:gpt-4o-mini`); without it an offline responder answers from
 *   the injected memory context, labelled `[offline responder]` in every answer.
 * - Memory: the plugin's own database from the environment (`DATABASE_URL`, or the embedded folder
 *   `LANGGRAPH_MEMORY_DATA_DIR`), opened on the first run — the server replaces the graph's
 *   checkpointer and store with its own, so memory cannot live there.
 * - Extraction: `LANGGRAPH_MEMORY_EXTRACTION` = `worker` (default: queued, run by a worker inside
 *   this process), `inline`, or `queue` (an external `langgraph-memory worker`).
 * - Scope: every run needs `config.configurable.tenant_id`, `user_id` and `thread_id` (the server
 *   sets `thread_id`).
 */
import { createMemoryAgentNode, graphMemorySettings, memoryToolsFor, sharedMemory } from "../src/exports/graph.js";
import { withMemory } from "../src/index.js";

const settings = graphMemorySettings();
const tools = memoryToolsFor(sharedMemory);

export const graph = withMemory({
  memory: sharedMemory,
  agent: createMemoryAgentNode({ memory: sharedMemory, tools }),
  tools,
  extraction: settings.extraction === "inline" ? "inline" : "queue",
  debounceMs: settings.debounceMs,
}).compile({ name: "memory_agent" });
