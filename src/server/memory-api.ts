import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { MemoryControls } from "../controls/memory-controls.js";
import type { RetentionSweep } from "../retention/retention-sweep.js";
import { ErrorCodes, invalidInput } from "../errors.js";
import { TokenTable, bearerToken, bearerTokenAuthenticator, checkAuthenticatedUser, type Authenticate, type AuthenticatedUser } from "./authentication.js";
import { HttpProblem, errorBody, mapError, unauthenticated } from "./http-errors.js";
import { securityHeaders } from "./security-headers.js";
import { ViewerSessions } from "./viewer-sessions.js";
import { etagMatches, loadViewerAssets } from "./static-assets.js";
import type { RouteContext } from "./route-context.js";
import { memoryRoutes } from "./routes/memory-routes.js";
import { profileRoutes } from "./routes/profile-routes.js";
import { ruleRoutes } from "./routes/rule-routes.js";
import { accountRoutes } from "./routes/account-routes.js";
import { publicSessionRoutes, sessionRoutes } from "./routes/session-routes.js";
import { statusRoutes } from "./routes/status-routes.js";

/** Default largest request body: a memory text is at most a few KiB, a profile patch 64 KiB. */
export const DEFAULT_BODY_LIMIT = 64 * 1024;

export interface MemoryApiOptions {
  /** The controls and the retention sweep (e.g. from `createMemory()`), on one database. */
  memory: { controls: MemoryControls; retention: RetentionSweep };
  /**
   * The app's authentication hook: `request → { tenantId, userId } | null`. Every route acts for
   * exactly that user. Tried after viewer sessions and `tokens`.
   */
  authenticate?: Authenticate;
  /** Bearer tokens mapping to one user each (the default for local use; see `TokenTable.fromConfig`). */
  tokens?: TokenTable | Readonly<Record<string, AuthenticatedUser>>;
  /** One-time sign-in links for the viewer (default: a fresh in-memory registry). */
  sessions?: ViewerSessions;
  /** Serve the viewer page at `/` (default true); `{ staticDir }` serves its files from another folder. */
  viewer?: boolean | { staticDir?: string };
  /** Largest request body in bytes (default 64 KiB); larger → 413. */
  bodyLimit?: number;
  /** `actor` recorded in the deletion audit for deletions through the API (default "user": the user asked). */
  actor?: string;
  /** Called with unexpected errors (5xx) and the request, for the app's logging (default: the request logger). */
  onError?: (err: unknown, request: FastifyRequest) => void;
  /** Answer unknown paths under this plugin with the JSON 404 (default false: the app's own handler). */
  handleNotFound?: boolean;
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * The memory API (and the viewer page) as a Fastify plugin, for apps that already run Fastify.
 * Encapsulated: its JSON-only body parsing, error format, headers and authentication apply to its
 * routes only. `createMemoryServer` wraps it in a standalone server.
 *
 * @example
 * const memory = await createMemory();
 * app.register(memoryApi, { prefix: "/memory", memory, authenticate: async (req) => mySession(req) });
 */
export async function memoryApi(app: FastifyInstance, options: MemoryApiOptions): Promise<void> {
  const { controls, retention } = options.memory ?? ({} as MemoryApiOptions["memory"]);
  if (!controls || !retention) throw invalidInput("memory", "give { controls, retention } (e.g. the result of createMemory())");
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  if (!Number.isInteger(bodyLimit) || bodyLimit < 1024 || bodyLimit > 64 * 1024 * 1024) throw invalidInput("bodyLimit", "must be an integer number of bytes from 1024 to 64 MiB");
  const actor = options.actor ?? "user";
  const sessions = options.sessions ?? new ViewerSessions();
  const authenticators: Authenticate[] = [];
  if (options.tokens) authenticators.push(bearerTokenAuthenticator(options.tokens instanceof TokenTable ? options.tokens : new TokenTable(options.tokens)));
  if (options.authenticate) authenticators.push(options.authenticate);
  const viewer = options.viewer ?? true;
  const assets = viewer ? loadViewerAssets(typeof viewer === "object" ? viewer.staticDir : undefined) : [];

  const users = new WeakMap<FastifyRequest, AuthenticatedUser>();
  const ctx: RouteContext = {
    controls,
    retention,
    sessions,
    actor,
    userOf(request) {
      const user = users.get(request);
      // Only reachable if a route were registered outside the authenticated scope: fail closed.
      if (!user) throw unauthenticated();
      return user;
    },
  };

  // JSON only (and JSON merge patch for the profile): no text/plain or form bodies, which a
  // cross-site form could send without a preflight.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(["application/json", "application/merge-patch+json"], { parseAs: "string", bodyLimit }, app.getDefaultJsonParser("error", "error"));
  app.addHook("onRoute", (route) => {
    route.bodyLimit ??= bodyLimit;
  });

  app.setErrorHandler((err, request, reply) => {
    const mapped = mapError(err);
    if (mapped.unexpected) {
      if (options.onError) options.onError(err, request);
      else request.log.error({ err }, "memory API request failed");
    }
    return reply.code(mapped.status).headers(mapped.headers).send(mapped.body);
  });
  if (options.handleNotFound) {
    app.setNotFoundHandler((_request, reply) => reply.code(404).send(errorBody(ErrorCodes.NOT_FOUND, "no such route")));
  }

  app.addHook("onRequest", async (request) => {
    // Defence in depth against cross-site requests: browsers say where a request comes from.
    // (Bearer headers are never sent automatically, so the default setup is not exposed anyway.)
    const site = request.headers["sec-fetch-site"];
    if (!SAFE_METHODS.has(request.method) && (site === "cross-site" || site === "same-site")) {
      throw new HttpProblem(403, ErrorCodes.CROSS_SITE_REQUEST, "state-changing requests from other sites are refused");
    }
  });
  app.addHook("onSend", async (request, reply: FastifyReply, payload) => {
    if (!reply.hasHeader("content-security-policy")) reply.headers(securityHeaders("api"));
    if (!reply.hasHeader("cache-control")) reply.header("cache-control", "no-store");
    reply.header("x-request-id", request.id);
    return payload;
  });

  for (const asset of assets) {
    app.get(asset.path, async (request, reply) => {
      // Relative asset URLs need the page's URL to end in "/" (e.g. when mounted at /memory).
      if (asset.path === "/" && !request.url.split("?")[0].endsWith("/")) return reply.redirect(`${request.url.split("?")[0]}/`, 308);
      reply.headers(securityHeaders("viewer")).header("cache-control", "no-cache").header("etag", asset.etag);
      if (etagMatches(request.headers["if-none-match"], asset.etag)) return reply.code(304).send();
      return reply.type(asset.contentType).send(asset.body);
    });
  }

  publicSessionRoutes(app, ctx);

  await app.register(async (api) => {
    api.addHook("onRequest", async (request) => {
      const token = bearerToken(request);
      let user = token ? sessions.authenticate(token) : null;
      for (const authenticate of authenticators) {
        if (user) break;
        user = checkAuthenticatedUser(await authenticate(request));
      }
      if (!user) throw unauthenticated();
      users.set(request, user);
    });
    memoryRoutes(api, ctx);
    profileRoutes(api, ctx);
    ruleRoutes(api, ctx);
    accountRoutes(api, ctx);
    sessionRoutes(api, ctx);
    statusRoutes(api, ctx);
  });
}
