import { validateMnemonic } from "@scure/bip39";
import { wordlist as czech } from "@scure/bip39/wordlists/czech";
import { wordlist as english } from "@scure/bip39/wordlists/english";
import { wordlist as french } from "@scure/bip39/wordlists/french";
import { wordlist as italian } from "@scure/bip39/wordlists/italian";
import { wordlist as japanese } from "@scure/bip39/wordlists/japanese";
import { wordlist as korean } from "@scure/bip39/wordlists/korean";
import { wordlist as portuguese } from "@scure/bip39/wordlists/portuguese";
import { wordlist as simplifiedChinese } from "@scure/bip39/wordlists/simplified-chinese";
import { wordlist as spanish } from "@scure/bip39/wordlists/spanish";
import { wordlist as traditionalChinese } from "@scure/bip39/wordlists/traditional-chinese";
import type { Detector } from "./categories.js";
import { compileLexicon, findCues } from "./cue-words.js";
import { CREDENTIAL_WORDS } from "./lexicon/credential-words.js";

/**
 * BIP39 recovery phrases, with the ten official wordlists (`@scure/bip39`): a run of 12, 15, 18,
 * 21 or 24 words of one list, written with spaces, commas, line breaks or numbering ("1. glance
 * 2. town …"), whose checksum is valid. A list of wordlist words with a wrong checksum (a shopping
 * list, a sentence of common words) stays storable — unless the text names a seed or recovery
 * phrase, in which case 12 or more wordlist words in a row are refused whatever their checksum.
 * A random run of 12 wordlist words passes the 4-bit checksum 1 time in 16: see docs/extraction.md.
 */

const LISTS: ReadonlyArray<{ words: readonly string[]; joiner: string }> = [
  { words: english, joiner: " " },
  { words: spanish, joiner: " " },
  { words: french, joiner: " " },
  { words: italian, joiner: " " },
  { words: portuguese, joiner: " " },
  { words: czech, joiner: " " },
  { words: japanese, joiner: "\u3000" },
  { words: korean, joiner: " " },
  { words: simplifiedChinese, joiner: " " },
  { words: traditionalChinese, joiner: " " },
];

const nfkd = (s: string) => s.normalize("NFKD");
/** NFKD word → indexes of the lists that hold it. */
let index: Map<string, number[]> | null = null;
function wordIndex(): Map<string, number[]> {
  if (index) return index;
  index = new Map();
  LISTS.forEach((list, i) => {
    for (const w of list.words) {
      const key = nfkd(w);
      const at = index!.get(key);
      if (at) at.push(i);
      else index!.set(key, [i]);
    }
  });
  return index;
}

const SEED_CUES = compileLexicon(CREDENTIAL_WORDS.seed, { fuzzy: true });
const LENGTHS = [24, 21, 18, 15, 12];

interface Word {
  key: string;
  start: number;
  end: number;
}

/** Words of the text, numbering and separators dropped; a gap is any other token. */
function wordsOf(text: string): Array<Word | null> {
  const out: Array<Word | null> = [];
  const re = /[\p{L}\p{M}]+|\d+[.)]?|[^\s\p{L}\p{M}\d,;、，]+/gu;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    if (/^\d+[.)]?$/.test(m[0]) && /^\d{1,2}[.)]?$/.test(m[0])) continue; // numbering: "1." "12)"
    if (!/\p{L}/u.test(m[0])) {
      out.push(null);
      continue;
    }
    out.push({ key: nfkd(m[0].toLowerCase()), start: m.index, end: m.index + m[0].length });
  }
  return out;
}

/**
 * Runs of 12+ consecutive words of one wordlist (CJK wordlists have one-character words written
 * with spaces between them; kana and hangul words are runs of their own).
 */
function findRuns(text: string): Array<{ list: number; words: Word[] }> {
  const idx = wordIndex();
  const runs: Array<{ list: number; words: Word[] }> = [];
  const words = wordsOf(text);
  /** Per list, where its current run started (index into `words`). */
  const since = new Map<number, number>();
  const close = (list: number, end: number) => {
    const from = since.get(list)!;
    if (end - from >= 12) runs.push({ list, words: words.slice(from, end) as Word[] });
    since.delete(list);
  };
  for (let i = 0; i <= words.length; i++) {
    const w = i < words.length ? words[i] : null;
    const lists = w ? idx.get(w.key) : undefined;
    for (const list of [...since.keys()]) if (!lists?.includes(list)) close(list, i);
    for (const list of lists ?? []) if (!since.has(list)) since.set(list, i);
  }
  return runs;
}

export const SEED_PHRASE_DETECTOR: Detector = {
  name: "bip39_seed_phrase",
  category: "private_key",
  find(text) {
    if (text.length < 24) return [];
    const runs = findRuns(text);
    if (runs.length === 0) return [];
    const named = findCues(text, SEED_CUES).length > 0;
    const out: Array<{ start: number; end: number }> = [];
    for (const run of runs) {
      const { words, joiner } = LISTS[run.list];
      const valid = LENGTHS.some((n) => {
        if (run.words.length < n) return false;
        // The phrase is the run, or its start or end (a word of talk may touch it).
        for (const from of new Set([0, run.words.length - n])) {
          const keys = run.words.slice(from, from + n).map((w) => w.key);
          // Random words rarely repeat: "very very very …" is not a phrase even when its checksum fits.
          if (new Set(keys).size < n * 0.75) continue;
          if (validateMnemonic(keys.join(joiner), words as string[])) return true;
        }
        return false;
      });
      if (valid || (named && new Set(run.words.map((w) => w.key)).size >= 9)) out.push({ start: run.words[0].start, end: run.words[run.words.length - 1].end });
    }
    return out;
  },
};
