/**
 * Jest's order for a clean clone: the suites that took longest in a recorded run start first, so
 * the two workers finish together instead of one running the 7-minute load test alone at the end.
 * Jest's own sequencer orders by the durations in its local cache, which a fresh CI checkout does
 * not have (it then falls back to file size, and the load test is a small file).
 *
 * Order: suites not in the record (new ones: their cost is unknown) by file size, then recorded
 * suites slowest first. Regenerate the record after suites change:
 *   NODE_OPTIONS=--experimental-vm-modules npx jest --json --outputFile=.tmp/jest.json
 *   node scripts/record-suite-durations.mjs .tmp/jest.json
 */
import { readFileSync, statSync } from "node:fs";
import { relative } from "node:path";
import TestSequencer from "@jest/test-sequencer";

const RECORD = new URL("../suite-durations.json", import.meta.url);

function recorded() {
  try {
    return JSON.parse(readFileSync(RECORD, "utf8")).seconds ?? {};
  } catch {
    return {};
  }
}

const BaseSequencer = TestSequencer.default ?? TestSequencer;

/**
 * The order itself: suites without a recorded time first (largest file first), then recorded
 * suites slowest first. `keyOf` names a suite as the record does; `sizeOf` gives its file size.
 */
export function slowestFirst(tests, seconds, keyOf, sizeOf) {
  return [...tests].sort((a, b) => {
    const sa = seconds[keyOf(a)];
    const sb = seconds[keyOf(b)];
    if (sa === undefined || sb === undefined) {
      if (sa !== sb) return sa === undefined ? -1 : 1;
      return sizeOf(b) - sizeOf(a);
    }
    return sb - sa;
  });
}

export default class SlowestFirstSequencer extends BaseSequencer {
  sort(tests) {
    const keyOf = (test) => relative(test.context.config.rootDir, test.path).split("\\").join("/");
    const sizeOf = (test) => {
      try {
        return statSync(test.path).size;
      } catch {
        return 0;
      }
    };
    return slowestFirst(tests, recorded(), keyOf, sizeOf);
  }
}
