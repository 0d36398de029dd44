import { foldText, partsOf, tokenize, type Token } from "./text-tokens.js";

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

interface Lexicon {
  words: Set<string>;
  phrases: string[][];
  stems: string[];
  tails: string[];
  contains: string[];
  cjk: string[];
  /** One-deletion variants of the long Latin-script words → the word. */
  deletions: Map<string, string>;
}

/** Words this long or longer match with one typo. */
const FUZZY_MIN = 7;
/** Real words one edit away from a cue word: never typos of it. */
const NOT_TYPOS = new Set(["passport", "passports", "passwords", "keyword", "keywords", "crossword", "crosswords", "password"]);

function deletionsOf(word: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < word.length; i++) out.push(word.slice(0, i) + word.slice(i + 1));
  return out;
}

const isCjk = (s: string) => /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u.test(s);

/** Build a matcher for `entries` (folded once here). */
export function compileLexicon(entries: readonly string[]): Lexicon {
  const lex: Lexicon = { words: new Set(), phrases: [], stems: [], tails: [], contains: [], cjk: [], deletions: new Map() };
  for (const raw of entries) {
    const entry = foldText(raw.trim());
    if (isCjk(entry)) {
      lex.cjk.push(entry.replace(/\s+/g, ""));
      continue;
    }
    if (entry.startsWith("*") && entry.endsWith("*") && entry.length > 2) lex.contains.push(entry.slice(1, -1));
    else if (entry.startsWith("*")) {
      lex.tails.push(entry.slice(1));
      lex.words.add(entry.slice(1));
    } else if (entry.endsWith("*")) lex.stems.push(entry.slice(0, -1));
    else if (/\s/.test(entry)) lex.phrases.push(entry.split(/\s+/));
    else {
      lex.words.add(entry);
      if (entry.length >= FUZZY_MIN && /^[a-z'-]+$/.test(entry)) {
        lex.deletions.set(entry, entry);
        for (const d of deletionsOf(entry)) if (!lex.deletions.has(d)) lex.deletions.set(d, entry);
      }
    }
  }
  return lex;
}

function wordMatches(lex: Lexicon, word: string): boolean {
  if (lex.words.has(word)) return true;
  for (const stem of lex.stems) if (word.startsWith(stem)) return true;
  for (const tail of lex.tails) if (word.length > tail.length && word.endsWith(tail)) return true;
  for (const part of lex.contains) if (word.includes(part)) return true;
  if (word.length >= FUZZY_MIN - 1 && lex.deletions.size > 0 && !NOT_TYPOS.has(word) && /^[a-z'-]+$/.test(word)) {
    if (lex.deletions.has(word)) return true;
    for (const d of deletionsOf(word)) if (d.length >= FUZZY_MIN - 1 && lex.deletions.has(d)) return true;
  }
  return false;
}

/** Every place a lexicon entry occurs in `text`, in order. */
export function findCues(text: string, lex: Lexicon): CueHit[] {
  const { tokens } = tokenize(text);
  const hits: CueHit[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.cjk) {
      for (const entry of lex.cjk) {
        for (let at = t.folded.indexOf(entry); at >= 0; at = t.folded.indexOf(entry, at + 1)) {
          hits.push({ start: t.start + at, end: t.start + at + entry.length, first: i, last: i + 1 });
        }
      }
      continue;
    }
    const phrase = phraseAt(lex, tokens, i);
    if (phrase > 0) {
      hits.push({ start: t.start, end: tokens[i + phrase - 1].end, first: i, last: i + phrase });
      continue;
    }
    if (wordMatches(lex, t.folded) || (t.folded.length > 3 && partsOf(t.folded).some((p) => p !== t.folded && wordMatches(lex, p)))) {
      hits.push({ start: t.start, end: t.end, first: i, last: i + 1 });
    }
  }
  return hits;
}

function phraseAt(lex: Lexicon, tokens: readonly Token[], i: number): number {
  for (const words of lex.phrases) {
    if (i + words.length > tokens.length) continue;
    let ok = true;
    for (let k = 0; k < words.length && ok; k++) ok = tokens[i + k].folded === words[k] || (k === words.length - 1 && tokens[i + k].folded === `${words[k]}s`);
    // "mot de passe" tokenised as one word with joiners ("mot-de-passe") is a compound: handled by parts.
    if (ok) return words.length;
  }
  return 0;
}

/** True when any entry of `lex` occurs in `text`. */
export function hasCue(text: string, lex: Lexicon): boolean {
  return findCues(text, lex).length > 0;
}
