import { invalidInput } from "../errors.js";
import { packageRoot } from "../db/package-root.js";

/**
 * Load a command's code that only a checkout of the repository holds (the evals and LoCoMo
 * runners are not in the npm package). When one of the package's own files is absent,
 * INVALID_INPUT says to run the command from a checkout; any other failure is rethrown.
 *
 * @example
 * const { runEvals } = await importFromCheckout(() => import("../../../evals/run-evals.js"), "eval");
 */
export async function importFromCheckout<T>(load: () => Promise<T>, command: string): Promise<T> {
  try {
    return await load();
  } catch (err) {
    const e = err as { code?: unknown; message?: unknown };
    const missing = typeof e?.message === "string" ? /Cannot find module '([^']+)'/.exec(e.message)?.[1] : undefined;
    if (e?.code === "ERR_MODULE_NOT_FOUND" && missing && missing.startsWith(packageRoot())) {
      throw invalidInput(
        "command",
        `"${command}" runs from a checkout of the langgraph-memory repository (its evals and LoCoMo runners are not in the npm package): clone it, then npm ci && npm run build && node bin/langgraph-memory.js ${command}`,
      );
    }
    throw err;
  }
}
