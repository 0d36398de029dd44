import { randomUUID } from "node:crypto";
import type { Database } from "../db/database.js";
import { RetentionSchema, WritePolicySchema, type RetentionConfig } from "../config.js";
import { ErrorCodes, MemoryError, invalidInput } from "../errors.js";
import { MemoryControls } from "../controls/memory-controls.js";
import type { DeletedCounts, ThreadDeletion } from "../controls/user-data.js";
import { systemClock, type Clock } from "../controls/clock.js";
import {
  ARCHIVE_UNUSED_SQL,
  DECAY_SQL,
  EXPIRED_CONFIRMATIONS_SQL,
  EXPIRE_SQL,
  FINISH_RUN_SQL,
  LAST_RUN_SQL,
  MARK_PURGED_SQL,
  PURGE_CANDIDATES_SQL,
  RLS_ACTIVE_SQL,
  START_RUN_SQL,
} from "./retention-queries.js";

export interface RetentionSweepOptions {
  /** Where "now" comes from (default the system clock; tests move a `ManualClock`). */
  clock?: Clock;
  retention?: Partial<RetentionConfig>;
  /** Episodes without an explicit expiry are deleted this many days after creation (default `writePolicy.episodeTtlDays`, 180). */
  episodeTtlDays?: number;
  /** How a purge deletes opted-out users' threads (see `MemoryControls`; default "sql"). */
  threads?: ThreadDeletion;
  /** Controls used for purges (default: built on `db` with `threads`). */
  controls?: MemoryControls;
}

export interface RetentionRunOptions {
  /**
   * Also delete everything of users who opted out (their settings stay, still opted out): `true`
   * for every opted-out user, or only those opted out at least `olderThanDays` ago. Off unless the
   * app asks.
   */
  purgeOptedOut?: boolean | { olderThanDays: number };
  /** Upper bound of batches per action in one run (default 10,000): a run always ends. */
  maxBatches?: number;
  /** Called as each action starts (`index` of `total` actions this run performs), e.g. for a progress bar. */
  onStep?: (step: RetentionStep, index: number, total: number) => void;
}

/** The sweep's actions, in the order `run` performs them. */
export const RETENTION_STEPS = ["expire", "archive unused", "decay", "purge opted-out users", "expired confirmations"] as const;
export type RetentionStep = (typeof RETENTION_STEPS)[number];

/** What one run did. */
export interface RetentionSummary {
  runId: number;
  /** The sweep's clock at start and end (ISO). */
  startedAt: string;
  finishedAt: string;
  nextDueAt: string;
  /** Memories deleted: past `expires_at`, or episodes past the TTL. */
  expired: number;
  /** Extracted episodes and inferred memories archived for going unused (`unusedDays`). */
  archivedUnused: number;
  /** Inferred memories whose confidence decayed. */
  decayed: number;
  /** Of those, deactivated because their confidence fell below `minConfidence`. */
  deactivatedLowConfidence: number;
  /** Opted-out users purged, and what was deleted for them (summed). */
  purgedUsers: number;
  purged: DeletedCounts;
  /** Expired delete-all confirmations removed. */
  confirmationsRemoved: number;
  /** Statements run (each its own short transaction). */
  batches: number;
}

/** The record of a finished run (for "last run and next due"). */
export interface RetentionRunRecord {
  runId: number;
  startedAt: Date;
  finishedAt: Date | null;
  nextDueAt: Date | null;
  status: "done" | "failed";
  summary: Partial<RetentionSummary>;
  error: string | null;
}

/**
 * The retention sweep: deletes memories past their expiry (and episodes past the TTL), archives
 * extracted episodes and inferred memories that went unused (retrieved from then on only when
 * strongly relevant, back once used), decays the confidence of old inferred ones (deactivating
 * those that fall below the minimum), purges opted-out users when asked, and removes expired
 * confirmations. Batched (bounded statements, each its own transaction, `SKIP LOCKED`), idempotent
 * for a given clock, safe to run from cron while agents run; every run is recorded (`lastRun`).
 * It crosses tenants, so on server Postgres run it as the schema owner: a role subject to
 * row-level security gets MAINTENANCE_ROLE_REQUIRED instead of a silent no-op.
 *
 * @example
 * const sweep = new RetentionSweep(db);
 * const summary = await sweep.run({ purgeOptedOut: { olderThanDays: 30 } });
 * // → { expired: 12, archivedUnused: 3, decayed: 5, deactivatedLowConfidence: 1, purgedUsers: 0, … }
 * const { nextDueAt } = (await sweep.lastRun())!;
 */
export class RetentionSweep {
  readonly clock: Clock;
  readonly retention: RetentionConfig;
  readonly episodeTtlDays: number;
  private readonly controls: MemoryControls;

  constructor(
    readonly db: Database,
    options: RetentionSweepOptions = {},
  ) {
    this.clock = options.clock ?? systemClock;
    const parsed = RetentionSchema.safeParse(options.retention ?? {});
    if (!parsed.success) throw invalidInput("retention", parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "));
    this.retention = parsed.data;
    this.episodeTtlDays = options.episodeTtlDays ?? WritePolicySchema.parse({}).episodeTtlDays;
    if (!(this.episodeTtlDays > 0)) throw invalidInput("episodeTtlDays", "must be a positive number of days");
    this.controls = options.controls ?? new MemoryControls(db, { threads: options.threads });
  }

  /** Run every action once, in order, and record the run. */
  async run(options: RetentionRunOptions = {}): Promise<RetentionSummary> {
    const maxBatches = options.maxBatches ?? 10_000;
    if (!Number.isInteger(maxBatches) || maxBatches < 1) throw invalidInput("maxBatches", "must be a positive integer");
    const purgeAfterDays = checkPurge(options.purgeOptedOut);
    await this.checkRole();
    const started = this.clock.now();
    const runId = Number((await this.db.query<{ id: number }>(START_RUN_SQL, [started.toISOString()])).rows[0].id);
    const r = this.retention;
    const summary: RetentionSummary = {
      runId,
      startedAt: started.toISOString(),
      finishedAt: "",
      nextDueAt: "",
      expired: 0,
      archivedUnused: 0,
      decayed: 0,
      deactivatedLowConfidence: 0,
      purgedUsers: 0,
      purged: { memories: 0, profile: 0, profileHistory: 0, rules: 0, jobs: 0, threads: 0, confirmations: 0, storeItems: 0 },
      confirmationsRemoved: 0,
      batches: 0,
    };
    const steps = RETENTION_STEPS.filter((step) => purgeAfterDays !== null || step !== "purge opted-out users");
    const begin = (step: RetentionStep) => options.onStep?.(step, steps.indexOf(step), steps.length);
    try {
      const now = started.toISOString();
      const operationId = randomUUID();
      // Each batch is a statement of its own (autocommit): locks last one statement.
      const loop = async (sql: string, params: unknown[], add: (row: { n: number; off?: number }) => void) => {
        for (let i = 0; i < maxBatches; i++) {
          const { rows } = await this.db.query<{ n: number; off?: number }>(sql, params);
          summary.batches++;
          add(rows[0]);
          if (rows[0].n < r.batchSize) return;
        }
      };
      begin("expire");
      await loop(EXPIRE_SQL, [now, this.episodeTtlDays, r.batchSize, operationId], (x) => (summary.expired += x.n));
      begin("archive unused");
      await loop(ARCHIVE_UNUSED_SQL, [now, r.unusedDays, r.batchSize], (x) => (summary.archivedUnused += x.n));
      begin("decay");
      await loop(DECAY_SQL, [now, r.decayAfterDays, r.decayHalfLifeDays, r.minConfidence, r.batchSize], (x) => {
        summary.decayed += x.n;
        summary.deactivatedLowConfidence += x.off ?? 0;
      });
      if (purgeAfterDays !== null) {
        begin("purge opted-out users");
        await this.purgeOptedOut(started, purgeAfterDays, maxBatches, summary);
      }
      begin("expired confirmations");
      await loop(EXPIRED_CONFIRMATIONS_SQL, [now, r.batchSize], (x) => (summary.confirmationsRemoved += x.n));
      const finished = this.clock.now();
      summary.finishedAt = finished.toISOString();
      summary.nextDueAt = new Date(finished.getTime() + r.intervalHours * 3_600_000).toISOString();
      await this.db.query(FINISH_RUN_SQL, [runId, summary.finishedAt, summary.nextDueAt, "done", JSON.stringify(summary), null]);
      return summary;
    } catch (err) {
      const finished = this.clock.now().toISOString();
      const message = err instanceof MemoryError ? `${err.code}: ${err.message}` : (err as Error)?.message ?? String(err);
      await this.db
        .query(FINISH_RUN_SQL, [runId, finished, finished, "failed", JSON.stringify(summary), message.slice(0, 300)])
        .catch(() => undefined);
      throw err;
    }
  }

  /** The last finished run (done or failed), or null when the sweep never ran. Overdue when `nextDueAt` ≤ now. */
  async lastRun(): Promise<RetentionRunRecord | null> {
    const { rows } = await this.db.query<{
      id: number;
      started_at: Date | string;
      finished_at: Date | string | null;
      next_due_at: Date | string | null;
      status: "done" | "failed";
      summary: Partial<RetentionSummary> | string;
      error: string | null;
    }>(LAST_RUN_SQL);
    const x = rows[0];
    if (!x) return null;
    return {
      runId: Number(x.id),
      startedAt: new Date(x.started_at),
      finishedAt: x.finished_at ? new Date(x.finished_at) : null,
      nextDueAt: x.next_due_at ? new Date(x.next_due_at) : null,
      status: x.status,
      summary: typeof x.summary === "string" ? JSON.parse(x.summary) : x.summary,
      error: x.error,
    };
  }

  private async purgeOptedOut(now: Date, olderThanDays: number, maxBatches: number, summary: RetentionSummary): Promise<void> {
    const cutoff = new Date(now.getTime() - olderThanDays * 86_400_000).toISOString();
    for (let i = 0; i < maxBatches; i++) {
      const { rows } = await this.db.query<{ tenant_id: string; user_id: string }>(PURGE_CANDIDATES_SQL, [cutoff, this.retention.batchSize]);
      summary.batches++;
      for (const u of rows) {
        const s = { tenantId: u.tenant_id, userId: u.user_id };
        const counts = await this.controls.purgeUser(s, { via: "retention.purgeOptedOut", actor: "retention" }, async (tx) => {
          await tx.query(MARK_PURGED_SQL, [s.tenantId, s.userId, now.toISOString()]);
        });
        summary.purgedUsers++;
        for (const k of Object.keys(counts) as Array<keyof DeletedCounts>) summary.purged[k] += counts[k];
      }
      if (rows.length < this.retention.batchSize) return;
    }
  }

  private async checkRole(): Promise<void> {
    const { rows } = await this.db.query<{ active: boolean }>(RLS_ACTIVE_SQL);
    if (rows[0]?.active) {
      throw new MemoryError(
        ErrorCodes.MAINTENANCE_ROLE_REQUIRED,
        "the retention sweep crosses tenants, but this database role is subject to row-level security and would see no rows; run it as the schema owner (the role that runs migrations) — see docs/operations.md",
      );
    }
  }
}

function checkPurge(v: RetentionRunOptions["purgeOptedOut"]): number | null {
  if (v === undefined || v === false) return null;
  if (v === true) return 0;
  if (!v || typeof v !== "object" || typeof v.olderThanDays !== "number" || !(v.olderThanDays >= 0)) {
    throw invalidInput("purgeOptedOut", "must be true, false or { olderThanDays: number ≥ 0 }");
  }
  return v.olderThanDays;
}
