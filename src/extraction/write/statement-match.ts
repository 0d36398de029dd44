/**
 * How the write path compares two memory statements without a model: same wording, negated or
 * not, and which content words they share. Deliberately strict — these decide what collapses,
 * what a correction replaces and what a forget request deletes, and a false match would lose or
 * delete something the user did not mean.
 */
import { stemmedTerms } from "../../embeddings/text-features.js";

/** Lower-case, single spaces, no trailing punctuation, no leading "the user"/"user". */
export function normaliseStatement(text: string): string {
  return text
    .toLowerCase()
    .replace(/\s+/g, " ")
    .replace(/[.!?\s]+$/, "")
    .replace(/^(?:the\s+)?user(?:'s)?\s+/, (m) => (m.includes("'s") ? "user's " : "user "))
    .trim();
}

const NEGATION =
  /\b(?:not|no|never|no longer|anymore|any more|none|nothing|neither|nor|without|stopped|quit|cannot|isn't|aren't|wasn't|weren't|doesn't|don't|didn't|won't|can't|hasn't|haven't|hadn't|shouldn't|wouldn't)\b|n't\b/i;

/** Verbs that are the negation of another ("dislikes" = does not like); their stem maps to the positive one. */
const ANTONYMS: Record<string, string> = { dislik: "like", hate: "like", detest: "like", loath: "like" };
const ANTONYM_RE = /\b(?:dislikes?|disliked|disliking|hates?|hated|hating|detests?|detested|loathes?|loathed)\b/i;

/** True when the statement says something is not (or no longer) so: "doesn't like" and "dislikes" alike, "no longer dislikes" not. */
export function isNegated(text: string): boolean {
  return NEGATION.test(text) !== ANTONYM_RE.test(text);
}

/** Words that carry no content of the statement itself (who it is about, negation, time of change). */
const FILLER = new Set(["user", "longer", "anymor", "never", "stop", "stopped", "quit", "again", "actual", "actualli", "now", "current", "currentli", "still", "ani", "more", "cannot", "won", "didn", "doesn", "isn", "aren", "wasn", "weren", "hasn", "haven", "hadn"]);

/** Stemmed content words, without filler: "User no longer likes ramen." → {like, ramen}. */
export function coreTerms(text: string): Set<string> {
  return new Set(stemmedTerms(text).filter((t) => !FILLER.has(t)).map((t) => ANTONYMS[t] ?? t));
}

/** Every term of `needle` appears in `hay` (and `needle` has at least one). */
export function containsAll(hay: ReadonlySet<string>, needle: ReadonlySet<string>): boolean {
  if (needle.size === 0) return false;
  for (const t of needle) if (!hay.has(t)) return false;
  return true;
}

export function sameTerms(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  return a.size === b.size && containsAll(a, b);
}

/**
 * Whether a stored memory says what a forget request names: same polarity, and every content word
 * of the request appears in the memory ("forget that I live in Berlin" matches "User lives in
 * Berlin, Germany." but not "User lives in Lisbon." nor "User's office is in Berlin.").
 */
export function matchesForgetRequest(memoryText: string, requestText: string): boolean {
  if (isNegated(memoryText) !== isNegated(requestText)) return false;
  return containsAll(coreTerms(memoryText), coreTerms(requestText));
}

/**
 * A forget request that names only an attribute ("User's phone number.", "my address"): it covers
 * every value of its slot, not one statement.
 */
export function isSlotWideRequest(text: string): boolean {
  return /^(?:the\s+)?(?:user's|users|my)\s+[a-z][a-z -]*[.!]?$/i.test(text.trim()) && !/\b(?:is|are|was|were)\b/i.test(text);
}
