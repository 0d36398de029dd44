import { chatModelFromSpec } from "../../models/chat-model.js";
import type { CliCommand } from "../cli-command.js";
import { parseCommandArgs } from "../common-options.js";
import { resolveConfig } from "../../config.js";
import { openDatabase } from "../../db/open.js";
import { createEmbeddings } from "../../embeddings/create-embeddings.js";
import { ErrorCodes, MemoryError } from "../../errors.js";
import { EXTRACTION_QUEUE, createExtractionJobHandler } from "../../extraction/node/index.js";
import type { WriteReport } from "../../extraction/write/write-report.js";
import { JobWorker, runWorker, type JobEvent } from "../../jobs/index.js";
import { MemoryRepository } from "../../store/memory-store.js";
import { MemorySettingsStore } from "../../controls/settings-store.js";
import { ProfileStore } from "../../profile/profile-store.js";
import { RuleStore } from "../../procedural/rule-store.js";

const HELP = `usage: langgraph-memory worker [--concurrency N] [--drain] [--model PROVIDER:MODEL] [--embeddings SPEC]
                               [--lease-ms N] [--poll-ms N] [--quiet] [--database-url URL] [--schema NAME]

Run background memory-extraction jobs (queued by the schedule_extraction node) until SIGINT/SIGTERM:
the first signal lets running jobs finish, a second stops at once (their leases expire and another
worker retries them). With --drain, process everything pending now (debounce ignored) and exit.

  --concurrency N   jobs at once (default 1)
  --model SPEC      chat model for extraction, e.g. openai:gpt-4o-mini (default MODEL; unset → offline rules)
  --embeddings SPEC "local" (default) or "openai:<model>" — must match what the store was written with
  --lease-ms N      lease per job (default 60000); --poll-ms N: idle poll (default 1000)

One line per job event on stderr (job ids, attempts, counts and error codes — never memory text).`;

function positive(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new MemoryError(ErrorCodes.INVALID_INPUT, `--${name}: a positive integer`);
  return n;
}

function describeEvent(e: JobEvent): string | undefined {
  switch (e.type) {
    case "claimed":
      return `job ${e.jobId} claimed (attempt ${e.attempts})`;
    case "completed":
      return `job ${e.jobId} completed`;
    case "retry":
      return `job ${e.jobId} failed (${e.error.code}); retry at ${e.runAfter.toISOString()}`;
    case "failed":
      return `job ${e.jobId} failed for good (${e.error.code}: ${e.error.message})`;
    case "lease_lost":
      return `job ${e.jobId} lease lost (another worker took it)`;
    case "error":
      return `worker error during ${e.during}: ${e.error.code}`;
    default:
      return undefined;
  }
}

function describeReport(jobId: number, r: WriteReport): string {
  if (r.skipped) return `job ${jobId}: skipped (${r.skipped})`;
  const parts = [`added ${r.added}`, `deduped ${r.deduped}`, `superseded ${r.superseded}`, `deleted ${r.deleted}`];
  if (r.profileFieldsChanged) parts.push(`profile fields ${r.profileFieldsChanged}`);
  if (r.rulesProposed) parts.push(`rules proposed ${r.rulesProposed}`);
  if (r.forgetAllRequested) parts.push(`forget-all requests ${r.forgetAllRequested}`);
  if (r.refused) parts.push(`refused ${r.refused} (${Object.entries(r.refusedByReason).map(([k, n]) => `${k} ${n}`).join(", ")})`);
  return `job ${jobId}: ${parts.join(", ")}`;
}

export const command: CliCommand = {
  summary: "run background memory-extraction workers (or --drain the queue once)",
  async run(argv) {
    const { values } = parseCommandArgs(argv, {
      concurrency: { type: "string" },
      drain: { type: "boolean" },
      model: { type: "string" },
      embeddings: { type: "string" },
      "lease-ms": { type: "string" },
      "poll-ms": { type: "string" },
      quiet: { type: "boolean" },
    });
    if (values.help) {
      console.log(HELP);
      return 0;
    }
    const concurrency = positive(values.concurrency, "concurrency", 1);
    const leaseMs = positive(values["lease-ms"], "lease-ms", 60_000);
    const pollIntervalMs = positive(values["poll-ms"], "poll-ms", 1_000);
    const config = resolveConfig({ databaseUrl: values["database-url"], schema: values.schema, model: values.model, embeddings: values.embeddings });
    const model = await chatModelFromSpec(config.model);
    const embeddings = await createEmbeddings(config.embeddings);
    // Each running job holds one connection for the per-user write lock besides its queries, and the listener one more.
    const db = await openDatabase(config.databaseUrl, { schema: config.schema, dataDir: config.dataDir, poolMax: Math.max(config.poolMax, 2 * concurrency + 2) });
    const log = (line: string) => {
      if (!values.quiet) process.stderr.write(`${line}\n`);
    };
    try {
      const store = new MemoryRepository(db, { embeddings, retrieval: config.retrieval, writePolicy: config.writePolicy });
      // The database-backed targets (default profile schema): profile fields, proposed rules, opt-out.
      const targets = { profile: new ProfileStore(db), rules: new RuleStore(db), settings: new MemorySettingsStore(db) };
      const handler = createExtractionJobHandler({ store, model, targets, policy: config.writePolicy, onReport: (report, job) => log(describeReport(job.id, report)) });
      const options = {
        handlers: { [EXTRACTION_QUEUE]: handler },
        concurrency,
        leaseMs,
        pollIntervalMs,
        onEvent: (e: JobEvent) => {
          const line = describeEvent(e);
          if (line) log(line);
        },
      };
      if (values.drain) {
        const result = await new JobWorker(db, options).drain();
        console.log(JSON.stringify(result));
        return result.failed > 0 ? 1 : 0;
      }
      await runWorker({
        db,
        ...options,
        onStart: (worker) => log(`worker ${worker.workerId} started (${db.engine}, concurrency ${concurrency}, ${model ? "model extraction" : "offline rules"})`),
      });
      log("worker stopped");
      return 0;
    } finally {
      await db.close();
    }
  },
};
