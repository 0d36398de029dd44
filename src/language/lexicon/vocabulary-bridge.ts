/**
 * Query expansion through WordNet, so a question finds a memory that says the same thing in other
 * words ("my kid's party" → "daughter", "child"): each content word of the query brings the
 * words of its senses' synsets (synonyms), of the synsets one step up or down (hypernyms,
 * hyponyms), two steps along the same direction, and its derivations ("hiking" → "hiker"), each
 * with a weight below 1 (an exact query word counts 1). Only single-word lemmas are kept, so each
 * term is one lexeme for the full-text search.
 */
import { BoundedCache } from "../../cache/bounded-cache.js";
import { PARTS_OF_SPEECH, WordNet } from "./wordnet.js";
import type { Synset } from "./synset.js";

/** One expansion term: a word to match, and the share of an exact match it is worth. */
export interface BridgeTerm {
  term: string;
  weight: number;
}

/** How much each relation is worth, relative to the bridge's weight (a synonym counts 1). */
export const RELATION_WEIGHTS = {
  synonym: 1,
  derivation: 0.9,
  similar: 0.8,
  hypernym: 0.7,
  hyponym: 0.7,
  /** Two steps in one direction (grandparent or grandchild synsets). */
  twoSteps: 0.4,
} as const;

export interface VocabularyBridgeOptions {
  /** The weight of a synonym relative to an exact query word (default 0.3). */
  weight?: number;
  /** Senses of a word read per part of speech, most frequent first (default 3). */
  sensesPerPos?: number;
  /** Terms a query word brings at most, best first (default 16). */
  termsPerWord?: number;
  /** Terms a query brings at most (default 64). */
  maxTerms?: number;
  /** Synsets of one relation read per synset at most (a general synset has hundreds of hyponyms; default 12). */
  maxRelated?: number;
  /** Relation weights (default {@link RELATION_WEIGHTS}; 0 leaves a relation out). */
  relations?: Partial<Record<keyof typeof RELATION_WEIGHTS, number>>;
  /** Synsets read for one word at most, whatever its senses and relations (default 160): the cost bound of a new word. */
  maxSynsetsPerWord?: number;
}

const SINGLE_WORD = /^[a-z]+$/;

/**
 * @example
 * const bridge = new VocabularyBridge();
 * bridge.expand(["kid", "party"]); // [{ term: "child", weight: 0.3 }, …]
 */
export class VocabularyBridge {
  readonly weight: number;
  private readonly sensesPerPos: number;
  private readonly termsPerWord: number;
  private readonly maxTerms: number;
  private readonly maxRelated: number;
  private readonly maxSynsetsPerWord: number;
  private readonly relations: Record<keyof typeof RELATION_WEIGHTS, number>;
  private readonly perWord = new BoundedCache<string, readonly BridgeTerm[]>(20_000);

  constructor(
    private readonly wordnet: WordNet = sharedWordNet(),
    options: VocabularyBridgeOptions = {},
  ) {
    this.weight = options.weight ?? 0.3;
    this.sensesPerPos = options.sensesPerPos ?? 3;
    this.termsPerWord = options.termsPerWord ?? 16;
    this.maxTerms = options.maxTerms ?? 64;
    this.maxRelated = options.maxRelated ?? 12;
    this.maxSynsetsPerWord = options.maxSynsetsPerWord ?? 160;
    this.relations = { ...RELATION_WEIGHTS, ...options.relations };
  }

  /**
   * Expansion terms of a query's words (lower-case content words), none of them a query word: each
   * word's best term in turn, then each one's second best … until maxTerms, so that a word with many
   * close synonyms does not crowd out the others; a term reached twice keeps its best weight.
   * Unknown words add nothing.
   */
  expand(words: readonly string[]): BridgeTerm[] {
    if (this.weight <= 0 || this.maxTerms <= 0) return [];
    const own = new Set(words);
    const lists: (readonly BridgeTerm[])[] = [];
    for (const word of own) {
      if (!SINGLE_WORD.test(word) || word.length < 3) continue;
      const terms = this.perWord.getOrCompute(word, (w) => this.termsOf(w)).filter((t) => !own.has(t.term));
      if (terms.length > 0) lists.push(terms);
    }
    const best = new Map<string, number>();
    for (let rank = 0; best.size < this.maxTerms && lists.some((l) => rank < l.length); rank++) {
      for (const list of lists) {
        const t = list[rank];
        if (t === undefined) continue;
        const before = best.get(t.term);
        if (before === undefined) {
          if (best.size >= this.maxTerms) break;
          best.set(t.term, t.weight);
        } else if (t.weight > before) best.set(t.term, t.weight);
      }
    }
    return [...best].map(([term, weight]) => ({ term, weight }));
  }

  /**
   * One word's terms, best first, at most termsPerWord (the word itself and its base forms
   * excluded). Senses in frequency order, and within a sense the nearer relations first, so that
   * when the read budget ends the traversal the closest terms are already in.
   */
  private termsOf(word: string): readonly BridgeTerm[] {
    const found = new Map<string, number>();
    const self = new Set<string>([word]);
    let budget = this.maxSynsetsPerWord;
    const read = (offset: number, pos: Synset["pos"]): Synset | null => {
      if (budget <= 0) return null;
      budget--;
      return this.wordnet.synset(offset, pos);
    };
    const add = (synset: Synset | null, weight: number, only?: number) => {
      synset?.words.forEach((w, i) => {
        if (only !== undefined && only !== i + 1) return;
        if (!SINGLE_WORD.test(w) || self.has(w)) return;
        if ((found.get(w) ?? 0) < weight) found.set(w, weight);
      });
    };
    const senses: { synset: Synset; lemma: string; weight: number }[] = [];
    for (const pos of PARTS_OF_SPEECH) {
      const lemma = this.wordnet.lemmaOf(word, pos);
      if (lemma === null) continue;
      self.add(lemma);
      this.wordnet.offsetsOf(lemma, pos).slice(0, this.sensesPerPos).forEach((offset, rank) => {
        const synset = read(offset, pos);
        // Less frequent senses count less: 1, 0.75, 0.6 …
        if (synset) senses.push({ synset, lemma, weight: this.weight / (1 + rank / 3) });
      });
    }
    for (const { synset, weight } of senses) add(synset, weight * this.relations.synonym);
    const near: { synset: Synset; weight: number; symbols: ReadonlySet<string> }[] = [];
    for (const { synset, lemma, weight } of senses) {
      const at = synset.words.indexOf(lemma) + 1;
      for (const p of synset.pointers) {
        // A lexical pointer (source ≠ 0) belongs to one word of the synset: only this lemma's count.
        if (p.source !== 0 && p.source !== at) continue;
        const relation = p.symbol === "+" ? this.relations.derivation : p.symbol === "&" || p.symbol === "\\" ? this.relations.similar : 0;
        if (relation > 0) add(read(p.offset, p.pos), weight * relation, p.target || undefined);
      }
      for (const [symbols, relation] of [[HYPERNYMS, this.relations.hypernym], [HYPONYMS, this.relations.hyponym]] as const) {
        if (relation <= 0) continue;
        for (const next of this.related(synset, symbols, read)) {
          add(next, weight * relation);
          near.push({ synset: next, weight, symbols });
        }
      }
    }
    if (this.relations.twoSteps > 0) for (const { synset, weight, symbols } of near) for (const far of this.related(synset, symbols, read)) add(far, weight * this.relations.twoSteps);
    return [...found]
      .map(([term, weight]) => ({ term, weight }))
      .sort((a, b) => b.weight - a.weight || (a.term < b.term ? -1 : a.term > b.term ? 1 : 0))
      .slice(0, this.termsPerWord);
  }

  private related(synset: Synset, symbols: ReadonlySet<string>, read: (offset: number, pos: Synset["pos"]) => Synset | null): Synset[] {
    const out: Synset[] = [];
    for (const p of synset.pointers) {
      if (out.length >= this.maxRelated) break;
      if (!symbols.has(p.symbol)) continue;
      const next = read(p.offset, p.pos);
      if (!next) break;
      out.push(next);
    }
    return out;
  }
}

const HYPERNYMS: ReadonlySet<string> = new Set(["@", "@i"]);
const HYPONYMS: ReadonlySet<string> = new Set(["~", "~i"]);

let shared: WordNet | undefined;

/** One reader per process (its index buffers and synset cache are shared by every bridge). */
export function sharedWordNet(): WordNet {
  shared ??= new WordNet();
  return shared;
}
