// langgraph-memory/studio: LangGraph Studio and the LangGraph API on langgraph-memory's own
// checkpointer and store (`langgraph-memory dev`), and the memory viewer and controls API as a
// Hono app for langgraph.json's `http.app` (docs/deploy.md). Needs the optional peers
// @langchain/langgraph-api and hono (both come with @langchain/langgraph-cli).
export { createMemoryDevServer, DEV_DEFAULT_PORT, STUDIO_ORIGINS, type MemoryDevServer, type MemoryDevServerOptions } from "../studio/memory-dev-server.js";
export { createMemoryHttpApp, MEMORY_HTTP_PREFIX, type MemoryHttpApp, type MemoryHttpAppOptions } from "../studio/memory-http-app.js";
export { readLangGraphJson, parseGraphOption, type GraphSpec, type LangGraphJson } from "../studio/graph-specs.js";
export { loadGraphs } from "../studio/load-graphs.js";
export type { ServedGraph, AnyGraph } from "../studio/langgraph-routes.js";
