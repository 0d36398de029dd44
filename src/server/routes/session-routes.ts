import type { FastifyInstance } from "fastify";
import type { RouteContext } from "../route-context.js";
import { parseRequest, unauthenticated } from "../http-errors.js";
import { SessionBody } from "../request-schemas.js";
import { bearerToken } from "../authentication.js";

/** Public: exchange a one-time login code (from a `#login=` link) for a session token. */
export function publicSessionRoutes(app: FastifyInstance, ctx: RouteContext): void {
  app.post("/api/session", async (request) => {
    const { code } = parseRequest(SessionBody, request.body, "body");
    const session = ctx.sessions.exchange(code);
    if (!session) throw unauthenticated("this sign-in link is invalid, expired or was already used; ask for a new one");
    return { token: session.token, expiresAt: session.expiresAt.toISOString(), tenantId: session.user.tenantId, userId: session.user.userId };
  });

  app.get("/api/health", async () => ({ status: "ok" }));
}

/** Authenticated: sign out (ends a viewer session; configured tokens are not affected). */
export function sessionRoutes(app: FastifyInstance, ctx: RouteContext): void {
  app.delete("/api/session", async (request) => {
    ctx.userOf(request);
    const token = bearerToken(request);
    return { signedOut: token ? ctx.sessions.revoke(token) : false };
  });
}
