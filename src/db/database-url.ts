import { resolve } from "node:path";
import { ErrorCodes, MemoryError } from "../errors.js";

export type DatabaseTarget =
  | { engine: "postgres"; url: string }
  | { engine: "pglite"; dataDir: string }
  | { engine: "pglite"; dataDir: undefined };

/**
 * Where a URL points: `postgres://`/`postgresql://` → server; `pglite:<dir>` → embedded in a
 * folder (relative to the working directory); `memory://` → embedded in memory; nothing → the
 * embedded default folder.
 */
export function parseDatabaseUrl(url: string | undefined, defaultDataDir = ".langgraph-memory"): DatabaseTarget {
  if (url === undefined || url === "") return { engine: "pglite", dataDir: resolve(defaultDataDir) };
  if (/^postgres(ql)?:\/\//i.test(url)) return { engine: "postgres", url };
  if (/^memory:\/\/\/?$/i.test(url)) return { engine: "pglite", dataDir: undefined };
  const m = /^pglite:(?:\/\/)?(.+)$/i.exec(url);
  if (m) return { engine: "pglite", dataDir: resolve(m[1]) };
  throw new MemoryError(
    ErrorCodes.DB_URL_INVALID,
    `database URL must start with postgres://, postgresql://, pglite:<dir> or be memory:// (got "${redactUrl(url)}")`,
  );
}

/** The URL with any password replaced, for messages and logs. */
export function redactUrl(url: string): string {
  return url.replace(/(\/\/[^:/@]+:)[^@]*@/, "$1***@");
}
