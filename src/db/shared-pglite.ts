import type { PGlite } from "@electric-sql/pglite";
import type { Database } from "./database.js";
import { lockDataDir } from "./data-dir-lock.js";
import { PgDatabase } from "./pg-database.js";
import type { PGliteLike, PgliteDatabase } from "./pglite-database.js";
import { PgliteSocketHost } from "./pglite-socket-host.js";
import { SharedPgliteClient } from "./shared-pglite-client.js";
import { endpointUrl, readEndpoint } from "./shared-endpoint.js";
import { ErrorCodes, MemoryError, isMemoryError } from "../errors.js";

/** How long a process waits for the folder's owner to start serving (its first open migrates). */
const DEFAULT_WAIT_MS = 60_000;
const POLL_MS = 50;

/** Opens PGlite in the folder for its owner; `wrap` goes to `PgliteDatabase.open`. */
export type OpenOwner = (release: () => void, wrap: (pglite: PGlite) => PGliteLike) => Promise<PgliteDatabase>;

export interface SharedFolderOptions {
  dataDir: string;
  schema: string;
  /** Pool size of a process that connects to the owner. */
  poolMax?: number;
  /** Wait this long for the owner to serve the folder. Default 60 s. */
  waitMs?: number;
}

const hosts = new WeakMap<Database, PgliteSocketHost>();
const folders = new WeakMap<Database, string>();

/**
 * The data folder a database opened by {@link openSharedFolder} shares with other processes (as
 * owner or client), for locks that must hold across them; undefined for any other database.
 */
export function sharedFolderOf(db: Database): string | undefined {
  return folders.get(db);
}

/**
 * Open an embedded data folder that several processes use at once. The first process takes the
 * folder's lock and opens PGlite (the owner); {@link startSharing} then serves it on a local
 * socket. Every later process finds the lock held and connects to that socket with `pg`
 * ({@link SharedPgliteClient}), waiting while the owner is still starting.
 *
 * @example
 * const db = await openSharedFolder({ dataDir, schema: "public" }, (release, wrap) => PgliteDatabase.open({ dataDir, schema, onClose: release, wrap }));
 */
export async function openSharedFolder(options: SharedFolderOptions, openOwner: OpenOwner): Promise<Database> {
  const first = await attach(options, openOwner);
  if (first.role === "owner") {
    folders.set(first.db, options.dataDir);
    return first.db;
  }
  const client = new SharedPgliteClient(first.db, options.schema, async () => {
    const next = await attach(options, openOwner);
    if (next.role === "owner") await startSharing(next.db); // migrated already: serve at once
    return next.db;
  });
  folders.set(client, options.dataDir);
  return client;
}

/**
 * Serve the folder of a database {@link openSharedFolder} opened as owner to the folder's other
 * processes (after migrations, so that none of them migrates alongside). A no-op for any other
 * database. When the socket cannot be served the owner still works alone, with a warning.
 */
export async function startSharing(db: Database): Promise<void> {
  const host = hosts.get(db);
  if (!host) return;
  try {
    await host.start();
  } catch (err) {
    process.emitWarning(`langgraph-memory: cannot share the embedded database with other processes: ${(err as Error).message}`);
  }
}

type Attached = { role: "owner"; db: PgliteDatabase } | { role: "client"; db: Database };

async function attach(options: SharedFolderOptions, openOwner: OpenOwner): Promise<Attached> {
  const { dataDir, schema } = options;
  const waitMs = options.waitMs ?? DEFAULT_WAIT_MS;
  const deadline = Date.now() + waitMs;
  for (;;) {
    let release: (() => void) | undefined;
    let holder: number | undefined;
    try {
      release = lockDataDir(dataDir);
    } catch (err) {
      if (!isMemoryError(err, ErrorCodes.DB_OPEN_FAILED) || !err.details || !("pid" in err.details)) throw err;
      holder = err.details.pid as number | undefined;
    }
    if (release) {
      let host: PgliteSocketHost | undefined;
      const db = await openOwner(release, (pglite) => {
        host = new PgliteSocketHost(pglite, dataDir, schema);
        return host.guarded();
      });
      if (host) hosts.set(db, host);
      return { role: "owner", db };
    }
    const endpoint = readEndpoint(dataDir);
    if (endpoint && holder !== undefined && endpoint.pid === holder) {
      if (endpoint.schema !== schema) {
        throw new MemoryError(
          ErrorCodes.DB_OPEN_FAILED,
          `data folder ${dataDir} is open in process ${holder} with schema "${endpoint.schema}"; the processes sharing an embedded folder use one schema — open it with schema "${endpoint.schema}"`,
          { details: { pid: holder, schema: endpoint.schema } },
        );
      }
      return { role: "client", db: new PgDatabase({ connectionString: endpointUrl(endpoint), schema, poolMax: options.poolMax }) };
    }
    if (Date.now() >= deadline) {
      throw new MemoryError(
        ErrorCodes.DB_OPEN_FAILED,
        `data folder ${dataDir} is in use by ${holder ? `process ${holder}` : "another process"}, which has not shared it within ${waitMs < 1000 ? `${waitMs} ms` : `${Math.round(waitMs / 1000)} s`}; it may be an older release or still migrating — stop it or try again, or use a server Postgres URL`,
        { details: { pid: holder } },
      );
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
