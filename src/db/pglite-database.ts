import { PGlite, type Transaction } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import type { Database, DatabaseCapabilities, QueryResult, Queryable, TransactionOptions } from "./database.js";
import { wrapDriverError } from "./driver-errors.js";
import { applyScope } from "./scope-settings.js";
import { quoteIdent } from "./identifier.js";
import { readCapabilities } from "./capabilities.js";
import { openFromTemplate, type PgliteOpenOptions } from "./pglite-template.js";

import type { PGliteLike } from "./pglite-like.js";
import { setSearchPathSql } from "./db-queries.js";

export type { PGliteLike } from "./pglite-like.js";

/**
 * Embedded Postgres (PGlite, WASM) with pgvector. One in-process session: PGlite serialises
 * queries and transactions itself, so concurrent callers simply wait their turn.
 */
export class PgliteDatabase implements Database {
  readonly engine = "pglite" as const;
  readonly schemaSql: string;
  capabilities: DatabaseCapabilities = { pgvector: false, serverVersion: "" };

  private constructor(
    readonly pglite: PGliteLike,
    readonly schema: string,
    private readonly onClose?: () => void,
  ) {
    this.schemaSql = quoteIdent(schema);
  }

  /**
   * Open PGlite. `dataDir` undefined → in memory. `loadDataDir` restores a dump made by
   * `PGlite.dumpDataDir()` (tests use it to skip initdb). `template`: a new database (in memory,
   * or a folder without one) starts as a copy of the migrated template (src/db/pglite-template.ts).
   */
  static async open(options: PgliteOpenOptions & { template?: boolean }): Promise<PgliteDatabase> {
    const { template, ...rest } = options;
    if (template && !rest.loadDataDir) return (await openFromTemplate(rest, PgliteDatabase.open)) as PgliteDatabase;
    const pglite = await PGlite.create({
      dataDir: options.dataDir,
      extensions: { vector },
      loadDataDir: options.loadDataDir,
    });
    const db = new PgliteDatabase(options.wrap ? options.wrap(pglite) : pglite, options.schema, options.onClose);
    await pglite.exec(setSearchPathSql(db.schemaSql));
    return db;
  }

  get closed(): boolean {
    return this.pglite.closed;
  }

  async query<R = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<QueryResult<R>> {
    return runQuery<R>(this.pglite, sql, params);
  }

  async exec(sql: string): Promise<void> {
    try {
      await this.pglite.exec(sql);
    } catch (err) {
      throw wrapDriverError(err, this.engine);
    }
  }

  async transaction<T>(fn: (tx: Queryable) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    try {
      return await this.pglite.transaction(async (raw: Transaction) => {
        const tx: Queryable = {
          query: (sql, params) => runQuery(raw, sql, params),
          exec: async (sql) => {
            try {
              await raw.exec(sql);
            } catch (err) {
              throw wrapDriverError(err, "pglite");
            }
          },
        };
        if (options.scope) await applyScope(tx, options.scope);
        return fn(tx);
      });
    } catch (err) {
      throw err instanceof Error && "code" in err && typeof (err as { code: unknown }).code === "string" && (err as { code: string }).code.length === 5
        ? wrapDriverError(err, this.engine)
        : err;
    }
  }

  async refreshCapabilities(): Promise<DatabaseCapabilities> {
    this.capabilities = await readCapabilities(this);
    return this.capabilities;
  }

  async close(): Promise<void> {
    if (this.pglite.closed) return;
    await this.pglite.close();
    this.onClose?.();
  }
}

async function runQuery<R>(
  target: Pick<PGlite, "query"> | Transaction,
  sql: string,
  params?: readonly unknown[],
): Promise<QueryResult<R>> {
  try {
    const res = await target.query<R>(sql, params as unknown[] | undefined);
    return { rows: res.rows, rowCount: res.rows.length || res.affectedRows || 0 };
  } catch (err) {
    throw wrapDriverError(err, "pglite");
  }
}
