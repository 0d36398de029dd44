import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Hono } from "hono";
import type { FastifyInstance } from "fastify";
import { memoryApi, DEFAULT_BODY_LIMIT, type MemoryApiOptions } from "../server/memory-api.js";
import { ViewerSessions } from "../server/viewer-sessions.js";
import { invalidInput } from "../errors.js";
import { TokenTable, type AuthenticatedUser } from "../server/authentication.js";
import { importHono } from "./langgraph-api-peers.js";

/** Where the viewer and the controls API live on a LangGraph server (default). */
export const MEMORY_HTTP_PREFIX = "/memory";

type MemoryParts = MemoryApiOptions["memory"];

export interface MemoryHttpAppOptions extends Omit<MemoryApiOptions, "memory" | "handleNotFound" | "tokens"> {
  /** The memory (e.g. `createMemory()`), or a function opening it on the first request (e.g. `sharedMemory`). */
  memory: MemoryParts | (() => Promise<MemoryParts>);
  /** Bearer tokens; default: `LANGGRAPH_MEMORY_TOKENS` / `LANGGRAPH_MEMORY_TOKENS_FILE` (none: only viewer sign-in links work). */
  tokens?: MemoryApiOptions["tokens"];
  /** Path prefix of the viewer and API (default "/memory": the viewer at /memory/, the API at /memory/api/…). */
  prefix?: string;
}

/** The viewer and controls API as a Hono app, plus what it needs to be run and stopped. */
export interface MemoryHttpApp {
  /** Mount with `app.route("/", memoryHttp.app)`, or export it as langgraph.json's `http.app`. */
  readonly app: Hono;
  readonly prefix: string;
  /** One-time viewer sign-in links: `${baseUrl}${prefix}/#login=${sessions.issueLoginCode(user).code}`. */
  readonly sessions: ViewerSessions;
  /**
   * The same routes for a Node `http` server (no in-process injection): a server that routes by
   * path sends requests under `prefix` here, as `langgraph-memory dev` does.
   */
  nodeListener(req: IncomingMessage, res: ServerResponse): void;
  /** A sign-in path for `user` (append it to the server's origin). */
  loginPath(user: AuthenticatedUser): string;
  close(): Promise<void>;
}

/**
 * The memory viewer and its controls API (docs/http-api.md) as a Hono app under `/memory`, for a
 * LangGraph server: langgraph.json's custom HTTP app (`http.app`) on the stock dev server and
 * LangGraph Platform, and the same routes on `langgraph-memory dev`. Requests are handed to the
 * Fastify plugin `memoryApi` in process (no socket), so authentication, errors and headers are the
 * same as `langgraph-memory serve`.
 *
 * @example
 * // http.ts, with langgraph.json: "http": { "app": "./http.ts:app" }
 * import { sharedMemory } from "langgraph-memory/graph";
 * import { createMemoryHttpApp } from "langgraph-memory/studio";
 * export const app = (await createMemoryHttpApp({ memory: sharedMemory })).app;
 */
export async function createMemoryHttpApp(options: MemoryHttpAppOptions): Promise<MemoryHttpApp> {
  const { Hono } = await importHono();
  const { memory, prefix: prefixOption, tokens: tokensOption, ...api } = options;
  const prefix = (prefixOption ?? MEMORY_HTTP_PREFIX).replace(/\/+$/, "");
  if (!/^\/[A-Za-z0-9._~-]+(\/[A-Za-z0-9._~-]+)*$/.test(prefix)) throw invalidInput("prefix", `must be a path like "/memory" (got ${JSON.stringify(prefixOption)})`);
  const sessions = api.sessions ?? new ViewerSessions();
  const tokens = tokensOption ?? TokenTable.fromConfig() ?? undefined;

  let fastify: Promise<FastifyInstance> | undefined;
  const server = () =>
    (fastify ??= (async () => {
      const parts = typeof memory === "function" ? await memory() : memory;
      // Loaded here, not at the top: importing the library does not load the HTTP server's dependencies.
      const { default: createFastify } = await import("fastify");
      const app = createFastify({ bodyLimit: api.bodyLimit ?? DEFAULT_BODY_LIMIT, genReqId: () => randomUUID(), return503OnClosing: true });
      await app.register(memoryApi, { ...api, memory: parts, tokens, sessions, prefix, handleNotFound: true });
      await app.ready();
      return app;
    })().catch((err) => {
      fastify = undefined;
      throw err;
    }));

  const forward = async (request: Request): Promise<Response> => {
    const app = await server();
    const url = new URL(request.url);
    const body = request.method === "GET" || request.method === "HEAD" ? undefined : Buffer.from(await request.arrayBuffer());
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const reply = await app.inject({ method: request.method as "GET", url: url.pathname + url.search, headers, payload: body });
    const out = new Headers();
    for (const [name, value] of Object.entries(reply.headers)) {
      if (value === undefined || name === "content-length" || name === "transfer-encoding" || name === "connection") continue;
      for (const v of Array.isArray(value) ? value : [value]) out.append(name, String(v));
    }
    const empty = reply.statusCode === 204 || reply.statusCode === 304 || request.method === "HEAD";
    return new Response(empty ? null : reply.rawPayload, { status: reply.statusCode, headers: out });
  };

  const app = new Hono();
  app.all(prefix, (c) => forward(c.req.raw));
  app.all(`${prefix}/*`, (c) => forward(c.req.raw));
  return {
    app,
    prefix,
    sessions,
    nodeListener(req, res) {
      server().then(
        (app) => app.routing(req, res),
        () => {
          res.writeHead(503, { "content-type": "application/json", "cache-control": "no-store" });
          res.end(JSON.stringify({ error: { code: "DB_UNAVAILABLE", message: "the memory could not be opened; see the server's log" } }));
        },
      );
    },
    loginPath: (user) => `${prefix}/#login=${sessions.issueLoginCode(user).code}`,
    async close() {
      const app = await fastify?.catch(() => undefined);
      fastify = undefined;
      await app?.close();
    },
  };
}
