import type { JobHandler } from "../../jobs/job-worker.js";
import type { WriteReport } from "../write/write-report.js";
import { EXTRACTION_QUEUE, processExtractionPayload, type ExtractionJobPayload, type ProcessExtractionOptions } from "./extraction-payload.js";

export interface ExtractionJobHandlerOptions extends Omit<ProcessExtractionOptions, "scope" | "jobId"> {
  /** Called with each job's write report (counts and ids only: safe to log). */
  onReport?: (report: WriteReport, job: { id: number; attempts: number }) => void;
}

/**
 * The handler of extraction jobs: extraction and the write path for the job's payload, in the
 * job's scope. Writes are idempotent (deterministic ids and same-statement checks), so a job
 * retried after a crash — the worker died after writing, before completing — writes each memory
 * once; the worker completes the job when the handler returns. A lost lease aborts the model call.
 *
 * @example
 * await runWorker({ db, concurrency: 2, handlers: { [EXTRACTION_QUEUE]: createExtractionJobHandler({ store, model }) } });
 */
export function createExtractionJobHandler(options: ExtractionJobHandlerOptions): JobHandler<ExtractionJobPayload> {
  const { onReport, ...rest } = options;
  return async (job, ctx) => {
    const report = await processExtractionPayload(job.payload, {
      ...rest,
      scope: job.scope,
      jobId: job.id,
      config: { ...rest.config, signal: ctx.signal },
      // Still this job's? A forget since the claim took the lease (it runs again, rewritten).
      beforeWrite: () => ctx.queue.checkLease(job),
    });
    onReport?.(report, { id: job.id, attempts: job.attempts });
  };
}

/** `{ "memory-extraction": handler }`, ready for `runWorker({ handlers })` or `new JobWorker(db, { handlers })`. */
export function extractionJobHandlers(options: ExtractionJobHandlerOptions): Record<string, JobHandler> {
  return { [EXTRACTION_QUEUE]: createExtractionJobHandler(options) };
}
