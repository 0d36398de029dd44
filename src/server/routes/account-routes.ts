import type { FastifyInstance } from "fastify";
import type { RouteContext } from "../route-context.js";
import { parseRequest } from "../http-errors.js";
import { DeleteAllBody, DeletionsQuery, EmptyQuery, OptOutBody } from "../request-schemas.js";

/** Who am I, export, delete everything (two steps), opt out / in, the deletion log, the retention sweep. */
export function accountRoutes(app: FastifyInstance, ctx: RouteContext): void {
  app.get("/api/me", async (request) => {
    const user = ctx.userOf(request);
    parseRequest(EmptyQuery, request.query, "query");
    const [optedOut, deleteAllRequest] = await Promise.all([ctx.controls.isOptedOut(user), ctx.controls.pendingDeleteAllRequest(user)]);
    return { tenantId: user.tenantId, userId: user.userId, optedOut, deleteAllRequest };
  });

  app.get("/api/export", async (request, reply) => {
    const user = ctx.userOf(request);
    parseRequest(EmptyQuery, request.query, "query");
    const data = await ctx.controls.export(user);
    const day = data.exportedAt.slice(0, 10);
    reply.header("content-disposition", `attachment; filename="memory-export-${fileSafe(user.tenantId)}-${fileSafe(user.userId)}-${day}.json"`);
    return data;
  });

  // Step one: a one-time token bound to this user, valid for minutes. Step two spends it.
  app.post("/api/delete-all/request", async (request) => {
    const user = ctx.userOf(request);
    const { token, expiresAt } = await ctx.controls.requestDeleteAll(user);
    return { token, expiresAt: expiresAt.toISOString() };
  });

  app.post("/api/delete-all", async (request) => {
    const user = ctx.userOf(request);
    const { token } = parseRequest(DeleteAllBody, request.body, "body");
    const deleted = await ctx.controls.deleteAll(user, token, { actor: ctx.actor });
    return { deleted };
  });

  app.post("/api/opt-out", async (request) => {
    const user = ctx.userOf(request);
    const body = parseRequest(OptOutBody, request.body, "body");
    const { changed, purged } = await ctx.controls.optOut(user, { purge: body?.purge ?? false, actor: ctx.actor });
    return { optedOut: true, changed, purged };
  });

  app.post("/api/opt-in", async (request) => {
    const user = ctx.userOf(request);
    const { changed } = await ctx.controls.optIn(user);
    return { optedOut: false, changed };
  });

  app.get("/api/deletions", async (request) => {
    const user = ctx.userOf(request);
    const { limit } = parseRequest(DeletionsQuery, request.query, "query");
    const entries = await ctx.controls.deletionLog(user, { limit });
    return {
      deletions: entries.map((e) => ({ operationId: e.operationId, itemKind: e.itemKind, itemCount: e.itemCount, via: e.via, actor: e.actor, createdAt: e.createdAt.toISOString() })),
    };
  });

  // The sweep is global: only its times and the policy, never its counts (they are about everyone).
  app.get("/api/retention", async (request) => {
    ctx.userOf(request);
    parseRequest(EmptyQuery, request.query, "query");
    const last = await ctx.retention.lastRun();
    const r = ctx.retention.retention;
    const nextDueAt = last?.nextDueAt ?? null;
    return {
      lastRun: last && { startedAt: last.startedAt.toISOString(), finishedAt: last.finishedAt?.toISOString() ?? null, status: last.status },
      nextDueAt: nextDueAt?.toISOString() ?? null,
      overdue: nextDueAt ? nextDueAt.getTime() <= ctx.retention.clock.now().getTime() : null,
      policy: {
        episodeTtlDays: ctx.retention.episodeTtlDays,
        unusedDays: r.unusedDays,
        decayAfterDays: r.decayAfterDays,
        decayHalfLifeDays: r.decayHalfLifeDays,
        minConfidence: r.minConfidence,
        intervalHours: r.intervalHours,
      },
    };
  });
}

function fileSafe(s: string): string {
  return s.replace(/[^A-Za-z0-9._-]+/g, "_").slice(0, 60) || "_";
}
