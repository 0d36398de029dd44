import { randomUUID } from "node:crypto";
import type { FastifyInstance, FastifyServerOptions } from "fastify";
import { DEFAULT_BODY_LIMIT, memoryApi, type MemoryApiOptions } from "./memory-api.js";
import { ViewerSessions } from "./viewer-sessions.js";

export interface MemoryServerOptions extends Omit<MemoryApiOptions, "handleNotFound"> {
  /**
   * Fastify's logger: false (default), true (info level; request URLs are logged without their
   * query string, which may hold search text), or a pino options object.
   */
  logger?: boolean | FastifyServerOptions["logger"];
  /** Trust X-Forwarded-* from a reverse proxy (see Fastify's `trustProxy`); default false. */
  trustProxy?: FastifyServerOptions["trustProxy"];
}

/** A standalone memory API + viewer server. */
export interface MemoryServer {
  readonly app: FastifyInstance;
  /** Issue viewer sign-in links here (`sessions.issueLoginCode(user)` → `${url}#login=${code}`). */
  readonly sessions: ViewerSessions;
  /** Listen (default 127.0.0.1, port 8787; 0 = any free port) and return the base URL, e.g. "http://127.0.0.1:8787/". */
  listen(options?: { port?: number; host?: string }): Promise<string>;
  close(): Promise<void>;
}

export const DEFAULT_PORT = 8787;
export const DEFAULT_HOST = "127.0.0.1";

/**
 * The HTTP API and the memory viewer on their own Fastify server. Every request is scoped to the
 * user its authentication names; nothing in a URL or body can widen it.
 *
 * @example
 * const memory = await createMemory();
 * const server = await createMemoryServer({ memory, tokens: { "tok-4f9c…": { tenantId: "acme", userId: "alice" } } });
 * const url = await server.listen({ port: 8787 });   // → "http://127.0.0.1:8787/"
 * // curl -H "Authorization: Bearer tok-4f9c…" http://127.0.0.1:8787/api/memories
 */
export async function createMemoryServer(options: MemoryServerOptions): Promise<MemoryServer> {
  const { logger, trustProxy, ...api } = options;
  const sessions = api.sessions ?? new ViewerSessions();
  // Loaded here, not at the top: importing the library does not load the HTTP server's dependencies.
  const { default: fastify } = await import("fastify");
  const app = fastify({
    logger: logger === true ? { level: "info", serializers: { req: (req) => ({ method: req.method, url: req.url.split("?")[0] }) } } : (logger ?? false),
    bodyLimit: api.bodyLimit ?? DEFAULT_BODY_LIMIT,
    trustProxy: trustProxy ?? false,
    genReqId: () => randomUUID(),
    return503OnClosing: true,
  });
  await app.register(memoryApi, { ...api, sessions, handleNotFound: true });
  await app.ready();
  return {
    app,
    sessions,
    async listen(listenOptions = {}) {
      const host = listenOptions.host ?? DEFAULT_HOST;
      await app.listen({ port: listenOptions.port ?? DEFAULT_PORT, host });
      const address = app.server.address();
      const port = address && typeof address === "object" ? address.port : listenOptions.port;
      return `http://${host.includes(":") ? `[${host}]` : host}:${port}/`;
    },
    close: () => app.close(),
  };
}
