/** Clause analysis of user messages on `compromise` (docs/extraction.md). */
export { analyseMessage } from "./analyse-message.js";
export { parse, type NlpDocument } from "./nlp.js";
export type { Clause, ClauseSubject, ClauseTerm, ClauseVerb, Person, SentenceType, Tense } from "./clause.js";
