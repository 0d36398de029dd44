import { readFileSync } from "node:fs";
import { basename, dirname, extname, resolve } from "node:path";
import { z } from "zod";
import { ErrorCodes, MemoryError } from "../errors.js";

/** Where a graph comes from: a module file and the name of its export. */
export interface GraphSpec {
  id: string;
  sourceFile: string;
  exportSymbol: string;
}

/** What `langgraph-memory dev` reads of langgraph.json (the rest is the stock CLI's). */
const LangGraphJsonSchema = z.looseObject({
  graphs: z.record(z.string(), z.union([z.string(), z.looseObject({ path: z.string() })])),
  env: z.union([z.record(z.string(), z.string()), z.string()]).optional(),
});

export interface LangGraphJson {
  graphs: GraphSpec[];
  /** langgraph.json's `env` when it lists variables. */
  env?: Record<string, string>;
  /** langgraph.json's `env` when it names an env file (resolved). */
  envFile?: string;
}

/**
 * Read the graphs (and `env`) of a langgraph.json; paths resolve against its folder.
 *
 * @example
 * readLangGraphJson("langgraph.json").graphs; // [{ id: "memory_agent", sourceFile: "/app/graphs/memory_agent.ts", exportSymbol: "graph" }, …]
 */
export function readLangGraphJson(file: string): LangGraphJson {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    throw new MemoryError(ErrorCodes.CONFIG_INVALID, `cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}): pass --config FILE, or --graph PATH:EXPORT`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new MemoryError(ErrorCodes.CONFIG_INVALID, `${file} is not JSON: ${(err as Error).message}`);
  }
  const parsed = LangGraphJsonSchema.safeParse(json);
  if (!parsed.success) {
    throw new MemoryError(ErrorCodes.CONFIG_INVALID, `${file} needs "graphs": { "<id>": "./path/to/file.ts:export" } (${parsed.error.issues[0]?.message})`);
  }
  const dir = dirname(resolve(file));
  const graphs = Object.entries(parsed.data.graphs).map(([id, spec]) => specOf(id, typeof spec === "string" ? spec : spec.path, dir, file));
  const env = parsed.data.env;
  return typeof env === "string" ? { graphs, envFile: resolve(dir, env) } : { graphs, env };
}

/**
 * A `--graph` value: `[ID=]PATH[:EXPORT]`, e.g. `./graphs/agent.ts:graph` (id: the file's name,
 * export: `default` when not given); relative to `cwd`.
 */
export function parseGraphOption(value: string, cwd = process.cwd()): GraphSpec {
  const eq = value.indexOf("=");
  const id = eq > 0 && !value.slice(0, eq).includes("/") ? value.slice(0, eq) : undefined;
  const rest = id === undefined ? value : value.slice(eq + 1);
  const path = rest.replace(/:[A-Za-z_$][\w$]*$/, "");
  return specOf(id ?? basename(path, extname(path)), rest, cwd, "--graph");
}

function specOf(id: string, spec: string, dir: string, where: string): GraphSpec {
  const m = /^(.+?)(?::([A-Za-z_$][\w$]*))?$/.exec(spec.trim());
  if (!m || !/^[A-Za-z0-9_-]+$/.test(id)) {
    throw new MemoryError(ErrorCodes.CONFIG_INVALID, `${where}: graph "${id}" = "${spec}" — write ID=./path/to/file.ts:exportName (ids: letters, digits, _ and -)`);
  }
  return { id, sourceFile: resolve(dir, m[1]), exportSymbol: m[2] ?? "default" };
}
