/**
 * The one database interface the rest of the library talks to. Two drivers implement it:
 * server Postgres through `pg` and embedded Postgres through PGlite; no other module knows which
 * engine it has. SQL is written once, for both.
 *
 * Conventions shared by every caller:
 * - one statement per `query` (use `exec` for scripts such as migrations);
 * - json/jsonb parameters are passed as JSON text (`JSON.stringify(v)` with `$1::jsonb`), because
 *   `pg` would turn a JS array into a Postgres array;
 * - bytea comes back as a `Uint8Array` (a `Buffer` on pg), int8 as a JS number on both engines;
 * - tables are referenced unqualified: the driver sets `search_path` to the configured schema
 *   (escaped once, in the driver) followed by `public` (where the `vector` type lives).
 */
export type Engine = "postgres" | "pglite";

export interface QueryResult<R> {
  rows: R[];
  /** Rows returned or affected. */
  rowCount: number;
}

export interface QueryOptions {
  /**
   * Run as a named prepared statement on server Postgres (planned once per connection, then only
   * bound and executed): worth it for long hot statements. PGlite ignores it.
   */
  name?: string;
}

/** Something that runs SQL: the database itself or an open transaction. */
export interface Queryable {
  query<R = Record<string, unknown>>(sql: string, params?: readonly unknown[], options?: QueryOptions): Promise<QueryResult<R>>;
  /** Run a multi-statement script without parameters. */
  exec(sql: string): Promise<void>;
}

/**
 * The tenant/user a transaction acts for. Set per transaction as `langgraph_memory.tenant_id` /
 * `langgraph_memory.user_id`, which row-level security policies read on server Postgres.
 */
export interface DbScope {
  tenantId: string;
  userId?: string | null;
}

/** The transaction scope row-level security reads, of a resolved memory scope (a global one carries none). */
export function dbScopeOf(scope: { tenantId: string | null; userId: string | null }): DbScope | undefined {
  return scope.tenantId === null ? undefined : { tenantId: scope.tenantId, userId: scope.userId };
}

export interface TransactionOptions {
  scope?: DbScope;
}

export interface DatabaseCapabilities {
  /** The `vector` extension is installed in this database. */
  pgvector: boolean;
  /** Server version string, e.g. "15.20" or "18.6". */
  serverVersion: string;
}

export interface Database extends Queryable {
  readonly engine: Engine;
  /** The configured schema name, unescaped. */
  readonly schema: string;
  /** The schema name as a quoted SQL identifier (escaped once, here). */
  readonly schemaSql: string;
  /** Filled by `openDatabase` after migrations; `refreshCapabilities` re-reads it. */
  capabilities: DatabaseCapabilities;
  refreshCapabilities(): Promise<DatabaseCapabilities>;
  /**
   * Run `fn` in one transaction (BEGIN … COMMIT, ROLLBACK on throw). With `scope`, the scope is set
   * for the transaction's duration so row-level security applies.
   */
  transaction<T>(fn: (tx: Queryable) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /**
   * Run `fn` on one dedicated server connection outside a transaction (session-level advisory
   * locks, LISTEN). Absent on PGlite, which has a single session.
   */
  withConnection?<T>(fn: (conn: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  readonly closed: boolean;
}
