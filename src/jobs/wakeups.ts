import { createHash } from "node:crypto";
import { EventEmitter } from "node:events";
import type pg from "pg";
import type { Database } from "../db/database.js";
import { PgDatabase } from "../db/pg-database.js";

/**
 * Wake-ups for idle workers, so a fresh job does not wait a whole poll interval:
 * - in-process: a JobQueue and a JobWorker on the same `Database` object share an emitter (the
 *   only case on PGlite, which one process owns);
 * - across processes on server Postgres: the enqueue statement NOTIFYs the schema's channel and
 *   workers LISTEN on one dedicated pool connection.
 * Polling stays the safety net: a lost notification only costs latency.
 */
export interface JobWake {
  queue: string;
  /** Milliseconds until the new job is due, by the queue's clock. */
  dueInMs: number;
}

const emitters = new WeakMap<Database, EventEmitter>();

/** The in-process emitter of one database handle ("wake" events carry a {@link JobWake}). */
export function localWakeups(db: Database): EventEmitter {
  let e = emitters.get(db);
  if (!e) {
    e = new EventEmitter();
    e.setMaxListeners(0);
    emitters.set(db, e);
  }
  return e;
}

/** The NOTIFY channel of the schema's queue: short and quote-free whatever the schema name. */
export function jobsChannel(schema: string): string {
  return `lgm_jobs_${createHash("sha1").update(schema).digest("hex").slice(0, 16)}`;
}

/** The channel enqueues NOTIFY on: server Postgres only (PGlite's workers share the process). */
export function notifyChannel(db: Database): string | null {
  return db instanceof PgDatabase ? jobsChannel(db.schema) : null;
}

/**
 * Whether cross-process notifications exist for this database: server Postgres with a pool of at
 * least 2 connections (LISTEN keeps one for itself; with a pool of 1 claims would starve).
 */
export function supportsListen(db: Database): db is PgDatabase {
  return db instanceof PgDatabase && (db.pool.options.max ?? 10) >= 2;
}

/**
 * LISTEN on the schema's channel with a dedicated connection from the pool; `onWake` gets every
 * notification. Returns a function that stops listening and returns the connection. A dropped
 * connection calls `onLost` (the worker falls back to polling and may listen again).
 */
export async function listenForJobs(db: PgDatabase, onWake: (wake: JobWake) => void, onLost: (err: Error) => void): Promise<() => Promise<void>> {
  const channel = jobsChannel(db.schema);
  const client: pg.PoolClient = await db.pool.connect();
  let released = false;
  const release = (err?: Error) => {
    if (released) return;
    released = true;
    client.removeListener("notification", onNotification);
    // Later errors of a broken connection (a restart sends FATAL, then closes the socket) reach
    // the listener every pool client has for its whole life (src/db/pg-clients.ts).
    client.removeListener("error", onError);
    client.release(err ?? false);
  };
  const onNotification = (msg: pg.Notification) => {
    if (msg.channel !== channel) return;
    try {
      const parsed = JSON.parse(msg.payload ?? "{}") as Partial<JobWake>;
      if (typeof parsed.queue === "string") onWake({ queue: parsed.queue, dueInMs: Number(parsed.dueInMs) || 0 });
    } catch {
      // Not ours or malformed: polling covers it.
    }
  };
  const onError = (err: Error) => {
    if (released) return;
    release(err);
    onLost(err);
  };
  client.on("notification", onNotification);
  client.on("error", onError);
  try {
    await client.query(`LISTEN "${channel}"`);
  } catch (err) {
    release(err as Error);
    throw err;
  }
  return async () => {
    if (released) return;
    try {
      await client.query(`UNLISTEN "${channel}"`);
      release();
    } catch (err) {
      release(err as Error);
    }
  };
}
