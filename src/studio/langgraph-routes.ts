import type { Context, Hono } from "hono";
import type { Pregel } from "@langchain/langgraph";
import type { RunnableConfig } from "@langchain/core/runnables";
import { importGraphSchemas } from "./langgraph-api-peers.js";
import type { ApiThreadRegistry } from "./api-thread-registry.js";
import { parseSse, waitResultOf } from "./sse-values.js";

// Any compiled graph, whatever its state types.
export type AnyGraph = Pregel<any, any, any, any, any>;

/** A graph the dev server serves: its id (the assistant id) and where it came from. */
export interface ServedGraph {
  graph: AnyGraph;
  /** The file and export it was loaded from (for the static schema fallback), when known. */
  source?: { sourceFile: string; exportSymbol: string };
}

export interface LangGraphRoutesContext {
  graphs: ReadonlyMap<string, ServedGraph>;
  threads: ApiThreadRegistry;
  /** The embed server (runs are waited for through its stream route). */
  embed: Hono;
  version: string;
}

/**
 * The LangGraph API routes the embed server leaves out and the SDK and Studio use: `/ok`,
 * `/info`, assistants (one per graph, its id the graph id), `runs.wait`, and `GET /threads/:id`
 * that answers 404 for an unknown thread.
 */
export function registerLangGraphRoutes(app: Hono, ctx: LangGraphRoutesContext): void {
  const created = new Date().toISOString();
  const assistant = (id: string) => ({
    assistant_id: id,
    graph_id: id,
    name: id,
    description: null,
    config: {},
    context: {},
    metadata: { created_by: "system" },
    version: 1,
    created_at: created,
    updated_at: created,
  });
  const served = (c: Context) => {
    const id = c.req.param("assistant_id") ?? "";
    const entry = ctx.graphs.get(id);
    return entry ? { id, entry } : null;
  };
  const unknownAssistant = (c: Context) => c.json({ error: `no graph "${c.req.param("assistant_id")}" is served; the graphs are: ${[...ctx.graphs.keys()].join(", ")}` }, 404);

  app.get("/ok", (c) => c.json({ ok: true }));
  app.get("/info", (c) => c.json({ version: ctx.version, context: "js", server: "langgraph-memory dev", flags: { assistants: true, crons: false, langsmith: false } }));

  app.post("/assistants/search", async (c) => {
    const body = (await c.req.json().catch(() => ({}))) as { graph_id?: string; limit?: number; offset?: number };
    const ids = [...ctx.graphs.keys()].filter((id) => !body.graph_id || body.graph_id === id);
    const offset = body.offset ?? 0;
    return c.json(ids.slice(offset, offset + (body.limit ?? 10)).map(assistant));
  });
  app.get("/assistants/:assistant_id", (c) => {
    const found = served(c);
    return found ? c.json(assistant(found.id)) : unknownAssistant(c);
  });
  app.get("/assistants/:assistant_id/graph", async (c) => {
    const found = served(c);
    if (!found) return unknownAssistant(c);
    const xray = c.req.query("xray");
    // Compiled state graphs read `xray` (draw subgraphs too) from the config, as the stock server passes it.
    const config = { xray: xray === "true" ? true : xray && /^\d+$/.test(xray) ? Number(xray) : undefined } as RunnableConfig;
    const drawable = await found.entry.graph.getGraphAsync(config);
    return c.json(drawable.toJSON());
  });
  // The graph's JSON schemas: from the compiled graph (zod / StateSchema), else parsed from its source file.
  const schemaOf = async (entry: ServedGraph, graph: AnyGraph, namespace?: string) => {
    const { getRuntimeGraphSchema, getStaticGraphSchema } = await importGraphSchemas();
    const runtime = await getRuntimeGraphSchema(graph);
    if (runtime || !entry.source) return runtime;
    const all = await getStaticGraphSchema(entry.source);
    const root = Object.keys(all).find((k) => !k.includes("|"));
    return root ? (namespace ? all[`${root}|${namespace}`] : undefined) ?? all[root] : undefined;
  };
  app.get("/assistants/:assistant_id/schemas", async (c) => {
    const found = served(c);
    if (!found) return unknownAssistant(c);
    const schema = await schemaOf(found.entry, found.entry.graph);
    return c.json({
      graph_id: found.id,
      input_schema: schema?.input,
      output_schema: schema?.output,
      state_schema: schema?.state,
      config_schema: schema?.config,
      context_schema: schema?.config,
    });
  });
  const subgraphs = async (c: Context) => {
    const found = served(c);
    if (!found) return unknownAssistant(c);
    const recurse = c.req.query("recurse") === "true";
    const result: Record<string, unknown> = {};
    for await (const [ns, subgraph] of found.entry.graph.getSubgraphsAsync(c.req.param("namespace"), recurse)) {
      result[ns] = (await schemaOf(found.entry, subgraph as AnyGraph, ns)) ?? null;
    }
    return c.json(result);
  };
  app.get("/assistants/:assistant_id/subgraphs", subgraphs);
  app.get("/assistants/:assistant_id/subgraphs/:namespace", subgraphs);
  app.post("/assistants/:assistant_id/versions", (c) => {
    const found = served(c);
    return found ? c.json([assistant(found.id)]) : unknownAssistant(c);
  });

  app.get("/threads/:thread_id", async (c, next) => {
    const thread = await ctx.threads.get(c.req.param("thread_id"));
    if (!thread) return c.json({ error: `thread ${c.req.param("thread_id")} not found` }, 404);
    await next();
  });

  // runs.wait: the run streams through the embed server's own route; the answer is its last values.
  const wait = async (c: Context, path: string) => {
    const payload = (await c.req.json()) as Record<string, unknown>;
    const res = await ctx.embed.request(path, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ...payload, stream_mode: ["values"] }),
      signal: c.req.raw.signal,
    });
    if (!(res.headers.get("content-type") ?? "").includes("text/event-stream")) return res;
    return c.json(waitResultOf(parseSse(await res.text())) as object);
  };
  app.post("/threads/:thread_id/runs/wait", (c) => wait(c, `/threads/${encodeURIComponent(c.req.param("thread_id"))}/runs/stream`));
  app.post("/runs/wait", (c) => wait(c, "/runs/stream"));
}
