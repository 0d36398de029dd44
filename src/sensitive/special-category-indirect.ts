import type { Detector } from "./categories.js";
import { compileLexicon, cuesWithin, findCues, type CueHit } from "./cue-words.js";
import { FEMALE_PARTNER, FEMALE_SPEAKER, MALE_PARTNER, MALE_SPEAKER, OFFENCE_WORDS, PERSON_WORDS, SENTENCE_ACTS } from "./lexicon/special-category-words.js";
import { tokenize } from "./text-tokens.js";

/**
 * Special categories said indirectly, whatever the language of the lexicon:
 * - a same-sex relationship said through a speaker's gender and their partner's ("ich (m, 34) und
 *   mein Mann", "mi novio y yo (soy chico)", "僕と彼氏");
 * - a criminal record said as a sentence served for an offence ("doing five years for burglary",
 *   "siedziałem dwa lata za kradzież", "jag dömdes för misshandel");
 * - a biometric template: a face, voice or fingerprint word joined to an embedding, template,
 *   vector or measurement word ("Gesichts-Embedding", "gezichtsmetingen", "face template"), or a
 *   bracketed vector of eight or more numbers beside such a body word ("voice embedding: [0.12, …]").
 */

const MALE_SPEAKER_RE = new RegExp(MALE_SPEAKER, "giu");
const FEMALE_SPEAKER_RE = new RegExp(FEMALE_SPEAKER, "giu");
const MALE_PARTNER_RE = new RegExp(MALE_PARTNER, "giu");
const FEMALE_PARTNER_RE = new RegExp(FEMALE_PARTNER, "giu");
/** How far apart a speaker's gender and the partner word may be. */
const PAIR_REACH = 120;

function matches(re: RegExp, text: string): Array<{ start: number; end: number }> {
  re.lastIndex = 0;
  return [...text.matchAll(re)].map((m) => ({ start: m.index!, end: m.index! + m[0].length }));
}

function samePairs(text: string, speaker: RegExp, partner: RegExp): Array<{ start: number; end: number }> {
  const speakers = matches(speaker, text);
  if (speakers.length === 0) return [];
  return matches(partner, text).filter((p) => speakers.some((s) => Math.abs(s.start - p.start) <= PAIR_REACH && (s.end <= p.start || p.end <= s.start)));
}

export const SAME_SEX_PARTNER_DETECTOR: Detector = {
  name: "same_sex_partner",
  category: "sexual_orientation",
  find: (text) => [...samePairs(text, MALE_SPEAKER_RE, MALE_PARTNER_RE), ...samePairs(text, FEMALE_SPEAKER_RE, FEMALE_PARTNER_RE)],
};

const OFFENCES = compileLexicon(OFFENCE_WORDS);
const SENTENCING = compileLexicon(SENTENCE_ACTS);

function clauseOf(text: string, hit: CueHit): { from: number; to: number } {
  const from = Math.max(0, hit.start - 80);
  const to = Math.min(text.length, hit.end + 80);
  const cut = text.slice(from, hit.start).search(/[.!?。！？\n;][^.!?。！？\n;]*$/);
  const end = text.slice(hit.end, to).search(/[.!?。！？\n;]/);
  return { from: cut >= 0 ? from + cut + 1 : from, to: end >= 0 ? hit.end + end : to };
}

export const SENTENCE_FOR_OFFENCE_DETECTOR: Detector = {
  name: "sentence_for_offence",
  category: "criminal_record",
  find(text) {
    const out: Array<{ start: number; end: number }> = [];
    for (const hit of findCues(text, OFFENCES)) {
      const { from, to } = clauseOf(text, hit);
      if (cuesWithin(text, SENTENCING, from, hit.start).length > 0) out.push({ start: hit.start, end: hit.end });
    }
    return out;
  },
};

/** Roots of body words whose measurement is biometric, and of the words for a template or measurement. */
const BODY = /^(?:face|facial|faces|gesicht|gesichts|visage|rostro|cara|viso|volto|gezicht|gezichts|twarz|twarzy|yuz|ansikte|ansikts|лицо|лица|voice|stimm|stimme|stimmen|voix|iris|retina|palm|fingerprint|fingerabdruck)$/;
const BODY_PREFIX = /^(?:face|facial|gesicht|visage|gezicht|ansikt|stimm|iris|retina|fingerabdruck)/;
const TEMPLATE = /(?:embedding|embeddings|template|templates|vector|vektor|vecteur|vettore|measurement|measurements|meting|metingen|messung|messungen|vermessung|mesures?|medidas?|misure|pomiary?|olcum\w*|matning\w*|измерени\w*|geometry|geometrie|geometria)$/;

const PERSON = compileLexicon(PERSON_WORDS);

/**
 * Someone's template, not the technology: a personal subject or possessive in the clause ("mijn
 * gezichtsmetingen", "das ist mein Gesichts-Embedding"), or values beside it (two numbers: "61,8 mm,
 * 17,2 mm"). "face measurements for the mask sizing chart" is neither.
 */
function someonesTemplate(text: string, span: { start: number; end: number }): boolean {
  const { from, to } = clauseOf(text, { start: span.start, end: span.end, first: 0, last: 0 });
  return cuesWithin(text, PERSON, from, to).length > 0 || (text.slice(span.start, Math.min(text.length, span.end + 80)).match(/\d+(?:[.,]\d+)?/g) ?? []).length >= 2;
}

export const BIOMETRIC_TEMPLATE_DETECTOR: Detector = {
  name: "biometric_template",
  category: "biometric",
  find(text) {
    const out = biometricTerms(text);
    return out.length === 0 ? out : out.filter((s) => someonesTemplate(text, s));
  },
};

/** Body words joined to a template or measurement word, in one compound or within two words. */
function biometricTerms(text: string): Array<{ start: number; end: number }> {
  const { tokens } = tokenize(text);
  const out: Array<{ start: number; end: number }> = [];
  for (let i = 0; i < tokens.length; i++) {
    const w = tokens[i].folded;
    // One compound ("gezichtsmetingen", "gesichts-embedding") or a body word with a template word within two words.
    if (BODY_PREFIX.test(w) && TEMPLATE.test(w) && !BODY.test(w)) {
      out.push({ start: tokens[i].start, end: tokens[i].end });
      continue;
    }
    if (!BODY.test(w)) continue;
    for (let j = i + 1; j <= Math.min(tokens.length - 1, i + 2); j++) {
      if (TEMPLATE.test(tokens[j].folded)) {
        out.push({ start: tokens[i].start, end: tokens[j].end });
        break;
      }
    }
  }
  return out;
}

/** Eight or more numbers in brackets (an embedding, a template): biometric when a body word stands within 80 characters. */
const NUMBER_VECTOR = /[[(](?:\s*-?\d+(?:[.,]\d+)?\s*[,;]){7,}/g;

export const BIOMETRIC_VECTOR_DETECTOR: Detector = {
  name: "biometric_vector",
  category: "biometric",
  find(text) {
    const out: Array<{ start: number; end: number }> = [];
    NUMBER_VECTOR.lastIndex = 0;
    for (const m of text.matchAll(NUMBER_VECTOR)) {
      const { tokens } = tokenize(text);
      const near = tokens.some((t) => Math.abs(t.start - m.index!) <= 80 && (BODY.test(t.folded) || BODY_PREFIX.test(t.folded)));
      if (near) out.push({ start: m.index!, end: m.index! + m[0].length });
    }
    return out;
  },
};

export const INDIRECT_SPECIAL_CATEGORY_DETECTORS: Detector[] = [SAME_SEX_PARTNER_DETECTOR, SENTENCE_FOR_OFFENCE_DETECTOR, BIOMETRIC_TEMPLATE_DETECTOR, BIOMETRIC_VECTOR_DETECTOR];
