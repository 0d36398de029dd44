import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { Database } from "../../db/database.js";
import { openDatabase } from "../../db/open.js";
import { PgDatabase } from "../../db/pg-database.js";
import { SharedPgliteClient } from "../../db/shared-pglite-client.js";
import { endpointUrl, readEndpoint } from "../../db/shared-endpoint.js";
import { MemoryRepository } from "../../store/memory-store.js";
import type { Benchmark } from "./benchmark.js";
import { ratio, summarize, table, timeMs, writeJson } from "./stats.js";
import { PING_SQL } from "./bench-queries.js";

const USAGE = `usage: langgraph-memory bench shared [--rounds N] [--memories N] [--json FILE]

What sharing the embedded folder costs a process that is not its owner: the same operations, on
one folder in one run, by the owner (PGlite in process, through the session gate) and by a client
connected with pg to the owner's socket (as \`serve\`, \`worker\` or the CLI beside an app; here in
the same process, so its pg and the socket server share one event loop). Rounds alternate between
the two. Operations: a one-row SELECT, listing a user's memories, adding one memory.
  --rounds N     timed rounds per operation and side (default 200)
  --memories N   memories of the listed user (default 50)
  --json FILE    write the result as JSON`;

type Op = { name: string; run: (db: Database, store: MemoryRepository, i: number) => Promise<unknown> };

const scope = { tenantId: "bench", userId: "shared" };

export const benchmark: Benchmark = {
  summary: "the embedded folder's owner vs a client on its socket, side by side",
  async run(argv) {
    const { values } = parseArgs({ args: argv, options: { rounds: { type: "string" }, memories: { type: "string" }, json: { type: "string" }, help: { type: "boolean", short: "h" } } });
    if (values.help) {
      console.log(USAGE);
      return 0;
    }
    const rounds = Number(values.rounds ?? 200);
    const memories = Number(values.memories ?? 50);
    const dir = mkdtempSync(join(tmpdir(), "lgm-bench-shared-"));
    const owner = await openDatabase(`pglite:${dir}`);
    const endpoint = readEndpoint(dir);
    if (!endpoint) throw new Error("the owner did not publish its socket");
    const client = new SharedPgliteClient(new PgDatabase({ connectionString: endpointUrl(endpoint), schema: owner.schema, poolMax: 4 }), owner.schema, async () => {
      throw new Error("the owner is this process");
    });
    try {
      const sides = { owner: new MemoryRepository(owner), client: new MemoryRepository(client) };
      await sides.owner.addMany(scope, Array.from({ length: memories }, (_, i) => ({ kind: "fact" as const, text: `Benchmark fact number ${i}.` })));
      const ops: Op[] = [
        { name: "select 1 row", run: (db) => db.query(PING_SQL) },
        { name: `list ${memories} memories`, run: (_db, store) => store.list(scope) },
        { name: "add 1 memory", run: (_db, store, i) => store.add(scope, { kind: "fact", text: `Added fact ${i}.` }) },
      ];
      const rows: Array<Array<string | number>> = [];
      const result: Record<string, unknown> = { rounds, memories };
      for (const op of ops) {
        const samples = { owner: [] as number[], client: [] as number[] };
        for (let i = 0; i < 10; i++) {
          await op.run(owner, sides.owner, -1 - i);
          await op.run(client, sides.client, -100 - i);
        }
        for (let i = 0; i < rounds; i++) {
          const order = i % 2 ? (["owner", "client"] as const) : (["client", "owner"] as const);
          for (const side of order) samples[side].push(await timeMs(() => op.run(side === "owner" ? owner : client, sides[side], i * 2 + (side === "owner" ? 0 : 1))));
        }
        const o = summarize(samples.owner);
        const c = summarize(samples.client);
        rows.push([op.name, o.p50_ms, c.p50_ms, ratio(c.p50_ms, o.p50_ms), o.p95_ms, c.p95_ms]);
        result[op.name] = { owner: o, client: c, client_over_owner_p50: ratio(c.p50_ms, o.p50_ms) };
      }
      console.log(table(["operation", "owner p50 ms", "client p50 ms", "client/owner", "owner p95", "client p95"], rows));
      if (values.json) writeJson(values.json, result);
      return 0;
    } finally {
      await client.close();
      await owner.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
