/**
 * One worker process of `bench jobs --workers`: runs a JobWorker (concurrency 1) on the bench's
 * schema until SIGTERM. Its handler records every start of a job (a row per run, committed before
 * the work, so a job run twice shows as two rows even if the second run never completes), waits
 * `workMs` as a job waiting on a model call would, and lets the worker complete the job.
 *
 * Arguments (JSON in argv[2]): { url, schema, queue, workMs, workerId }.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { connectDatabase } from "../../db/open.js";
import { runWorker } from "../../jobs/run-worker.js";
import { recordJobRun } from "./jobs-scale-queries.js";

interface ChildArgs {
  url: string;
  schema: string;
  queue: string;
  workMs: number;
  workerId: string;
}

const args = JSON.parse(process.argv[2] ?? "{}") as ChildArgs;
const db = await connectDatabase(args.url, { schema: args.schema, poolMax: 3 });
await db.refreshCapabilities();
try {
  await runWorker({
    db,
    workerId: args.workerId,
    pollIntervalMs: 200,
    handlers: {
      [args.queue]: async (job) => {
        await recordJobRun(db, job.id, args.workerId, job.attempts, job.createdAt);
        if (args.workMs > 0) await sleep(args.workMs);
      },
    },
    onStart: () => process.send?.({ ready: true }),
  });
} finally {
  await db.close();
}
