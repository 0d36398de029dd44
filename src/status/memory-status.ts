/**
 * How the memory's database is doing, in one read-only call: which database (engine, URL without
 * its password, schema), the schema version (migrations applied against those this version knows),
 * pgvector, the job queue (depth, oldest job) and the workers' last heartbeat. What
 * `langgraph-memory status` prints and the viewer's status line shows. Counts and times only.
 */
import type { Database } from "../db/database.js";
import { readCapabilities } from "../db/capabilities.js";
import { listAppliedMigrations } from "../db/migrate.js";
import { loadMigrations } from "../db/migrations.js";
import { queueStatus, type QueueStatus } from "../jobs/queue-health.js";
import { cliCommand } from "../core/cli-name.js";
import { countOf } from "../core/plural.js";
import { PGVECTOR_AVAILABLE_SQL, TABLE_EXISTS_SQL } from "./memory-status-queries.js";

export interface MemoryStatus {
  database: {
    engine: "postgres" | "pglite";
    url: string;
    schema: string;
    serverVersion: string;
    /** The extension is installed. */
    pgvector: boolean;
    /** The server could install it (migration 0001 does where it can). */
    pgvectorAvailable: boolean;
  };
  migrations: {
    applied: number;
    known: number;
    /** Known migrations not applied yet (run `langgraph-memory migrate`). */
    pending: string[];
    /** Applied migrations this version does not know (a newer version migrated this schema). */
    unknown: string[];
    /** The newest applied migration, or null. */
    latest: string | null;
  };
  /** Null until the job tables (and, for heartbeats, migration 0010) are there. */
  queue: QueueStatus | null;
  /** What needs doing, in words (empty when all is well). */
  warnings: string[];
}

/** Jobs older than this with no live worker make a warning. */
const STALE_QUEUE_MS = 60_000;

/**
 * The status of `db` (opened without migrating is fine). `url` is the address it was opened with
 * (shown without its password).
 *
 * @example
 * const status = await memoryStatus(db, { url: process.env.DATABASE_URL ?? "" });
 * if (status.warnings.length > 0) console.warn(status.warnings.join("\n"));
 */
export async function memoryStatus(db: Database, options: { url: string }): Promise<MemoryStatus> {
  const capabilities = await readCapabilities(db);
  const pgvectorAvailable = (await db.query<{ a: boolean }>(PGVECTOR_AVAILABLE_SQL)).rows[0].a;
  const known = loadMigrations();
  const hasTable = async (name: string) => (await db.query<{ t: string | null }>(TABLE_EXISTS_SQL, [`${db.schemaSql}.${name}`])).rows[0]?.t != null;
  const applied = (await hasTable("migrations")) ? await listAppliedMigrations(db) : [];
  const appliedIds = new Set(applied.map((m) => Number(m.id)));
  const knownNames = new Set(known.map((m) => m.name));
  const migrations = {
    applied: applied.length,
    known: known.length,
    pending: known.filter((m) => !appliedIds.has(m.id)).map((m) => m.name),
    unknown: applied.filter((m) => !knownNames.has(m.name)).map((m) => m.name),
    latest: applied.length > 0 ? applied[applied.length - 1].name : null,
  };
  const queue = (await hasTable("memory_jobs")) && (await hasTable("memory_workers")) ? await queueStatus(db) : null;

  const warnings: string[] = [];
  if (migrations.unknown.length > 0) warnings.push(`the schema has migrations this version does not know (${migrations.unknown.join(", ")}): upgrade langgraph-memory`);
  if (migrations.pending.length > 0) warnings.push(`${countOf(migrations.pending.length, "migration")} not applied: run \`${cliCommand("migrate")}\` (or open with autoMigrate)`);
  if (queue && queue.liveWorkers === 0 && queue.pending + queue.inbox > 0 && (queue.oldestAgeMs ?? 0) > STALE_QUEUE_MS) {
    warnings.push(
      `${countOf(queue.pending + queue.inbox, "queued job")}, the oldest ${formatAge(queue.oldestAgeMs!)} old, and no worker polling: nothing is being extracted — run \`${cliCommand("worker")}\` (or memoryWorker(memory).start() in the app)`,
    );
  }
  if (!capabilities.pgvector && !pgvectorAvailable) warnings.push("no pgvector: similarity is computed exactly in SQL per scope (same results; install pgvector for large tenant-wide scopes)");
  return {
    database: { engine: db.engine, url: displayUrl(options.url, db.engine), schema: db.schema, serverVersion: capabilities.serverVersion, pgvector: capabilities.pgvector, pgvectorAvailable },
    migrations,
    queue,
    warnings,
  };
}

/** A database address without its password (`postgres://app@db:5432/app`). */
export function displayUrl(url: string, engine: "postgres" | "pglite"): string {
  if (engine === "pglite") return url === "" ? "pglite (default folder)" : url;
  try {
    const u = new URL(url);
    u.password = "";
    return u.toString();
  } catch {
    return "postgres (unparseable URL)";
  }
}

/** "42 s", "3 min", "2.5 h", "4 d". */
export function formatAge(ms: number): string {
  const s = ms / 1000;
  if (s < 120) return `${Math.round(s)} s`;
  if (s < 7200) return `${Math.round(s / 60)} min`;
  if (s < 172_800) return `${(s / 3600).toFixed(1)} h`;
  return `${Math.round(s / 86_400)} d`;
}
