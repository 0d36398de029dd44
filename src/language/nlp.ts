/**
 * The one configured instance of `compromise` (English rule-and-lexicon tagger) with the
 * `compromise-dates` plugin. Numbers are built into compromise 14 (`.numbers()`), which replaced
 * the separate `compromise-numbers` plugin. Every module in `src/language/` parses through this.
 */
import nlp from "compromise";
import datesPlugin from "compromise-dates";

nlp.plugin(datesPlugin);

/** A parsed document (compromise's view type). */
export type NlpDocument = ReturnType<typeof nlp>;

/**
 * Parse text with compromise and its date plugin.
 *
 * @example
 * parse("i moved to Lisbon last week").places().out("array") // ["Lisbon"]
 */
export function parse(text: string): NlpDocument {
  return nlp(text);
}
