#!/usr/bin/env node
// Write test/suite-durations.json from a jest `--json` result: each suite's run time in seconds,
// read by test/helpers/slowest-first-sequencer.js to start the slowest suites first.
//
//   node scripts/record-suite-durations.mjs <jest-result.json>
import { readFileSync, writeFileSync } from "node:fs";
import { relative, resolve } from "node:path";

const input = process.argv[2];
if (!input) {
  console.error("usage: node scripts/record-suite-durations.mjs <jest --json output file>");
  process.exit(2);
}
const root = resolve(new URL("..", import.meta.url).pathname);
const result = JSON.parse(readFileSync(input, "utf8"));
const seconds = {};
for (const suite of result.testResults ?? []) {
  const start = suite.perfStats?.start ?? suite.startTime;
  const end = suite.perfStats?.end ?? suite.endTime;
  if (typeof start !== "number" || typeof end !== "number") continue;
  // Named from its `test/` folder, so a result recorded in another checkout of the repo fits too.
  const name = suite.name.split("\\").join("/");
  seconds[name.slice(name.lastIndexOf("/test/") + 1)] = Math.round((end - start) / 100) / 10;
}
const sorted = Object.fromEntries(Object.entries(seconds).sort(([a], [b]) => a.localeCompare(b)));
const total = Object.values(sorted).reduce((s, v) => s + v, 0);
const out = resolve(root, "test/suite-durations.json");
writeFileSync(out, `${JSON.stringify({ recorded: new Date().toISOString().slice(0, 10), suites: Object.keys(sorted).length, seconds: sorted }, null, 1)}\n`);
console.log(`wrote ${relative(process.cwd(), out)}: ${Object.keys(sorted).length} suites, ${Math.round(total)} s of suite time`);
