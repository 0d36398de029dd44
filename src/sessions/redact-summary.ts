import { isSpecialCategory, type SensitiveCategory } from "../sensitive/categories.js";
import { blockingFindings, detectSensitive } from "../sensitive/detect-sensitive.js";

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
    const spans = mergeSpans(findings.map((f) => (isSpecialCategory(f.category) ? { ...f, ...statementSpan(out, f.start, f.end) } : f)));
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
 * Secret values in a thread's messages (credentials, cards, IBANs, ids, and a value given after a
 * special-category label such as a fingerprint hash), for `knownSecrets`.
 */
export function secretValuesIn(texts: readonly string[]): string[] {
  const values = new Set<string>();
  for (const text of texts) {
    for (const f of detectSensitive(text)) {
      if (isSpecialCategory(f.category)) {
        // A value given after a special-category label ("Fingerabdruck-Hash: dfa8…") is that data.
        const labelled = /^[^:\n.!?]{0,40}:\s*([^\s,;]{8,})/u.exec(text.slice(f.end));
        if (labelled) values.add(labelled[1]);
        continue;
      }
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

/** Words that start a new clause (or a new subject) when they follow a special-category term. */
const CLAUSE_END_AHEAD = /[,;:!?()\n]|\.(?=\s|$)|\s(?:and|but|so|because|while|though|although)\s/i;
/** Words a term's qualifiers stop at when read backwards: verbs and function words ("User has", "I'm", "with"). */
const QUALIFIER_STOP = /^(?:is|am|are|was|were|be|been|has|have|had|having|with|and|or|but|so|to|of|for|from|in|on|at|by|about|the|a|an|my|their|his|her|our|your|I'm|I|I've|user|user's|they|they're|he|she|it|that|this|who|which|no|not|also|like|properly|really|very|quite|severe|severely|mild|mildly)$/i;
const ABBREVIATION_END = /\b(?:Dr|Mr|Mrs|Ms|St|Prof|Sr|Jr)\.$/;

/**
 * The whole statement a special-category term belongs to, not just the term: "allergic to
 * peanuts" (up to the end of its clause) and "peanut allergy" (with the qualifiers before it),
 * since the allergen, the drug or the doctor's name is the health data as much as the word
 * "allergic" is. The subject and verb before it stay ("User has [redacted health].").
 */
function statementSpan(text: string, start: number, end: number): { start: number; end: number } {
  let to = end;
  for (let from = end; from < text.length; ) {
    const ahead = CLAUSE_END_AHEAD.exec(text.slice(from));
    if (!ahead) {
      to = text.length;
      break;
    }
    const at = from + ahead.index;
    // "Dr. Okonjo": the full stop of an abbreviation does not end the statement.
    if (ahead[0] === "." && ABBREVIATION_END.test(text.slice(Math.max(0, at - 5), at + 1))) {
      from = at + 1;
      continue;
    }
    to = at;
    break;
  }
  // "Fingerabdruck-Hash: dfa8…", "iris scan code: 69D4…": the value after the colon is the data too.
  if (text[to] === ":") {
    const rest = /^:\s*[^\s,;]+/.exec(text.slice(to));
    if (rest) to += rest[0].length;
  }
  while (to > end && /\s/.test(text[to - 1])) to--;
  let begin = start;
  const before = text.slice(0, start);
  const words = [...before.matchAll(/[\p{L}\p{N}'’-]+/gu)];
  for (let i = words.length - 1, taken = 0; i >= 0 && taken < 3; i--, taken++) {
    const w = words[i];
    const gap = before.slice(w.index! + w[0].length, begin);
    if (!/^\s*$/.test(gap) || QUALIFIER_STOP.test(w[0])) break;
    begin = w.index!;
  }
  return { start: begin, end: Math.max(to, end) };
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
