/**
 * Which candidate subjects are profile fields, and how a candidate's sentence becomes the field's
 * value. A subject maps to a field only when the app's profile schema has that field
 * (`ProfileTarget.fields`) and a value can be read from the sentence; otherwise the candidate is
 * kept as an ordinary memory.
 */
import { LANGUAGES } from "../../rule-extractor/subjects.js";

export interface ProfileFieldMapping {
  /** Candidate subjects this field holds (the slot keys of the extractors). */
  subjects: readonly string[];
  /** The profile field (a key of the app's profile schema). */
  field: string;
  /** The value in a candidate's sentence, or undefined when the sentence does not give one clearly. */
  parse(text: string): unknown;
  /**
   * The value a candidate's sentence says is no longer true ("User no longer works at Acme." →
   * "Acme"): the field is removed when it holds that value.
   */
  denies?(text: string): string | undefined;
}

const LANGUAGE_RE = new RegExp(`\\b(${LANGUAGES})\\b`, "i");

function timezoneValue(text: string): string | undefined {
  const candidates = [
    ...(text.match(/\b[A-Z][A-Za-z_]+(?:\/[A-Za-z_+-]+)+\b/g) ?? []),
    ...(text.match(/\b(?:UTC|GMT)(?:\s?[+-]\s?\d{1,2}(?::?\d{2})?)?\b/g) ?? []).map((z) => z.replace(/\s/g, "")),
    ...(text.match(/\b[A-Z]{3,4}\b/g) ?? []),
  ];
  for (const zone of candidates) {
    const offset = /^(?:UTC|GMT)([+-])(\d{1,2})(?::?(\d{2}))?$/.exec(zone);
    if (offset) {
      const hours = Number(offset[2]);
      if (hours > 14) continue;
      return `UTC${offset[1]}${String(hours).padStart(2, "0")}:${offset[3] ?? "00"}`;
    }
    try {
      // Intl knows the IANA names (and links such as "CET"); it throws on anything else.
      return new Intl.DateTimeFormat("en-US", { timeZone: zone }).resolvedOptions().timeZone;
    } catch {
      // not a time zone: try the next
    }
  }
  return undefined;
}

function unitsValue(text: string): string | undefined {
  const metric = /\b(?:metric|celsius|°\s?C|kilomet(?:er|re)s?|km|kilograms?|kg|litres?|liters?|SI units)\b/i.test(text);
  const imperial = /\b(?:imperial|fahrenheit|°\s?F|miles|pounds|lbs|gallons?|feet|inches|US customary)\b/i.test(text);
  if (metric === imperial) return undefined;
  return metric ? "metric" : "imperial";
}

function nameValue(text: string): string | undefined {
  const m = /\bname is\s+([\p{Lu}][\p{L}'’-]*(?:\s+[\p{Lu}][\p{L}'’-]*){0,3})\s*[.!]?$/u.exec(text.trim());
  return m ? m[1] : undefined;
}

function languageValue(text: string): string | undefined {
  const m = LANGUAGE_RE.exec(text);
  if (!m) return undefined;
  const found = text.match(new RegExp(`\\b(?:${LANGUAGES})\\b`, "gi")) ?? [];
  // "answers in German, not English": ambiguous for a parser, keep it as a memory.
  if (new Set(found.map((l) => l.toLowerCase())).size > 1) return undefined;
  return m[1][0].toUpperCase() + m[1].slice(1).toLowerCase();
}

/** "User is on the Growth plan (12 seats)." → "Growth (12 seats)": the plan, with its seat count when stated. */
function planValue(text: string): string | undefined {
  const m = /\b(?:on|has|uses|have|pays for|subscribed to)\s+(?:the|a|an)\s+([\p{L}\d+-]+(?:\s[\p{L}\d+-]+)?)\s+(?:plan|tier|subscription)\b/iu.exec(text) ?? /\bplan is\s+(?:the\s+)?([\p{L}\d+-]+)/iu.exec(text);
  if (!m) return undefined;
  const seats = /\((\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve) (seats?|users?|licen[cs]es?)\)/i.exec(text);
  return seats ? `${m[1]} (${seats[1]} ${seats[2].toLowerCase()})` : m[1];
}

/** The statement denies its value ("User no longer works at Acme"): no value to set. */
const NEGATED = /\b(?:no longer|not|never|isn't|doesn't|does not)\b/i;

/** Strip a leading article and the final full stop: "a paediatric nurse." → "paediatric nurse". */
function bare(v: string): string {
  return v.replace(/^(?:an?|the)\s+/i, "").replace(/[\s.!]+$/u, "").trim();
}

/**
 * "User is a paediatric nurse (mostly night shifts).", "User works as a translator.", "User's job
 * title is Staff Engineer.", "User is retired." → the role, with its detail in brackets; "User runs
 * a small pottery studio." → "runs a small pottery studio".
 */
function occupationValue(text: string): string | undefined {
  if (NEGATED.test(text)) return undefined;
  const t = text.trim();
  // "User runs a small pottery studio in Galway." keeps its verb: "runs a small pottery studio in Galway".
  const runs = /^User ((?:runs|owns|co-owns|founded|started|heads|leads|manages)\s+.+)$/i.exec(t);
  if (runs) return runs[1].replace(/[\s.!]+$/u, "");
  const m = /^User (?:is|works as)\s+(.+)$/i.exec(t) ?? /^User's (?:job title|job|role|title|occupation|profession) is\s+(.+)$/i.exec(t);
  if (!m) return undefined;
  const v = bare(m[1]);
  return v === "" || v.length > 300 ? undefined : v;
}

/** "User works at Stripe.", "User's employer is Acme.", "User is self-employed." → the organisation. */
function employerValue(text: string): string | undefined {
  if (NEGATED.test(text)) return undefined;
  const t = text.trim();
  if (/^User is self-employed\b/i.test(t)) return "self-employed";
  const m = /^User works (?:at|for)\s+(.+)$/i.exec(t) ?? /^User's (?:employer|company) is\s+(.+)$/i.exec(t);
  if (!m) return undefined;
  const v = bare(m[1]);
  return v === "" || v.length > 200 ? undefined : v;
}

/** "User lives in Lisbon (moved there).", "User is based in Toronto.", "User's home city is Leeds." → the place. */
function locationValue(text: string): string | undefined {
  if (NEGATED.test(text)) return undefined;
  const m = /^User (?:lives in|is based in)\s+(.+?)(?:\s+\(moved there\))?[.!]?$/i.exec(text.trim()) ?? /^User's (?:home city|city) is\s+(.+?)[.!]?$/i.exec(text.trim());
  if (!m) return undefined;
  const v = m[1].trim();
  return v === "" || v.length > 200 ? undefined : v;
}

/** "User no longer <verb phrase> <value>." → the value. */
function denied(re: RegExp): (text: string) => string | undefined {
  return (text) => {
    const m = re.exec(text.trim());
    return m ? bare(m[1]) : undefined;
  };
}

/**
 * The default mappings, for the default profile fields (name, timezone, units, language, home
 * city, occupation, employer, plan). Pass your own to `profileFields` for another schema.
 */
export const DEFAULT_PROFILE_FIELDS: readonly ProfileFieldMapping[] = [
  { subjects: ["name"], field: "name", parse: nameValue },
  { subjects: ["timezone"], field: "timezone", parse: timezoneValue },
  { subjects: ["units"], field: "units", parse: unitsValue },
  { subjects: ["language.response"], field: "language", parse: languageValue },
  { subjects: ["location.home"], field: "location", parse: locationValue, denies: denied(/^User (?:no longer|does not) lives? in\s+(.+?)[.!]?$/i) },
  { subjects: ["occupation"], field: "occupation", parse: occupationValue, denies: denied(/^User is no longer\s+(.+?)[.!]?$/i) },
  { subjects: ["employer"], field: "employer", parse: employerValue, denies: denied(/^User (?:no longer|does not) works? (?:at|for)\s+(.+?)[.!]?$/i) },
  { subjects: ["plan", "account.plan", "subscription.plan"], field: "plan", parse: planValue },
];

/** The mapping of a subject, if the profile has its field. */
export function profileFieldFor(subject: string | undefined, fields: readonly string[], mappings: readonly ProfileFieldMapping[]): ProfileFieldMapping | undefined {
  if (!subject || subject === "*") return undefined;
  return mappings.find((m) => m.subjects.includes(subject) && fields.includes(m.field));
}
