import { spawnSync } from "node:child_process";
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, statSync, symlinkSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { Benchmark } from "./benchmark.js";
import { ErrorCodes, MemoryError } from "../../errors.js";
import { packageRoot } from "../../db/package-root.js";
import { JsonlMemory } from "../../skill/jsonl-memory.js";
import { jqStringify } from "../../skill/jq-json.js";
import { ratio, round, summarize, table, writeJson, type LatencySummary } from "./stats.js";

const HELP = `usage: langgraph-memory bench jsonl [--lines N] [--runs N] [--json FILE]

memory_search for a recent entry (50 lines from the end, limit 1) in a generated --lines-line skill
memory file (default 1,000,000), with the tail window (window_lines 20000, the default) and with a full
scan (window_lines = the file's length). Side by side: scripts/memory.sh with rg (when installed),
with grep (rg hidden from PATH), and the TypeScript JsonlMemory. Each call is timed whole; a bash call
includes starting bash and sourcing the script, as an agent's call does; the "empty file" column is
the same call on an empty file, the fixed cost. Prints p50 of --runs runs (default 5) after one
warm-up, and the ratios.`;

interface Row {
  implementation: string;
  /** The same search on an empty file: the fixed cost (for bash: starting bash, jq, tail and grep). */
  empty_file: LatencySummary;
  tail_window: LatencySummary;
  full_scan: LatencySummary;
  full_over_tail: number;
}

const ALLOWED_TOOLS = ["bash", "jq", "tail", "touch", "date", "printf", "grep"];

export const benchmark: Benchmark = {
  summary: "JSONL skill memory_search: tail window vs full scan on a 1M-line file, bash (rg, grep) and TypeScript",
  async run(argv) {
    const { values } = parseArgs({
      args: argv,
      options: { lines: { type: "string" }, runs: { type: "string" }, json: { type: "string" }, help: { type: "boolean", short: "h" } },
      strict: true,
    });
    if (values.help) {
      console.log(HELP);
      return 0;
    }
    const lines = intOption(values.lines, 1_000_000, "--lines", 100);
    const runs = intOption(values.runs, 5, "--runs", 1);
    const work = mkdtempSync(join(tmpdir(), "bench-jsonl-"));
    try {
      const file = join(work, "memory.jsonl");
      const needle = `needle-${Date.now().toString(36)}`;
      generate(file, lines, needle);
      const bytes = statSync(file).size;
      const tailQuery = { q: needle, limit: 1 };
      const fullQuery = { q: needle, limit: 1, window_lines: lines };

      const empty = join(work, "empty.jsonl");
      writeFileSync(empty, "");
      const implementations: Array<{ name: string; search: (q: object, file?: string) => Promise<string> }> = [];
      const skill = join(packageRoot(), "scripts/memory.sh");
      const bashOk = spawnSync("bash", ["-c", "type -P jq"], { encoding: "utf8" }).status === 0;
      if (bashOk) {
        if (spawnSync("bash", ["-c", "type -P rg"]).status === 0) {
          implementations.push({ name: "bash + rg", search: bashSearch(skill, file, toolFolder(work, "rg", [...ALLOWED_TOOLS, "rg"])) });
        }
        implementations.push({ name: "bash + grep", search: bashSearch(skill, file, toolFolder(work, "grep", ALLOWED_TOOLS)) });
      } else {
        console.log("bash rows skipped: jq is not installed");
      }
      implementations.push({
        name: "TypeScript",
        search: async (q, f = file) => `${jqStringify(await new JsonlMemory({ file: f }).search(q))}\n`,
      });

      // Every implementation must print the same result, or the timings compare different work.
      const expected = await implementations[0].search(tailQuery);
      for (const impl of implementations) {
        for (const q of [tailQuery, fullQuery]) {
          const got = await impl.search(q);
          const normalized = got.replace(/"truncated":(true|false),"used_window_lines":\d+/, "");
          if (normalized !== expected.replace(/"truncated":(true|false),"used_window_lines":\d+/, "")) {
            throw new MemoryError(ErrorCodes.INVALID_INPUT, `${impl.name} found a different result: ${got.slice(0, 300)}`);
          }
        }
      }
      if (!expected.includes(needle)) throw new Error(`the recent entry was not found: ${expected.slice(0, 300)}`);

      const rows: Row[] = [];
      for (const impl of implementations) {
        const floor = await time(() => impl.search(tailQuery, empty), runs);
        const tail = await time(() => impl.search(tailQuery), runs);
        const full = await time(() => impl.search(fullQuery), runs);
        rows.push({ implementation: impl.name, empty_file: floor, tail_window: tail, full_scan: full, full_over_tail: ratio(full.p50_ms, tail.p50_ms, 1) });
      }
      const ts = rows.find((r) => r.implementation === "TypeScript")!;
      console.log(
        `memory_search, recent entry 50 lines from the end, limit 1: ${lines.toLocaleString("en-US")} lines, ${round(bytes / 1e6, 1)} MB; p50 of ${runs} runs (ms)`,
      );
      console.log(
        table(
          ["implementation", "empty file", "tail window (20000 lines)", "full scan", "full / tail", "tail vs TS", "full vs TS"],
          rows.map((r) => [
            r.implementation,
            r.empty_file.p50_ms,
            r.tail_window.p50_ms,
            r.full_scan.p50_ms,
            `${r.full_over_tail}x`,
            `${ratio(r.tail_window.p50_ms, ts.tail_window.p50_ms, 1)}x`,
            `${ratio(r.full_scan.p50_ms, ts.full_scan.p50_ms, 1)}x`,
          ]),
        ),
      );
      if (values.json) writeJson(values.json, { benchmark: "jsonl", lines, bytes, runs, rows });
      return 0;
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  },
};

/** Writes `lines` entries in the skill's format, with the needle 50 lines from the end. */
function generate(file: string, lines: number, needle: string): void {
  const words = ["deploy", "prefers", "terse", "status", "review", "tests", "pnpm", "docker", "staging", "release", "branch", "naming", "café", "日本"];
  const types = ["note", "preference", "decision", "fact"];
  let seed = 1;
  const rand = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  const fd = openSync(file, "w");
  try {
    let chunk: string[] = [];
    for (let i = 1; i <= lines; i += 1) {
      const text = Array.from({ length: 6 + rand(10) }, () => words[rand(words.length)]).join(" ");
      const entry: Record<string, unknown> = {
        ts: new Date(Date.UTC(2025, 0, 1) + i * 1000).toISOString(),
        type: types[rand(types.length)],
        content: i === lines - 50 ? `${text} ${needle}` : `${text} #${i}`,
      };
      if (rand(3) === 0) entry.tags = [words[rand(words.length)]];
      chunk.push(jqStringify(entry));
      if (chunk.length === 10_000) {
        writeSync(fd, `${chunk.join("\n")}\n`);
        chunk = [];
      }
    }
    if (chunk.length > 0) writeSync(fd, `${chunk.join("\n")}\n`);
  } finally {
    closeSync(fd);
  }
}

/** A folder of symlinks to the given tools, to run memory.sh with exactly those on PATH. */
function toolFolder(work: string, name: string, tools: string[]): string {
  const dir = join(work, `bin-${name}`);
  mkdirSync(dir);
  for (const tool of tools) {
    const path = spawnSync("bash", ["-c", `type -P ${tool}`], { encoding: "utf8" }).stdout.trim();
    if (!path) throw new MemoryError(ErrorCodes.INVALID_INPUT, `bench jsonl needs ${tool} on PATH`);
    symlinkSync(path, join(dir, tool));
  }
  return dir;
}

function bashSearch(skill: string, file: string, path: string) {
  return async (query: object, target = file): Promise<string> => {
    const res = spawnSync("bash", ["-c", 'source "$1" && memory_search "$2"', "_", skill, JSON.stringify(query)], {
      env: { PATH: path, MEMORY_FILE: target, HOME: tmpdir() },
      encoding: "utf8",
      maxBuffer: 64 << 20,
    });
    if (res.status !== 0) throw new Error(`memory_search failed (${res.status}): ${res.stderr}`);
    return res.stdout;
  };
}

async function time(fn: () => Promise<unknown>, runs: number): Promise<LatencySummary> {
  await fn(); // warm-up: page cache, jq and V8 compilation
  const samples: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const start = process.hrtime.bigint();
    await fn();
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return summarize(samples);
}

function intOption(raw: string | undefined, fallback: number, name: string, min: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new MemoryError(ErrorCodes.INVALID_INPUT, `${name}: must be an integer >= ${min}`);
  return n;
}
