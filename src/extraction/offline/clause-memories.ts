/**
 * Memories from the clauses of one user message: each statement clause the scorer keeps becomes
 * a readable memory — the user's own clause in the third person ("User's daughter Ana loves
 * unicorns."), the subject kept for third parties — with a kind, a confidence and, for
 * single-valued predicates, a supersede slot.
 */
import type { Clause } from "../../language/index.js";
import type { CandidateKind } from "../candidate.js";
import { asSentence, toThirdPerson } from "../rules/text.js";
import { DURABLE_THRESHOLD, durableScore } from "./durable-clause-scorer.js";
import { hasOwnSubject, isStatementOfFact } from "./eligible-clause.js";
import { hasChangeCue, predicateSlot } from "./predicate-slot.js";

export interface ClauseMemory {
  clause: Clause;
  kind: CandidateKind;
  text: string;
  confidence: number;
  subject?: string;
  correction?: boolean;
}

/** Verbs of liking and disliking: a clause built on one states a preference. */
const PREFERENCE_VERBS = new Set(["like", "love", "prefer", "enjoy", "hate", "dislike", "adore", "loathe", "detest", "favor", "favour"]);

/** The lowest confidence a kept clause gets: just above the write policy's default floor. */
const KEPT_FLOOR = 0.72;

const lowerFirst = (t: string) => (/^\p{Lu}\p{Ll}/u.test(t) ? `${t[0].toLowerCase()}${t.slice(1)}` : t);

/**
 * Memories from a message's clauses, best first within the message.
 *
 * @example
 * clauseMemories(analyseMessage("between us, my daughter Ana loves unicorns"))
 * // [{ kind: "preference", text: "User's daughter Ana loves unicorns.", confidence: 0.8, … }]
 */
export function clauseMemories(clauses: readonly Clause[]): ClauseMemory[] {
  const out: ClauseMemory[] = [];
  for (const clause of clauses) {
    if (!isStatementOfFact(clause)) continue;
    const score = durableScore(clause, clauses);
    if (score < DURABLE_THRESHOLD) continue;
    // A clause with an implied or vague subject is kept as what the user said, in their words.
    const text = hasOwnSubject(clause) ? asSentence(toThirdPerson(clause.text.replace(/^our\b/i, "my"))) : asSentence(`User said: ${toThirdPerson(lowerFirst(clause.text), { atStart: false })}`);
    if (!text) continue;
    const subject = predicateSlot(clause);
    const memory: ClauseMemory = {
      clause,
      kind: clause.verb && PREFERENCE_VERBS.has(clause.verb.lemma) ? "preference" : "fact",
      text,
      confidence: Math.round((KEPT_FLOOR + (0.95 - KEPT_FLOOR) * ((score - DURABLE_THRESHOLD) / (1 - DURABLE_THRESHOLD))) * 1000) / 1000,
    };
    if (subject) memory.subject = subject;
    if (hasChangeCue(clause, subject)) memory.correction = true;
    out.push(memory);
  }
  return out;
}
