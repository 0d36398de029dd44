import type { CliCommand } from "../cli-command.js";
import { parseCommandArgs } from "../common-options.js";
import { ProgressBar } from "../progress.js";
import { formatFields, shortTime } from "../format-table.js";
import { resolveConfig } from "../../config.js";
import { openDatabase } from "../../db/open.js";
import { ErrorCodes, MemoryError } from "../../errors.js";
import { RetentionSweep, type RetentionSummary } from "../../retention/retention-sweep.js";
import { countOf } from "../../core/plural.js";

const HELP = `usage: langgraph-memory gc [--purge-opted-out | --purge-opted-out-days N]
                           [--episode-ttl-days N] [--unused-days N] [--decay-after-days N]
                           [--decay-half-life-days N] [--min-confidence X] [--batch-size N] [--max-batches N]
                           [--last-run] [--json] [--quiet] [--database-url URL] [--schema NAME]

The retention sweep, for cron (docs/operations.md): deletes memories past their expiry and
episodes older than the episode TTL, sets aside never-used extracted episodes and inferred
memories, decays the confidence of idle inferred ones, removes expired confirmations, and — only
when asked — deletes everything of users who opted out (they stay opted out). Batched and
non-blocking: safe while agents run. On server Postgres run it as the schema owner.

  --purge-opted-out            purge every opted-out user
  --purge-opted-out-days N     purge users opted out at least N days ago
  --episode-ttl-days N         episodes without an explicit expiry are deleted N days after creation (180)
  --unused-days N              set aside never-used extracted episodes / inferred memories after N days (30)
  --decay-after-days N         inferred memories idle longer than N days lose confidence (30)
  --decay-half-life-days N     half-life of that decay (90)
  --min-confidence X           decayed below X → set aside (0.3)
  --batch-size N               rows per statement, each its own short transaction (500)
  --last-run                   only print the last run and when the next is due
  --json                       the summary as JSON on stdout; --quiet: no progress bar

Progress on stderr, the summary on stdout. Exit code 0 when the sweep ran, 1 when it failed.`;

function num(value: string | undefined, name: string, check: (n: number) => boolean, what: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || !check(n)) throw new MemoryError(ErrorCodes.INVALID_INPUT, `--${name}: ${what}`);
  return n;
}

export const command: CliCommand = {
  summary: "run the retention sweep (expire, set aside, decay, purge opted-out users) — for cron",
  async run(argv) {
    const { values } = parseCommandArgs(argv, {
      "purge-opted-out": { type: "boolean" },
      "purge-opted-out-days": { type: "string" },
      "episode-ttl-days": { type: "string" },
      "unused-days": { type: "string" },
      "decay-after-days": { type: "string" },
      "decay-half-life-days": { type: "string" },
      "min-confidence": { type: "string" },
      "batch-size": { type: "string" },
      "max-batches": { type: "string" },
      "last-run": { type: "boolean" },
      json: { type: "boolean" },
      quiet: { type: "boolean" },
    });
    if (values.help) {
      console.log(HELP);
      return 0;
    }
    const positive = (n: number) => n > 0;
    const purgeDays = num(values["purge-opted-out-days"], "purge-opted-out-days", (n) => n >= 0, "a number of days ≥ 0");
    if (values["purge-opted-out"] && purgeDays !== undefined) throw new MemoryError(ErrorCodes.INVALID_INPUT, "give --purge-opted-out or --purge-opted-out-days N, not both");
    const episodeTtlDays = num(values["episode-ttl-days"], "episode-ttl-days", positive, "a positive number of days");
    const retention = stripUndefined({
      unusedDays: num(values["unused-days"], "unused-days", positive, "a positive number of days"),
      decayAfterDays: num(values["decay-after-days"], "decay-after-days", (n) => n >= 0, "a number of days ≥ 0"),
      decayHalfLifeDays: num(values["decay-half-life-days"], "decay-half-life-days", positive, "a positive number of days"),
      minConfidence: num(values["min-confidence"], "min-confidence", (n) => n >= 0 && n <= 1, "a number from 0 to 1"),
      batchSize: num(values["batch-size"], "batch-size", (n) => Number.isInteger(n) && n > 0 && n <= 10_000, "an integer from 1 to 10000"),
    });
    const maxBatches = num(values["max-batches"], "max-batches", (n) => Number.isInteger(n) && n > 0, "a positive integer");
    const purgeOptedOut = values["purge-opted-out"] ? true : purgeDays !== undefined ? { olderThanDays: purgeDays } : false;

    const config = resolveConfig({ databaseUrl: values["database-url"], schema: values.schema });
    const db = await openDatabase(config.databaseUrl, { schema: config.schema, dataDir: config.dataDir });
    try {
      const sweep = new RetentionSweep(db, {
        retention: { ...config.retention, ...retention },
        episodeTtlDays: episodeTtlDays ?? config.writePolicy.episodeTtlDays,
        threads: "sql",
      });
      if (values["last-run"]) {
        const last = await sweep.lastRun();
        if (values.json) console.log(JSON.stringify(last));
        else if (!last) console.log("the retention sweep has never run here");
        else {
          const overdue = last.nextDueAt && last.nextDueAt.getTime() <= Date.now();
          console.log(`last run #${last.runId} ${last.status} at ${shortTime(last.finishedAt ?? last.startedAt)} UTC; next due ${shortTime(last.nextDueAt)} UTC${overdue ? " (overdue)" : ""}${last.error ? `\nerror: ${last.error}` : ""}`);
        }
        return 0;
      }
      const started = Date.now();
      let bar: ProgressBar | undefined;
      const quiet = values.quiet || values.json;
      const summary = await sweep.run({
        purgeOptedOut,
        maxBatches,
        onStep: (_step, index, total) => {
          if (quiet) return;
          bar ??= new ProgressBar("retention sweep", total);
          bar.update(index);
        },
      });
      bar?.done();
      if (values.json) console.log(JSON.stringify(summary));
      else console.log(describe(summary, sweep, purgeOptedOut !== false, Date.now() - started));
      return 0;
    } finally {
      await db.close();
    }
  },
};

function describe(s: RetentionSummary, sweep: RetentionSweep, purged: boolean, ms: number): string {
  const r = sweep.retention;
  const purgedCounts = Object.entries(s.purged).filter(([, n]) => n > 0).map(([k, n]) => `${k} ${n}`).join(", ");
  return [
    `retention sweep #${s.runId} done in ${(ms / 1000).toFixed(1)} s (${countOf(s.batches, "batch", "batches")})`,
    formatFields([
      ["  expired and deleted", `${s.expired}  (past their expiry, or episodes older than ${sweep.episodeTtlDays} days)`],
      ["  archived, unused", `${s.archivedUnused}  (extracted episodes and inferred memories unused for ${r.unusedDays} days)`],
      ["  confidence decayed", `${s.decayed}  (${s.deactivatedLowConfidence} set aside below ${r.minConfidence})`],
      ["  opted-out users purged", purged ? `${s.purgedUsers}${purgedCounts ? `  (${purgedCounts})` : ""}` : "not asked (--purge-opted-out)"],
      ["  expired confirmations", s.confirmationsRemoved],
    ]),
    `next run due ${shortTime(s.nextDueAt)} UTC (every ${r.intervalHours} h)`,
  ].join("\n");
}

function stripUndefined<T extends Record<string, unknown>>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
