import { createServer, type Server } from "node:http";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { LangGraphMemory } from "../memory.js";
import { invalidInput } from "../errors.js";
import { packageRoot } from "../db/package-root.js";
import type { AuthenticatedUser } from "../server/authentication.js";
import { ApiThreadRegistry } from "./api-thread-registry.js";
import { OwnerScopedCheckpointer } from "./owner-scoped-checkpointer.js";
import { createMemoryHttpApp, type MemoryHttpAppOptions } from "./memory-http-app.js";
import { registerLangGraphRoutes, type ServedGraph } from "./langgraph-routes.js";
import { importEmbedServer, importHono, importHonoCors } from "./langgraph-api-peers.js";
import { nodeRequestListener } from "./node-fetch-handler.js";

export interface MemoryDevServerOptions {
  /** The memory whose checkpointer, store and database the API uses (the graphs' own, e.g. `sharedMemory()`). */
  memory: LangGraphMemory;
  /** The graphs by id (the assistant ids); the first one reads threads that were never run through the API. */
  graphs: ReadonlyMap<string, ServedGraph>;
  /** Options of the viewer and controls API under /memory (tokens, viewer, body limit…). */
  http?: Omit<MemoryHttpAppOptions, "memory">;
  /**
   * Browser origins allowed to call the LangGraph API (CORS); default {@link STUDIO_ORIGINS}.
   * The API has no authentication, so this is what keeps other web pages from reading threads.
   * The viewer and controls API are never opened to other origins.
   */
  allowOrigins?: readonly string[];
}

/** Where LangGraph Studio runs (LangSmith, US and EU). */
export const STUDIO_ORIGINS: readonly string[] = ["https://smith.langchain.com", "https://eu.smith.langchain.com"];

/** The LangGraph API and the memory viewer on one port. */
export interface MemoryDevServer {
  /** Listen (default 127.0.0.1, port 2024; 0: any free port) and return the base URL, e.g. "http://127.0.0.1:2024". */
  listen(options?: { port?: number; host?: string }): Promise<string>;
  /** A viewer sign-in path for `user` (append it to the base URL). */
  loginPath(user: AuthenticatedUser): string;
  readonly server: Server;
  close(): Promise<void>;
}

export const DEV_DEFAULT_PORT = 2024;

/**
 * The LangGraph API (what Studio and `@langchain/langgraph-sdk` talk to) on our own
 * `PostgresCheckpointer` and store, through `@langchain/langgraph-api`'s embed server, with the
 * memory viewer and controls API under `/memory` on the same port. Threads live in the memory's
 * database: what a run writes through the API is the checkpointer's, and threads an app wrote
 * with the checkpointer directly are readable through the API.
 *
 * @example
 * const memory = await sharedMemory();
 * const graphs = await loadGraphs(readLangGraphJson("langgraph.json").graphs);
 * const dev = await createMemoryDevServer({ memory, graphs });
 * const url = await dev.listen({ port: 2025 });   // new Client({ apiUrl: url })
 */
export async function createMemoryDevServer(options: MemoryDevServerOptions): Promise<MemoryDevServer> {
  const { memory, graphs } = options;
  const [{ createEmbedServer }, { Hono }] = await Promise.all([importEmbedServer(), importHono()]);
  const [defaultGraphId] = graphs.keys();
  if (defaultGraphId === undefined) throw invalidInput("graphs", "give at least one graph (e.g. from loadGraphs(readLangGraphJson(\"langgraph.json\").graphs))");
  const threads = new ApiThreadRegistry(memory.db, memory.checkpointer, defaultGraphId);
  const embed = createEmbedServer({
    graph: Object.fromEntries([...graphs].map(([id, g]) => [id, g.graph])),
    checkpointer: new OwnerScopedCheckpointer(memory.checkpointer),
    store: memory.langgraphStore,
    // The embed server's ThreadSaver types `get` as never failing; an unknown thread is null, which its routes answer as 404.
    threads: threads as unknown as Parameters<typeof createEmbedServer>[0]["threads"],
  });
  const memoryHttp = await createMemoryHttpApp({ ...options.http, memory });
  const app = new Hono();
  const { cors } = await importHonoCors();
  const allowed = new Set(options.allowOrigins ?? STUDIO_ORIGINS);
  const apiCors = cors({ origin: (origin) => (allowed.has(origin) ? origin : null), exposeHeaders: ["content-location", "x-pagination-total"] });
  app.use("*", async (c, next) => {
    // Studio is a public page calling a server on this machine: Chrome's Private Network Access asks first.
    if (c.req.method === "OPTIONS" && c.req.header("access-control-request-private-network") === "true" && allowed.has(c.req.header("origin") ?? "")) {
      c.header("access-control-allow-private-network", "true");
    }
    return apiCors(c, next);
  });
  registerLangGraphRoutes(app, { graphs, threads, embed, version: packageVersion() });
  app.route("/", embed);

  // By path: the viewer and controls API go to their Fastify routes, everything else to the LangGraph API.
  const langgraph = nodeRequestListener((request) => app.fetch(request));
  const isMemoryPath = (url: string | undefined) => {
    const path = (url ?? "/").split("?")[0];
    return path === memoryHttp.prefix || path.startsWith(`${memoryHttp.prefix}/`);
  };
  const server = createServer((req, res) => (isMemoryPath(req.url) ? memoryHttp.nodeListener(req, res) : langgraph(req, res)));
  return {
    server,
    loginPath: (user) => memoryHttp.loginPath(user),
    listen({ port = DEV_DEFAULT_PORT, host = "127.0.0.1" } = {}) {
      return new Promise((resolve, reject) => {
        server.once("error", reject);
        server.listen(port, host, () => {
          server.off("error", reject);
          const address = server.address();
          const bound = address && typeof address === "object" ? address.port : port;
          resolve(`http://${host.includes(":") ? `[${host}]` : host}:${bound}`);
        });
      });
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await memoryHttp.close();
    },
  };
}

function packageVersion(): string {
  return (JSON.parse(readFileSync(join(packageRoot(), "package.json"), "utf8")) as { version: string }).version;
}
