import type { Database } from "./database.js";
import { PgDatabase } from "./pg-database.js";
import { PgliteDatabase } from "./pglite-database.js";
import { parseDatabaseUrl, redactUrl } from "./database-url.js";
import { openSharedFolder, startSharing } from "./shared-pglite.js";
import { migrate, verifyMigrations } from "./migrate.js";
import { validateSchemaName } from "./identifier.js";
import { resolveConfig, type ConfigInput } from "../config.js";
import { ErrorCodes, MemoryError, isMemoryError } from "../errors.js";

export interface OpenDatabaseOptions extends Pick<ConfigInput, "schema" | "autoMigrate" | "poolMax" | "dataDir"> {
  /** Restore an embedded database from a `PGlite.dumpDataDir()` blob (memory:// only). */
  loadDataDir?: Blob;
  /**
   * Start a new embedded database (memory://, or a data folder holding none yet) as a copy of a
   * migrated template built once per machine, instead of running initdb and the migrations
   * (docs/operations.md, "Embedded start-up"). Default true; only with autoMigrate.
   */
  embeddedTemplate?: boolean;
}

/**
 * Open the database the URL names (or `DATABASE_URL`, or the embedded default folder), apply
 * pending migrations unless `autoMigrate: false`, and read its capabilities.
 *
 * @example
 * const db = await openDatabase();                          // embedded, ./.langgraph-memory/
 * const db = await openDatabase("memory://");               // embedded, in memory
 * const db = await openDatabase("postgres://localhost/app", { schema: "memory" });
 */
export async function openDatabase(url?: string, options: OpenDatabaseOptions = {}): Promise<Database> {
  const db = await connectDatabase(url, { ...options, embeddedTemplate: (options.autoMigrate ?? true) && (options.embeddedTemplate ?? true) });
  try {
    if (options.autoMigrate ?? true) await migrate(db);
    else await verifyMigrations(db);
    await db.refreshCapabilities();
    await startSharing(db);
  } catch (err) {
    await db.close().catch(() => undefined);
    if (isMemoryError(err, ErrorCodes.DB_UNAVAILABLE) && db.engine === "postgres") {
      const target = redactUrl(url ?? process.env.DATABASE_URL ?? "");
      throw new MemoryError(ErrorCodes.DB_UNAVAILABLE, `cannot reach ${target}: ${(err.cause as Error)?.message ?? err.message}`, { retryable: true, cause: err });
    }
    throw err;
  }
  return db;
}

/**
 * Open a connection (pool or embedded instance) without touching migrations; `openDatabase` is
 * what apps want. Used by `langgraph-memory migrate` and tests of the migrator.
 */
export async function connectDatabase(url?: string, options: OpenDatabaseOptions = {}): Promise<Database> {
  const config = resolveConfig({ databaseUrl: url, schema: options.schema, poolMax: options.poolMax, dataDir: options.dataDir });
  const schema = validateSchemaName(config.schema);
  const target = parseDatabaseUrl(config.databaseUrl, config.dataDir);
  let db: Database;
  if (target.engine === "postgres") {
    db = new PgDatabase({ connectionString: target.url, schema, poolMax: config.poolMax });
  } else {
    const dataDir = target.dataDir;
    const openEmbedded = async (release?: () => void, wrap?: Parameters<typeof PgliteDatabase.open>[0]["wrap"]) => {
      try {
        return await PgliteDatabase.open({ dataDir, schema, loadDataDir: options.loadDataDir, onClose: release, wrap, template: options.embeddedTemplate ?? false });
      } catch (err) {
        release?.();
        throw new MemoryError(
          ErrorCodes.DB_OPEN_FAILED,
          `cannot open the embedded database${dataDir ? ` in ${dataDir}` : ""}: ${describeOpenError(err)}; check the folder is writable, the disk has space and no other process uses it`,
          { cause: err },
        );
      }
    };
    // A folder is shared by every process that opens it: the first owns it, the others connect.
    db = dataDir ? await openSharedFolder({ dataDir, schema, poolMax: config.poolMax }, openEmbedded) : await openEmbedded();
  }
  return db;
}

/** Emscripten's errno numbers (PGlite's file system errors carry only `errno`, no message). */
const WASM_ERRNO: Record<number, string> = {
  2: "permission denied (EACCES)",
  19: "disk quota exceeded (EDQUOT)",
  29: "input/output error (EIO)",
  44: "no such file or directory (ENOENT)",
  51: "no space left on device (ENOSPC)",
  54: "not a directory (ENOTDIR)",
  63: "operation not permitted (EPERM)",
  69: "read-only file system (EROFS)",
};

function describeOpenError(err: unknown): string {
  if (err instanceof Error && err.message) return err.message;
  const errno = (err as { errno?: unknown } | null)?.errno;
  if (typeof errno === "number") return WASM_ERRNO[errno] ?? `file system error (errno ${errno})`;
  return String(err);
}
