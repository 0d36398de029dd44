/**
 * Terms of `previous` that `current` no longer states: the names, numbers and other values
 * (capitalised words, words with digits or "@") a superseded memory held. "User lives in
 * Prenzlauer Berg in Berlin." → "User lives in Lisbon (moved there)." gives ["Prenzlauer", "Berg",
 * "Berlin"]; a number keeps its unit ("3 seats"). Pure.
 */
export function staleTerms(previous: string, current: string): string[] {
  const now = current.toLowerCase();
  const terms = new Set<string>();
  const values = previous.match(/\b\d[\d.,:/-]*(?:\s+[a-z]+)?|[\p{L}\p{N}._%+-]+@[\p{L}\p{N}.-]+|(?<![.!?]\s|^)\b\p{Lu}[\p{L}\p{N}'’+&-]*/gu) ?? [];
  for (const v of values) {
    const t = v.replace(/[.,:]+$/, "");
    if (/^(?:User|I|The|A|An)$/.test(t) || t.length < 2) continue;
    if (!now.includes(t.toLowerCase())) terms.add(t);
  }
  return [...terms];
}
