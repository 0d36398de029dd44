import type { Detector, SpecialCategory } from "./categories.js";
import { compileLexicon, cuesInTokens, cuesWithin, findCues, type CueHit } from "./cue-words.js";
import {
  COPULA_WORDS,
  PARTY_NAMES,
  PARTY_WORDS,
  PERSON_WORDS,
  POLITICAL_ACTS,
  SPECIAL_CATEGORY_WORDS,
  UNION_ACTS,
  UNION_NAMES,
  WORSHIP_ACTS,
  WORSHIP_PLACES,
} from "./lexicon/special-category-words.js";

/**
 * Special categories in the languages of lexicon/special-category-words.ts: unambiguous terms
 * anywhere, ambiguous ones in a clause with a personal subject or possessive, political opinion as
 * a vote, membership or support word beside a party, and trade-union membership beside a union's
 * name. Genetic raw data (rsIDs with genotypes) counts too, whatever the language.
 */

const PERSON = compileLexicon(PERSON_WORDS);
const COPULA = compileLexicon(COPULA_WORDS);
/** How far (in characters) a clause reaches around a term for its subject. */
const CLAUSE_REACH = 80;

function clauseOf(text: string, hit: CueHit): { from: number; to: number } {
  const from = Math.max(0, hit.start - CLAUSE_REACH);
  const to = Math.min(text.length, hit.end + CLAUSE_REACH);
  const before = text.slice(from, hit.start);
  const after = text.slice(hit.end, to);
  const cut = before.search(/[.!?。！？\n][^.!?。！？\n]*$/);
  const end = after.search(/[.!?。！？\n]/);
  return { from: cut >= 0 ? from + cut + 1 : from, to: end >= 0 ? hit.end + end : to };
}

/** Tokens between a personal subject and an ambiguous term ("ich bin Katholik", "je suis catholique pratiquante", "mam depresję"). */
const PERSON_REACH = 2;

/** A personal subject or possessive right before the term (or anywhere in its clause in CJK, where the subject may come first or be dropped). */
/** Verb-final copulas after the term: Hindustani "main gay hoon", "woh bipolar hai". */
const COPULA_AFTER = /^\s+(?:hoon|hun|hu|hai|hain|thi|tha)\b/i;

function aboutSomeone(text: string, hit: CueHit): boolean {
  if (COPULA_AFTER.test(text.slice(hit.end, hit.end + 8))) return true;
  const cjk = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u.test(text.slice(hit.start, hit.end));
  if (cjk) {
    const { from, to } = clauseOf(text, hit);
    return cuesWithin(text, PERSON, from, to).length > 0;
  }
  return cuesInTokens(text, PERSON, Math.max(0, hit.first - PERSON_REACH - 3), hit.first).some((p) => p.last <= hit.first && hit.first - p.last <= PERSON_REACH && !/[.!?;\n]/.test(text.slice(p.end, hit.start)));
}

/** A device or part named after the term: "bipolar transistor", "bipolare Elektrode" are electronics, not a diagnosis. */
const TECHNICAL_HEAD = /^[- ](?:junction|transistors?|electrodes?|elektroden?|electrodos?|elettrodi|stepper|schrittmotor|motor|plates?|cells?|zellen?|transistoren|transistores|transistori)\b/i;

/** The token before the term is a copula ("ich bin Sinto", "she is Roma"). */
function rightAfterCopula(text: string, hit: CueHit): boolean {
  return cuesInTokens(text, COPULA, Math.max(0, hit.first - 1), hit.first).length > 0;
}

function termsDetector(category: SpecialCategory): Detector | null {
  const terms = SPECIAL_CATEGORY_WORDS[category];
  if (!terms) return null;
  const anywhere = compileLexicon(terms.anywhere);
  const aboutPerson = terms.aboutPerson.length > 0 ? compileLexicon(terms.aboutPerson) : null;
  const afterCopula = terms.afterCopula && terms.afterCopula.length > 0 ? compileLexicon(terms.afterCopula) : null;
  return {
    name: `${category}_terms`,
    category,
    find(text) {
      const out = findCues(text, anywhere).map((h) => ({ start: h.start, end: h.end }));
      if (aboutPerson) {
        for (const hit of findCues(text, aboutPerson)) if (aboutSomeone(text, hit) && !TECHNICAL_HEAD.test(text.slice(hit.end, hit.end + 24))) out.push({ start: hit.start, end: hit.end });
      }
      if (afterCopula) {
        for (const hit of findCues(text, afterCopula)) if (rightAfterCopula(text, hit)) out.push({ start: hit.start, end: hit.end });
      }
      return out;
    },
  };
}

/** A detector for an act word and an object word in one clause ("voto a Vox", "Mitglied bei Verdi"). */
function actAndObject(name: string, category: SpecialCategory, acts: readonly string[], objects: readonly string[]): Detector {
  const act = compileLexicon(acts);
  const object = compileLexicon(objects);
  return {
    name,
    category,
    find(text) {
      const out: Array<{ start: number; end: number }> = [];
      for (const hit of findCues(text, object)) {
        const { from, to } = clauseOf(text, hit);
        if (cuesWithin(text, act, from, to).length > 0) out.push({ start: hit.start, end: hit.end });
      }
      return out;
    },
  };
}

/** Genotypes from a DNA test's raw data: several rsIDs, each with its alleles ("rs4477212 AA"). */
const GENETIC_RAW_DATA: Detector = {
  name: "genotype_rsids",
  category: "genetic",
  find(text) {
    const matches = [...text.matchAll(/\brs\d{3,10}\b[\s:=,]*[ACGTDI-]{1,2}\b/g)];
    if (matches.length < 2) return [];
    return matches.map((m) => ({ start: m.index!, end: m.index! + m[0].length }));
  },
};

/** PrEP, the HIV prevention drug (case-sensitive: "meal prep" is not it). */
const PREP: Detector = {
  name: "hiv_prep",
  category: "health",
  find: (text) => [...text.matchAll(/\bPrEP\b/g)].map((m) => ({ start: m.index!, end: m.index! + 4 })),
};

export const MULTILINGUAL_SPECIAL_CATEGORY_DETECTORS: Detector[] = [
  ...(["health", "genetic", "criminal_record", "sexual_orientation", "religion", "political_opinion", "ethnicity", "trade_union", "biometric"] as const)
    .map(termsDetector)
    .filter((d): d is Detector => d !== null),
  actAndObject("party_support", "political_opinion", POLITICAL_ACTS, [...PARTY_WORDS, ...PARTY_NAMES]),
  actAndObject("union_membership", "trade_union", UNION_ACTS, UNION_NAMES),
  actAndObject("worship_attended", "religion", WORSHIP_ACTS, WORSHIP_PLACES),
  GENETIC_RAW_DATA,
  PREP,
];
