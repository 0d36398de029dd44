import { describe, expect, it } from "@jest/globals";
// @ts-expect-error: a plain-JS jest helper without type declarations
import { slowestFirst } from "../helpers/slowest-first-sequencer.js";

describe("slowest-first test order", () => {
  const size: Record<string, number> = { "a.test.ts": 100, "b.test.ts": 900, "c.test.ts": 50, "new-small.test.ts": 10, "new-big.test.ts": 5000 };
  const order = (seconds: Record<string, number>) =>
    (slowestFirst(Object.keys(size), seconds, (t: string) => t, (t: string) => size[t]) as string[]);

  it("starts recorded suites slowest first, whatever their file size", () => {
    expect(order({ "a.test.ts": 420, "b.test.ts": 3, "c.test.ts": 60, "new-small.test.ts": 1, "new-big.test.ts": 2 })).toEqual([
      "a.test.ts", "c.test.ts", "b.test.ts", "new-big.test.ts", "new-small.test.ts",
    ]);
  });

  it("runs suites missing from the record first, largest file first", () => {
    expect(order({ "a.test.ts": 420, "b.test.ts": 3, "c.test.ts": 60 })).toEqual(["new-big.test.ts", "new-small.test.ts", "a.test.ts", "c.test.ts", "b.test.ts"]);
  });

  it("falls back to file size alone without a record", () => {
    expect(order({})).toEqual(["new-big.test.ts", "b.test.ts", "a.test.ts", "c.test.ts", "new-small.test.ts"]);
  });
});
