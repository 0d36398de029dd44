/**
 * Content words of a text, for the answer-words metric and the in-bench BM25: lowercased runs of
 * letters and digits, English function words removed, a plural folded to its singular
 * ("agencies" → "agency", "books" → "book"). Months, numbers and names are content: they are
 * most of what a temporal or single-hop answer says.
 */

// Function words only (articles, pronouns, auxiliaries, prepositions, conjunctions, a few
// discourse words); never a content word — "may" stays, it is a month more often than not in
// answers, so an answer's meaning is all in what remains.
const STOP_WORDS = new Set(
  (
    "a an the and or but nor so yet if then than that this these those there here " +
    "i me my mine myself you your yours yourself we us our ours he him his she her hers it its they them their theirs " +
    "am is are was were be been being do does did doing done have has had having will would shall should can could might must " +
    "of in on at by for with from to into onto about over under after before between through during up down out off again " +
    "as not no nor only also very too just what which who whom whose when where why how all any both each some such own same other " +
    "s t d ll m re ve don didn doesn isn wasn aren weren hasn haven hadn won wouldn couldn shouldn " +
    "oh yeah yes hey hi ok okay wow really"
  ).split(/\s+/),
);

/** The words of a text, lowercased, with apostrophes inside words kept out ("Caroline's" → "caroline", "s"). */
export function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Fold a plural to its singular: "agencies" → "agency", "books" → "book"; "glass", "bus" and short words stay. */
export function foldPlural(word: string): string {
  if (word.length > 4 && word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith("s") && !/(ss|us|is)$/.test(word)) return word.slice(0, -1);
  return word;
}

/** A text's content words, in order, repeats kept (BM25 counts them). */
export function contentWords(text: string): string[] {
  return words(text)
    .filter((w) => !STOP_WORDS.has(w))
    .map(foldPlural);
}

/** Distinct content words of an answer ("7 May 2023" → ["7", "may", "2023"]). */
export function answerWords(answer: string): string[] {
  return [...new Set(contentWords(answer))];
}

/** The share of an answer's content words found in `text`; null when the answer has none ("No"). */
export function answerWordShare(answer: string, text: string): number | null {
  const wanted = answerWords(answer);
  if (wanted.length === 0) return null;
  const have = new Set(contentWords(text));
  return wanted.filter((w) => have.has(w)).length / wanted.length;
}
