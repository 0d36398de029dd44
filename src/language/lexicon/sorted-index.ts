/**
 * Lookup in a WordNet index file (`index.noun` …) held as one Buffer: the lines are sorted by
 * their first field in byte order, so a lemma is found by binary search without parsing the file
 * into objects (the four index files are 6.3 MB as bytes, several times that as a Map of strings).
 */

const NEWLINE = 0x0a;
const SPACE = 0x20;

export class SortedIndex {
  /** Byte offset of the first entry (the license header lines, which start with spaces, come first). */
  private readonly start: number;

  constructor(private readonly bytes: Buffer) {
    let at = 0;
    while (at < bytes.length && bytes[at] === SPACE) {
      const end = bytes.indexOf(NEWLINE, at);
      at = end < 0 ? bytes.length : end + 1;
    }
    this.start = at;
  }

  /**
   * The line whose first field is `key` (without its newline), or null.
   *
   * @example
   * new SortedIndex(readFileSync(".../index.noun")).line("beagle"); // "beagle n 1 1 @ 1 0 02091016  "
   */
  line(key: string): string | null {
    const needle = Buffer.from(`${key} `, "latin1");
    let lo = this.start;
    let hi = this.bytes.length;
    // Invariant: the line, if any, starts in [lo, hi). Each step looks at the line holding `mid`.
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const lineStart = this.bytes.lastIndexOf(NEWLINE, mid - 1) + 1;
      const from = Math.max(lineStart, lo);
      const nl = this.bytes.indexOf(NEWLINE, from);
      const lineEnd = nl < 0 ? this.bytes.length : nl;
      const cmp = this.compare(needle, from, lineEnd);
      if (cmp === 0) return this.bytes.toString("latin1", from, lineEnd);
      if (cmp < 0) hi = from;
      else lo = lineEnd + 1;
    }
    return null;
  }

  /** Order of `needle` (a key and a space) against the line's prefix of the same length. */
  private compare(needle: Buffer, from: number, lineEnd: number): number {
    const n = Math.min(needle.length, lineEnd - from);
    for (let i = 0; i < n; i++) {
      const d = needle[i] - this.bytes[from + i];
      if (d !== 0) return d;
    }
    return needle.length <= lineEnd - from ? 0 : 1;
  }
}
