/**
 * Candidate base forms of an inflected word, by WordNet's own detachment rules (morphy(7WN)):
 * "daughters" → "daughter", "hiking" → "hike" / "hik". Each candidate is only a guess; the reader
 * keeps those its index holds. WordNet's exception lists (irregular forms) are not in the npm data
 * package, so "children" finds nothing here; the word itself is always tried first.
 */
import type { PartOfSpeech } from "./synset.js";

const DETACHMENTS: Record<PartOfSpeech, readonly (readonly [string, string])[]> = {
  n: [["s", ""], ["ses", "s"], ["xes", "x"], ["zes", "z"], ["ches", "ch"], ["shes", "sh"], ["men", "man"], ["ies", "y"]],
  v: [["s", ""], ["ies", "y"], ["es", "e"], ["es", ""], ["ed", "e"], ["ed", ""], ["ing", "e"], ["ing", ""]],
  a: [["er", ""], ["est", ""], ["er", "e"], ["est", "e"]],
  r: [],
};

/** The word and its detached forms for one part of speech, word first, without duplicates. */
export function baseForms(word: string, pos: PartOfSpeech): string[] {
  const out = [word];
  for (const [suffix, ending] of DETACHMENTS[pos]) {
    if (word.length > suffix.length + 1 && word.endsWith(suffix)) {
      const form = word.slice(0, word.length - suffix.length) + ending;
      if (!out.includes(form)) out.push(form);
    }
  }
  return out;
}
