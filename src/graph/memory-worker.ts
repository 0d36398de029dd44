import { extractionJobHandlers } from "../extraction/node/extraction-job-handler.js";
import type { WriteReport } from "../extraction/write/write-report.js";
import { JobWorker, type JobEvent } from "../jobs/job-worker.js";
import type { LangGraphMemory } from "../memory.js";
import { createSessionIndexJobHandler, SESSION_INDEX_QUEUE } from "../sessions/session-indexer.js";
import { writeTargetsOf } from "./write-targets.js";

export interface MemoryWorkerOptions {
  /** Jobs at once (default 1). */
  concurrency?: number;
  /** Longest idle sleep (default 1,000 ms); local enqueues wake it at once. */
  pollIntervalMs?: number;
  /** Each extraction job's write report (counts and ids only). */
  onReport?: (report: WriteReport, job: { id: number; attempts: number }) => void;
  onEvent?: (event: JobEvent) => void;
}

/**
 * A background worker for a memory's jobs (extraction with every write target, and deferred
 * session indexing), running in this process on the memory's database — how a single process on
 * the embedded database (which serves one process only) gets extraction off the response path.
 * `start()` it; `stop()` before `memory.close()`; `drain()` processes everything pending now.
 *
 * @example
 * const worker = memoryWorker(memory);
 * worker.start();
 * …
 * await worker.stop();
 * await memory.close();
 */
export function memoryWorker(memory: LangGraphMemory, options: MemoryWorkerOptions = {}): JobWorker {
  return new JobWorker(memory.db, {
    handlers: {
      ...extractionJobHandlers({ store: memory.store, model: memory.model, targets: writeTargetsOf(memory), policy: memory.config.writePolicy, onReport: options.onReport }),
      [SESSION_INDEX_QUEUE]: createSessionIndexJobHandler({ store: memory.store }),
    },
    concurrency: options.concurrency ?? 1,
    pollIntervalMs: options.pollIntervalMs ?? 1_000,
    onEvent: options.onEvent,
  });
}
