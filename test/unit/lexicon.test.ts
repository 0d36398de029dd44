import { readFileSync } from "node:fs";
import { join } from "node:path";
import { RELATION_WEIGHTS, VocabularyBridge, WordNet, wordnetDictPath } from "../../src/language/lexicon/index.js";
import { SortedIndex } from "../../src/language/lexicon/sorted-index.js";
import { baseForms } from "../../src/language/lexicon/morphy.js";
import { parseSynset } from "../../src/language/lexicon/synset.js";

// One reader for the file: its index buffers load once.
const wordnet = new WordNet();
afterAll(() => wordnet.close());

/** A bridge over `wordnet` that counts the synsets it reads. */
function countingBridge(options: ConstructorParameters<typeof VocabularyBridge>[1] = {}) {
  let reads = 0;
  const counting = Object.create(wordnet) as WordNet;
  counting.synset = (offset, pos) => {
    reads++;
    return wordnet.synset(offset, pos);
  };
  return { bridge: new VocabularyBridge(counting, options), reads: () => reads };
}

describe("WordNet files", () => {
  it("finds index lines by binary search, first, last and missing", () => {
    const index = new SortedIndex(readFileSync(join(wordnetDictPath(), "index.adv")));
    const lines = readFileSync(join(wordnetDictPath(), "index.adv"), "latin1").split("\n").filter((l) => l && !l.startsWith(" "));
    const first = lines[0].split(" ")[0];
    const last = lines[lines.length - 1].split(" ")[0];
    expect(index.line(first)).toBe(lines[0]);
    expect(index.line(last)).toBe(lines[lines.length - 1]);
    expect(index.line("quickly")).toMatch(/^quickly r /);
    expect(index.line("quickl")).toBeNull();
    expect(index.line("")).toBeNull();
    expect(index.line("zzzzzz")).toBeNull();
  });

  it("parses a data line: words, adjective markers dropped, lexical pointers", () => {
    const s = parseSynset("01234567 00 s 02 big(a) 0 large 0 002 & 01382086 a 0000 + 04928903 n 0101 | gloss");
    expect(s).toEqual({
      offset: 1234567,
      pos: "a",
      words: ["big", "large"],
      pointers: [
        { symbol: "&", offset: 1382086, pos: "a", source: 0, target: 0 },
        { symbol: "+", offset: 4928903, pos: "n", source: 1, target: 1 },
      ],
    });
  });

  it("detaches inflections by WordNet's rules, the word itself first", () => {
    expect(baseForms("daughters", "n")).toEqual(["daughters", "daughter"]);
    expect(baseForms("berries", "n")).toContain("berry");
    expect(baseForms("hiking", "v")).toEqual(["hiking", "hike", "hik"]);
    expect(baseForms("quickly", "r")).toEqual(["quickly"]);
  });

  it("reads synsets and their relations by lemma", () => {
    const [daughter] = wordnet.synsetsOf("daughters", "n");
    expect(daughter.words).toContain("daughter");
    const up = daughter.pointers.filter((p) => p.symbol === "@").map((p) => wordnet.synset(p.offset, p.pos).words);
    expect(up.flat()).toContain("female_offspring");
    expect(wordnet.synsetsOf("zzqxv", "n")).toEqual([]);
    expect(wordnet.lemmaOf("zzqxv", "v")).toBeNull();
  });
});

describe("VocabularyBridge", () => {
  const bridge = new VocabularyBridge(wordnet);
  const termsOf = (words: string[]) => new Map(bridge.expand(words).map((t) => [t.term, t.weight]));

  it("brings synonyms, hypernyms, hyponyms and derivations", () => {
    expect(termsOf(["kid"]).has("child")).toBe(true); // synonym
    expect(termsOf(["beagle"]).has("hound")).toBe(true); // hypernym
    expect(termsOf(["hound"]).has("beagle")).toBe(true); // hyponym
    expect(termsOf(["daughter"]).has("child")).toBe(true); // two steps up
    expect(termsOf(["hiking"]).has("hiker")).toBe(true); // derivation
  });

  it("weighs every term below an exact word, nearer relations higher", () => {
    const terms = bridge.expand(["kid", "beagle", "hiking", "teacher"]);
    expect(terms.length).toBeGreaterThan(0);
    for (const t of terms) {
      expect(t.weight).toBeGreaterThan(0);
      expect(t.weight).toBeLessThanOrEqual(bridge.weight);
      expect(t.weight).toBeLessThan(1);
    }
    expect(termsOf(["kid"]).get("child")).toBe(bridge.weight * RELATION_WEIGHTS.synonym);
    expect(termsOf(["daughter"]).get("child")!).toBeLessThan(termsOf(["kid"]).get("child")!);
    const scaled = new VocabularyBridge(wordnet, { weight: 0.2 });
    expect(new Map(scaled.expand(["kid"]).map((t) => [t.term, t.weight])).get("child")).toBeCloseTo(0.2, 12);
  });

  it("adds nothing for unknown words, stop-length words, numbers, or weight 0", () => {
    expect(bridge.expand(["zzqxv", "qwrtp"])).toEqual([]);
    expect(bridge.expand(["ox".slice(0, 2), "42", "é"])).toEqual([]);
    expect(bridge.expand([])).toEqual([]);
    expect(new VocabularyBridge(wordnet, { weight: 0 }).expand(["kid"])).toEqual([]);
  });

  it("never returns a query word, and only single lowercase words", () => {
    const terms = bridge.expand(["kid", "child"]);
    expect(terms.map((t) => t.term)).not.toContain("kid");
    expect(terms.map((t) => t.term)).not.toContain("child");
    for (const t of terms) expect(t.term).toMatch(/^[a-z]+$/);
  });

  it("is deterministic and bounded: terms per word and per query, synsets read per word", () => {
    const general = ["person", "thing", "make", "take", "good", "place", "time", "work", "give", "run", "set", "line"];
    const { bridge: counted, reads } = countingBridge({ termsPerWord: 5, maxTerms: 20, maxSynsetsPerWord: 50 });
    const terms = counted.expand(general);
    expect(terms.length).toBeLessThanOrEqual(20);
    expect(reads()).toBeLessThanOrEqual(general.length * 50);
    for (const w of general) expect(counted.expand([w]).length).toBeLessThanOrEqual(5);
    // A word's terms are computed once: asking again reads nothing.
    const before = reads();
    expect(counted.expand(general)).toEqual(terms);
    expect(reads()).toBe(before);
  });
});
