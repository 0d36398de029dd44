/**
 * Which clauses may become a memory at all, before the scorer weighs them: a statement with its own
 * subject and verb, not a condition, not about the assistant, not context-dependent. The training
 * script applies the same test, so the scorer is trained on the clauses it will be asked about.
 */
import type { Clause } from "../../language/index.js";
import { DEICTIC_OBJECT, HYPOTHETICAL, ONE_OFF } from "../rules/text.js";

/** Words of a clause that carry content (not pronouns, determiners, auxiliaries or punctuation). */
function contentWords(c: Clause): number {
  return c.terms.filter((t) => t.normal && (t.tags.includes("Noun") || t.tags.includes("Adjective") || (t.tags.includes("Verb") && !t.tags.includes("Auxiliary") && !t.tags.includes("Copula"))) && !t.tags.includes("Pronoun")).length;
}

/** A clause that can stand as a memory: a statement with its own subject and verb, not a condition, not about the assistant. */
export function isStatementOfFact(c: Clause): boolean {
  if (c.type !== "statement" || c.condition || !c.verb) return false;
  if (c.subject?.person === "you") return false;
  // A third-person subject must name someone or something: "it was great", "that's wild" depend on context.
  // Unless the clause is about the user all the same ("this has been great for my health",
  // "gonna start my degree": the subject is implied).
  if (!hasOwnSubject(c) && !mentionsUser(c)) return false;
  // About the moment, not the user's world: "tonight", "just this once", "I'm heading to the gym".
  if (ONE_OFF.test(c.text) || /\b(?:just this once|for one night)\b/i.test(c.text)) return false;
  if (c.verb.progressive && c.verb.tense === "present" && c.subject?.person === "i" && c.dates.length === 0) return false;
  // Wishes, requests and plans of one's own ("I'd like a table", "I wish …", "I'm going to Paris next month").
  if (c.subject?.person === "i" && (c.verb.tense === "future" || (c.verb.modal && c.verb.modal !== "can"))) return false;
  if (HYPOTHETICAL.test(c.text) || /\bnot sure\b/i.test(c.text)) return false;
  // An object that points back at the conversation ("I prefer the second option", "I like this").
  const afterVerb = c.text.slice(c.text.toLowerCase().indexOf(c.verb.text.toLowerCase()) + c.verb.text.length).trim();
  if (c.verb.text && DEICTIC_OBJECT.test(afterVerb)) return false;
  // "forget"/"remember" clauses are about memory itself: the request reader decides them.
  if (MEMORY_VERBS.has(c.verb.lemma)) return false;
  if (c.verb.copula && describesMoment(c)) return false;
  // "…" stands where quoted or pasted words were removed: what is left is not a whole statement.
  if (c.text.includes("…")) return false;
  return contentWords(c) >= 2 && c.text.split(/\s+/).length >= 3;
}


const FIRST_PERSON = new Set(["i", "me", "my", "mine", "myself", "we", "us", "our", "ours"]);

/** The clause names its subject: the user, or a third party by noun or name (not "it", "that"). */
export function hasOwnSubject(c: Clause): boolean {
  const s = c.subject;
  if (!s) return false;
  return s.person === "i" || s.person === "we" || (s.person === "third" && Boolean(s.head || s.name));
}

/** The clause says "I", "me", "my", "we" … somewhere. */
export function mentionsUser(c: Clause): boolean {
  return c.terms.some((t) => FIRST_PERSON.has(t.normal));
}

const MEMORY_VERBS = new Set(["forget", "remember", "recall", "memorize", "memorise"]);

/**
 * A "be" clause that describes a thing's state of the moment or the conversation itself: an
 * object (not a person) with only adjectives after the verb ("my laptop is slow"), a negated
 * adjective ("my name is not important"), or a question as predicate ("my question is whether …").
 */
function describesMoment(c: Clause): boolean {
  const verbAt = c.terms.findIndex((t) => t.tags.includes("Verb"));
  const rest = c.terms.slice(verbAt + 1).filter((t) => t.normal !== "" && !t.tags.includes("Negative"));
  if (rest[0] && (rest[0].tags.includes("QuestionWord") || rest[0].normal === "whether")) return true;
  const onlyAdjectives = rest.length > 0 && rest.every((t) => t.tags.includes("Adjective") || t.tags.includes("Adverb"));
  if (!onlyAdjectives) return false;
  if (c.negative) return true;
  const subjectTerms = c.terms.slice(0, Math.max(0, verbAt));
  const aboutPerson = subjectTerms.some((t) => t.tags.includes("Actor") || t.tags.includes("Person") || t.tags.includes("Pronoun"));
  return !aboutPerson;
}
