/** A month, capitalised or not ("June", "june", "jun"). */
const MONTH = `(?:${["jan(?:uary)?", "feb(?:ruary)?", "mar(?:ch)?", "apr(?:il)?", "may", "june?", "july?", "aug(?:ust)?", "sep(?:t(?:ember)?)?", "oct(?:ober)?", "nov(?:ember)?", "dec(?:ember)?"].map((m) => `[${m[0].toUpperCase()}${m[0]}]${m.slice(1)}`).join("|")})`;
const DAY = String.raw`\d{1,2}(?:st|nd|rd|th)?`;
/** Values, longest first at each place: a day with its month, a number with its unit, an e-mail address, a capitalised word. */
const VALUES = new RegExp(
  String.raw`\b${MONTH}\.?\s+${DAY}\b|\b${DAY}\s+(?:of\s+)?${MONTH}\b|\b\d[\d.,:/-]*(?:\s+[a-z]+)?|[\p{L}\p{N}._%+-]+@[\p{L}\p{N}.-]+|(?<![.!?]\s|^)\b\p{Lu}[\p{L}\p{N}'’+&-]*`,
  "gu",
);

/**
 * Terms of `previous` that `current` no longer states: the names, numbers and other values
 * (capitalised words, words with digits or "@") a superseded memory held. "User lives in
 * Prenzlauer Berg in Berlin." → "User lives in Lisbon (moved there)." gives ["Prenzlauer", "Berg",
 * "Berlin"]; a number keeps its unit ("3 seats"), a day its month ("June 3", typed "june 3" or
 * not). Pure.
 */
export function staleTerms(previous: string, current: string): string[] {
  const now = current.toLowerCase();
  const terms = new Set<string>();
  const values = previous.match(VALUES) ?? [];
  for (const v of values) {
    const t = v.replace(/[.,:]+$/, "");
    if (/^(?:User|I|The|A|An)$/.test(t) || t.length < 2) continue;
    if (!now.includes(t.toLowerCase())) terms.add(t);
  }
  return [...terms];
}
