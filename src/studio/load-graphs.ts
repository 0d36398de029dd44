import { pathToFileURL } from "node:url";
import { ErrorCodes, MemoryError } from "../errors.js";
import type { GraphSpec } from "./graph-specs.js";
import type { AnyGraph, ServedGraph } from "./langgraph-routes.js";
import { registerTypeScriptLoader } from "./langgraph-api-peers.js";

const TYPESCRIPT = /\.(ts|mts|cts|tsx)$/;

/**
 * Import each graph module and take its export: a compiled graph, a graph builder (compiled
 * here), or a function returning either (called with no config), awaited when it is a promise.
 * TypeScript files load through tsx.
 */
export async function loadGraphs(specs: GraphSpec[]): Promise<Map<string, ServedGraph>> {
  if (specs.length === 0) throw new MemoryError(ErrorCodes.CONFIG_INVALID, "no graph to serve: give langgraph.json \"graphs\", or --graph ./path/to/file.ts:export");
  if (specs.some((s) => TYPESCRIPT.test(s.sourceFile))) await registerTypeScriptLoader();
  const graphs = new Map<string, ServedGraph>();
  for (const spec of specs) {
    if (graphs.has(spec.id)) throw new MemoryError(ErrorCodes.CONFIG_INVALID, `two graphs have the id "${spec.id}": give each its own (--graph ID=PATH:EXPORT)`);
    let module: Record<string, unknown>;
    try {
      module = (await import(pathToFileURL(spec.sourceFile).href)) as Record<string, unknown>;
    } catch (err) {
      throw new MemoryError(ErrorCodes.CONFIG_INVALID, `cannot load graph "${spec.id}" from ${spec.sourceFile}: ${(err as Error).message}`, { cause: err });
    }
    const graph = await asCompiledGraph(module[spec.exportSymbol]);
    if (!graph) {
      const exports = Object.keys(module).join(", ") || "none";
      throw new MemoryError(ErrorCodes.CONFIG_INVALID, `${spec.sourceFile} has no compiled graph as export "${spec.exportSymbol}" (its exports: ${exports}); write PATH:EXPORT with the export that holds the graph`);
    }
    graphs.set(spec.id, { graph, source: { sourceFile: spec.sourceFile, exportSymbol: spec.exportSymbol } });
  }
  return graphs;
}

async function asCompiledGraph(value: unknown): Promise<AnyGraph | undefined> {
  let v = await value;
  if (typeof v === "function" && !isGraph(v)) v = await (v as () => unknown)();
  if (v && typeof v === "object" && typeof (v as { compile?: unknown }).compile === "function" && !isGraph(v)) v = (v as { compile(): unknown }).compile();
  return isGraph(v) ? (v as AnyGraph) : undefined;
}

function isGraph(v: unknown): boolean {
  return !!v && typeof v === "object" && typeof (v as AnyGraph).getState === "function" && typeof (v as AnyGraph).streamEvents === "function";
}
