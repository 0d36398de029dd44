import type { Detector, SensitiveCategory } from "./categories.js";
import { compileLexicon, cuesInTokens, cuesWithin, findCues, wordIsCue, type CueHit } from "./cue-words.js";
import { CREDENTIAL_WORDS, GLUE_WORDS, LINK_WORDS, type CredentialConcept } from "./lexicon/credential-words.js";
import { BANK_ACCOUNT_WORDS, ID_DOCUMENT_WORDS, PASSPORT_WORDS } from "./lexicon/id-document-words.js";
import { foldText, partsOf, tokenize } from "./text-tokens.js";
import { groupedDigitsAt, keyShaped, moderatePasswordShape, pinShaped, secretShaped, strongPasswordShape, trimValue } from "./value-shapes.js";

/**
 * Values found next to a credential cue word, in any language of the lexicon: after it, through a
 * link ("is", ":", "=", "lautet", "c'est", "は", "是" …) or directly ("password Pinguin6388"), and
 * before it through closed-class words ("Sommerregen2023$ – das ist mein Passwort", "0917 is the
 * PIN for my card"). What counts as the value depends on the cue: a password shape after a password
 * or login word, a PIN shape after a PIN, a code word that names what it opens, or a combination,
 * a key shape after a qualified key ("API key", "clave privada") or a token. The clause bounds the
 * search: a cue in one sentence never reaches a value in the next.
 */

const LEX = Object.fromEntries(
  Object.entries({ ...CREDENTIAL_WORDS, idNumber: [...ID_DOCUMENT_WORDS, ...PASSPORT_WORDS], bankAccount: BANK_ACCOUNT_WORDS }).map(([k, v]) => [k, compileLexicon(v, { fuzzy: true })]),
) as Record<CredentialConcept | "idNumber" | "bankAccount", ReturnType<typeof compileLexicon>>;
const LINKS = new Set(LINK_WORDS.map(foldText));
const GLUE = new Set(GLUE_WORDS.map(foldText));
/** Cue words that are also ordinary words ("pass the salt", "pw" in units): their values must look like passwords. */
const WEAK_CUES = new Set(["pass", "pw", "parola", "clave", "sandi", "암호", "secret", "secrets", "geheim", "gizli", "hemlig", "秘密", "비밀", "user", "usuario", "utente", "benutzer", "inlog", "connexion"]);

/**
 * Clause ends: a line break, "; ", or sentence punctuation followed by a space and a word that does
 * not go on in lower case (a value may end in "." or "!": "Ps7-Brass! is the password").
 */
const CLAUSE_END = /\n|;(?=\s)|[.!?](?=\s+[^\s\p{Ll}])|[。！？]/gu;
/** How far (in characters) a cue reaches for its value. */
const REACH = 90;
/** Words of talk that may stand between a cue and its link ("password for the company VPN is …"). */
const MAX_WORDS_BEFORE_LINK = 7;

interface Chunk {
  raw: string;
  start: number;
  end: number;
  folded: string;
}

/** Whitespace-separated chunks of text[from, to), CJK runs split from the Latin ones next to them. */
function chunksIn(text: string, from: number, to: number): Chunk[] {
  const out: Chunk[] = [];
  const re = /[^\s\u3000]+/g;
  const slice = text.slice(from, to);
  for (let m = re.exec(slice); m !== null; m = re.exec(slice)) {
    for (const part of m[0].split(/(?<=[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー、，。：；！？「」])(?=[^\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー、，。：；！？「」])|(?<=[^\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー、，。：；！？「」])(?=[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー、，。：；！？「」])/u)) {
      const start = from + m.index + m[0].indexOf(part);
      out.push({ raw: part, start, end: start + part.length, folded: foldText(part) });
    }
  }
  return out;
}

/** The clause around [start, end): from the last clause end before it to the first after it. */
function clauseAround(text: string, start: number, end: number): { from: number; to: number } {
  let from = Math.max(0, start - REACH);
  let to = Math.min(text.length, end + REACH);
  CLAUSE_END.lastIndex = from;
  for (let m = CLAUSE_END.exec(text); m !== null && m.index < to; m = CLAUSE_END.exec(text)) {
    if (m.index < start) from = m.index + m[0].length;
    else if (m.index >= end) {
      to = m.index + (m[0] === "\n" ? 0 : 0);
      break;
    }
  }
  return { from, to };
}

/** A link: ":", "=", "->", a link word, or a word that ends with ":" or "=" ("account:", "Passwort:"); not a value that ends with "=" (base64 padding). */
const isLinkChunk = (c: Chunk) => /^(?:[:=：]|->|=>|–|—|-)$/.test(c.raw) || LINKS.has(c.folded.replace(/[:：,]$/, "")) || /^[\p{L}'’-]+[:=：]$/u.test(c.raw);

const mixedCase = (v: string) => /\p{Ll}/u.test(v) && /\p{Lu}/u.test(v);

type Want = "password" | "login" | "pin" | "key" | "id";

/** An identity number: letters and digits, 6+ digits, maybe grouped; not a date or a year. */
const idShaped = (value: string) =>
  /^[A-Z]{0,3}\d[A-Z0-9]*(?:[ ./-][A-Z0-9]*\d[A-Z0-9]*){0,5}$/i.test(value) && (value.match(/\d/g) ?? []).length >= 6 && !/\d{4}-\d{2}-\d{2}|\d{1,2}[./]\d{1,2}[./]\d{2,4}$/.test(value);

function accepts(want: Want, value: string, linked: boolean, weak: boolean): boolean {
  if (want === "id") return linked && idShaped(value);
  if (want === "pin") return pinShaped(value) || (linked && secretShaped(value) && /\d/.test(value));
  if (want === "key") return keyShaped(value) || (linked && (moderatePasswordShape(value) || (/\p{L}/u.test(value) && /\d/.test(value) && value.length >= 6 && secretShaped(value))));
  // After a login word the value may be the user name: only a password shape counts.
  if (want === "login") return strongPasswordShape(value) || (moderatePasswordShape(value) && mixedCase(value));
  if (weak) return moderatePasswordShape(value) || strongPasswordShape(value) || (linked && (/^\d{4,12}$/.test(value) || (/\p{L}/u.test(value) && /\d/.test(value) && value.length >= 6 && secretShaped(value))));
  return linked ? secretShaped(value) : secretShaped(value) && (/\d/.test(value) || moderatePasswordShape(value) || strongPasswordShape(value));
}

interface Span {
  start: number;
  end: number;
}

/** Nouns that make the value after them an identifier, not a credential ("API request id is …", "key hash: …"). */
const ID_NOUNS = /^(?:id|ids|hash|sha|sha1|sha256|commit|checksum|digest|uuid|guid|request|trace|order|version|build|revision|etag|response|endpoint|url|fingerprint|name|number)$/;

/** The value after a cue: directly ("password Pinguin6388"), or through a link within a few words. */
function valueAfter(text: string, cue: CueHit, want: Want, weak: boolean): Span | null {
  const { to } = clauseAround(text, cue.start, cue.end);
  const chunks = chunksIn(text, cue.end, to);
  // The rest of the cue's own chunk ("Passwort:" or "密码是") counts as its link.
  if (chunks.length > 0 && chunks[0].start === cue.end && /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー:：=は是为為는은이가]+$/u.test(chunks[0].raw)) {
    return chunks.length > 1 ? valueAt(text, chunks, 1, want, weak) : null;
  }
  const first = chunks[0];
  if (first && !isLinkChunk(first)) {
    const direct = spanOf(text, first, want, false, weak);
    if (direct) return direct;
  }
  // A bracketed or quoted value a few words after the cue is its value: "password (X)", "PIN information (4471)", 'the code "4471"'.
  for (let k = 0; k < Math.min(chunks.length, 4); k++) {
    if (/^[(["'“‘«]/.test(chunks[k].raw)) {
      const quoted = valueAt(text, chunks, k, want, weak);
      if (quoted) return quoted;
      break;
    }
  }
  // Each link within reach, in order ("code to the back door is 4471": "to" is a link in Polish).
  for (let k = 0; k < Math.min(chunks.length, MAX_WORDS_BEFORE_LINK + 1); k++) {
    if (want === "key" && ID_NOUNS.test(chunks[k].folded.replace(/[:：,]$/, ""))) return null;
    if (!isLinkChunk(chunks[k])) continue;
    let i = k + 1;
    // "is: X", "ist nun X", "is now X": several links in a row are one.
    while (i < chunks.length && (isLinkChunk(chunks[i]) || /^(?:now|still|just|nun|jetzt|maintenant|ahora|ora|agora|nu|teraz|şimdi|сейчас)$/i.test(chunks[i].folded))) i++;
    const found = i < chunks.length ? valueAt(text, chunks, i, want, weak) : null;
    if (found) return found;
  }
  return null;
}

function valueAt(text: string, chunks: Chunk[], i: number, want: Want, weak: boolean): Span | null {
  if (want === "id") {
    const grouped = /^[A-Z]{0,3}\d[A-Z0-9]*(?:[ .-][A-Z0-9]*\d[A-Z0-9]*){0,5}/i.exec(text.slice(chunks[i].start));
    const value = grouped ? trimValue(grouped[0].replace(/\s+\p{L}+$/u, "")).value : "";
    if (value && idShaped(value)) return { start: chunks[i].start, end: chunks[i].start + value.length };
  }
  if (want === "pin") {
    const grouped = groupedDigitsAt(text, chunks[i].start);
    if (grouped && pinShaped(text.slice(grouped.start, grouped.end))) return grouped;
  }
  return spanOf(text, chunks[i], want, true, weak);
}

function spanOf(_text: string, chunk: Chunk, want: Want, linked: boolean, weak: boolean): Span | null {
  const { value, offset } = trimValue(chunk.raw);
  if (value.length === 0 || !accepts(want, value, linked, weak)) return null;
  return { start: chunk.start + offset, end: chunk.start + offset + value.length };
}

/** The value before a cue, through closed-class words only ("X – das ist mein Passwort"). */
function valueBefore(text: string, cue: CueHit, want: Want): Span | null {
  const { from } = clauseAround(text, cue.start, cue.end);
  const chunks = chunksIn(text, from, cue.start);
  let glue = 0;
  // Up to two words that say what the secret is for, right before it ("the user's database password").
  let k = chunks.length - 1;
  for (let modifiers = 0; k >= 0 && modifiers < 2 && /^[\p{Ll}\p{Lu}][\p{L}-]*$/u.test(chunks[k].raw) && !GLUE.has(chunks[k].folded); modifiers++) k--;
  for (; k >= 0; k--) {
    const c = chunks[k];
    const word = c.folded.replace(/[,:]$/, "");
    if (GLUE.has(word) || /^[-–—,:]$/.test(c.raw)) {
      if (++glue > 5) return null;
      continue;
    }
    const { value, offset } = trimValue(c.raw);
    if (glue === 0) return null;
    // A value read out in groups ("6 0 9 1 is the PIN"): the groups before it are part of it.
    let start = c.start + offset;
    if (want === "pin" && /^\d{1,4}$/.test(value)) {
      let j = k - 1;
      while (j >= 0 && /^\d{1,4}$/.test(chunks[j].raw)) j--;
      start = chunks[j + 1].start;
      const grouped = text.slice(start, c.start + offset + value.length);
      return pinShaped(grouped) ? { start, end: c.start + offset + value.length } : null;
    }
    if (want === "id") {
      let j = k - 1;
      while (j >= 0 && /^[A-Z0-9]{1,6}$/i.test(chunks[j].raw) && /\d/.test(chunks[j].raw)) j--;
      const from = chunks[j + 1].start;
      const grouped = text.slice(from, c.start + offset + value.length);
      return idShaped(grouped) ? { start: from, end: c.start + offset + value.length } : null;
    }
    const lettersAndDigits = /\p{L}/u.test(value) && /\d/.test(value) && value.length >= 6 && secretShaped(value);
    const ok =
      want === "pin"
        ? pinShaped(value)
        : want === "key"
          ? keyShaped(value) || moderatePasswordShape(value) || strongPasswordShape(value) || lettersAndDigits
          : strongPasswordShape(value) || moderatePasswordShape(value) || keyShaped(value) || lettersAndDigits || (want === "password" && /^\d{4,12}$/.test(value) && !/^(?:19|20)\d{2}$/.test(value));
    return ok ? { start, end: c.start + offset + value.length } : null;
  }
  return null;
}

/** Whether a token of `concept` lies within `reach` tokens of the cue, or is part of the cue's compound ("API-sleutel"). */
function near(text: string, cue: CueHit, concept: CredentialConcept, reach: number): boolean {
  const { tokens } = tokenize(text);
  const parts = partsOf(tokens[cue.first]?.folded ?? "");
  if (parts.length > 1 && parts.some((p) => wordIsCue(p, LEX[concept]) && !wordIsCue(p, LEX.key))) return true;
  const lo = Math.max(0, cue.first - reach);
  const hi = Math.min(tokens.length, cue.last + reach);
  return cuesInTokens(text, LEX[concept], lo, hi).some((h) => h.first !== cue.first || h.start !== cue.start);
}

interface CueRule {
  concept: CredentialConcept | "idNumber" | "bankAccount";
  category: SensitiveCategory;
  want: Want;
  /** Only when this holds of the cue (what a code opens, what makes a key secret). */
  when?: (text: string, cue: CueHit) => boolean;
  /** Also look for the value before the cue. */
  before: boolean;
}

const CODE_COMPOUND = /(?:digicode|turcode|torcode|alarmcode|deurcode|toegangscode|portkod|dorrkod|larmkod|portkode|dorkode)$|^(?:door|gate|alarm|entry|access|keypad|lock|unlock|garage|security) code$/;

const RULES: CueRule[] = [
  { concept: "password", category: "password", want: "password", before: true },
  { concept: "pin", category: "password", want: "pin", before: true },
  { concept: "combination", category: "password", want: "pin", before: false, when: (t, c) => near(t, c, "accessObject", 4) || /\b(?:is|ist|est|es|è|é|:)\b/.test(t.slice(c.end, c.end + 8)) },
  {
    concept: "code",
    category: "password",
    want: "pin",
    before: true,
    when: (t, c) =>
      CODE_COMPOUND.test(foldText(t.slice(c.start, c.end))) || /[\p{Script=Han}\p{Script=Katakana}\p{Script=Hangul}]/u.test(t.slice(c.start, c.end)) || (!codeOfAnotherKind(t, c) && near(t, c, "accessObject", 4)),
  },
  { concept: "credentials", category: "password", want: "password", before: true },
  { concept: "login", category: "password", want: "login", before: true },
  { concept: "secret", category: "api_key", want: "key", before: true },
  { concept: "key", category: "api_key", want: "key", before: true, when: (t, c) => near(t, c, "keyQualifier", 2) || /^apikey$/.test(foldText(t.slice(c.start, c.end))) },
  // "API" alone, then a key-shaped value through a link ("my api ky for the weather service is 3f9a…"): a key whatever the word after it.
  { concept: "api", category: "api_key", want: "key", before: false },
  { concept: "token", category: "token", want: "key", before: true },
  // An identity or passport number named by its label and linked to it ("ssn 065890403", "ID number … is …",
  // "… is the user's passport number"), whatever its format: checksummed formats are id-documents.ts's.
  { concept: "idNumber", category: "national_id", want: "id", before: true },
  { concept: "bankAccount", category: "bank_account", want: "id", before: true },
];

/**
 * A value near a login or password cue that looks like a password, anywhere in the clause
 * ("credentials for staging are admin and Qw3rty!Staging", "login for the portal: dmitri.k / Velvet#Moose88").
 */
function passwordInClause(text: string, cue: CueHit): Span[] {
  const { from, to } = clauseAround(text, cue.start, cue.end);
  const out: Span[] = [];
  for (const c of chunksIn(text, from, to)) {
    if (c.end <= cue.end && c.start >= cue.start) continue;
    const { value, offset } = trimValue(c.raw);
    if (strongPasswordShape(value) || (moderatePasswordShape(value) && mixedCase(value))) out.push({ start: c.start + offset, end: c.start + offset + value.length });
  }
  return out;
}

/** A cue inside a URL, an e-mail address or a path ("https://api.example.com") is part of a name, not a cue. */
function insideAddress(text: string, cue: CueHit): boolean {
  let from = cue.start;
  while (from > 0 && !/\s/.test(text[from - 1])) from--;
  let to = cue.end;
  while (to < text.length && !/\s/.test(text[to])) to++;
  return /:\/\/|@|\/\w|\w\.\w+\.\w/.test(text.slice(from, to));
}

/**
 * "zip code", "error code", "promo code": a word naming another kind of code right before it
 * makes "code" not an access code (unless that word is what it opens: "door code", "keypad code").
 */
function codeOfAnotherKind(text: string, cue: CueHit): boolean {
  const { tokens } = tokenize(text);
  const before = tokens[cue.first - 1];
  if (!before || before.end < cue.start - 2 || GLUE.has(before.folded)) return false;
  return cuesWithin(text, LEX.accessObject, before.start, before.end).length === 0 && cuesWithin(text, LEX.pin, before.start, before.end).length === 0;
}

function find(text: string, rule: CueRule): Span[] {
  const out: Span[] = [];
  for (const cue of findCues(text, LEX[rule.concept])) {
    if (insideAddress(text, cue) || (rule.when && !rule.when(text, cue))) continue;
    const weak = WEAK_CUES.has(foldText(text.slice(cue.start, cue.end)));
    const after = valueAfter(text, cue, rule.want, weak);
    if (after) out.push(after);
    else if (rule.before) {
      const before = valueBefore(text, cue, rule.want);
      if (before) out.push(before);
    }
    if ((rule.concept === "login" || rule.concept === "credentials" || rule.concept === "password") && !weak) out.push(...passwordInClause(text, cue));
  }
  return out;
}

export const CUED_VALUE_DETECTORS: Detector[] = RULES.map((rule) => ({ name: `cued_${rule.concept}`, category: rule.category, find: (text: string) => find(text, rule) }));

/** A password standing alone, with no cue word: upper and lower case, digits and a symbol. */
export const STRONG_PASSWORD_DETECTOR: Detector = {
  name: "password_shape",
  category: "password",
  find(text) {
    const out: Span[] = [];
    const re = /[^\s]{8,80}/g;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      const { value, offset } = trimValue(m[0]);
      if (strongPasswordShape(value)) out.push({ start: m.index + offset, end: m.index + offset + value.length });
    }
    return out;
  },
};

/**
 * "user / password" written as a pair, with or without a cue: a login name, a slash, and a
 * password shape ("root / Sunflower_2019", "admin/Qw3rty!x").
 */
export const USER_PASSWORD_PAIR_DETECTOR: Detector = {
  name: "user_password_pair",
  category: "password",
  find(text) {
    const out: Span[] = [];
    const re = /(?<![\w.@/:-])([a-z][a-z0-9._@-]{1,40})\s*\/\s*([^\s/]{6,64})(?![^\s]*\/)/g;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      const { value, offset } = trimValue(m[2]);
      if (!strongPasswordShape(value) && !(moderatePasswordShape(value) && mixedCase(value))) continue;
      const start = m.index + m[0].length - m[2].length + offset;
      out.push({ start, end: start + value.length });
    }
    return out;
  },
};
