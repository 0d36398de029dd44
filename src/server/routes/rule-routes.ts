import type { FastifyInstance } from "fastify";
import { orNotFound, type RouteContext } from "../route-context.js";
import { notFound, parseRequest } from "../http-errors.js";
import { ListRulesQuery, isUuid } from "../request-schemas.js";
import { exportRule } from "../../procedural/rule-queries.js";

/** The user's own procedural rules: list, approve, revoke, delete. */
export function ruleRoutes(app: FastifyInstance, ctx: RouteContext): void {
  app.get("/api/rules", async (request) => {
    const user = ctx.userOf(request);
    const query = parseRequest(ListRulesQuery, request.query, "query");
    const rules = await ctx.controls.rules.list(user, { states: query.state, limit: 1000 });
    return { rules: rules.map(exportRule) };
  });

  for (const action of ["approve", "revoke"] as const) {
    app.post(`/api/rules/:id/${action}`, async (request) => {
      const user = ctx.userOf(request);
      const { id } = request.params as { id: string };
      if (!isUuid(id)) throw notFound("rule");
      const rule = await orNotFound("rule", () => (action === "approve" ? ctx.controls.approveRule(user, id, { actor: ctx.actor }) : ctx.controls.revokeRule(user, id, { actor: ctx.actor })));
      return { rule };
    });
  }

  app.delete("/api/rules/:id", async (request) => {
    const user = ctx.userOf(request);
    const { id } = request.params as { id: string };
    if (!isUuid(id)) throw notFound("rule");
    await orNotFound("rule", () => ctx.controls.deleteRule(user, id, { actor: ctx.actor }));
    return { deleted: 1 };
  });
}
