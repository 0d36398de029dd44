/**
 * `npm test` runs every part of the suite and tells which failed (issue 17, item 6): in a scratch
 * package with this repository's `test` script and stand-in parts (one failing), every part runs,
 * each gets a result line, the closing line counts the tests, and the exit code is non-zero.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const repo = process.cwd();
const testScript = (JSON.parse(readFileSync(join(repo, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts.test;
const say = (text: string, code = 0) => `node -e "console.log('${text}'); process.exit(${code})"`;

function runIn(parts: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), "lgm-test-all-"));
  try {
    mkdirSync(join(dir, "scripts"));
    cpSync(join(repo, "scripts", "test-all.mjs"), join(dir, "scripts", "test-all.mjs"));
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "scratch", private: true, scripts: { test: testScript, ...parts } }));
    const env = { ...process.env };
    delete env.NODE_OPTIONS;
    const r = spawnSync("npm", ["test", "--silent"], { cwd: dir, env, encoding: "utf8", timeout: 60_000 });
    return { code: r.status, out: `${r.stdout}${r.stderr}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("npm test", () => {
  it("runs every part when an early one fails, reports each, and fails at the end", () => {
    const { code, out } = runIn({
      typecheck: say("typecheck: an error", 2),
      "api:check": say("api: reports match"),
      lint: say("lint: clean"),
      "test:unit": say("Tests:       1 failed, 2 skipped, 5 passed, 8 total", 1),
      "test:conformance": say("      Tests  7 passed (7)"),
      "test:package": say("test-package: the app ran at both ends"),
    });
    expect(code).not.toBe(0);
    // Every part ran, its output streamed through.
    expect(out).toContain("typecheck: an error");
    expect(out).toContain("Tests:       1 failed");
    expect(out).toContain("Tests  7 passed (7)");
    // One result line per part, then the failed parts and the closing count.
    expect(out).toMatch(/\[test-all\] typecheck\s+FAIL \(exit 2\)\s+[\d.]+ s/);
    expect(out).toMatch(/\[test-all\] api\s+pass\s+[\d.]+ s/);
    expect(out).toMatch(/\[test-all\] jest\s+FAIL \(exit 1\)\s+[\d.]+ s\s+1 failed, 2 skipped, 5 passed/);
    expect(out).toMatch(/\[test-all\] conformance\s+pass\s+[\d.]+ s\s+7 passed/);
    expect(out).toMatch(/\[test-all\] package\s+pass\s+[\d.]+ s/);
    expect(out).toContain("failed: typecheck, jest");
    expect(out.trim().split("\n").pop()).toBe("tests: 12 passed, 2 failed, 2 skipped");
  }, 60_000);

  it("exits 0 when every part passes", () => {
    const { code, out } = runIn({
      typecheck: say("ok"),
      "api:check": say("api: reports match"),
      lint: say("lint: clean"),
      "test:unit": say("Tests:       3 passed, 3 total"),
      "test:conformance": say("      Tests  2 passed (2)"),
      "test:package": say("test-package: the app ran at both ends"),
    });
    expect({ code, last: out.trim().split("\n").pop() }).toEqual({ code: 0, last: "tests: 5 passed, 0 failed, 0 skipped" });
    expect(out).toContain("every part passed");
  }, 60_000);
});
