// Runs many memory_write/memory_search calls in one bash process (a bash start and `source` per call
// would dominate the test time). Used by the bash/TypeScript cross tests and by nothing else.
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const SKILL = join(process.cwd(), "scripts/memory.sh");
const ALLOWED = ["bash", "jq", "tail", "touch", "date", "printf", "grep"];

export interface BashCall {
  fn: "memory_write" | "memory_search";
  /** The argument, one line (JSON.stringify output, or deliberately broken JSON without newlines). */
  input: string;
}

export interface BashResult {
  status: number;
  stdout: string;
  stderr: string;
}

export const hasRg = spawnSync("bash", ["-c", "type -P rg"]).status === 0;

/** A PATH with only the allowed tools: "grep" hides rg, "rg" adds it. */
export function toolPath(mode: "grep" | "rg"): string {
  const dir = mkdtempSync(join(tmpdir(), `memory-skill-bin-${mode}-`));
  for (const tool of mode === "rg" ? [...ALLOWED, "rg"] : ALLOWED) {
    const path = spawnSync("bash", ["-c", `type -P ${tool}`], { encoding: "utf8" }).stdout.trim();
    if (!path) throw new Error(`missing tool: ${tool}`);
    symlinkSync(path, join(dir, tool));
  }
  return dir;
}

function script(callsFile: string, outDir: string): string {
  return [
    'source "$SKILL"',
    "i=0",
    'while IFS= read -r fn && IFS= read -r input; do',
    `  "$fn" "$input" >"${outDir}/$i.out" 2>"${outDir}/$i.err"; echo $? >"${outDir}/$i.rc"; i=$((i + 1))`,
    `done <"${callsFile}"`,
  ].join("\n");
}

function prepare(calls: BashCall[]) {
  const work = mkdtempSync(join(tmpdir(), "memory-skill-calls-"));
  const outDir = join(work, "out");
  mkdirSync(outDir);
  for (const c of calls) if (c.input.includes("\n")) throw new Error("bash call inputs must be one line");
  writeFileSync(join(work, "calls"), calls.map((c) => `${c.fn}\n${c.input}\n`).join(""));
  return { work, outDir, script: script(join(work, "calls"), outDir) };
}

function collect(work: string, outDir: string, n: number): BashResult[] {
  const results: BashResult[] = [];
  for (let i = 0; i < n; i += 1) {
    results.push({
      status: Number(readFileSync(join(outDir, `${i}.rc`), "utf8").trim()),
      stdout: readFileSync(join(outDir, `${i}.out`), "utf8"),
      stderr: readFileSync(join(outDir, `${i}.err`), "utf8"),
    });
  }
  rmSync(work, { recursive: true, force: true });
  return results;
}

/** Runs the calls in order in one bash process, against `file`, with PATH = `path`. */
export function runBash(calls: BashCall[], file: string, path: string): BashResult[] {
  const { work, outDir, script: text } = prepare(calls);
  const res = spawnSync("bash", ["-c", text], {
    env: { PATH: path, HOME: work, MEMORY_FILE: file, SKILL },
    encoding: "utf8",
    timeout: 300_000,
  });
  if (res.status !== 0) throw new Error(`bash batch failed: ${res.stderr}`);
  return collect(work, outDir, calls.length);
}

/** The same, without blocking the event loop, so TypeScript writers can run at the same time. */
export function runBashAsync(calls: BashCall[], file: string, path: string): Promise<BashResult[]> {
  const { work, outDir, script: text } = prepare(calls);
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["-c", text], { env: { PATH: path, HOME: work, MEMORY_FILE: file, SKILL }, stdio: "ignore" });
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve(collect(work, outDir, calls.length)) : reject(new Error(`bash exited ${code}`))));
  });
}
