import nlp from "compromise";
import { detectSensitive } from "../sensitive/detect-sensitive.js";
import { emptyEntities, type SummaryEntities } from "../state/types.js";

// Rule-based cues, deliberately conservative: a wrong "person" in the key facts costs more than a
// missed one, because key facts are never dropped by later summaries.

const NAME = String.raw`[A-Z][\p{Ll}'’-]+(?:\s+(?:van|von|de|da|del|di|le|la|bin|al)?\s*[A-Z][\p{Ll}'’-]+)?`;
const MONTH = String.raw`(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)`;
const WEEKDAY = String.raw`(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day`;

const PERSON_PATTERNS: RegExp[] = [
  new RegExp(String.raw`\b(?:[Mm]y name is|[Mm]y name's|[Cc]all me|I am|I'm|I’m|[Tt]his is)\s+(${NAME})`, "gu"),
  new RegExp(
    String.raw`\b(?:[Mm]y|[Oo]ur|[Hh]is|[Hh]er|[Tt]heir)\s+(?:wife|husband|partner|son|daughter|kid|child|mother|mom|mum|father|dad|brother|sister|friend|boss|manager|colleague|coworker|co-worker|teammate|client|customer|doctor|dentist|lawyer|accountant|assistant|landlord|neighbou?r|cousin|uncle|aunt|grandmother|grandfather|contact|lead|ceo|cto)\s*,?\s+(?:is\s+|named\s+|called\s+)?(${NAME})`,
    "gu",
  ),
  new RegExp(String.raw`\b((?:Mr|Mrs|Ms|Dr|Prof)\.?\s+${NAME})`, "gu"),
  new RegExp(String.raw`\b(?:named|called)\s+(${NAME})`, "gu"),
  new RegExp(String.raw`\b(${NAME})\s+(?:said|says|asked|wants|thinks|mentioned|told|will join|is joining|approved)\b`, "gu"),
];

const PLACE_PATTERNS: RegExp[] = [
  new RegExp(
    String.raw`\b(?:live in|living in|lives in|based in|located in|moving to|moved to|move to|relocating to|travel(?:l)?ing to|trip to|flight to|flying to|fly to|drive to|visiting|visit|office in|headquartered in|arriving in|arrive in|staying in|stay in|hotel in|weather in|born in|(?:am|I'm|I’m|originally|come|comes|flying|flight|moved|moving|travel(?:l)?ing|driving) from)\s+((?:[A-Z][\p{Ll}'’-]+|[A-Z]{2,})(?:[\s-](?:[A-Z][\p{Ll}'’-]+|[A-Z]{2,})){0,2})`,
    "gu",
  ),
];

const DATE_PATTERNS: RegExp[] = [
  /\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?)?\b/g,
  /\b\d{1,2}\/\d{1,2}\/\d{2,4}\b/g,
  // A month with a day is a date however it is typed ("june 15", "the 3rd of june").
  new RegExp(String.raw`\b${MONTH}\.?\s+\d{1,2}(?:st|nd|rd|th)?(?:,?\s+\d{4})?\b`, "gi"),
  new RegExp(String.raw`\b\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?${MONTH}(?:,?\s+\d{4})?\b`, "gi"),
  new RegExp(String.raw`\b${MONTH}\s+\d{4}\b`, "g"),
  new RegExp(String.raw`\b(?:next|this|last|on|by|until|before|after)\s+(?:${WEEKDAY}|week|weekend|month|year)\b`, "gi"),
  /\b(?:tomorrow|tonight|yesterday)\b/gi,
  /\bQ[1-4]\s+(?:19|20)\d{2}\b/g,
  /\b(?:in|since|by|until|before|after)\s+(?:19|20)\d{2}\b/gi,
  /\b\d{1,2}(?::\d{2})?\s?(?:am|pm)\b/gi,
];

const NUMBER_PATTERNS: RegExp[] = [
  // Money: $4,500 · €12.50 · 300 USD · 2k dollars
  /(?:[$€£¥]\s?\d[\d,]*(?:\.\d+)?(?:\s?(?:k|m|bn|million|billion|thousand))?|\b\d[\d,]*(?:\.\d+)?\s?(?:k\s)?(?:USD|EUR|GBP|CHF|JPY|dollars|euros|pounds)\b)/gi,
  /\b\d+(?:\.\d+)?\s?%/g,
  // Quantities with a unit
  /\b\d+(?:[.,]\d+)?\s?(?:kg|g|lbs?|km|mi|miles|cm|mm|ft|feet|meters?|litres?|liters?|hours?|hrs?|minutes?|mins?|days?|weeks?|months?|years?|people|guests|users|seats|items|tickets|nights|GB|MB|TB|ms|°C|°F|degrees)\b/gi,
];

const REFERENCE_PATTERNS: RegExp[] = [
  // Labelled identifiers: order 48213 · ticket #812 · invoice no. A-77 · flight LH 454
  /\b(?:order|ticket|invoice|account|case|booking|reservation|reference|ref|confirmation|tracking|flight|room|table|seat|gate|version|policy|claim|issue|PR|pull request|phone|extension|ext)\s*(?:number|no\.?|#|id)?\s*(?:is\s+)?:?\s*#?[A-Z]{0,3}[\s-]?\d[\w-]*/gi,
  // Codes of capitals and digits, with both: K7QX2M · LH454 · TR-48213-B
  /\b(?=[A-Z0-9-]*\d)(?=[A-Z0-9-]*[A-Z][A-Z0-9-]*[A-Z])[A-Z0-9]+(?:-[A-Z0-9]+)*\b/g,
];

/** Any other number of four or more digits (ids, codes, amounts), with the word before it for context. */
const BARE_NUMBER = /(?:\b([A-Za-z]{3,})\s+(?:is\s+|of\s+|was\s+|=\s*|:\s*)?)?(\b\d{4,}(?:[.,]\d+)*\b)/g;

const DECISION_CUE =
  /\b(?:decided|decide to|decision|agreed|agree to|let's go with|lets go with|go with|going with|chose|chosen|settled on|opted for|will use|we'll use|switch(?:ed)? to|confirmed|approved|final choice)\b/i;
const TASK_CUE =
  /\b(?:remind me|need to|needs to|have to|has to|must|todo|to-do|follow up|follow-up|don't forget|do not forget|don't let me forget|next step|action item|pending|waiting for|deadline|due (?:on|by)|please (?:send|book|schedule|check|email|call|remember|prepare|update|create|fix|review|cancel|order)|can you (?:send|book|schedule|check|email|call|prepare|update|create|fix|review|cancel|order))\b/i;
/** A promise someone made: the speaker, or someone they speak for, will do something. */
const COMMITMENT_CUE = /\b(?:I['’]ll|we['’]ll|I will|we will|I shall|I promise|I promised|we promised|I['’]m going to|we['’]re going to|I am going to)\b|\b(?:told|promised) \S+ (?:I|we)(?:['’]d| would| will)\b/i;

const NOT_NAMES = new Set(
  "I It He She They We You This That These Those The A An My Our Your Their His Her Its Someone Everyone Nobody Anyone Here There Yes No Ok Okay Thanks Thank Hi Hello Hey Sure Please Sorry Fine Good Great Well Just Also Not Now Then Today Tomorrow Monday Tuesday Wednesday Thursday Friday Saturday Sunday January February March April May June July August September October November December Assistant User Tool Happy Glad Back Done Ready Here Going Looking Trying Working Currently".split(
    " ",
  ),
);

/**
 * Pull key entities out of text with deterministic rules (offline): people from naming cues
 * ("my name is", "my manager Tom", "Dr. Lee"), places from movement/location cues, dates (ISO,
 * written, weekdays, times), numbers with their label (money, percentages, identifiers like
 * "order 48213", quantities), decisions and open tasks as their sentences. Nothing is taken from a
 * secret, an identifier or a special-category statement (a card's digit groups are not numbers
 * to keep, and "I'm Roma" names no person).
 *
 * @example
 * extractEntities("My name is Priya Raman; order 48213 arrives on 2024-05-17.")
 * // people ["Priya Raman"], numbers ["order 48213"], dates ["2024-05-17"]
 */
export function extractEntities(text: string, options: { nlp?: boolean } = {}): Required<SummaryEntities> {
  const out = emptyEntities();
  if (!text.trim()) return out;
  const sensitive = detectSensitive(text);
  // "I'm Roma" is no name: a match inside a sensitive statement is not taken.
  const inSensitive = (m: RegExpMatchArray) => sensitive.some((f) => f.start < (m.index ?? 0) + m[0].length && (m.index ?? 0) < f.end);
  const people = new Set<string>();
  for (const re of PERSON_PATTERNS) {
    for (const m of text.matchAll(re)) {
      if (inSensitive(m)) continue;
      const name = trimName(m[1]);
      if (name) people.add(name);
    }
  }
  // The language model of `compromise` finds names without a cue ("Ingrid Halvorsen from finance…").
  // Parsing is the costly part: only sentences with a capitalised word after their first are parsed.
  const named = options.nlp === false ? [] : sentencesOf(text).filter((sentence) => INNER_CAPITAL.test(sentence) || NAME_AT_START.test(sentence));
  const doc = named.length === 0 ? null : nlp(named.join("\n"));
  if (doc) {
    for (const raw of doc.people().out("array") as string[]) {
      const name = trimName(cleanNlpName(raw));
      if (name && !sensitive.some((f) => text.slice(f.start, f.end).includes(name))) people.add(name);
    }
  }
  // "Ingrid" and "Ingrid Halvorsen" are one person: keep the longer.
  for (const p of [...people]) if ([...people].some((q) => q !== p && q.startsWith(`${p} `))) people.delete(p);
  out.people.push(...people);

  const places = new Set<string>();
  for (const re of PLACE_PATTERNS) {
    for (const m of text.matchAll(re)) {
      if (inSensitive(m)) continue;
      const place = trimName(m[1]);
      if (place && !people.has(place)) places.add(place);
    }
  }
  if (doc) {
    for (const raw of doc.places().out("array") as string[]) {
      const place = trimName(cleanNlpName(raw));
      if (place && !people.has(place)) places.add(place);
    }
  }
  out.places.push(...places);

  // Spans already claimed by dates/numbers so a bare number is not listed twice.
  const claimed: Array<[number, number]> = [];
  const claim = (start: number, end: number) => claimed.push([start, end]);
  const isClaimed = (start: number, end: number) => claimed.some(([s, e]) => start < e && end > s);
  // Secrets, identifiers and special-category statements are never key facts, whole or in pieces:
  // their spans are claimed first, so no date or number (a card's digit groups) is taken from them.
  for (const f of sensitive) claim(f.start, f.end);

  const dates = new Set<string>();
  for (const re of DATE_PATTERNS) {
    for (const m of text.matchAll(re)) {
      const start = m.index ?? 0;
      if (isClaimed(start, start + m[0].length)) continue;
      claim(start, start + m[0].length);
      dates.add(m[0].replace(/\s+/g, " ").trim());
    }
  }
  out.dates.push(...dates);

  const references = new Set<string>();
  for (const re of REFERENCE_PATTERNS) {
    for (const m of text.matchAll(re)) {
      const start = m.index ?? 0;
      if (isClaimed(start, start + m[0].length)) continue;
      claim(start, start + m[0].length);
      references.add(m[0].replace(/\s+/g, " ").trim());
    }
  }
  out.references.push(...references);

  const numbers = new Set<string>();
  for (const re of NUMBER_PATTERNS) {
    for (const m of text.matchAll(re)) {
      const start = m.index ?? 0;
      if (isClaimed(start, start + m[0].length)) continue;
      claim(start, start + m[0].length);
      numbers.add(m[0].replace(/\s+/g, " ").trim());
    }
  }
  for (const m of text.matchAll(BARE_NUMBER)) {
    const numberStart = (m.index ?? 0) + m[0].length - m[2].length;
    if (isClaimed(numberStart, numberStart + m[2].length)) continue;
    claim(numberStart, numberStart + m[2].length);
    const label = m[1] && !STOP_LABELS.has(m[1].toLowerCase()) ? `${m[1]} ` : "";
    numbers.add(`${label}${m[2]}`);
  }
  out.numbers.push(...numbers);

  for (const sentence of sentencesOf(text)) {
    if (sensitive.length > 0 && detectSensitive(sentence).length > 0) continue;
    if (DECISION_CUE.test(sentence)) out.decisions.push(clip(sentence));
    else if (/\?\s*$/.test(sentence)) continue;
    else if (TASK_CUE.test(sentence)) out.openTasks.push(clip(sentence));
    else if (COMMITMENT_CUE.test(sentence)) out.commitments.push(clip(sentence));
  }
  return out;
}

const STOP_LABELS = new Set("the and for with from that this was are has had have not but you your our their about than then into over".split(" "));

/** Sentences of a text (split on end punctuation and newlines). */
export function sentencesOf(text: string): string[] {
  const parts = text.split(/\n+|(?<=[.!?])\s+/);
  const out: string[] = [];
  for (const raw of parts) {
    const part = raw.trim();
    if (!part) continue;
    // "Dr. Lee", "e.g. this": an abbreviation does not end a sentence.
    if (out.length > 0 && ABBREVIATION_END.test(out[out.length - 1])) out[out.length - 1] += ` ${part}`;
    else out.push(part);
  }
  return out;
}

const ABBREVIATION_END = /(?:^|\s)(?:Mr|Mrs|Ms|Dr|Prof|St|Mt|vs|etc|e\.g|i\.e|No|approx|Inc|Ltd|Jr|Sr)\.$/;

/** A capitalised word that does not start the sentence (and is not "I"). */
const INNER_CAPITAL = /\s(?!I\b)\p{Lu}[\p{Ll}'’-]/u;
/** Two capitalised words opening a sentence ("Ingrid Halvorsen from finance …"). */
const NAME_AT_START = /^\p{Lu}\p{Ll}+\s+\p{Lu}\p{Ll}/u;

/** A name as `compromise` returns it, without the punctuation and possessive around it. */
function cleanNlpName(raw: string): string {
  return raw
    .replace(/['’]s\b/g, "")
    .replace(/^[^\p{L}]+|[^\p{L}]+$/gu, "")
    .replace(/^(?:\p{Ll}[\p{L}'’-]*\s+)+/u, "")
    .trim();
}

function trimName(raw: string | undefined): string | null {
  if (!raw) return null;
  const words = raw.trim().split(/\s+/);
  while (words.length > 0 && NOT_NAMES.has(words[words.length - 1])) words.pop();
  if (words.length === 0 || NOT_NAMES.has(words[0])) return null;
  return words.join(" ");
}

/** Keep a sentence to 30 words. */
function clip(sentence: string): string {
  const words = sentence.split(/\s+/);
  return words.length <= 30 ? sentence : `${words.slice(0, 30).join(" ")}…`;
}
