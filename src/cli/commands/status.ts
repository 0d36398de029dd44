import { resolve } from "node:path";
import type { CliCommand } from "../cli-command.js";
import { parseCommandArgs } from "../common-options.js";
import { resolveConfig } from "../../config.js";
import { connectDatabase } from "../../db/open.js";
import { formatAge, memoryStatus, type MemoryStatus } from "../../status/memory-status.js";

const HELP = `usage: langgraph-memory status [--database-url URL] [--schema NAME] [--json]

How the memory's database is doing, read-only (nothing is migrated or changed):
the database (engine, URL without its password, schema), the schema version (migrations applied
of those this version knows), pgvector, the job queue (jobs by state, submitted turns not yet
folded, the oldest one's age) and the workers' last heartbeat — with a warning when jobs wait and
no worker polls. Under row-level security run it as the schema owner or a worker role: other roles
see only the rows of their own scope.`;

export const command: CliCommand = {
  summary: "database, schema version, pgvector, job queue and worker heartbeat, read-only",
  async run(argv) {
    const { values } = parseCommandArgs(argv, { json: { type: "boolean" } });
    if (values.help) {
      console.log(HELP);
      return 0;
    }
    const config = resolveConfig({ databaseUrl: values["database-url"], schema: values.schema });
    const url = config.databaseUrl ?? `pglite:${resolve(config.dataDir)}`;
    const db = await connectDatabase(values["database-url"], { schema: values.schema });
    try {
      const status = await memoryStatus(db, { url });
      console.log(values.json ? JSON.stringify(status) : formatStatus(status).join("\n"));
      return 0;
    } finally {
      await db.close();
    }
  },
};

/** The status as lines for a terminal. */
export function formatStatus(s: MemoryStatus): string[] {
  const q = s.queue;
  const when = (d: Date | null, ageMs: number | null) => (d ? `${d.toISOString()} (${formatAge(ageMs ?? 0)} ago)` : "never");
  return [
    `database      ${s.database.engine} ${s.database.serverVersion} · ${s.database.url} · schema ${s.database.schema}`,
    `schema        ${s.migrations.applied} of ${s.migrations.known} migrations applied${s.migrations.latest ? ` (latest ${s.migrations.latest})` : ""}${s.migrations.pending.length > 0 ? `; pending: ${s.migrations.pending.join(", ")}` : ""}`,
    `pgvector      ${s.database.pgvector ? "yes" : s.database.pgvectorAvailable ? "no (available: migrating installs it)" : "no (not available on this server)"}`,
    q
      ? `queue         ${q.pending} pending, ${q.running} running, ${q.failed} failed, ${q.inbox} submitted (not folded yet); oldest ${q.oldestAt ? formatAge(q.oldestAgeMs ?? 0) : "—"}`
      : "queue         (not migrated yet)",
    q ? `workers       ${q.liveWorkers} live; last heartbeat ${when(q.lastHeartbeat, q.lastHeartbeatAgeMs)}` : "workers       (not migrated yet)",
    ...s.warnings.map((w) => `WARNING       ${w}`),
  ];
}
