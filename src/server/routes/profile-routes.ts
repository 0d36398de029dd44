import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { orNotFound, type RouteContext } from "../route-context.js";
import { parseRequest } from "../http-errors.js";
import { EmptyQuery, ProfileHistoryQuery, ProfilePatchBody } from "../request-schemas.js";
import type { Profile } from "../../profile/profile-store.js";

/** View and edit the profile; its change history; delete it. */
export function profileRoutes(app: FastifyInstance, ctx: RouteContext): void {
  const profiles = ctx.controls.profiles;
  // The schema as JSON Schema, so a client can render fitting inputs (enums as choices, numbers…).
  const schema = profileJsonSchema(profiles.schema.schema);

  app.get("/api/profile", async (request) => {
    const user = ctx.userOf(request);
    parseRequest(EmptyQuery, request.query, "query");
    const optedOut = await ctx.controls.isOptedOut(user);
    const profile = optedOut ? null : await profiles.get(user);
    return { optedOut, profile: profile && describeProfile(profile), fields: profiles.priorities, schema };
  });

  app.patch("/api/profile", async (request) => {
    const user = ctx.userOf(request);
    const patch = parseRequest(ProfilePatchBody, request.body, "body");
    const { changed } = await ctx.controls.updateProfile(user, patch);
    // Read back: a patch that changed nothing on a missing profile leaves none.
    const profile = await profiles.get(user);
    return { profile: profile && describeProfile(profile), changed };
  });

  app.delete("/api/profile", async (request) => {
    const user = ctx.userOf(request);
    await orNotFound("profile", () => ctx.controls.deleteProfile(user, { actor: ctx.actor }));
    return { deleted: true };
  });

  app.get("/api/profile/history", async (request) => {
    const user = ctx.userOf(request);
    const query = parseRequest(ProfileHistoryQuery, request.query, "query");
    const changes = await profiles.history(user, { field: query.field, limit: query.limit });
    return { changes: changes.map((c) => ({ ...c, createdAt: c.createdAt.toISOString() })) };
  });
}

function describeProfile(p: Profile) {
  return {
    document: p.document,
    fields: Object.entries(p.document).map(([field, value]) => ({ field, value, source: p.sources[field] ?? null })),
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}

function profileJsonSchema(schema: z.ZodType): Record<string, unknown> {
  try {
    const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { unrepresentable: "any", io: "input" }) as Record<string, unknown>;
    return rest;
  } catch {
    // A schema zod cannot describe (custom types): clients fall back to free text per field.
    return { type: "object" };
  }
}
