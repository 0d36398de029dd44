import type { Database, DatabaseCapabilities, QueryOptions, QueryResult, Queryable, TransactionOptions } from "./database.js";
import { quoteIdent } from "./identifier.js";
import { ErrorCodes, isMemoryError } from "../errors.js";

/**
 * A process's handle on an embedded data folder another process owns: the same SQL, sent with
 * `pg` to the owner's socket. It reports engine `pglite` (it is PGlite: one session, pgvector,
 * no cross-connection advisory locks or LISTEN), so it has no `withConnection`, and statement
 * names are dropped (named prepared statements would collide in the one shared session).
 *
 * When the owner goes away, the statement that was running fails with DB_UNAVAILABLE
 * (retryable); the next call reattaches: this process takes the folder over (and serves it to
 * the rest), or connects to the process that did.
 */
export class SharedPgliteClient implements Database {
  readonly engine = "pglite" as const;
  readonly schemaSql: string;
  capabilities: DatabaseCapabilities = { pgvector: false, serverVersion: "" };
  private broken = false;
  private reattaching: Promise<void> | undefined;
  private _closed = false;

  constructor(
    private inner: Database,
    readonly schema: string,
    private readonly reattach: () => Promise<Database>,
  ) {
    this.schemaSql = quoteIdent(schema);
  }

  /** The database this handle goes through now: the owner's socket, or PGlite after a takeover. */
  get current(): Database {
    return this.inner;
  }

  get closed(): boolean {
    return this._closed;
  }

  /** `options.name` is ignored: see the class comment. */
  query<R = Record<string, unknown>>(sql: string, params?: readonly unknown[], _options?: QueryOptions): Promise<QueryResult<R>> {
    return this.call((db) => db.query<R>(sql, params));
  }

  exec(sql: string): Promise<void> {
    return this.call((db) => db.exec(sql));
  }

  transaction<T>(fn: (tx: Queryable) => Promise<T>, options?: TransactionOptions): Promise<T> {
    return this.call((db) => db.transaction((tx) => fn(unnamed(tx)), options));
  }

  async refreshCapabilities(): Promise<DatabaseCapabilities> {
    this.capabilities = await this.call((db) => db.refreshCapabilities());
    return this.capabilities;
  }

  async close(): Promise<void> {
    if (this._closed) return;
    this._closed = true;
    await this.reattaching?.catch(() => undefined);
    await this.inner.close();
  }

  private async call<T>(fn: (db: Database) => Promise<T>): Promise<T> {
    if (this.broken) await this.reattachOnce();
    try {
      return await fn(this.inner);
    } catch (err) {
      if (isMemoryError(err, ErrorCodes.DB_UNAVAILABLE) && !this._closed) this.broken = true;
      throw err;
    }
  }

  private reattachOnce(): Promise<void> {
    this.reattaching ??= (async () => {
      const old = this.inner;
      await old.close().catch(() => undefined);
      this.inner = await this.reattach();
      this.broken = false;
    })().finally(() => (this.reattaching = undefined));
    return this.reattaching;
  }
}

function unnamed(tx: Queryable): Queryable {
  return { query: (sql, params) => tx.query(sql, params), exec: (sql) => tx.exec(sql) };
}
