/**
 * A process-wide memo with a size bound: when full, the oldest eighth of its entries go at once
 * (a Map iterates in insertion order), so a long-running process never grows it without limit and
 * eviction costs nothing per lookup.
 *
 * @example
 * const lengths = new BoundedCache<string, number>(1_000);
 * lengths.getOrCompute("hello", (s) => s.length); // 5, computed once
 */
export class BoundedCache<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(private readonly maxEntries: number) {}

  /** The cached value for `key`, or `compute(key)` stored first. */
  getOrCompute(key: K, compute: (key: K) => V): V {
    const hit = this.entries.get(key);
    if (hit !== undefined) return hit;
    const value = compute(key);
    if (this.entries.size >= this.maxEntries) {
      let drop = Math.max(1, this.maxEntries >> 3);
      for (const k of this.entries.keys()) {
        this.entries.delete(k);
        if (--drop === 0) break;
      }
    }
    this.entries.set(key, value);
    return value;
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
