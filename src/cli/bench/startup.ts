import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { openDatabase } from "../../db/open.js";
import type { Benchmark } from "./benchmark.js";
import { ratio, round, summarize, table, writeJson, type LatencySummary } from "./stats.js";

const USAGE = `usage: langgraph-memory bench startup [--rounds N] [--json FILE]

How long opening the embedded database takes, with the migrated template (the default) and
without it (initdb and every migration, as before), in the same run: memory:// and the first open
of a new data folder. Every open runs in a fresh Node process, as a user's first start does (the
WASM compile included), the four kinds interleaved in rotating order so load drifts hit all alike.
The template is built first in a temporary cache folder (that one-off cost, once per machine, is
reported too). Times are of openDatabase() inside the child, and of the whole child process.
  --rounds N    opens of each kind (default 5)
  --json FILE   write the result as JSON`;

const KINDS = ["memory_template", "memory_scratch", "folder_template", "folder_scratch"] as const;
type Kind = (typeof KINDS)[number];
const TARGET_MS = { folder: 1500, memory: 1000 };

interface ChildResult {
  open_ms: number;
  process_ms: number;
}

/** The child: one open, its time on stdout as the last line of JSON. */
async function runChild(kind: string, dir: string): Promise<number> {
  const url = kind.startsWith("memory") ? "memory://" : `pglite:${dir}`;
  const start = process.hrtime.bigint();
  const db = await openDatabase(url, { embeddedTemplate: kind.endsWith("template") });
  const openMs = Number(process.hrtime.bigint() - start) / 1e6;
  await db.close();
  console.log(JSON.stringify({ open_ms: openMs }));
  return 0;
}

function spawnOpen(kind: Kind | "build", dir: string, cacheDir: string): Promise<ChildResult> {
  const args = [...process.execArgv, process.argv[1], "bench", "startup", "--child", kind === "build" ? "memory_template" : kind, "--dir", dir];
  const start = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { env: { ...process.env, LANGGRAPH_MEMORY_TEMPLATE_DIR: cacheDir }, maxBuffer: 1 << 20 }, (err, stdout, stderr) => {
      const processMs = Number(process.hrtime.bigint() - start) / 1e6;
      if (err) return reject(new Error(`bench startup: the ${kind} open failed: ${stderr || err.message}`));
      const last = stdout.trim().split("\n").pop() ?? "";
      try {
        resolve({ open_ms: (JSON.parse(last) as { open_ms: number }).open_ms, process_ms: processMs });
      } catch {
        reject(new Error(`bench startup: the ${kind} child printed no result: ${stdout}${stderr}`));
      }
    });
  });
}

export const benchmark: Benchmark = {
  summary: "embedded start-up: open with the migrated template vs initdb + migrations (PGlite)",
  async run(argv) {
    const { values } = parseArgs({
      args: argv,
      options: { rounds: { type: "string" }, json: { type: "string" }, child: { type: "string" }, dir: { type: "string" }, help: { type: "boolean", short: "h" } },
      strict: true,
    });
    if (values.help) {
      console.log(USAGE);
      return 0;
    }
    if (values.child) return runChild(values.child, values.dir ?? "");
    const rounds = Number(values.rounds ?? 5);
    if (!Number.isInteger(rounds) || rounds < 1) {
      console.error("--rounds: a positive integer");
      return 2;
    }
    const work = mkdtempSync(join(os.tmpdir(), "lgm-bench-startup-"));
    const cacheDir = join(work, "cache");
    try {
      // The one-off build (what the first open on a machine pays), then the timed opens.
      const build = await spawnOpen("build", join(work, "unused"), cacheDir);
      const samples: Record<Kind, ChildResult[]> = { memory_template: [], memory_scratch: [], folder_template: [], folder_scratch: [] };
      let n = 0;
      for (let r = 0; r < rounds; r++) {
        for (let k = 0; k < KINDS.length; k++, n++) {
          const kind = KINDS[(r + k) % KINDS.length];
          samples[kind].push(await spawnOpen(kind, join(work, `data-${n}`), cacheDir));
          process.stderr.write(`\ropens ${n + 1}/${rounds * KINDS.length}`);
        }
      }
      process.stderr.write("\n");
      const open = (k: Kind) => summarize(samples[k].map((s) => s.open_ms));
      const proc = (k: Kind) => summarize(samples[k].map((s) => s.process_ms));
      const s = Object.fromEntries(KINDS.map((k) => [k, { open: open(k), process: proc(k) }])) as Record<Kind, { open: LatencySummary; process: LatencySummary }>;
      const row = (label: string, k: Kind) => [label, s[k].open.p50_ms, s[k].open.p95_ms, s[k].process.p50_ms];
      console.log(
        table(
          ["open", "p50 ms", "p95 ms", "process p50 ms"],
          [
            row("memory://, template", "memory_template"),
            row("memory://, initdb + migrations", "memory_scratch"),
            row("new data folder, template", "folder_template"),
            row("new data folder, initdb + migrations", "folder_scratch"),
            ["template build (once per machine)", round(build.open_ms), "", round(build.process_ms)],
          ],
        ),
      );
      const memoryRatio = ratio(s.memory_template.open.p50_ms, s.memory_scratch.open.p50_ms);
      const folderRatio = ratio(s.folder_template.open.p50_ms, s.folder_scratch.open.p50_ms);
      const memoryMet = s.memory_template.open.p50_ms <= TARGET_MS.memory;
      const folderMet = s.folder_template.open.p50_ms <= TARGET_MS.folder;
      console.log(
        `\n${rounds} opens of each kind, each in a fresh process, load average ${os.loadavg()[0].toFixed(2)} on ${os.cpus().length} CPUs; ` +
          `template / without p50: memory:// ${memoryRatio}× (${ratio(s.memory_scratch.open.p50_ms, s.memory_template.open.p50_ms)}× faster), ` +
          `new data folder ${folderRatio}× (${ratio(s.folder_scratch.open.p50_ms, s.folder_template.open.p50_ms)}× faster). ` +
          `Targets p50: memory:// ≤ ${TARGET_MS.memory} ms ${memoryMet ? "met" : "NOT met"}, first open of a folder ≤ ${TARGET_MS.folder} ms ${folderMet ? "met" : "NOT met"}.`,
      );
      if (values.json) {
        writeJson(values.json, {
          engine: "pglite",
          rounds,
          load_average: os.loadavg().map((x) => round(x, 2)),
          cpus: os.cpus().length,
          ...Object.fromEntries(KINDS.map((k) => [k, { open: s[k].open, process: s[k].process }])),
          template_build: { open_ms: round(build.open_ms), process_ms: round(build.process_ms) },
          ratio_memory_p50: memoryRatio,
          ratio_folder_p50: folderRatio,
          target_memory_ms: TARGET_MS.memory,
          target_folder_ms: TARGET_MS.folder,
          meets_memory_target: memoryMet,
          meets_folder_target: folderMet,
        });
        console.log(`wrote ${values.json}`);
      }
      return 0;
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  },
};
