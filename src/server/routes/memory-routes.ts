import type { FastifyInstance } from "fastify";
import { orNotFound, type RouteContext } from "../route-context.js";
import { notFound, parseRequest } from "../http-errors.js";
import { DeleteMemoryQuery, EditMemoryBody, ListMemoriesQuery, isUuid } from "../request-schemas.js";
import { filterMemories, searchResults, versionsOf, type ListedMemory } from "../memory-listing.js";

/** Results of ranked retrieval a search shows at most (substring matches come on top of these). */
const SEARCH_HITS = 50;
/**
 * Relevance floor of the viewer's search: lower than the agent's (0.3) — a person searching wants
 * partial matches too, ranked; the agent's prompt wants only what clearly applies.
 */
const SEARCH_FLOOR = 0.05;

/** List and search, view one memory with its versions, edit, delete. */
export function memoryRoutes(app: FastifyInstance, ctx: RouteContext): void {
  app.get("/api/memories", async (request) => {
    const user = ctx.userOf(request);
    const query = parseRequest(ListMemoriesQuery, request.query, "query");
    const inspection = await ctx.controls.inspect(user);
    const filtered = filterMemories(inspection.memories, { kinds: query.kind, statuses: query.status });
    let listed: ListedMemory[];
    const q = query.q?.trim();
    if (q) {
      const hits = inspection.optedOut ? [] : await ctx.controls.store.search(user, q, { limit: SEARCH_HITS, kinds: query.kind, minSimilarity: SEARCH_FLOOR });
      listed = searchResults(filtered, hits, q);
    } else {
      listed = filtered.map((m) => ({ ...m, score: null }));
    }
    return {
      tenantId: user.tenantId,
      userId: user.userId,
      optedOut: inspection.optedOut,
      total: listed.length,
      memories: listed.slice(query.offset, query.offset + query.limit),
    };
  });

  app.get("/api/memories/:id", async (request) => {
    const user = ctx.userOf(request);
    const { id } = request.params as { id: string };
    if (!isUuid(id)) throw notFound("memory");
    const { memories } = await ctx.controls.inspect(user);
    const memory = memories.find((m) => m.id === id);
    if (!memory) throw notFound("memory");
    const { previous, newer } = versionsOf(memories, id);
    return { memory, previousVersions: previous, newerVersions: newer };
  });

  app.patch("/api/memories/:id", async (request) => {
    const user = ctx.userOf(request);
    const { id } = request.params as { id: string };
    if (!isUuid(id)) throw notFound("memory");
    const body = parseRequest(EditMemoryBody, request.body, "body");
    await orNotFound("memory", () => ctx.controls.editMemory(user, id, body));
    return { memory: await orNotFound("memory", () => ctx.controls.getMemory(user, id)) };
  });

  app.delete("/api/memories/:id", async (request) => {
    const user = ctx.userOf(request);
    const { id } = request.params as { id: string };
    if (!isUuid(id)) throw notFound("memory");
    const query = parseRequest(DeleteMemoryQuery, request.query, "query");
    return orNotFound("memory", () => ctx.controls.deleteMemory(user, id, { includePrevious: query.includePrevious ?? true, actor: ctx.actor }));
  });
}
