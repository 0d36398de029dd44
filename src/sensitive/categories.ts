/**
 * What the sensitive-data filter looks for. Categories are stable strings (counted in policy
 * results, asserted in tests); detectors are finer-grained names for diagnostics.
 */

/** Secrets: never stored, whatever the app allows. */
export const SECRET_CATEGORIES = ["private_key", "api_key", "token", "connection_string", "password", "high_entropy"] as const;
/** Financial and identity numbers: never stored. */
export const IDENTIFIER_CATEGORIES = ["card_number", "iban", "bank_account", "national_id"] as const;
/**
 * GDPR art. 9 special categories, and criminal convictions and offences (art. 10): stored only
 * when the app sets `allowSpecialCategory`. `sexual_orientation` covers sex life and gender
 * identity too; `health` covers addiction.
 */
export const SPECIAL_CATEGORIES = [
  "health",
  "genetic",
  "biometric",
  "religion",
  "sexual_orientation",
  "political_opinion",
  "ethnicity",
  "trade_union",
  "criminal_record",
] as const;

export type SecretCategory = (typeof SECRET_CATEGORIES)[number];
export type IdentifierCategory = (typeof IDENTIFIER_CATEGORIES)[number];
export type SpecialCategory = (typeof SPECIAL_CATEGORIES)[number];
export type SensitiveCategory = SecretCategory | IdentifierCategory | SpecialCategory;

export type SensitiveGroup = "secret" | "identifier" | "special_category";

/** Every category, most specific first: the first one found is the category a rejection reports. */
export const SENSITIVE_CATEGORIES: readonly SensitiveCategory[] = [
  "private_key",
  "api_key",
  "token",
  "connection_string",
  "password",
  "card_number",
  "iban",
  "bank_account",
  "national_id",
  "high_entropy",
  ...SPECIAL_CATEGORIES,
];

export function groupOf(category: SensitiveCategory): SensitiveGroup {
  if ((SECRET_CATEGORIES as readonly string[]).includes(category)) return "secret";
  if ((IDENTIFIER_CATEGORIES as readonly string[]).includes(category)) return "identifier";
  return "special_category";
}

export function isSpecialCategory(category: SensitiveCategory): category is SpecialCategory {
  return (SPECIAL_CATEGORIES as readonly string[]).includes(category);
}

/** One match. Offsets let a caller redact; the matched text itself is deliberately not included. */
export interface SensitiveFinding {
  category: SensitiveCategory;
  group: SensitiveGroup;
  /** Which detector matched (e.g. `openai_key`, `iban`, `health_condition`). */
  detector: string;
  start: number;
  end: number;
}

/** A detector returns spans; `detectSensitive` adds category, group and name. */
export interface Detector {
  name: string;
  category: SensitiveCategory;
  find(text: string): Array<{ start: number; end: number }>;
}

/** Spans of every match of a global regex (or of its first capture group when `group` is set). */
export function regexSpans(re: RegExp, text: string, accept?: (m: RegExpExecArray) => boolean, group?: number): Array<{ start: number; end: number }> {
  if (!re.global) throw new Error(`detector regex must be global: ${re.source.slice(0, 40)}`);
  const spans: Array<{ start: number; end: number }> = [];
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    if (m[0].length === 0) {
      re.lastIndex++;
      continue;
    }
    if (accept && !accept(m)) continue;
    if (group !== undefined && m[group] !== undefined) {
      const start = m.index + m[0].indexOf(m[group]);
      spans.push({ start, end: start + m[group].length });
    } else {
      spans.push({ start: m.index, end: m.index + m[0].length });
    }
  }
  return spans;
}

/** A detector made of one or more regexes, with an optional acceptance test on each match. */
export function regexDetector(
  name: string,
  category: SensitiveCategory,
  patterns: RegExp | RegExp[],
  accept?: (m: RegExpExecArray) => boolean,
  group?: number,
): Detector {
  const list = Array.isArray(patterns) ? patterns : [patterns];
  return { name, category, find: (text) => list.flatMap((re) => regexSpans(re, text, accept, group)) };
}
