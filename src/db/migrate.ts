import type { Database, Queryable } from "./database.js";
import { ErrorCodes, MemoryError, isMemoryError } from "../errors.js";
import { loadMigrations, type MigrationFile } from "./migrations.js";
import { SqlState, sqlStateOf } from "./sqlstate.js";
import { cliCommand } from "../core/cli-name.js";
import { countOf } from "../core/plural.js";
import {
  LOCK_MIGRATIONS_SQL,
  UNLOCK_MIGRATIONS_SQL,
  createMigrationsTableSql,
  createSchemaSql,
  insertMigrationSql,
  selectAppliedMigrationsSql,
} from "./migrate-queries.js";

export interface MigrateResult {
  /** Names of the migrations this call applied, in order. */
  applied: string[];
  /** How many were already applied before this call. */
  alreadyApplied: number;
}

interface AppliedRow {
  id: number;
  name: string;
  checksum: string;
}

/**
 * Apply pending migrations in order, each in its own transaction, under an advisory lock so that
 * concurrent migrators (several app instances starting at once) queue up and all but one find
 * nothing to do. Refuses a database that holds a migration this code does not know, or whose
 * applied migration changed since.
 *
 * @example
 * const db = await openDatabase("postgres://localhost/app", { autoMigrate: false });
 * const { applied } = await migrate(db);
 */
export async function migrate(db: Database, migrations: MigrationFile[] = loadMigrations()): Promise<MigrateResult> {
  return withMigrationLock(db, async (runTx) => {
    await runTx(async (tx) => {
      await tx.exec(createSchemaSql(db.schemaSql));
      await tx.exec(createMigrationsTableSql(db.schemaSql));
    });
    const applied = await readApplied(db);
    verifyKnown(db, applied, migrations);
    const pending = migrations.filter((m) => !applied.some((a) => a.id === m.id));
    const done: string[] = [];
    for (const m of pending) {
      try {
        await runTx(async (tx) => {
          // Row first: a concurrent migrator that slipped past the lock fails here on the key.
          await tx.query(insertMigrationSql(db.schemaSql), [m.id, m.name, m.checksum]);
          await tx.exec(m.sql);
        });
      } catch (err) {
        if (sqlStateOf(err) === SqlState.UNIQUE_VIOLATION) continue;
        if (isMemoryError(err, ErrorCodes.DB_UNAVAILABLE)) throw err;
        throw new MemoryError(ErrorCodes.MIGRATION_FAILED, `migration ${m.name} failed and was rolled back: ${(err as Error).message}`, {
          cause: err,
          details: { migration: m.name },
        });
      }
      done.push(m.name);
    }
    return { applied: done, alreadyApplied: applied.length };
  });
}

/**
 * Check without applying: throws MIGRATION_UNKNOWN / MIGRATION_CHECKSUM_MISMATCH like `migrate`,
 * and NOT_MIGRATED when migrations are pending.
 */
export async function verifyMigrations(db: Database, migrations: MigrationFile[] = loadMigrations()): Promise<void> {
  let applied: AppliedRow[];
  try {
    applied = await readApplied(db);
  } catch (err) {
    if (sqlStateOf(err) === SqlState.UNDEFINED_TABLE) applied = [];
    else throw err;
  }
  verifyKnown(db, applied, migrations);
  const pending = migrations.filter((m) => !applied.some((a) => a.id === m.id));
  if (pending.length > 0) {
    throw new MemoryError(
      ErrorCodes.NOT_MIGRATED,
      `schema ${db.schema} is missing ${countOf(pending.length, "migration")} (${pending.map((m) => m.name).join(", ")}); run \`${cliCommand("migrate")}\` or open with autoMigrate`,
    );
  }
}

/** The migrations recorded in the database, in order. */
export async function listAppliedMigrations(db: Queryable & { schemaSql: string }): Promise<Array<AppliedRow & { applied_at: Date }>> {
  const { rows } = await db.query<AppliedRow & { applied_at: Date }>(selectAppliedMigrationsSql(db.schemaSql));
  return rows;
}

async function readApplied(db: Database): Promise<AppliedRow[]> {
  return listAppliedMigrations(db);
}

function verifyKnown(db: Database, applied: AppliedRow[], migrations: MigrationFile[]): void {
  for (const row of applied) {
    const known = migrations.find((m) => m.id === row.id);
    if (!known || known.name !== row.name) {
      throw new MemoryError(
        ErrorCodes.MIGRATION_UNKNOWN,
        `schema ${db.schema} has migration ${row.name}, which this version of langgraph-memory does not know; ` +
          `upgrade langgraph-memory or point it at another schema`,
        { details: { migration: row.name } },
      );
    }
    if (known.checksum !== row.checksum) {
      throw new MemoryError(
        ErrorCodes.MIGRATION_CHECKSUM_MISMATCH,
        `migration ${row.name} changed after it was applied to schema ${db.schema}; restore the original file (never edit an applied migration, add a new one)`,
        { details: { migration: row.name } },
      );
    }
  }
}

type TxRunner = (fn: (tx: Queryable) => Promise<void>) => Promise<void>;

async function withMigrationLock<T>(db: Database, fn: (runTx: TxRunner) => Promise<T>): Promise<T> {
  if (!db.withConnection) {
    // One in-process session (PGlite): its own transactions are already exclusive.
    return fn((body) => db.transaction(body));
  }
  return db.withConnection(async (conn) => {
    await conn.query(LOCK_MIGRATIONS_SQL, [db.schema]);
    try {
      return await fn(async (body) => {
        await conn.query("BEGIN");
        try {
          await body(conn);
          await conn.query("COMMIT");
        } catch (err) {
          await conn.query("ROLLBACK").catch(() => undefined);
          throw err;
        }
      });
    } finally {
      await conn.query(UNLOCK_MIGRATIONS_SQL, [db.schema]).catch(() => undefined);
    }
  });
}
