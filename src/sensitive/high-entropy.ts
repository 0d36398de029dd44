import type { Detector } from "./categories.js";
import { shannonEntropy } from "./checksums.js";

/**
 * The fallback for credentials of unknown formats: a long token that mixes letters and digits,
 * with high character entropy and few vowels (random strings use vowels ~16% of the time, words
 * and identifiers ~35%+).
 *
 * Deliberately not flagged (documented in docs/extraction.md): pure hex (commit hashes, checksums,
 * UUIDs), `sha256:`/`sha512-` digests, tokens made of word and number segments (versions,
 * order numbers, snake_case constants), URLs and paths, words without digits (German compounds,
 * camelCase identifiers).
 */
export const HIGH_ENTROPY_MIN_LENGTH = 24;

const TOKEN = /[A-Za-z0-9_\-+/=.:~]{24,}/g;

export function isHighEntropyToken(raw: string): boolean {
  const token = raw.replace(/^[.:~=-]+|[.:,]+$/g, "");
  if (token.length < HIGH_ENTROPY_MIN_LENGTH) return false;
  if (/^(?:sha(?:1|256|384|512)|md5)[:-]/i.test(token)) return false;
  if (/^[0-9a-f-]+$/i.test(token)) return false; // hex digests, commit ids, UUIDs
  if (/^[/.~]/.test(token) || /\.(?:[a-z]{1,5})$/.test(token) && !/=$/.test(token)) return false; // paths, file names
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(token)) return false; // URLs: their secrets are caught by other detectors
  if (!/\d/.test(token) || !/[A-Za-z]/.test(token)) return false;
  // Structured tokens: every segment is a word or a number (v2.14.3-rc.1, ORD-2024-000123, ERR_SOME_CODE_42).
  const segments = token.split(/[-_.:/+~=]+/).filter((s) => s.length > 0);
  if (segments.length >= 2 && segments.every((s) => /^\d+$/.test(s) || /^[A-Za-z]+$/.test(s) || /^[A-Za-z]+\d{1,4}$/.test(s))) return false;
  const body = token.replace(/[-_.:/+~=]/g, "");
  if (body.length < 20) return false;
  const letters = body.replace(/[^A-Za-z]/g, "");
  const vowels = letters.replace(/[^aeiouAEIOU]/g, "").length;
  const vowelRatio = letters.length === 0 ? 0 : vowels / letters.length;
  const digits = body.replace(/\D/g, "").length;
  const classes = [/[a-z]/, /[A-Z]/, /\d/].filter((r) => r.test(body)).length;
  const entropy = shannonEntropy(body);
  if (vowelRatio > 0.35) return false;
  if (/[A-Z]/.test(body) && /[a-z]/.test(body) && wordCoverage(body, letters.length) >= 0.75) return false; // camelCase identifiers
  if (digits < 1) return false;
  if (classes === 3) return entropy >= 3.8;
  return body.length >= 32 && entropy >= 4.0;
}

/** Share of letters that sit in word-like runs (camelCase words with a vowel, short acronyms). */
function wordCoverage(body: string, letterCount: number): number {
  if (letterCount === 0) return 0;
  let covered = 0;
  for (const w of body.match(/[A-Z]?[a-z]{2,}|[A-Z]{2,5}(?![a-z])/g) ?? []) {
    if (/[aeiouy]/i.test(w) || w.length <= 5 && w === w.toUpperCase()) covered += w.length;
  }
  return covered / letterCount;
}

export const HIGH_ENTROPY_DETECTOR: Detector = {
  name: "high_entropy_string",
  category: "high_entropy",
  find(text) {
    const spans: Array<{ start: number; end: number }> = [];
    TOKEN.lastIndex = 0;
    for (let m = TOKEN.exec(text); m !== null; m = TOKEN.exec(text)) {
      if (isHighEntropyToken(m[0])) spans.push({ start: m.index, end: m.index + m[0].length });
    }
    return spans;
  },
};
