import { isSpecialCategory, type SensitiveCategory } from "../extraction/sensitive/categories.js";
import { blockingFindings, detectSensitive } from "../extraction/sensitive/detect-sensitive.js";

export interface RedactOptions {
  /** Keep special-category data (health, religion, …) as the write policy would. Default false. */
  allowSpecialCategory?: boolean;
  /**
   * Secret values seen in the thread's own messages: removed wherever they reappear, even where no
   * detector would flag them (a summariser may write "login: hunter2" without the word password).
   */
  knownSecrets?: readonly string[];
}

export interface RedactResult {
  text: string;
  /** Categories removed, in first-seen order (never the values). */
  categories: string[];
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Remove what the secret filter blocks from a text, span by span (`[redacted api_key]`), instead of
 * refusing the whole text: a session summary is worth keeping without the key it quoted. Secrets,
 * card numbers, IBANs and national ids always go; special categories unless allowed. Pure.
 *
 * @example
 * redactSensitive("User shared key sk-proj-4fJq9xLm2TzR8vWb1KdN6pYh to debug the 401.")
 * // { text: "User shared key [redacted api_key] to debug the 401.", categories: ["api_key"] }
 */
export function redactSensitive(text: string, options: RedactOptions = {}): RedactResult {
  const categories: string[] = [];
  const note = (c: string) => {
    if (!categories.includes(c)) categories.push(c);
  };
  let out = text;
  for (const value of options.knownSecrets ?? []) {
    if (value.length < 4) continue;
    // Long values anywhere; short ones (PINs) only as whole tokens.
    const re = value.length >= 6 ? new RegExp(escapeRegex(value), "g") : new RegExp(`(?<![A-Za-z0-9])${escapeRegex(value)}(?![A-Za-z0-9])`, "g");
    if (re.test(out)) {
      out = out.replace(re, "[redacted secret]");
      note("secret");
    }
  }
  // Detectors run until nothing is left: a replacement can reveal a neighbouring match.
  for (let round = 0; round < 3; round++) {
    const findings = blockingFindings(detectSensitive(out), { allowSpecialCategory: options.allowSpecialCategory });
    if (findings.length === 0) break;
    const spans = mergeSpans(findings);
    let next = "";
    let at = 0;
    for (const s of spans) {
      next += out.slice(at, s.start) + `[redacted ${s.category}]`;
      at = s.end;
      note(s.category);
    }
    out = next + out.slice(at);
  }
  return { text: out, categories };
}

/**
 * Secret values in a thread's messages (credentials, cards, IBANs, ids; not special categories),
 * for `knownSecrets`.
 */
export function secretValuesIn(texts: readonly string[]): string[] {
  const values = new Set<string>();
  for (const text of texts) {
    for (const f of detectSensitive(text)) {
      if (isSpecialCategory(f.category)) continue;
      const value = text.slice(f.start, f.end).trim();
      if (value.replace(/[^A-Za-z0-9]/g, "").length >= 4) values.add(value);
    }
  }
  for (const v of contextualSecrets(texts)) values.add(v);
  // Longest first, so a value containing another is replaced whole.
  return [...values].sort((a, b) => b.length - a.length);
}

const SECRET_CUE = /\b(?:password|passcode|passphrase|pass code|pin(?: code)?|login|credentials?|secret|door code|wifi key|wi-fi key)\b/i;

/**
 * Password-like tokens in a message that speaks of a password without the "password is …" shape a
 * detector needs ("I keep forgetting my banking password, can you remember it? it's Mar1posa!2026"):
 * a token of 6+ characters mixing letters with digits or symbols, in a message that names a
 * password, PIN or login. A past session never quotes it.
 */
export function contextualSecrets(texts: readonly string[]): string[] {
  const out: string[] = [];
  for (const text of texts) {
    if (!SECRET_CUE.test(text)) continue;
    for (const raw of text.split(/\s+/)) {
      const token = raw.replace(/^[("'“‘]+|[)"'”’.,;:?]+$/g, "");
      if (token.length < 6 || /^https?:|@/.test(token)) continue;
      const letters = /\p{L}/u.test(token);
      const digits = /\d/.test(token);
      const symbols = /[!#$%^&*_+=~|\\<>?-]/.test(token);
      if (letters && (digits || symbols) && !/^\d{1,2}(?:am|pm|h)$/i.test(token) && !/^[a-z]+-[a-z]+$/i.test(token)) out.push(token);
    }
  }
  return out;
}

function mergeSpans(findings: ReadonlyArray<{ start: number; end: number; category: SensitiveCategory }>): Array<{ start: number; end: number; category: SensitiveCategory }> {
  const sorted = [...findings].sort((a, b) => a.start - b.start || b.end - a.end);
  const out: Array<{ start: number; end: number; category: SensitiveCategory }> = [];
  for (const f of sorted) {
    const last = out[out.length - 1];
    if (last && f.start < last.end) last.end = Math.max(last.end, f.end);
    else out.push({ start: f.start, end: f.end, category: f.category });
  }
  return out;
}
