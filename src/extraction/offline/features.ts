/**
 * Features of one clause for the durable-memory scorer: only grammar from the parse (sentence type,
 * person, possession, tense, modality, negation, how many people/places/dates/numbers it names,
 * tag mix, length) and the clause's place in its message. No word of any training text is a
 * feature, so the scorer cannot learn a phrasing: it learns what kind of clause is worth keeping.
 */
import type { Clause } from "../../language/index.js";

/** Feature names, in the order of the weight vector (stable: the committed weights refer to them). */
export const FEATURE_NAMES = [
  "bias",
  "type.question",
  "type.command",
  "type.statement",
  "subject.i",
  "subject.we",
  "subject.you",
  "subject.third",
  "subject.none",
  "subject.possessed_by_user",
  "subject.named",
  "verb.none",
  "verb.copula",
  "tense.past",
  "tense.present",
  "tense.perfect",
  "tense.future",
  "modal.hypothetical",
  "modal.ability_or_request",
  "negative",
  "condition",
  "names.person",
  "names.place",
  "names.organization",
  "names.date",
  "names.number",
  "tags.proper_noun_share",
  "tags.noun_share",
  "tags.adjective_share",
  "tags.expression_share",
  "tags.first_person_object",
  "length.log_words",
  "length.short",
  "message.has_question",
  "first_person_statement",
  "third_party_statement",
] as const;
export type FeatureName = (typeof FEATURE_NAMES)[number];

/** What the scorer knows about the message a clause sits in. */
export interface MessageContext {
  clauses: readonly Clause[];
}

const HYPOTHETICAL_MODALS = new Set(["would", "could", "might", "may"]);
const REQUEST_MODALS = new Set(["can", "could", "would", "will"]);
const FIRST_PERSON_OBJECTS = new Set(["me", "my", "mine", "myself", "our", "us", "ours"]);

const share = (c: Clause, tag: string) => (c.terms.length === 0 ? 0 : c.terms.filter((t) => t.tags.includes(tag)).length / c.terms.length);

/**
 * The feature vector of a clause, in {@link FEATURE_NAMES} order.
 *
 * @example
 * const [clause] = analyseMessage("my son starts school in May");
 * clauseFeatures(clause, { clauses: [clause] })[FEATURE_NAMES.indexOf("subject.possessed_by_user")] // 1
 */
export function clauseFeatures(c: Clause, ctx: MessageContext): number[] {
  const person = c.subject?.person ?? "none";
  const words = c.terms.filter((t) => t.normal !== "").length;
  const tense = c.verb?.tense;
  const statement = c.type === "statement" && !c.condition;
  const values: Record<FeatureName, number> = {
    bias: 1,
    "type.question": c.type === "question" ? 1 : 0,
    "type.command": c.type === "command" ? 1 : 0,
    "type.statement": c.type === "statement" ? 1 : 0,
    "subject.i": person === "i" ? 1 : 0,
    "subject.we": person === "we" ? 1 : 0,
    "subject.you": person === "you" ? 1 : 0,
    "subject.third": person === "third" ? 1 : 0,
    "subject.none": person === "none" ? 1 : 0,
    "subject.possessed_by_user": c.subject?.possessor === "i" || c.subject?.possessor === "we" ? 1 : 0,
    "subject.named": c.subject?.name ? 1 : 0,
    "verb.none": c.verb ? 0 : 1,
    "verb.copula": c.verb?.copula ? 1 : 0,
    "tense.past": tense === "past" ? 1 : 0,
    "tense.present": tense === "present" ? 1 : 0,
    "tense.perfect": tense === "perfect" ? 1 : 0,
    "tense.future": tense === "future" ? 1 : 0,
    "modal.hypothetical": c.verb?.modal && HYPOTHETICAL_MODALS.has(c.verb.modal) ? 1 : 0,
    "modal.ability_or_request": c.verb?.modal && REQUEST_MODALS.has(c.verb.modal) && person === "you" ? 1 : 0,
    negative: c.negative ? 1 : 0,
    condition: c.condition ? 1 : 0,
    "names.person": Math.min(c.people.length, 2) / 2,
    "names.place": Math.min(c.places.length, 2) / 2,
    "names.organization": Math.min(c.organizations.length, 2) / 2,
    "names.date": c.dates.length > 0 ? 1 : 0,
    "names.number": c.numbers.length > 0 ? 1 : 0,
    "tags.proper_noun_share": share(c, "ProperNoun"),
    "tags.noun_share": share(c, "Noun"),
    "tags.adjective_share": share(c, "Adjective"),
    "tags.expression_share": share(c, "Expression"),
    "tags.first_person_object": c.terms.some((t, i) => i > 0 && FIRST_PERSON_OBJECTS.has(t.normal)) ? 1 : 0,
    "length.log_words": Math.log1p(words) / Math.log(40),
    "length.short": words <= 3 ? 1 : 0,
    "message.has_question": ctx.clauses.some((x) => x.type === "question") ? 1 : 0,
    first_person_statement: statement && (person === "i" || person === "we") ? 1 : 0,
    third_party_statement: statement && person === "third" && (c.subject?.possessor === "i" || c.subject?.possessor === "we") ? 1 : 0,
  };
  return FEATURE_NAMES.map((n) => values[n]);
}
