import { foldText, partsOf, tokenize, } from "./text-tokens.js";

/**
 * Cue-word matching over a lexicon (see lexicon/credential-words.ts for the entry syntax): whole
 * words, multi-word entries, stems, compound tails, CJK substrings, and one typo on long words
 * ("pasword", "contrasenha", "passwrod") — by the symmetric-deletion method: a word within one edit
 * of an entry shares a one-deletion variant with it.
 */

export interface CueHit {
  /** Offsets in the original text. */
  start: number;
  end: number;
  /** Index of the first and one past the last token the cue covers. */
  first: number;
  last: number;
}

/** A compiled lexicon: its id in the registry every text is matched against in one pass. */
export interface Lexicon {
  readonly id: number;
}

interface Matchers {
  words: Set<string>;
  stems: string[];
  tails: string[];
  contains: string[];
  /** One-deletion variants of the long Latin-script words → the word. */
  deletions: Map<string, string>;
}

/** Words this long or longer match with one typo. */
const FUZZY_MIN = 7;
/** Real words one edit away from a cue word: never typos of it. */
const NOT_TYPOS = new Set(["passport", "passports", "keyword", "keywords", "crossword", "crosswords", "kennwert", "kennwerte"]);
const SEEN_LIMIT = 50_000;

const matchers: Matchers[] = [];
/** First word of a multi-word entry → the entries (lexicon id, words). */
const phrases = new Map<string, Array<{ id: number; words: string[] }>>();
const cjkEntries: Array<{ id: number; entry: string }> = [];
/** Word → ids of the lexicons with a one-word entry matching it (words repeat across texts). */
const seen = new Map<string, readonly number[]>();

function deletionsOf(word: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < word.length; i++) out.push(word.slice(0, i) + word.slice(i + 1));
  return out;
}

const isCjk = (s: string) => /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u.test(s);

/**
 * Build a matcher for `entries` (folded once here) and register it. `fuzzy`: long words also match
 * with one typo — for credential words, where a typo still announces a secret; not for
 * special-category words, where a near word is often another word ("christin" / "christian").
 */
export function compileLexicon(entries: readonly string[], options: { fuzzy?: boolean } = {}): Lexicon {
  const id = matchers.length;
  const m: Matchers = { words: new Set(), stems: [], tails: [], contains: [], deletions: new Map() };
  matchers.push(m);
  for (const raw of entries) {
    const entry = foldText(raw.trim());
    if (entry.length === 0) continue;
    if (isCjk(entry)) {
      cjkEntries.push({ id, entry: entry.replace(/\s+/g, "") });
      continue;
    }
    if (entry.startsWith("*") && entry.endsWith("*") && entry.length > 2) m.contains.push(entry.slice(1, -1));
    else if (entry.startsWith("*")) {
      m.tails.push(entry.slice(1));
      m.words.add(entry.slice(1));
    } else if (entry.endsWith("*")) m.stems.push(entry.slice(0, -1));
    else if (/\s/.test(entry)) {
      const words = entry.split(/\s+/);
      const list = phrases.get(words[0]) ?? [];
      list.push({ id, words });
      phrases.set(words[0], list);
    } else {
      m.words.add(entry);
      if (options.fuzzy === true && entry.length >= FUZZY_MIN && /^[a-z'-]+$/.test(entry)) {
        m.deletions.set(entry, entry);
        for (const d of deletionsOf(entry)) if (!m.deletions.has(d)) m.deletions.set(d, entry);
      }
    }
  }
  seen.clear();
  textHits.clear();
  lastText = null;
  lastHits = null;
  return { id };
}

function matchesOne(m: Matchers, word: string, dels: string[] | null): boolean {
  if (m.words.has(word)) return true;
  for (const stem of m.stems) if (word.startsWith(stem)) return true;
  for (const tail of m.tails) if (word.length > tail.length && word.endsWith(tail)) return true;
  for (const part of m.contains) if (word.includes(part)) return true;
  if (dels !== null && m.deletions.size > 0) {
    if (m.deletions.has(word)) return true;
    for (const d of dels) if (m.deletions.has(d)) return true;
  }
  return false;
}

/** Ids of the lexicons a word matches (memoised). */
function idsOf(word: string): readonly number[] {
  const known = seen.get(word);
  if (known !== undefined) return known;
  const fuzzy = word.length >= FUZZY_MIN - 1 && !NOT_TYPOS.has(word) && /^[a-z'-]+$/.test(word);
  const dels = fuzzy ? deletionsOf(word).filter((d) => d.length >= FUZZY_MIN - 1) : null;
  const ids: number[] = [];
  for (let id = 0; id < matchers.length; id++) if (matchesOne(matchers[id], word, dels)) ids.push(id);
  if (seen.size >= SEEN_LIMIT) seen.clear();
  seen.set(word, ids);
  return ids;
}

/** Hits of every lexicon in one text, computed in one pass and kept for the last few texts. */
const textHits = new Map<string, CueHit[][]>();
const TEXT_HITS_KEPT = 4;

let lastText: string | null = null;
let lastHits: CueHit[][] | null = null;

function allHits(text: string): CueHit[][] {
  // The same string again (the usual case): no hashing of a long text.
  if (lastText === text && lastHits !== null) return lastHits;
  const cached = textHits.get(text);
  if (cached) {
    lastText = text;
    lastHits = cached;
    return cached;
  }
  const { tokens } = tokenize(text);
  const hits: CueHit[][] = new Array(matchers.length);
  const add = (id: number, hit: CueHit) => (hits[id] ??= []).push(hit);
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.cjk) {
      for (const { id, entry } of cjkEntries) {
        for (let at = t.folded.indexOf(entry); at >= 0; at = t.folded.indexOf(entry, at + 1)) add(id, { start: t.start + at, end: t.start + at + entry.length, first: i, last: i + 1 });
      }
      continue;
    }
    let inPhrase: number[] | null = null;
    for (const { id, words } of phrases.get(t.folded) ?? []) {
      if (i + words.length > tokens.length) continue;
      let ok = true;
      for (let k = 1; k < words.length && ok; k++) ok = tokens[i + k].folded === words[k] || (k === words.length - 1 && tokens[i + k].folded === `${words[k]}s`);
      if (ok) {
        add(id, { start: t.start, end: tokens[i + words.length - 1].end, first: i, last: i + words.length });
        (inPhrase ??= []).push(id);
      }
    }
    let ids = idsOf(t.folded);
    // Compound parts count too: "wlan-passwort", "api_key".
    if (t.folded.length > 3 && /['’_-]/.test(t.folded)) {
      const all = new Set(ids);
      for (const p of partsOf(t.folded)) if (p !== t.folded) for (const id of idsOf(p)) all.add(id);
      ids = [...all];
    }
    for (const id of ids) if (inPhrase === null || !inPhrase.includes(id)) add(id, { start: t.start, end: t.end, first: i, last: i + 1 });
  }
  if (textHits.size >= TEXT_HITS_KEPT) textHits.delete(textHits.keys().next().value!);
  textHits.set(text, hits);
  lastText = text;
  lastHits = hits;
  return hits;
}

/** Every place a lexicon entry occurs in `text`, in order of tokens. */
const NONE: CueHit[] = [];

/** True when one folded word matches a one-word entry of `lex`. */
export function wordIsCue(folded: string, lex: Lexicon): boolean {
  return idsOf(folded).includes(lex.id);
}

export function findCues(text: string, lex: Lexicon): CueHit[] {
  return allHits(text)[lex.id] ?? NONE;
}

/** Index of the first hit whose `key` is ≥ `value` (hits are in token order). */
function lowerBound(hits: readonly CueHit[], value: number, key: (h: CueHit) => number): number {
  let lo = 0;
  let hi = hits.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (key(hits[mid]) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Hits of `lex` in `text` within [from, to) (characters). */
export function cuesWithin(text: string, lex: Lexicon, from: number, to: number): CueHit[] {
  const hits = findCues(text, lex);
  const out: CueHit[] = [];
  for (let i = lowerBound(hits, from, (h) => h.start); i < hits.length && hits[i].start < to; i++) if (hits[i].end <= to) out.push(hits[i]);
  return out;
}

/** Hits of `lex` in `text` whose tokens lie within [first, last). */
export function cuesInTokens(text: string, lex: Lexicon, first: number, last: number): CueHit[] {
  const hits = findCues(text, lex);
  const out: CueHit[] = [];
  for (let i = lowerBound(hits, first, (h) => h.first); i < hits.length && hits[i].first < last; i++) if (hits[i].last <= last) out.push(hits[i]);
  return out;
}

/** True when any entry of `lex` occurs in `text`. */
export function hasCue(text: string, lex: Lexicon): boolean {
  return findCues(text, lex).length > 0;
}
