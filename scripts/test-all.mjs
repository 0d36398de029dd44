#!/usr/bin/env node
// `npm test`: every part of the suite runs, whatever the others did, one after the other (the
// parts each use the machine's cores): the typecheck, the API report check (api/*.api.md), the linter (Biome), jest (unit, integration, e2e, reliability)
// the checkpointer conformance suite (vitest) and the packed tarball in a fresh app (scripts/test-package.mjs). Their output streams through as it comes; at
// the end one line per part (pass or fail, and how long it took) and a closing count of the tests
// jest and vitest ran. Exits non-zero when any part failed. Plain Node, no dependency.
//
//   node scripts/test-all.mjs [part …]     parts: typecheck, api, lint, jest, conformance, package (default: all)
import { spawn } from "node:child_process";

const PARTS = [
  { name: "typecheck", script: "typecheck" },
  { name: "api", script: "api:check" },
  { name: "lint", script: "lint" },
  { name: "jest", script: "test:unit" },
  { name: "conformance", script: "test:conformance" },
  // The packed tarball in a fresh strict-TypeScript app, at the lowest and latest peers (needs the npm registry or its cache).
  { name: "package", script: "test:package" },
];

const wanted = process.argv.slice(2);
const unknown = wanted.filter((w) => !PARTS.some((p) => p.name === w));
if (unknown.length > 0) {
  console.error(`test-all: unknown part ${unknown.join(", ")}; the parts are ${PARTS.map((p) => p.name).join(", ")}`);
  process.exit(2);
}
const parts = wanted.length > 0 ? PARTS.filter((p) => wanted.includes(p.name)) : PARTS;
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g;

/** Test counts from a runner's summary line: jest's "Tests: 1 failed, 2 passed, 3 total", vitest's "Tests  2 passed | 1 skipped (3)". */
function countsOf(line) {
  const plain = line.replace(ANSI, "").trim();
  if (!/^Tests:?\s/.test(plain)) return null;
  const counts = {};
  for (const m of plain.matchAll(/(\d+) (passed|failed|skipped|todo)/g)) counts[m[2]] = (counts[m[2]] ?? 0) + Number(m[1]);
  return Object.keys(counts).length > 0 ? counts : null;
}

/** Run one part with its output streamed through; resolves with its result. */
function run(part) {
  return new Promise((resolve) => {
    const started = Date.now();
    // Colour as in a terminal when we are in one (the child's output is a pipe, not our TTY).
    const env = process.stdout.isTTY && !process.env.NO_COLOR ? { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? "1" } : process.env;
    const child = spawn(npm, ["run", "--silent", part.script], { stdio: ["inherit", "pipe", "pipe"], env });
    let counts = null;
    let pending = "";
    const scan = (chunk) => {
      pending += chunk.toString();
      const lines = pending.split("\n");
      pending = lines.pop();
      for (const line of lines) counts = countsOf(line) ?? counts;
    };
    child.stdout.on("data", (d) => (process.stdout.write(d), scan(d)));
    child.stderr.on("data", (d) => (process.stderr.write(d), scan(d)));
    const forward = (signal) => child.kill(signal);
    process.on("SIGINT", forward);
    process.on("SIGTERM", forward);
    const done = (code, signal) => {
      process.removeListener("SIGINT", forward);
      process.removeListener("SIGTERM", forward);
      if (pending) counts = countsOf(pending) ?? counts;
      resolve({ ...part, ok: code === 0, code, signal, seconds: (Date.now() - started) / 1000, counts });
    };
    child.on("error", (err) => {
      process.stderr.write(`test-all: cannot run ${part.name}: ${err.message}\n`);
      done(1, null);
    });
    child.on("close", done);
  });
}

const results = [];
for (const part of parts) {
  process.stdout.write(`\n[test-all] ${part.name}: npm run ${part.script}\n`);
  results.push(await run(part));
}

const minutes = (s) => (s >= 60 ? `${Math.floor(s / 60)} min ${Math.round(s % 60)} s` : `${s.toFixed(1)} s`);
const total = { passed: 0, failed: 0, skipped: 0 };
process.stdout.write("\n[test-all] results\n");
for (const r of results) {
  const how = r.ok ? "pass" : `FAIL (${r.signal ? `signal ${r.signal}` : `exit ${r.code}`})`;
  const tests = r.counts ? `  ${Object.entries(r.counts).map(([k, n]) => `${n} ${k}`).join(", ")}` : "";
  process.stdout.write(`[test-all] ${r.name.padEnd(12)} ${how.padEnd(16)} ${minutes(r.seconds).padStart(12)}${tests}\n`);
  for (const k of Object.keys(total)) total[k] += r.counts?.[k] ?? 0;
  // A part that failed without a test failing (the typecheck, a crash) counts as one failure.
  if (!r.ok && !r.counts?.failed) total.failed += 1;
}
const failedParts = results.filter((r) => !r.ok).map((r) => r.name);
process.stdout.write(
  `[test-all] ${failedParts.length === 0 ? "every part passed" : `failed: ${failedParts.join(", ")}`} in ${minutes(results.reduce((s, r) => s + r.seconds, 0))}\n`,
);
process.stdout.write(`tests: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped\n`);
process.exit(failedParts.length === 0 ? 0 : 1);
