import pg from "pg";
import type { Database, DatabaseCapabilities, QueryOptions, QueryResult, Queryable, TransactionOptions } from "./database.js";
import { wrapDriverError } from "./driver-errors.js";
import { isConnectionError } from "./sqlstate.js";
import { ErrorCodes, isMemoryError } from "../errors.js";
import { RESET_SCOPE_SQL, SCOPE_SETTINGS, applyScope, touchesScopeSettings } from "./scope-settings.js";
import { quoteIdent } from "./identifier.js";
import { readCapabilities } from "./capabilities.js";
import { createPgPool } from "./pg-clients.js";

const INT8_OID = 20;

export interface PgDatabaseOptions {
  connectionString: string;
  schema: string;
  /** Pool size; keep it at or below the server's max_connections share for this app. */
  poolMax?: number;
  /** Milliseconds to wait for a connection before failing with DB_UNAVAILABLE. */
  connectionTimeoutMillis?: number;
  /** Per-statement timeout in milliseconds (0 = none). */
  statementTimeoutMillis?: number;
  applicationName?: string;
}

// int8 as a JS number on both engines (PGlite does the same); counts and ids stay far below 2^53.
const types = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    if (oid === INT8_OID) return (v: string) => (v === null ? null : Number(v));
    return pg.types.getTypeParser(oid, format as "text");
  },
};

/** Server Postgres through a `pg` Pool. */
export class PgDatabase implements Database {
  readonly engine = "postgres" as const;
  readonly schema: string;
  readonly schemaSql: string;
  capabilities: DatabaseCapabilities = { pgvector: false, serverVersion: "" };
  readonly pool: pg.Pool;
  private _closed = false;

  constructor(options: PgDatabaseOptions) {
    this.schema = options.schema;
    this.schemaSql = quoteIdent(options.schema);
    this.pool = createPgPool({
      connectionString: options.connectionString,
      max: options.poolMax ?? 10,
      connectionTimeoutMillis: options.connectionTimeoutMillis ?? 10_000,
      statement_timeout: options.statementTimeoutMillis || undefined,
      application_name: options.applicationName ?? "langgraph-memory",
      types,
      // search_path in the startup packet: every connection sees the schema from its first query,
      // with no extra round trip. Spaces and backslashes are escaped for the options string. The
      // scope settings start empty there too: a role or database default (`ALTER ROLE … SET
      // langgraph_memory.user_id …`) never scopes a connection, and RESET returns to empty.
      options: [`-c search_path=${`${this.schemaSql},public`.replace(/[\\ ]/g, (c) => `\\${c}`)}`, ...SCOPE_SETTINGS.map((name) => `-c ${name}=`)].join(" "),
    });
    // Every client of the pool has an 'error' listener for its whole life (src/db/pg-clients.ts):
    // a connection lost at a server restart, idle or checked out, never crashes the process.
  }

  get closed(): boolean {
    return this._closed;
  }

  async query<R = Record<string, unknown>>(sql: string, params?: readonly unknown[], options?: QueryOptions): Promise<QueryResult<R>> {
    // A statement that names a scope setting may set it for the session: run it on a connection
    // of its own, reset before it returns to the pool.
    if (touchesScopeSettings(sql, params)) return this.withConnection((conn) => conn.query<R>(sql, params, options));
    try {
      return toResult<R>(await this.pool.query(toConfig(sql, params, options)));
    } catch (err) {
      throw wrapDriverError(err, this.engine);
    }
  }

  async exec(sql: string): Promise<void> {
    await this.query(sql);
  }

  async transaction<T>(fn: (tx: Queryable) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (err) {
      throw wrapDriverError(err, this.engine);
    }
    const session = { touchedScope: false };
    const tx = clientQueryable(client, this.engine, session);
    let broken: Error | undefined;
    // A connection that drops between statements (server restart mid-transaction) is recorded, so
    // that the client is destroyed rather than returned to the pool.
    const onError = (err: Error) => void (broken = err);
    client.on("error", onError);
    try {
      await tx.query("BEGIN");
      // The scope is transaction-local by construction: set through a handle that does not mark
      // the session as touched.
      if (options.scope) await applyScope(clientQueryable(client, this.engine), options.scope);
      const result = await fn(tx);
      await tx.query("COMMIT");
      return result;
    } catch (err) {
      if (isUnavailable(err)) {
        broken = err as Error;
      } else {
        await client.query("ROLLBACK").catch((e: Error) => (broken = e));
      }
      // Driver errors are already wrapped by `tx`; the caller's own errors pass through unchanged.
      throw err;
    } finally {
      if (session.touchedScope && !broken) broken = await resetScope(client);
      client.removeListener("error", onError);
      client.release(broken);
    }
  }

  /**
   * Run `fn` on one dedicated connection outside any transaction (session-level advisory locks,
   * LISTEN). The connection goes back to the pool afterwards.
   */
  async withConnection<T>(fn: (conn: Queryable) => Promise<T>): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (err) {
      throw wrapDriverError(err, this.engine);
    }
    let broken: Error | undefined;
    const onError = (err: Error) => void (broken = err);
    client.on("error", onError);
    const session = { touchedScope: false };
    try {
      return await fn(clientQueryable(client, this.engine, session));
    } catch (err) {
      if (isUnavailable(err)) broken = err as Error;
      throw err;
    } finally {
      if (session.touchedScope && !broken) broken = await resetScope(client);
      client.removeListener("error", onError);
      client.release(broken);
    }
  }

  async refreshCapabilities(): Promise<DatabaseCapabilities> {
    this.capabilities = await readCapabilities(this);
    return this.capabilities;
  }

  async close(): Promise<void> {
    if (this._closed) return;
    this._closed = true;
    await this.pool.end();
  }
}

/**
 * Scope settings are transaction-local in every statement of the library, but a statement an app
 * sends may set one for the session (`set_config(…, false)`, `SET`), and the connection would
 * carry it into the next checkout's statements. Such a statement names the setting, so the
 * queryable marks its session as touched, and the client is reset before it goes back to the pool
 * (a client the reset fails on is destroyed instead).
 */
async function resetScope(client: pg.PoolClient): Promise<Error | undefined> {
  try {
    await client.query(RESET_SCOPE_SQL);
    return undefined;
  } catch (err) {
    return err as Error;
  }
}

function clientQueryable(client: pg.PoolClient, engine: string, session?: { touchedScope: boolean }): Queryable {
  return {
    async query<R>(sql: string, params?: readonly unknown[], options?: QueryOptions) {
      if (session && touchesScopeSettings(sql, params)) session.touchedScope = true;
      try {
        return toResult<R>(await client.query(toConfig(sql, params, options)));
      } catch (err) {
        throw wrapDriverError(err, engine);
      }
    },
    async exec(sql: string) {
      if (session && touchesScopeSettings(sql)) session.touchedScope = true;
      try {
        await client.query(sql);
      } catch (err) {
        throw wrapDriverError(err, engine);
      }
    },
  };
}

function isUnavailable(err: unknown): boolean {
  return isMemoryError(err, ErrorCodes.DB_UNAVAILABLE) || isConnectionError(err);
}

function toConfig(text: string, params: readonly unknown[] | undefined, options: QueryOptions | undefined): pg.QueryConfig {
  return { text, values: params as unknown[] | undefined, name: options?.name };
}

/** A multi-statement script (simple protocol) yields one result per statement: keep the last. */
function toResult<R>(res: pg.QueryResult | pg.QueryResult[]): QueryResult<R> {
  const last = Array.isArray(res) ? res[res.length - 1] : res;
  const rows = (last?.rows ?? []) as R[];
  return { rows, rowCount: last?.rowCount ?? rows.length };
}
