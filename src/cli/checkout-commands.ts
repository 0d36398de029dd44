import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { MemoryError, ErrorCodes } from "../errors.js";
import { packageRoot } from "../db/package-root.js";
import type { Benchmark } from "./bench/benchmark.js";
import type { CliCommand } from "./cli-command.js";

/**
 * Loads a command of the eval harness (`evals/cli/<file>.ts`) by path at run time. The published
 * package holds neither evals/ nor a TypeScript loader, so `langgraph-memory eval` and
 * `bench locomo*` keep their names but run only from a checkout (`node --import tsx src/cli/run.ts …`);
 * a path import keeps src/ free of any import of evals/.
 */
export async function loadCheckoutCommand<K extends "command" | "benchmark">(file: string, exportName: K, usage: string, root: string = packageRoot()): Promise<K extends "command" ? CliCommand : Benchmark> {
  const path = join(root, "evals", "cli", `${file}.ts`);
  const hint = `\`${usage}\` runs from a checkout of the langgraph-memory repository (the npm package does not ship the evals): \`node --import tsx src/cli/run.ts ${usage.replace(/^langgraph-memory /, "")} …\``;
  if (!existsSync(path)) throw new MemoryError(ErrorCodes.CHECKOUT_REQUIRED, hint, { details: { path } });
  try {
    const mod = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
    return mod[exportName] as K extends "command" ? CliCommand : Benchmark;
  } catch (err) {
    // A built CLI (dist/) has no TypeScript loader: Node refuses the .ts file.
    if ((err as { code?: string }).code === "ERR_UNKNOWN_FILE_EXTENSION") throw new MemoryError(ErrorCodes.CHECKOUT_REQUIRED, hint, { cause: err, details: { path } });
    throw err;
  }
}
