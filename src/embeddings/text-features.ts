import { porterStem } from "./porter-stemmer.js";

/**
 * English function words and chat filler. They carry no topic, so the offline embedder leaves
 * them out (Postgres full-text search drops its own, similar list).
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    "a an the and or but if of to in on at by for with about as into from up down over under again then once here there " +
    "when where why how what which who whom this that these those am is are was were be been being have has had having " +
    "do does did doing i me my myself we our ours you your yours he him his she her hers it its they them their theirs " +
    "s t can will just don should now not no nor so than too very would could also any some such only own same other each " +
    "few more most both all get got go going went like really yeah oh wow hey hi thanks thank"
  ).split(" "),
);

/** Lower-case ASCII-folded words of a text (letters and digits; apostrophes split words). */
export function words(text: string): string[] {
  return text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Content words: {@link words} without stop words. */
export function contentWords(text: string): string[] {
  return words(text).filter((w) => !STOP_WORDS.has(w));
}

/** Stemmed content words: "Running dogs" → ["run", "dog"]. */
export function stemmedTerms(text: string): string[] {
  return contentWords(text).map((w) => (/^[a-z]+$/.test(w) ? porterStem(w) : w));
}
