/**
 * Say so, once, when queued work is not being done. With the default queued extraction and no
 * worker (`langgraph-memory worker`, `memoryWorker(memory).start()`), an app remembers nothing and
 * nothing told it. The memory steps call {@link NoWorkerWarning.noteTurn} after queueing a turn: at
 * most every `checkEveryMs` it reads (in the background, never awaited by the turn) how long the
 * user's oldest work has been due and whether a worker polled lately; past the due time plus
 * `marginMs` with no live worker serving the queue, it reports one NO_WORKER warning per database.
 */
import type { Database } from "../db/database.js";
import { ErrorCodes, MemoryError } from "../errors.js";
import { userQueueHealth, type UserQueueHealth } from "./queue-health.js";
import type { JobScope } from "./types.js";
import { cliCommand } from "../core/cli-name.js";

export interface NoWorkerWarningOptions {
  /** Time past a job's due time (its debounce) before it counts as waiting. Default 15,000 ms. */
  marginMs?: number;
  /** Least time between two checks in this process. Default 10,000 ms. */
  checkEveryMs?: number;
  /** Where the warning goes (the memory steps' `onError`). */
  warn: (warning: MemoryError) => void;
}

/** Databases already warned about (one warning per database object, process-wide). */
const warned = new WeakSet<Database>();

/**
 * The no-worker check of one database.
 *
 * @example
 * const watch = new NoWorkerWarning(memory.db, { warn: (w) => console.warn(w.message) });
 * watch.noteTurn({ tenantId: "acme", userId: "alice" }); // after the turn's job was queued
 */
export class NoWorkerWarning {
  private readonly marginMs: number;
  private readonly checkEveryMs: number;
  private lastCheck = -Infinity;
  private running: Promise<void> | null = null;

  constructor(
    readonly db: Database,
    private readonly options: NoWorkerWarningOptions,
  ) {
    this.marginMs = options.marginMs ?? 15_000;
    this.checkEveryMs = options.checkEveryMs ?? 10_000;
  }

  /** A turn of `scope` was queued: check in the background if the last check is old enough. Never throws. */
  noteTurn(scope: JobScope): void {
    if (warned.has(this.db) || this.db.closed || this.running) return;
    const now = Date.now();
    if (now - this.lastCheck < this.checkEveryMs) return;
    this.lastCheck = now;
    this.running = this.check(scope)
      .catch(() => undefined) // a failed check (database closing, a role that cannot read) says nothing
      .finally(() => (this.running = null));
  }

  /** The check in progress, if any (tests and shutdown). */
  settled(): Promise<void> {
    return this.running ?? Promise.resolve();
  }

  private async check(scope: JobScope): Promise<void> {
    const health = await userQueueHealth(this.db, scope);
    if (!health || health.served || health.overdueMs < this.marginMs || warned.has(this.db)) return;
    warned.add(this.db);
    this.options.warn(noWorkerError(health));
  }
}

function noWorkerError(h: UserQueueHealth): MemoryError {
  const seconds = Math.round(h.overdueMs / 1000);
  const last = h.lastHeartbeat ? `last heartbeat ${h.lastHeartbeat.toISOString()}` : "no worker has ever polled this database";
  return new MemoryError(
    ErrorCodes.NO_WORKER,
    `jobs of queue "${h.queue}" have waited ${seconds} s past their due time and no worker is polling it (${last}): nothing is being extracted or remembered. ` +
      `Run \`${cliCommand("worker")}\` beside the app (server Postgres), start \`memoryWorker(memory)\` in this process (embedded database), or use extraction: "inline". ` +
      `\`${cliCommand("status")}\` shows the queue.`,
    { details: { queue: h.queue, overdueMs: Math.round(h.overdueMs), lastHeartbeat: h.lastHeartbeat?.toISOString() ?? null } },
  );
}
