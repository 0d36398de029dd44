/**
 * langgraph.json is what the LangGraph dev server, Studio and Platform read: every graph it names
 * must load and export a compiled graph, and the deployment sections must have the documented shape.
 * Importing a graph module opens nothing (memory opens on the first run).
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { CompiledStateGraph } from "@langchain/langgraph";

const root = process.cwd();
const config = JSON.parse(readFileSync(join(root, "langgraph.json"), "utf8")) as {
  node_version: string;
  graphs: Record<string, string | { path: string; description?: string }>;
  env: Record<string, string> | string;
  store?: { index?: { dims?: number; embed?: string; fields?: string[] } };
};
const specs = Object.entries(config.graphs).map(([name, def]) => [name, typeof def === "string" ? def : def.path] as const);

describe("langgraph.json", () => {
  it("targets Node 20 and names both graphs", () => {
    expect(config.node_version).toBe("20");
    expect(Object.keys(config.graphs).sort()).toEqual(["extract_memories", "memory_agent"]);
  });

  it("has a store.index section of the documented shape (dims, embed, fields)", () => {
    const index = config.store?.index;
    expect(index).toBeDefined();
    expect(Number.isInteger(index!.dims) && index!.dims! > 0).toBe(true);
    expect(index!.embed).toMatch(/^[a-z-]+:[\w.-]+$/);
    expect(Array.isArray(index!.fields) && index!.fields!.length > 0).toBe(true);
  });

  it("sets env defaults for the plugin's own database, never secrets", () => {
    expect(typeof config.env).toBe("object");
    const env = config.env as Record<string, string>;
    expect(env.LANGGRAPH_MEMORY_DATA_DIR).toBeTruthy();
    expect(["worker", "inline", "queue"]).toContain(env.LANGGRAPH_MEMORY_EXTRACTION);
    expect(Object.keys(env).filter((k) => /KEY|SECRET|PASSWORD|TOKEN/i.test(k))).toEqual([]);
  });

  it.each(specs)("graph %s (%s) loads and exports a compiled graph", async (name, spec) => {
    const [file, exportName] = spec.split(":");
    expect(exportName).toBeTruthy();
    const path = resolve(root, file);
    expect(existsSync(path)).toBe(true);
    const mod = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
    const graph = mod[exportName];
    expect(graph).toBeInstanceOf(CompiledStateGraph);
    const compiled = graph as CompiledStateGraph<any, any, any>;
    expect(compiled.name).toBe(name);
    const nodes = Object.keys(compiled.getGraph().nodes);
    if (name === "memory_agent") {
      expect(nodes).toEqual(expect.arrayContaining(["load_memory", "summarize", "agent", "tools", "schedule_extraction"]));
    } else {
      expect(nodes).toContain("extract_memories");
    }
  });
});
