// Runs the bash test suite of scripts/memory.sh (test/skill/run.sh) so that `npm test` covers it: the
// grep path always (rg hidden from PATH), the rg path when rg is installed.
import { spawnSync } from "node:child_process";

function runSuite(mode: string) {
  const res = spawnSync("bash", ["test/skill/run.sh", mode], { encoding: "utf8", timeout: 600_000 });
  const output = `${res.stdout}${res.stderr}`;
  const summary = /^(\d+) passed, (\d+) failed$/m.exec(res.stdout);
  return { status: res.status, output, passed: Number(summary?.[1] ?? 0), failed: Number(summary?.[2] ?? -1) };
}

const hasRg = spawnSync("bash", ["-c", "type -P rg"]).status === 0;

describe("scripts/memory.sh (bash suite)", () => {
  test("grep path, with only the allowed tools on PATH", () => {
    const r = runSuite("grep");
    if (r.failed !== 0 || r.status !== 0) throw new Error(`bash suite failed:\n${r.output}`);
    expect(r.passed).toBeGreaterThanOrEqual(19);
  }, 600_000);

  (hasRg ? test : test.skip)("rg path", () => {
    const r = runSuite("rg");
    if (r.failed !== 0 || r.status !== 0) throw new Error(`bash suite failed:\n${r.output}`);
    expect(r.passed).toBeGreaterThanOrEqual(19);
  }, 600_000);
});
