/**
 * Which candidate subjects are profile fields, and how a candidate's sentence becomes the field's
 * value. A subject maps to a field only when the app's profile schema has that field
 * (`ProfileTarget.fields`) and a value can be read from the sentence; otherwise the candidate is
 * kept as an ordinary memory.
 */
import { LANGUAGES } from "../rules/subjects.js";

export interface ProfileFieldMapping {
  /** Candidate subjects this field holds (the slot keys of the extractors). */
  subjects: readonly string[];
  /** The profile field (a key of the app's profile schema). */
  field: string;
  /** The value in a candidate's sentence, or undefined when the sentence does not give one clearly. */
  parse(text: string): unknown;
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

function planValue(text: string): string | undefined {
  const m = /\b(?:on|has|uses|have|pays for|subscribed to)\s+(?:the|a|an)\s+([\p{L}\d+-]+(?:\s[\p{L}\d+-]+)?)\s+(?:plan|tier|subscription)\b/iu.exec(text) ?? /\bplan is\s+(?:the\s+)?([\p{L}\d+-]+)/iu.exec(text);
  return m ? m[1] : undefined;
}

/**
 * The default mappings, for the default profile fields (name, timezone, units, language, plan).
 * Pass your own to `profileFields` for another schema.
 */
export const DEFAULT_PROFILE_FIELDS: readonly ProfileFieldMapping[] = [
  { subjects: ["name"], field: "name", parse: nameValue },
  { subjects: ["timezone"], field: "timezone", parse: timezoneValue },
  { subjects: ["units"], field: "units", parse: unitsValue },
  { subjects: ["language.response"], field: "language", parse: languageValue },
  { subjects: ["plan", "account.plan", "subscription.plan"], field: "plan", parse: planValue },
];

/** The mapping of a subject, if the profile has its field. */
export function profileFieldFor(subject: string | undefined, fields: readonly string[], mappings: readonly ProfileFieldMapping[]): ProfileFieldMapping | undefined {
  if (!subject || subject === "*") return undefined;
  return mappings.find((m) => m.subjects.includes(subject) && fields.includes(m.field));
}
