/**
 * One line of a WordNet data file (`data.noun` …, wndb(5WN)) parsed: the synset's words and its
 * pointers to other synsets. The gloss is not kept.
 */

/** WordNet's parts of speech as its file names spell them: noun, verb, adjective, adverb. */
export type PartOfSpeech = "n" | "v" | "a" | "r";

export interface SynsetPointer {
  /** The pointer symbol: `@` hypernym, `~` hyponym, `+` derivation, `&` similar to … */
  symbol: string;
  offset: number;
  pos: PartOfSpeech;
  /** For a lexical pointer, the word number (1-based) in the source and the target synset; 0: the whole synset. */
  source: number;
  target: number;
}

export interface Synset {
  offset: number;
  pos: PartOfSpeech;
  /** Lemmas, lower case, `_` between the words of a collocation, adjective markers dropped. */
  words: string[];
  pointers: SynsetPointer[];
}

/** A data line as a synset (its offset and part of speech as given; satellites `s` read as `a`). */
export function parseSynset(line: string): Synset {
  const f = line.split(" ");
  const pos = posOf(f[2]);
  const wordCount = parseInt(f[3], 16);
  const words: string[] = [];
  let at = 4;
  for (let i = 0; i < wordCount; i++, at += 2) words.push(f[at].toLowerCase().replace(/\([a-z]+\)$/, ""));
  const pointerCount = parseInt(f[at], 10);
  at++;
  const pointers: SynsetPointer[] = [];
  for (let i = 0; i < pointerCount; i++, at += 4) {
    const st = f[at + 3];
    pointers.push({ symbol: f[at], offset: parseInt(f[at + 1], 10), pos: posOf(f[at + 2]), source: parseInt(st.slice(0, 2), 16), target: parseInt(st.slice(2), 16) });
  }
  return { offset: parseInt(f[0], 10), pos, words, pointers };
}

function posOf(code: string): PartOfSpeech {
  return code === "s" ? "a" : (code as PartOfSpeech);
}
