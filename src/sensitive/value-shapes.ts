import { shannonEntropy } from "./checksums.js";

/**
 * What a secret value looks like, whatever its language: the shapes the cue-word detectors accept
 * after (or before) a cue, and the one shape strong enough on its own.
 */

/** Things people write instead of a real value in examples: `***`, `<password>`, `${PASSWORD}`, `xxxx`. */
export function isPlaceholder(value: string): boolean {
  return /^(?:[*•x.]+|<[^>]*>|\$\{[^}]*\}|\{\{[^}]*\}\}|%[A-Z_]+%|\$[A-Z_]+|\[[^\]]*\]|\.\.\.|…|your[_-]?\w*|changeme_?here|example\w*|redacted|hidden)$/i.test(value);
}

/** Quotes and brackets around a value, and the sentence punctuation after it ("…is X." → "X"). */
export function trimValue(raw: string): { value: string; offset: number } {
  let start = 0;
  let end = raw.length;
  while (start < end && /["'`“”‘’«»„([{<]/.test(raw[start])) start++;
  while (end > start && /["'`“”‘’«»)\]}>.,;:?、，。：；！？]/.test(raw[end - 1])) end--;
  return { value: raw.slice(start, end), offset: start };
}

const STRONG_SYMBOL = /[!#$%&*?@^~+|\\]/;
const NOT_A_VALUE = /^(?:https?:|www\.|ftp:|mailto:)|:\/\/|^[/~]|^\.{1,2}\//i;
const EMAIL = /^[^@\s]+@[^@\s]+\.[a-z]{2,}$/i;
/** Dates, times, versions, money, ordinals, quantities: numbers that are not codes. */
const NOT_A_CODE =
  /^(?:\d{1,4}[-./]\d{1,2}[-./]\d{1,4}|\d{1,2}:\d{2}(?::\d{2})?(?:am|pm)?|v?\d+(?:\.\d+){1,3}(?:[-+][\w.]+)?|[$€£¥]\d[\d.,]*|\d[\d.,]*[$€£¥%]|\d+(?:st|nd|rd|th|x|k|m|kb|mb|gb|tb|ms|s|h|km|kg|g|cm|mm|px|pt|am|pm|hz|khz|mhz|ghz|°c|°f|°)|(?:19|20)\d{2}s?)$/i;

/** The same without years: a PIN may be 1927. */
const NOT_A_PIN = new RegExp(NOT_A_CODE.source.replace("|(?:19|20)\\d{2}s?", ""), "i");

/**
 * A value that reads as a password or code, not a word: letters with digits or a symbol
 * (4+ characters), or 4–12 digits — not an address, a date, a version or a placeholder.
 */
export function secretShaped(value: string): boolean {
  if (value.length < 4 || value.length > 128 || isPlaceholder(value) || NOT_A_VALUE.test(value) || EMAIL.test(value)) return false;
  if (/^\d{4,12}$/.test(value)) return !/^(?:19|20)\d{2}$/.test(value);
  if (NOT_A_CODE.test(value)) return false;
  const letters = /\p{L}/u.test(value);
  return letters && (/\d/.test(value) || STRONG_SYMBOL.test(value) || /_/.test(value));
}

/**
 * A password on its own, with no cue word: upper and lower case, a digit and a symbol, 8–64
 * characters, not an address, a mention or a hashtag, not code (brackets, `=`).
 *
 * @example
 * strongPasswordShape("Orbit!Pancake73") // true
 * strongPasswordShape("v2.14.3-rc.1")    // false
 */
export function strongPasswordShape(value: string): boolean {
  if (value.length < 8 || value.length > 64 || NOT_A_VALUE.test(value) || EMAIL.test(value) || /^[#@]/.test(value) || /[()[\]{}<>="'`,;]/.test(value)) return false;
  return /\p{Ll}/u.test(value) && /\p{Lu}/u.test(value) && /\d/.test(value) && STRONG_SYMBOL.test(value.replace(/[!?]+$/, (m) => (/\d[!?]+$/.test(value) ? m : "")));
}

/**
 * A password shape near a credential cue: letters and digits joined by a symbol or mixing cases
 * ("hEron_Sky2290", "Sunflower_2019", "schnecke.tanz42"), 6–64 characters.
 */
export function moderatePasswordShape(value: string): boolean {
  if (value.length < 6 || value.length > 64 || NOT_A_VALUE.test(value) || EMAIL.test(value) || /^[#@]/.test(value) || /[()[\]{}<>="'`]/.test(value)) return false;
  if (NOT_A_CODE.test(value)) return false;
  const letters = /\p{L}/u.test(value);
  const digits = /\d/.test(value);
  const joined = /[\p{L}\d][_.!#$%&*?@^~+-][\p{L}\d]/u.test(value) || STRONG_SYMBOL.test(value);
  const mixedCase = /\p{Ll}/u.test(value) && /\p{Lu}/u.test(value.slice(1));
  return letters && digits && (joined || mixedCase);
}

/** A PIN or keypad code: 4–8 digits, maybe grouped ("24-11-37", "6 0 9 1"), or a short code with 3+ digits ("17B42"). */
export function pinShaped(value: string): boolean {
  const compact = value.replace(/[\s.-]/g, "");
  if (/^\d{4,8}$/.test(compact)) return !NOT_A_PIN.test(value) || /^\d{2}-\d{2}-\d{2}$/.test(value);
  return /^[0-9A-Z#*]{4,8}$/i.test(compact) && (compact.match(/\d/g) ?? []).length >= 3 && (compact.match(/\p{L}/gu) ?? []).length <= 2;
}

/** A key or token value: 16+ characters of a key alphabet, letters with digits, not a UUID or a version. */
export function keyShaped(value: string): boolean {
  if (value.length < 16 || value.length > 4096 || NOT_A_VALUE.test(value) || EMAIL.test(value) || isPlaceholder(value)) return false;
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)) return false;
  if (!/^[A-Za-z0-9+/=_\-.~:]+$/.test(value) || /^v?\d+(?:\.\d+)+/.test(value)) return false;
  return (/\d/.test(value) && /[A-Za-z]/.test(value)) || (value.length >= 20 && shannonEntropy(value) >= 3.5);
}

/** Digits grouped as a keypad code is read out: "6 0 9 1", "24 11 37" (up to 8 digits). */
export function groupedDigitsAt(text: string, from: number): { start: number; end: number } | null {
  const m = /^\s*["'“‘([]?((?:\d{1,4}[ .-]){1,7}\d{1,4}|\d{4,8})(?![\d.,]\d)/.exec(text.slice(from));
  if (!m) return null;
  const digits = m[1].replace(/\D/g, "");
  if (digits.length < 4 || digits.length > 8) return null;
  const start = from + m[0].indexOf(m[1]);
  return { start, end: start + m[1].length };
}
