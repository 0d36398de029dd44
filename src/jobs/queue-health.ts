/**
 * Who is working the queue, and how far behind it is: worker heartbeats (`memory_workers`) and the
 * queue's depth and age. Read by `langgraph-memory status`, the viewer's status line and the
 * memory steps' no-worker warning (see `no-worker-warning.ts`).
 */
import type { Database, Queryable } from "../db/database.js";
import type { JobScope } from "./types.js";
import { HEARTBEAT_SQL, QUEUE_STATUS_SQL, STOPPED_SQL, USER_QUEUE_HEALTH_SQL, USER_QUEUE_STATUS_SQL } from "./queue-health-queries.js";

export interface WorkerBeat {
  workerId: string;
  queues: readonly string[];
  pollIntervalMs: number;
}

/** Record that a worker is polling (upsert of its row; one statement). */
export async function recordHeartbeat(db: Queryable, beat: WorkerBeat): Promise<void> {
  await db.query(HEARTBEAT_SQL, [beat.workerId, [...beat.queues], Math.max(1, Math.round(beat.pollIntervalMs))]);
}

/** A stopped worker is no longer counted as live. */
export async function recordStopped(db: Queryable, workerId: string): Promise<void> {
  await db.query(STOPPED_SQL, [workerId]);
}

/** One user's oldest queued work and whether a live worker serves its queue; null when nothing is queued. */
export interface UserQueueHealth {
  /** How long the oldest work has been due (negative: not due yet). */
  overdueMs: number;
  queue: string;
  /** A worker that polled lately serves that queue. */
  served: boolean;
  /** The newest heartbeat of any worker, or null when no worker ever polled this schema. */
  lastHeartbeat: Date | null;
}

/** {@link UserQueueHealth} for one user, read in the user's transaction. */
export async function userQueueHealth(db: Database, scope: JobScope): Promise<UserQueueHealth | null> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ overdue_ms: number | string; queue: string; served: boolean; last_heartbeat: Date | string | null }>(USER_QUEUE_HEALTH_SQL, [scope.tenantId, scope.userId]);
    const r = rows[0];
    return r ? { overdueMs: Number(r.overdue_ms), queue: r.queue, served: r.served, lastHeartbeat: r.last_heartbeat === null ? null : new Date(r.last_heartbeat) } : null;
  }, { scope });
}

/** The whole queue, for operators: counts and times, never payloads. */
export interface QueueStatus {
  pending: number;
  running: number;
  failed: number;
  /** Submitted turns not folded into jobs yet (a worker folds them). */
  inbox: number;
  /** Oldest job waiting or running, or submitted turn; null when none. */
  oldestAt: Date | null;
  oldestAgeMs: number | null;
  /** Workers that polled lately. */
  liveWorkers: number;
  lastHeartbeat: Date | null;
  lastHeartbeatAgeMs: number | null;
}

/**
 * {@link QueueStatus} of the schema. Under row-level security it counts what the role may see:
 * run it as the owner or a worker role for the whole queue.
 *
 * @example
 * const { pending, inbox, liveWorkers } = await queueStatus(db);
 */
export async function queueStatus(db: Queryable): Promise<QueueStatus> {
  const { rows } = await db.query<Record<string, unknown>>(QUEUE_STATUS_SQL);
  const r = rows[0];
  const date = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string));
  const num = (v: unknown) => (v === null || v === undefined ? null : Math.round(Number(v)));
  return {
    pending: Number(r.pending),
    running: Number(r.running),
    failed: Number(r.failed),
    inbox: Number(r.inbox),
    oldestAt: date(r.oldest_at),
    oldestAgeMs: num(r.oldest_age_ms),
    liveWorkers: Number(r.live_workers),
    lastHeartbeat: date(r.last_heartbeat),
    lastHeartbeatAgeMs: num(r.last_heartbeat_age_ms),
  };
}

/** One user's queued work and whether a worker is working the queue (the viewer's status line). */
export interface UserQueueStatus {
  /** The user's jobs waiting or running. */
  waiting: number;
  /** The user's submitted turns not folded into jobs yet. */
  inbox: number;
  oldestAgeMs: number | null;
  workerLive: boolean;
  /** Age of the newest heartbeat of any worker; null when none ever polled. */
  lastHeartbeatAgeMs: number | null;
}

/**
 * {@link UserQueueStatus} of one user, read in the user's transaction.
 *
 * @example
 * const { waiting, workerLive } = await userQueueStatus(db, { tenantId: "acme", userId: "alice" });
 */
export async function userQueueStatus(db: Database, scope: JobScope): Promise<UserQueueStatus> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<Record<string, unknown>>(USER_QUEUE_STATUS_SQL, [scope.tenantId, scope.userId]);
    const r = rows[0];
    const num = (v: unknown) => (v === null || v === undefined ? null : Math.round(Number(v)));
    return { waiting: Number(r.waiting), inbox: Number(r.inbox), oldestAgeMs: num(r.oldest_age_ms), workerLive: r.worker_live === true, lastHeartbeatAgeMs: num(r.last_heartbeat_age_ms) };
  }, { scope });
}
