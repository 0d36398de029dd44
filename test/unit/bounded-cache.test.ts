import { describe, expect, it } from "@jest/globals";
import { BoundedCache } from "../../src/cache/bounded-cache.js";

describe("BoundedCache", () => {
  it("computes a key once, and drops the oldest eighth when full", () => {
    const cache = new BoundedCache<number, string>(16);
    let computed = 0;
    const get = (k: number) => cache.getOrCompute(k, (x) => (computed++, `v${x}`));
    for (let k = 0; k < 16; k++) expect(get(k)).toBe(`v${k}`);
    expect(get(3)).toBe("v3");
    expect(computed).toBe(16);
    expect(cache.size).toBe(16);
    get(16); // full: keys 0 and 1 (the oldest eighth) go, then 16 is stored
    expect(cache.size).toBe(15);
    get(0);
    expect(computed).toBe(18); // 0 was evicted and computed again
    get(2);
    expect(computed).toBe(18); // 2 survived
    cache.clear();
    expect(cache.size).toBe(0);
  });
});
