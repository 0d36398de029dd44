/**
 * Supersede slots from the parse: who a clause is about (the user, or a possessed or named third
 * party such as "daughter" or "launch") plus the class of its predicate. A later value in the same
 * slot replaces the earlier one. Only single-valued predicates get a slot: where someone lives or
 * works, and the date of an event; likes and possessions are many-valued and never replace each other.
 */
import type { Clause } from "../../language/index.js";

/** Verbs whose object is where someone lives (the lemma compromise gives). */
const RESIDENCE_VERBS = new Set(["live", "move", "relocate", "settle"]);
/** Verbs that name someone's work. */
const WORK_VERBS = new Set(["work", "teach", "study", "intern"]);

/** Who the clause is about, as a slot prefix ("user", "daughter", "launch"); undefined when unclear. */
export function slotOwner(c: Clause): string | undefined {
  const s = c.subject;
  if (!s) return undefined;
  if (s.person === "i" || s.person === "we") return "user";
  if (s.person !== "third") return undefined;
  return s.head ?? s.name?.toLowerCase();
}

/**
 * The slot key of a clause, or undefined when its predicate is many-valued. The user's own home and
 * work slots are named as the profile names them (`location.home`, `employer`).
 *
 * @example
 * predicateSlot(analyseMessage("the launch slipped to the 19th")[0]) // "launch.date"
 * predicateSlot(analyseMessage("my sister lives in Rome")[0])       // "sister.location"
 */
export function predicateSlot(c: Clause): string | undefined {
  const owner = slotOwner(c);
  if (!owner || !c.verb) return undefined;
  const lemma = c.verb.lemma;
  if (RESIDENCE_VERBS.has(lemma) && c.places.length > 0) return owner === "user" ? "location.home" : `${owner}.location`;
  if (WORK_VERBS.has(lemma) && c.organizations.length > 0) return owner === "user" ? "employer" : `${owner}.work`;
  // An event with a date, told of a thing rather than a person ("the launch is on the 12th").
  if (owner !== "user" && c.dates.length > 0 && c.people.length === 0 && !c.subject?.possessor) return `${owner}.date`;
  return undefined;
}

/** Adverbs that mark a change of an earlier state ("anymore", "no longer", "again", "instead"). */
const CHANGE_ADVERBS = /\b(?:anymore|any more|no longer|instead|again|actually|scratch that)\b/i;
/** Verbs that move a value ("switched", "slipped", "postponed"): a change only of a slotted value. */
const CHANGE_VERBS = new Set(["switch", "move", "slip", "push", "postpone", "reschedule", "change", "delay", "bring"]);

/**
 * The clause reports a change or correction of an earlier value: a change adverb, or a change
 * verb in a clause that has a slot ("the launch slipped to the 19th"; not "I moved the file").
 */
export function hasChangeCue(c: Clause, slot: string | undefined): boolean {
  if (CHANGE_ADVERBS.test(c.text)) return true;
  return slot !== undefined && c.verb !== null && CHANGE_VERBS.has(c.verb.lemma);
}
