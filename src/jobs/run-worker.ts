import type { Database } from "../db/database.js";
import { JobWorker, type JobWorkerOptions } from "./job-worker.js";

export interface RunWorkerOptions extends JobWorkerOptions {
  db: Database;
  /** Signals that stop the worker gracefully; a second one stops at once. Default SIGINT, SIGTERM. */
  signals?: NodeJS.Signals[];
  /** Stops the worker gracefully when aborted (embedding apps, tests). */
  abortSignal?: AbortSignal;
  /** Called once the worker runs (e.g. to log its id). */
  onStart?: (worker: JobWorker) => void;
}

/**
 * Run a worker until SIGINT/SIGTERM (or `abortSignal`): the first signal stops claiming and
 * waits for running jobs to complete or fail; a second one aborts their signals and returns at
 * once (their leases expire and another worker retries them). Resolves when the worker has
 * stopped; the caller closes the database. This is what `langgraph-memory worker` runs.
 *
 * @example
 * const db = await openDatabase();
 * await runWorker({ db, handlers: { extract: extractionHandler }, concurrency: 2 });
 * await db.close();
 */
export async function runWorker(options: RunWorkerOptions): Promise<void> {
  const { db, signals = ["SIGINT", "SIGTERM"], abortSignal, onStart, ...workerOptions } = options;
  const worker = new JobWorker(db, workerOptions);
  let stopRequests = 0;
  let resolveStopped!: () => void;
  const stopped = new Promise<void>((resolve) => (resolveStopped = resolve));
  const requestStop = () => {
    stopRequests++;
    // First request: graceful. Second: give up waiting (handlers see their signal aborted).
    worker.stop(stopRequests === 1 ? {} : { timeoutMs: 0 }).then(resolveStopped, resolveStopped);
  };
  for (const s of signals) process.on(s, requestStop);
  const onAbort = () => requestStop();
  if (abortSignal?.aborted) requestStop();
  else abortSignal?.addEventListener("abort", onAbort, { once: true });
  try {
    if (stopRequests === 0) {
      worker.start();
      onStart?.(worker);
    }
    await stopped;
  } finally {
    for (const s of signals) process.off(s, requestStop);
    abortSignal?.removeEventListener("abort", onAbort);
  }
}
