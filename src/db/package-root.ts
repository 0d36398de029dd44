import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

let cached: string | undefined;

/**
 * The folder holding this package's package.json, found by walking up from this file, so it
 * works from `src/` (tests), `dist/src/` (built) and `node_modules/langgraph-memory/`.
 */
export function packageRoot(): string {
  if (cached) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, "package.json");
    if (existsSync(candidate)) {
      try {
        if (JSON.parse(readFileSync(candidate, "utf8")).name === "langgraph-memory") return (cached = dir);
      } catch {
        // not ours; keep walking
      }
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error("langgraph-memory: cannot find the package root (package.json)");
    dir = parent;
  }
}
