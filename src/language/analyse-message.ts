import type { Clause, ClauseSubject, ClauseTerm, ClauseVerb, Person, SentenceType, Tense } from "./clause.js";
import { parse, type NlpDocument } from "./nlp.js";

/** One compromise term as its JSON gives it (the fields read here). */
interface RawTerm {
  text: string;
  normal: string;
  tags: string[];
  implicit?: string | null;
  offset: { start: number; length: number };
}

/** The verb record compromise's `verbs().json()` attaches. */
interface RawVerb {
  text: string;
  verb?: { infinitive?: string; auxiliary?: string; negative?: boolean; grammar?: { form?: string; tense?: string; copula?: boolean; progressive?: boolean } };
}

/** Conjunctions that make a clause a condition rather than a statement ("if …", "when you …"). */
const CONDITIONS = new Set(["if", "when", "whenever", "unless", "once"]);

const MODALS = new Set(["can", "could", "should", "would", "will", "shall", "may", "might", "must"]);

/**
 * A lowercase "i" standing as a word ("i moved", "i'm") is written as "I" before parsing: the
 * tagger reads the pronoun more reliably in its usual spelling. Only the standalone letter changes.
 */
function normaliseOrthography(text: string): string {
  return text.replace(/(^|[\s("'“])i(?=$|[\s,.!?;:'’)])/g, "$1I");
}

const isOpenerTerm = (t: RawTerm) =>
  t.tags.includes("Expression") || (t.tags.includes("Conjunction") && !t.tags.includes("Preposition") && !CONDITIONS.has(t.normal));

/** Terms left after discourse openers ("tbh", "so", "hey", "btw", "and", "but") at the start. */
function withoutOpener(terms: RawTerm[]): RawTerm[] {
  let k = 0;
  // An opener's implicit expansion ("tbh" → "to be honest") has no text of its own: it goes too.
  while (k < terms.length - 1 && (isOpenerTerm(terms[k]) || (k > 0 && terms[k].text === "" && isOpenerTerm(terms[k - 1])) || (k > 0 && terms[k].text === "" && terms[k - 1].text === ""))) k++;
  return terms.slice(k);
}

function personOf(word: string): Person {
  const w = word.toLowerCase().replace(/['’].*$/, "");
  if (w === "i" || w === "me" || w === "myself") return "i";
  if (w === "we" || w === "us") return "we";
  if (w === "you" || w === "u") return "you";
  return "third";
}

function subjectOf(view: NlpDocument, terms: RawTerm[]): ClauseSubject | null {
  const found = (view.verbs() as unknown as { subjects?: () => NlpDocument }).subjects?.();
  const text = found?.found ? found.eq(0).text().trim().replace(/[.,!?;:]+$/, "") : "";
  if (!text) return null;
  // The subject stands before the verb, inside this clause (compromise may reach outside it).
  const firstVerb = terms.findIndex((t) => t.tags.includes("Verb"));
  const before = terms.slice(0, firstVerb < 0 ? terms.length : firstVerb).map((t) => t.text.replace(/[.,!?;:]+$/, ""));
  if (!before.join(" ").includes(text.split(/\s+/)[0])) return null;
  const words = text.split(/\s+/);
  const first = words[0].toLowerCase();
  const possessor = first === "my" ? "i" : first === "our" ? "we" : first === "your" ? "you" : undefined;
  const person = words.length === 1 ? personOf(first) : "third";
  const subject: ClauseSubject = { text, person };
  if (possessor) subject.possessor = possessor;
  if (person === "third") {
    const subjectTerms = terms.filter((t) => words.includes(t.text.replace(/[.,!?;:]+$/, "")));
    const proper = subjectTerms.find((t) => t.tags.includes("ProperNoun") || t.tags.includes("Person"));
    if (proper) subject.name = proper.text.replace(/(?:['’]s)?[.,!?;:]*$/u, "");
    const head = [...subjectTerms].reverse().find((t) => t.tags.includes("Noun") && !t.tags.includes("Possessive") && !t.tags.includes("ProperNoun") && !t.tags.includes("Pronoun"));
    if (head) subject.head = singular(head.normal);
  }
  return subject;
}

function singular(word: string): string {
  const doc = parse(word);
  const out = doc.nouns().toSingular().text().trim().toLowerCase();
  return out || word;
}

function tenseOf(form: string, tense: string, auxiliary: string): Tense {
  if (form.includes("perfect")) return "perfect";
  if (form.includes("future") || tense === "FutureTense" || /\b(?:will|going to|gonna)\b/.test(auxiliary)) return "future";
  if (tense === "PastTense") return "past";
  return "present";
}

function verbOf(view: NlpDocument): ClauseVerb | null {
  const verbs = (view.verbs().json() as RawVerb[]).filter((v) => v.verb?.infinitive);
  // A bare modal ("should" in "what should I cook") or an implicit auxiliary ("'ve" in "I've been")
  // is listed as its own verb; the main verb is the next one.
  const main = verbs.find((v, i) => !(i < verbs.length - 1 && (MODALS.has((v.verb?.infinitive ?? "").toLowerCase()) || v.text.trim() === ""))) ?? null;
  if (!main?.verb) return null;
  const g = main.verb.grammar ?? {};
  const auxiliary = (main.verb.auxiliary ?? "").toLowerCase();
  const modal = auxiliary.split(/\s+/).find((w) => MODALS.has(w));
  const verb: ClauseVerb = {
    text: main.text.trim(),
    lemma: (main.verb.infinitive ?? "").toLowerCase().split(/\s+/)[0],
    tense: tenseOf(g.form ?? "", g.tense ?? "", auxiliary),
    progressive: g.progressive === true || (g.form ?? "").includes("progressive"),
    copula: g.copula === true || main.verb.infinitive === "be",
  };
  if (modal) verb.modal = modal;
  return verb;
}

function typeOf(terms: RawTerm[], rawText: string, lastInQuestion: boolean, imperative: boolean, subject: ClauseSubject | null): SentenceType {
  const [a, b] = terms;
  if (/\?\s*$/.test(rawText) || lastInQuestion) return "question";
  if (a?.tags.includes("QuestionWord") && !terms.some((t, i) => i > 0 && t.tags.includes("Pronoun") && terms[i + 1]?.tags.includes("Verb") && !terms[i + 1]?.tags.includes("Auxiliary"))) return "question";
  if (a && b && (a.tags.includes("Modal") || a.tags.includes("Auxiliary") || a.tags.includes("Copula")) && b.tags.includes("Pronoun") && !a.implicit) return "question";
  if (!subject && imperative) return "command";
  return "statement";
}

/**
 * The clause opens with a bare verb, after adverbs and a negation ("always answer …", "don't use
 * …", "remember that …"): the shape of an imperative. A modal or "be"-auxiliary first is a question's shape.
 */
function opensWithBareVerb(terms: RawTerm[]): boolean {
  let k = 0;
  while (k < terms.length && (terms[k].tags.includes("Adverb") || terms[k].tags.includes("Negative") || (terms[k].tags.includes("Auxiliary") && terms[k].normal.startsWith("do")))) k++;
  const t = terms[k];
  if (!t || !t.tags.includes("Verb") || t.tags.includes("Modal") || t.tags.includes("Gerund") || t.tags.includes("PastTense")) return false;
  return t.tags.includes("Infinitive") || t.tags.includes("Imperative") || (t.tags.includes("PresentTense") && !t.tags.includes("Copula"));
}

const list = (view: { out: (format: "array") => unknown }) => [...new Set((view.out("array") as string[]).map((s) => s.replace(/[.,!?;:]+$/, "").trim()).filter(Boolean))];

/**
 * Split a user message into clauses and analyse each: sentence type, subject (person, possessor,
 * head noun, name), main verb (lemma, tense, modal), negation, and the people, places,
 * organisations, dates and numbers it names. Handles lowercase "i", discourse openers ("tbh",
 * "so", "hey"), asides after commas (their own clause), several sentences per message, and
 * questions anywhere in it. English only; deterministic; no network.
 *
 * @example
 * analyseMessage("tbh i moved to Lisbon last month. can you suggest a dentist?")
 * // [{ text: "i moved to Lisbon last month", type: "statement", subject: { person: "i", … },
 * //    verb: { lemma: "move", tense: "past", … }, places: ["Lisbon"], dates: ["last month"], … },
 * //  { text: "can you suggest a dentist", type: "question", … }]
 */
export function analyseMessage(message: string): Clause[] {
  const text = normaliseOrthography(message);
  const out: Clause[] = [];
  const sentences = parse(text).sentences();
  for (let sentenceIndex = 0; sentenceIndex < sentences.length; sentenceIndex++) {
    const sentence = sentences.eq(sentenceIndex);
    const sentenceText = sentence.text();
    const asks = /\?\s*$/.test(sentenceText);
    const clauses = (sentence as unknown as { clauses: () => NlpDocument }).clauses();
    const count = clauses.length;
    for (let k = 0; k < count; k++) {
      const view = clauses.eq(k);
      const json = view.json({ offset: true }) as Array<{ terms: RawTerm[] }>;
      const all = json.flatMap((j) => j.terms);
      const terms = withoutOpener(all);
      if (terms.length === 0) continue;
      const first = terms[0];
      const lastTerm = terms[terms.length - 1];
      const rawText = text.slice(first.offset.start, lastTerm.offset.start + lastTerm.offset.length + 2);
      const clauseText = text
        .slice(first.offset.start, lastTerm.offset.start + lastTerm.offset.length)
        .replace(/^[\s,;:.!?-]+|[\s,;:.!?-]+$/g, "")
        .trim();
      if (!clauseText) continue;
      // Analysed on its own, so that an opener's words never count as its subject or verb.
      const own = parse(clauseText);
      const ownTerms = (own.json({ offset: true }) as Array<{ terms: RawTerm[] }>).flatMap((j) => j.terms);
      const subject = subjectOf(own, ownTerms);
      const verb = verbOf(own);
      const forms = (own.verbs().json() as RawVerb[]).map((v) => v.verb?.grammar?.form ?? "");
      const imperative = forms[0] === "imperative" || opensWithBareVerb(ownTerms);
      const type = typeOf(ownTerms, rawText, asks && k === count - 1 && !subject?.person.match(/^(?:i|we)$/) ? true : false, imperative, subject);
      const negative =
        ownTerms.some((t, i) => t.tags.includes("Negative") || t.normal === "never" || (t.normal === "no" && /^(?:longer|more)$/.test(ownTerms[i + 1]?.normal ?? ""))) || (own.verbs().json() as RawVerb[]).some((v) => v.verb?.negative === true);
      out.push({
        text: clauseText,
        sentence: sentenceIndex,
        index: out.length,
        type: asks && k === count - 1 && type === "statement" && !subject ? "question" : type,
        subject,
        verb,
        negative,
        condition: CONDITIONS.has(ownTerms[0]?.normal ?? ""),
        people: list(own.people()),
        places: list(own.places()),
        organizations: list(own.organizations()),
        dates: list((own as unknown as { dates: () => NlpDocument }).dates()),
        numbers: list(own.numbers()),
        terms: ownTerms.map((t): ClauseTerm => ({ normal: (t.implicit ?? t.normal).toLowerCase(), tags: t.tags })),
      });
    }
  }
  return out;
}
