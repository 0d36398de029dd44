import { hostname } from "node:os";
import { randomBytes } from "node:crypto";
import type { Database, Queryable } from "../db/database.js";
import { ErrorCodes, MemoryError, invalidInput, isMemoryError } from "../errors.js";
import { summarizeJobError } from "./error-summary.js";
import { JobQueue, type JobQueueOptions } from "./job-queue.js";
import type { ClaimedJob, JobErrorSummary, JsonObject } from "./types.js";
import { listenForJobs, localWakeups, supportsListen, type JobWake } from "./wakeups.js";
import { recordHeartbeat, recordStopped } from "./queue-health.js";

/** Least time between two presence beats of a polling worker (it beats at most every poll and at most this often). */
const PRESENCE_EVERY_MS = 5_000;

/** What a handler gets besides its job. */
export interface JobContext {
  /** Aborted when the lease is lost (another worker may take the job) or a stop times out. */
  signal: AbortSignal;
  queue: JobQueue;
  /**
   * Run the handler's writes and the job's completion in one transaction (exactly-once: both or
   * neither). A handler that does not call it is completed after it returns.
   */
  completeWith<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
}

/** Does a job's work. Throw to fail the attempt (retried with backoff until max attempts). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type JobHandler<P extends JsonObject = any> = (job: ClaimedJob<P>, ctx: JobContext) => Promise<void>;

/** What happened to jobs; never carries payloads (they may hold user text). */
export type JobEvent =
  | { type: "claimed"; jobId: number; queue: string; attempts: number; workerId: string }
  | { type: "completed"; jobId: number; queue: string; attempts: number; workerId: string }
  | { type: "retry"; jobId: number; queue: string; attempts: number; workerId: string; error: JobErrorSummary; runAfter: Date }
  | { type: "failed"; jobId: number; queue: string; attempts: number; workerId: string; error: JobErrorSummary }
  | { type: "lease_lost"; jobId: number; queue: string; attempts: number; workerId: string }
  /** The loop found nothing to claim (or every slot is busy) and sleeps at most `sleepMs`. */
  | { type: "idle"; workerId: string; sleepMs: number; listening: boolean }
  /** `heartbeat`: renewing a job's lease; `presence`: recording that the worker polls (`memory_workers`). */
  | { type: "error"; during: "claim" | "heartbeat" | "listen" | "finish" | "presence"; workerId: string; error: JobErrorSummary };

export interface JobWorkerOptions extends JobQueueOptions {
  /** Handler per queue name; the worker claims from these queues only. */
  handlers: Record<string, JobHandler>;
  /** Names this worker in leases. Default host:pid:random. */
  workerId?: string;
  /** Jobs run at once. Default 1. */
  concurrency?: number;
  /** Longest idle sleep between claims. Default 1000 ms. */
  pollIntervalMs?: number;
  /** Lease per claim; a job whose worker stops renewing it is claimable again after this. Default 60 s. */
  leaseMs?: number;
  /** Lease renewal period while a handler runs; 0 disables. Default leaseMs / 3. */
  heartbeatMs?: number;
  /** LISTEN for new jobs on server Postgres (one pooled connection). Default true. */
  listen?: boolean;
  onEvent?: (event: JobEvent) => void;
}

export interface DrainOptions {
  /** Only this queue (default: every queue with a handler). */
  queue?: string;
}

export interface DrainResult {
  completed: number;
  retried: number;
  failed: number;
  leaseLost: number;
}

export interface StopOptions {
  /** Stop waiting for running jobs after this long and abort their signals. Default: wait. */
  timeoutMs?: number;
}

type Outcome = "completed" | "retried" | "failed" | "lease_lost" | "error";

/**
 * Runs handlers for claimed jobs: polls (sleeping until the next job is due, at most
 * `pollIntervalMs`), wakes on local enqueues and, on server Postgres, on NOTIFY; runs up to
 * `concurrency` jobs, renews their leases while they run, retries failures with backoff, and
 * stops gracefully.
 *
 * @example
 * const worker = new JobWorker(db, {
 *   handlers: { extract: async (job, ctx) => ctx.completeWith((tx) => writeMemories(tx, job.payload)) },
 *   concurrency: 2,
 * });
 * worker.start();
 * // tests and evals: process everything now, debounce ignored
 * await worker.drain();
 * await worker.stop();
 */
export class JobWorker {
  readonly queue: JobQueue;
  readonly workerId: string;
  private readonly handlers: Record<string, JobHandler>;
  private readonly queueNames: string[];
  private readonly concurrency: number;
  private readonly pollIntervalMs: number;
  private readonly leaseMs: number;
  private readonly heartbeatMs: number;
  private readonly listen: boolean;
  private readonly onEvent?: (event: JobEvent) => void;

  private loopPromise: Promise<void> | null = null;
  private stopping = false;
  private readonly active = new Map<number, { done: Promise<Outcome>; abort: AbortController }>();
  private wakeSleeper: (() => void) | null = null;
  // Wake-ups that arrive while the loop is claiming (not sleeping) must not be lost.
  private wakeRequested = false;
  private wakeAt = Infinity;
  private nextQueue = 0;
  private lastPresence = -Infinity;
  private presenceFailed = false;

  constructor(
    readonly db: Database,
    options: JobWorkerOptions,
  ) {
    const handlers = options?.handlers;
    if (!handlers || typeof handlers !== "object" || Object.keys(handlers).length === 0) {
      throw invalidInput("handlers", "give at least one handler: { queueName: async (job, ctx) => … }");
    }
    for (const [name, h] of Object.entries(handlers)) if (typeof h !== "function") throw invalidInput(`handlers.${name}`, "must be a function");
    this.handlers = handlers;
    this.queueNames = Object.keys(handlers);
    this.queue = new JobQueue(db, options);
    this.workerId = options.workerId ?? `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
    this.concurrency = positiveInt(options.concurrency ?? 1, "concurrency");
    this.pollIntervalMs = positiveInt(options.pollIntervalMs ?? 1000, "pollIntervalMs");
    this.leaseMs = positiveInt(options.leaseMs ?? 60_000, "leaseMs");
    this.heartbeatMs = options.heartbeatMs ?? Math.floor(this.leaseMs / 3);
    if (!Number.isInteger(this.heartbeatMs) || this.heartbeatMs < 0 || (this.heartbeatMs > 0 && this.heartbeatMs >= this.leaseMs)) {
      throw invalidInput("heartbeatMs", "must be 0 (off) or an integer below leaseMs");
    }
    this.listen = options.listen ?? true;
    this.onEvent = options.onEvent;
  }

  /** True between start() and the end of stop(). */
  get running(): boolean {
    return this.loopPromise !== null;
  }

  /** Jobs this worker is running now. */
  get activeCount(): number {
    return this.active.size;
  }

  /** Start polling in the background. */
  start(): void {
    if (this.loopPromise) return;
    this.stopping = false;
    this.loopPromise = this.loop();
  }

  /**
   * Stop claiming and wait for running jobs to finish (their completion or failure is recorded).
   * With `timeoutMs`, jobs still running then get their signal aborted and stop() returns: a
   * handler that gives up on the signal fails its attempt (retried with backoff); one that ignores
   * it runs on, and if the process exits its lease expires and another worker retries the job.
   */
  async stop(options: StopOptions = {}): Promise<void> {
    this.stopping = true;
    this.wake();
    const loop = this.loopPromise;
    // After the loop ends: a claim in flight when stop() was called may still add a job.
    const settled = (async () => {
      await loop;
      while (this.active.size > 0) await Promise.allSettled([...this.active.values()].map((a) => a.done));
    })();
    if (options.timeoutMs === undefined) {
      await settled;
    } else {
      let timer: NodeJS.Timeout | undefined;
      const timedOut = await Promise.race([
        settled.then(() => false),
        new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), options.timeoutMs))),
      ]);
      clearTimeout(timer);
      if (timedOut) for (const a of this.active.values()) a.abort.abort(new MemoryError(ErrorCodes.JOB_FAILED, "the worker is stopping"));
    }
    if (loop) {
      this.lastPresence = -Infinity;
      await recordStopped(this.db, this.workerId).catch(() => undefined);
    }
    this.loopPromise = null;
  }

  /**
   * Process every pending job of the worker's queues now, ignoring run_after (debounce and
   * backoff), with the worker's concurrency; resolves when nothing claimable is left and the jobs
   * this worker's own loop (`start()`) had claimed have finished — their outcomes are counted too,
   * and the jobs queued behind them (the same thread's next turn) are drained after them. Failing
   * jobs are retried at once until their attempts run out. Jobs held by other live workers are not
   * waited for. For tests and evals.
   */
  async drain(options: DrainOptions = {}): Promise<DrainResult> {
    const queues = options.queue === undefined ? this.queueNames : [options.queue];
    for (const q of queues) if (!this.handlers[q]) throw invalidInput("queue", `no handler for queue ${JSON.stringify(q)}`);
    const result: DrainResult = { completed: 0, retried: 0, failed: 0, leaseLost: 0 };
    await this.notePresence();
    const mine = new Map<number, Promise<void>>();
    const held = new Map<number, Promise<void>>();
    let rotation = 0;
    for (;;) {
      let claimed = false;
      while (mine.size < this.concurrency) {
        let job: ClaimedJob | null = null;
        for (let i = 0; i < queues.length && !job; i++) {
          const q = queues[(rotation + i) % queues.length];
          job = await this.queue.claim(q, this.workerId, { leaseMs: this.leaseMs, ignoreRunAfter: true });
        }
        rotation++;
        if (!job) break;
        claimed = true;
        const id = job.id;
        const done = this.run(job)
          .then((outcome) => count(result, outcome))
          .finally(() => mine.delete(id));
        mine.set(id, done);
      }
      // Jobs this worker's own loop claimed are waited for too: such a job holds its group (the
      // thread's next job is not claimable until it finishes) and its writes are not done yet.
      for (const [id, a] of this.active) {
        if (held.has(id) || mine.has(id)) continue;
        held.set(id, a.done.then((outcome) => count(result, outcome)).finally(() => held.delete(id)));
      }
      if (mine.size === 0 && !claimed && held.size === 0) return result;
      // A free slot (or a finished job of a busy group) may make another job claimable.
      if (mine.size > 0 || held.size > 0) await Promise.race([...mine.values(), ...held.values()]);
    }
  }

  private async loop(): Promise<void> {
    const local = (w: JobWake) => this.onWake(w);
    localWakeups(this.db).on("wake", local);
    let unlisten: (() => Promise<void>) | null = null;
    let listenRetryAt = 0;
    try {
      while (!this.stopping) {
        if (this.listen && !unlisten && supportsListen(this.db) && Date.now() >= listenRetryAt) {
          try {
            unlisten = await listenForJobs(
              this.db,
              (w) => this.onWake(w),
              (err) => {
                unlisten = null;
                listenRetryAt = Date.now() + this.pollIntervalMs;
                this.emit({ type: "error", during: "listen", workerId: this.workerId, error: summarizeJobError(err, undefined) });
              },
            );
          } catch (err) {
            listenRetryAt = Date.now() + 10 * this.pollIntervalMs;
            this.emit({ type: "error", during: "listen", workerId: this.workerId, error: summarizeJobError(err, undefined) });
          }
        }
        await this.notePresence();
        this.wakeRequested = false;
        this.wakeAt = Infinity;
        let claimFailed = false;
        let claimedAll = false;
        try {
          claimedAll = await this.fillSlots();
        } catch (err) {
          claimFailed = true;
          this.emit({ type: "error", during: "claim", workerId: this.workerId, error: summarizeJobError(err, undefined) });
        }
        if (this.stopping) break;
        // Slots full: a finishing job wakes us. Nothing claimable: sleep until the next job is due.
        const waitMs = claimedAll ? this.pollIntervalMs : claimFailed ? this.pollIntervalMs : await this.idleDelay();
        if (!this.stopping && !this.wakeRequested) this.emit({ type: "idle", workerId: this.workerId, sleepMs: waitMs, listening: unlisten !== null });
        await this.sleep(waitMs);
      }
    } finally {
      localWakeups(this.db).off("wake", local);
      if (unlisten) await (unlisten as () => Promise<void>)().catch(() => undefined);
    }
  }

  /**
   * Record in `memory_workers` that this worker polls (at most every few seconds), so apps and
   * `langgraph-memory status` can tell queued work is being done. A failure (e.g. a role without
   * worker rights) is reported once and never stops the worker.
   */
  private async notePresence(): Promise<void> {
    const now = Date.now();
    if (now - this.lastPresence < PRESENCE_EVERY_MS) return;
    this.lastPresence = now;
    try {
      await recordHeartbeat(this.db, { workerId: this.workerId, queues: this.queueNames, pollIntervalMs: this.pollIntervalMs });
    } catch (err) {
      if (this.presenceFailed) return;
      this.presenceFailed = true;
      this.emit({ type: "error", during: "presence", workerId: this.workerId, error: summarizeJobError(err, undefined) });
    }
  }

  /** Claim until every slot is busy (true) or nothing is claimable (false). */
  private async fillSlots(): Promise<boolean> {
    while (!this.stopping && this.active.size < this.concurrency) {
      let job: ClaimedJob | null = null;
      for (let i = 0; i < this.queueNames.length && !job; i++) {
        const q = this.queueNames[(this.nextQueue + i) % this.queueNames.length];
        job = await this.queue.claim(q, this.workerId, { leaseMs: this.leaseMs });
      }
      this.nextQueue++;
      if (!job) return false;
      const abort = new AbortController();
      const id = job.id;
      const done = this.run(job, abort).finally(() => {
        this.active.delete(id);
        this.wake();
      });
      this.active.set(id, { done, abort });
    }
    return true;
  }

  private async idleDelay(): Promise<number> {
    try {
      const due = await this.queue.nextDueInMs(this.queueNames);
      // 0 with nothing claimed: the due jobs wait on a busy group or were just taken; poll.
      if (due === null || due <= 0) return this.pollIntervalMs;
      return Math.min(this.pollIntervalMs, Math.ceil(due) + 5);
    } catch {
      return this.pollIntervalMs;
    }
  }

  /** Run one claimed job to an outcome; never throws. */
  private async run(job: ClaimedJob, abort = new AbortController()): Promise<Outcome> {
    const base = { jobId: job.id, queue: job.queue, attempts: job.attempts, workerId: this.workerId };
    this.emit({ type: "claimed", ...base });
    let settling = false;
    let completed = false;
    let beating = false;
    const heartbeat =
      this.heartbeatMs > 0
        ? setInterval(() => {
            if (beating || settling) return;
            beating = true;
            this.queue
              .extendLease(job, this.leaseMs)
              .catch((err) => {
                if (settling) return;
                if (isMemoryError(err, ErrorCodes.JOB_LEASE_LOST)) abort.abort(err);
                else this.emit({ type: "error", during: "heartbeat", workerId: this.workerId, error: summarizeJobError(err, job.payload) });
              })
              .finally(() => (beating = false));
          }, this.heartbeatMs)
        : undefined;
    heartbeat?.unref();
    const ctx: JobContext = {
      signal: abort.signal,
      queue: this.queue,
      completeWith: async (fn) => {
        settling = true;
        const r = await this.queue.completeWith(job, fn);
        completed = true;
        return r;
      },
    };
    try {
      try {
        await this.handlers[job.queue](job, ctx);
        if (!completed) {
          settling = true;
          await this.queue.complete(job);
        }
        this.emit({ type: "completed", ...base });
        return "completed";
      } catch (err) {
        settling = true;
        if (isMemoryError(err, ErrorCodes.JOB_LEASE_LOST) || isMemoryError(abort.signal.reason, ErrorCodes.JOB_LEASE_LOST)) {
          this.emit({ type: "lease_lost", ...base });
          return "lease_lost";
        }
        // A job for a thread of another scope can never succeed: fail it now, without retries.
        const r = await this.queue.fail(job, err, { permanent: isMemoryError(err, ErrorCodes.THREAD_SCOPE_MISMATCH) });
        if (r.state === "pending") {
          this.emit({ type: "retry", ...base, error: r.error, runAfter: r.runAfter });
          return "retried";
        }
        this.emit({ type: "failed", ...base, error: r.error });
        return "failed";
      }
    } catch (err) {
      if (isMemoryError(err, ErrorCodes.JOB_LEASE_LOST)) {
        this.emit({ type: "lease_lost", ...base });
        return "lease_lost";
      }
      this.emit({ type: "error", during: "finish", workerId: this.workerId, error: summarizeJobError(err, job.payload) });
      return "error";
    } finally {
      if (heartbeat) clearInterval(heartbeat);
    }
  }

  /** A job was enqueued (or will be due in `dueInMs`): claim now, or sleep no longer than that. */
  private onWake(w: JobWake): void {
    if (this.stopping || !this.handlers[w.queue]) return;
    if (w.dueInMs <= 0) {
      this.wake();
      return;
    }
    const at = Date.now() + w.dueInMs + 5;
    if (at >= this.wakeAt) return;
    this.wakeAt = at;
    // A sleeping loop goes round once and sleeps again, now no longer than until `at`.
    this.wakeSleeper?.();
  }

  private sleep(ms: number): Promise<void> {
    if (this.wakeRequested || this.stopping) return Promise.resolve();
    const wait = Math.max(0, Math.min(ms, this.wakeAt - Date.now()));
    return new Promise((resolve) => {
      const timer = setTimeout(done, wait);
      const self = this;
      function done() {
        clearTimeout(timer);
        if (self.wakeSleeper === done) self.wakeSleeper = null;
        resolve();
      }
      this.wakeSleeper = done;
    });
  }

  private wake(): void {
    this.wakeRequested = true;
    this.wakeSleeper?.();
  }

  private emit(event: JobEvent): void {
    if (!this.onEvent) return;
    try {
      this.onEvent(event);
    } catch {
      // A logging hook must not break the worker.
    }
  }
}

function count(result: DrainResult, outcome: Outcome): void {
  if (outcome === "completed") result.completed++;
  else if (outcome === "retried") result.retried++;
  else if (outcome === "failed") result.failed++;
  else if (outcome === "lease_lost") result.leaseLost++;
}

function positiveInt(v: number, field: string): number {
  if (!Number.isInteger(v) || v < 1) throw invalidInput(field, "must be a positive integer");
  return v;
}
