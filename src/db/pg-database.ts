import pg from "pg";
import type { Database, DatabaseCapabilities, QueryOptions, QueryResult, Queryable, TransactionOptions } from "./database.js";
import { wrapDriverError } from "./driver-errors.js";
import { isConnectionError } from "./sqlstate.js";
import { ErrorCodes, isMemoryError } from "../errors.js";
import { applyScope } from "./scope-settings.js";
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
      // with no extra round trip. Spaces and backslashes are escaped for the options string.
      options: `-c search_path=${`${this.schemaSql},public`.replace(/[\\ ]/g, (c) => `\\${c}`)}`,
    });
    // Every client of the pool has an 'error' listener for its whole life (src/db/pg-clients.ts):
    // a connection lost at a server restart, idle or checked out, never crashes the process.
  }

  get closed(): boolean {
    return this._closed;
  }

  async query<R = Record<string, unknown>>(sql: string, params?: readonly unknown[], options?: QueryOptions): Promise<QueryResult<R>> {
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
    const tx = clientQueryable(client, this.engine);
    let broken: Error | undefined;
    // A connection that drops between statements (server restart mid-transaction) is recorded, so
    // that the client is destroyed rather than returned to the pool.
    const onError = (err: Error) => void (broken = err);
    client.on("error", onError);
    try {
      await tx.query("BEGIN");
      if (options.scope) await applyScope(tx, options.scope);
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
    try {
      return await fn(clientQueryable(client, this.engine));
    } catch (err) {
      if (isUnavailable(err)) broken = err as Error;
      throw err;
    } finally {
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

function clientQueryable(client: pg.PoolClient, engine: string): Queryable {
  return {
    async query<R>(sql: string, params?: readonly unknown[], options?: QueryOptions) {
      try {
        return toResult<R>(await client.query(toConfig(sql, params, options)));
      } catch (err) {
        throw wrapDriverError(err, engine);
      }
    },
    async exec(sql: string) {
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
