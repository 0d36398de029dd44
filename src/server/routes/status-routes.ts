import type { FastifyInstance } from "fastify";
import type { RouteContext } from "../route-context.js";
import { parseRequest } from "../http-errors.js";
import { EmptyQuery } from "../request-schemas.js";
import { userQueueStatus } from "../../jobs/queue-health.js";

/**
 * The viewer's status line: the signed-in user's own queued work (turns waiting to be remembered,
 * the oldest one's age) and whether a worker is working the queue (when one last polled). Nothing
 * of other users, no worker ids. Operators use `langgraph-memory status` for the whole database.
 */
export function statusRoutes(app: FastifyInstance, ctx: RouteContext): void {
  app.get("/api/status", async (request) => {
    const user = ctx.userOf(request);
    parseRequest(EmptyQuery, request.query, "query");
    const q = await userQueueStatus(ctx.controls.db, user);
    return {
      queue: { waiting: q.waiting + q.inbox, oldestAgeMs: q.oldestAgeMs },
      worker: { live: q.workerLive, lastHeartbeatAgeMs: q.lastHeartbeatAgeMs },
    };
  });
}
