/**
 * The memory viewer and controls API inside the stock LangGraph dev server and LangGraph Platform
 * (langgraph.json: `"http": { "app": "./graphs/http.ts:app" }`): under /memory/ on the server's
 * own port, on the same memory the graphs use (opened on the first request). Tokens come from
 * `LANGGRAPH_MEMORY_TOKENS` / `LANGGRAPH_MEMORY_TOKENS_FILE`; with `LANGGRAPH_MEMORY_DEV_USER=tenant:user`
 * a one-time viewer sign-in path is logged at start (local development only). See docs/deploy.md.
 */
import { sharedMemory } from "../src/exports/graph.js";
import { createMemoryHttpApp } from "../src/exports/studio.js";

const memoryHttp = await createMemoryHttpApp({ memory: () => sharedMemory() });

const devUser = process.env.LANGGRAPH_MEMORY_DEV_USER;
if (devUser?.includes(":")) {
  const [tenantId, userId] = [devUser.slice(0, devUser.indexOf(":")), devUser.slice(devUser.indexOf(":") + 1)];
  console.log(`langgraph-memory: viewer sign-in for ${tenantId}/${userId}: <server>${memoryHttp.loginPath({ tenantId, userId })}  (one-time)`);
}

export const app = memoryHttp.app;
