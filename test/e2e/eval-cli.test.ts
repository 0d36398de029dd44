/**
 * `npm run eval` from the command line: the JSON report with the field names, the
 * self-contained HTML report, the exit code of the gate, LoCoMo inside the same report, and bad
 * arguments.
 */
import { describe, expect, it } from "@jest/globals";
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const exec = promisify(execFile);
const CLI = [process.execPath, "--import", "tsx", "evals/cli.ts", "eval"];

async function evalCli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await exec(CLI[0], [...CLI.slice(1), ...args], { cwd: process.cwd(), env: { ...process.env, MODEL: "" }, maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe("npm run eval", () => {
  const dir = mkdtempSync(join(tmpdir(), "lgm-eval-"));

  it("writes the JSON and HTML reports and exits by the gate", async () => {
    const json = join(dir, "r.json");
    const html = join(dir, "r.html");
    const { code, stdout } = await evalCli(["--only", "units-metric-preference,move-berlin-to-lisbon", "--json", json, "--report", html]);
    const report = JSON.parse(readFileSync(json, "utf8"));
    for (const field of ["recall", "stale_rate", "probes", "scenarios", "tokens_per_probe_mean", "results"]) expect(report).toHaveProperty(field);
    expect(report).toMatchObject({ pipeline: "offline", scenarios: 2, probes: 4 });
    expect(report.results.map((r: { id: string }) => r.id)).toEqual(["move-berlin-to-lisbon", "units-metric-preference"]);
    expect(code).toBe(report.gate.passed ? 0 : 1);
    expect(stdout).toContain("needed-fact recall");
    const page = readFileSync(html, "utf8");
    expect(page).toContain("<svg");
    expect(page).not.toMatch(/<script|src="http/i);
  }, 300_000);

  it("runs the LoCoMo benchmark into the same report (a small file made here)", async () => {
    const data = join(dir, "locomo-mini.json");
    const turns = (n: number) => Array.from({ length: n }, (_, i) => ({ speaker: i % 2 ? "B" : "A", dia_id: `D1:${i + 1}`, text: i === 3 ? "I adopted a greyhound named Pixel last spring." : `small talk number ${i}` }));
    writeFileSync(data, JSON.stringify([{ sample_id: "s1", conversation: { speaker_a: "A", speaker_b: "B", session_1: turns(8), session_1_date_time: "1 May 2023" }, qa: [{ question: "What is the name of the greyhound?", evidence: ["D1:4"], category: 1 }] }]));
    const json = join(dir, "l.json");
    const { stdout } = await evalCli(["--only", "move-berlin-to-lisbon", "--locomo", data, "--json", json]);
    const report = JSON.parse(readFileSync(json, "utf8"));
    expect(report.locomo).toMatchObject({ path: data, error: null, result: { questions: 1, recall_at_10: 1 } });
    expect(stdout).toContain("LoCoMo: 1 questions");
  }, 300_000);

  it("refuses bad arguments with exit code 2", async () => {
    expect((await evalCli(["--concurrency", "0"])).code).toBe(2);
    expect((await evalCli(["--with-offline"])).code).toBe(2);
    const empty = join(dir, "empty");
    mkdirSync(empty);
    const missing = await evalCli(["--scenarios", empty]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("holds no .json files");
    expect(existsSync(join(dir, "nothing.json"))).toBe(false);
  }, 120_000);
});
