import type { Detector } from "./categories.js";
import { bsnValid, cpfValid, germanTaxIdValid, luhnValid, nirValid, spanishIdValid, verhoeffValid } from "./checksums.js";
import { compileLexicon, findCues } from "./cue-words.js";
import {
  ahvValid,
  atSvnrValid,
  belgianNnValid,
  chinaIdValid,
  cnpValid,
  codiceFiscaleValid,
  hetuValid,
  icaoCheckDigit,
  icaoNumberValid,
  krRrnValid,
  myNumberValid,
  nipValid,
  noFnrValid,
  nricValid,
  peselValid,
  ptNifValid,
  rodneCisloValid,
  taiwanIdValid,
  tcknValid,
} from "./id-checksums.js";
import { ID_DOCUMENT_WORDS, PASSPORT_WORDS } from "./lexicon/id-document-words.js";

/**
 * Identity numbers by family, not by sentence:
 * - formats distinctive enough on their own, with their check digits, anywhere (a Chinese resident
 *   id, a Belgian register number written with its dots, a Swiss AHV number, a Finnish
 *   henkilötunnus, a Korean resident number, a Czech rodné číslo with its slash);
 * - any number that passes one of the national check-digit schemes, next to a word for an identity
 *   document or number in any language of the lexicon, before or after it ("PK5HCR4JM9 ist die
 *   Nummer auf meinem Perso", "mój PESEL to …", "マイナンバーは …");
 * - passport numbers (letters and digits, 6–10 characters, 2+ digits, or 1 right after the label)
 *   next to the word passport, in any language, and machine-readable zones (ICAO 9303) anywhere.
 */

const ID_CUES = compileLexicon(ID_DOCUMENT_WORDS, { fuzzy: true });
const PASSPORT_CUES = compileLexicon(PASSPORT_WORDS, { fuzzy: true });
const REACH = 70;

/** Every scheme a number without separators may pass. */
const CHECKSUMMED: ReadonlyArray<(s: string) => boolean> = [
  peselValid, ptNifValid, tcknValid, myNumberValid, chinaIdValid, belgianNnValid, krRrnValid, noFnrValid, ahvValid, cnpValid, rodneCisloValid,
  nipValid, atSvnrValid, codiceFiscaleValid, nricValid, taiwanIdValid, hetuValid, icaoNumberValid, bsnValid, cpfValid, germanTaxIdValid,
  spanishIdValid, nirValid, verhoeffValid, (s) => /^\d{9,10}$/.test(s) && luhnValid(s),
];

const passesAScheme = (compact: string) => CHECKSUMMED.some((valid) => valid(compact));

/** Candidate numbers: runs of letters and digits with at least 5 digits, separators inside allowed. */
const CANDIDATE = /(?<![\p{L}\p{N}])(?:[A-Z]{0,3}\d[\dA-Z]*(?:[ ./-][\dA-Z]*\d[\dA-Z]*){0,5}|[A-Z]{1,8}\d[\dA-Z]*)(?![\p{L}\p{N}])/giu;

function candidatesIn(text: string, from: number, to: number): Array<{ start: number; end: number; raw: string; compact: string }> {
  const out: Array<{ start: number; end: number; raw: string; compact: string }> = [];
  const slice = text.slice(from, to);
  const push = (raw: string, start: number) => {
    const compact = raw.replace(/[ ./-]/g, "").toUpperCase();
    const digits = (compact.match(/\d/g) ?? []).length;
    // Document numbers of letters and digits (a German ID card's) carry an ICAO check digit instead.
    if (digits >= 5 || (digits >= 2 && icaoNumberValid(compact))) out.push({ start, end: start + raw.length, raw: raw.toUpperCase(), compact });
  };
  CANDIDATE.lastIndex = 0;
  for (let m = CANDIDATE.exec(slice); m !== null; m = CANDIDATE.exec(slice)) {
    const raw = m[0].replace(/[./-]+$/, "");
    push(raw, from + m.index);
    // Digits in groups may be one number or several: each group is a candidate too.
    if (raw.includes(" ")) {
      let at = from + m.index;
      for (const part of raw.split(" ")) {
        if (part !== raw) push(part, at);
        at += part.length + 1;
      }
    }
  }
  return out;
}

function sentenceAround(text: string, start: number, end: number): { from: number; to: number } {
  let from = Math.max(0, start - REACH);
  let to = Math.min(text.length, end + REACH);
  const before = text.slice(from, start);
  const cut = Math.max(before.lastIndexOf("\n"), before.search(/[.!?。]\s[^.!?。]*$/));
  if (cut >= 0) from += cut + 1;
  const after = /\n|[.!?。](?=\s|$)/.exec(text.slice(end, to));
  if (after) to = end + after.index;
  return { from, to };
}

export const LABELLED_ID_DETECTOR: Detector = {
  name: "checksummed_id_near_label",
  category: "national_id",
  find(text) {
    const out: Array<{ start: number; end: number }> = [];
    for (const cue of findCues(text, ID_CUES)) {
      const { from, to } = sentenceAround(text, cue.start, cue.end);
      for (const c of candidatesIn(text, from, to)) {
        if (c.start < cue.end && cue.start < c.end) continue;
        if (passesAScheme(c.compact) || hetuValid(c.raw)) out.push({ start: c.start, end: c.end });
      }
    }
    return out;
  },
};

/** Distinctive formats with valid check digits, anywhere. */
export const CHECKSUMMED_ID_DETECTORS: Detector[] = [
  {
    name: "cn_resident_id",
    category: "national_id",
    find: (text) => spans(text, /(?<![\dA-Za-z])[1-9]\d{16}[\dXx](?![\dA-Za-z])/g, (m) => chinaIdValid(m)),
  },
  { name: "be_national_number", category: "national_id", find: (text) => spans(text, /(?<![\d.])\d{2}\.\d{2}\.\d{2}-\d{3}\.\d{2}(?![\d.])/g, (m) => belgianNnValid(m.replace(/\D/g, ""))) },
  { name: "ch_ahv", category: "national_id", find: (text) => spans(text, /(?<![\d.])756\.\d{4}\.\d{4}\.\d{2}(?![\d.])/g, (m) => ahvValid(m.replace(/\D/g, ""))) },
  { name: "fi_hetu", category: "national_id", find: (text) => spans(text, /(?<![\dA-Za-z])\d{6}[-+A-FU-Y]\d{3}[0-9A-Y](?![\dA-Za-z])/g, (m) => hetuValid(m)) },
  { name: "kr_rrn", category: "national_id", find: (text) => spans(text, /(?<![\d-])\d{6}-\d{7}(?![\d-])/g, (m) => krRrnValid(m.replace("-", ""))) },
  { name: "cz_rodne_cislo", category: "national_id", find: (text) => spans(text, /(?<![\d/])\d{6}\/\d{4}(?![\d/])/g, (m) => rodneCisloValid(m.replace("/", ""))) },
  { name: "it_codice_fiscale_checked", category: "national_id", find: (text) => spans(text, /(?<![A-Za-z\d])[A-Za-z]{6}[\dLMNPQRSTUVlmnpqrstuv]{2}[A-Za-z][\dLMNPQRSTUVlmnpqrstuv]{2}[A-Za-z][\dLMNPQRSTUVlmnpqrstuv]{3}[A-Za-z](?![A-Za-z\d])/g, (m) => codiceFiscaleValid(m)) },
];

function spans(text: string, re: RegExp, accept: (m: string) => boolean): Array<{ start: number; end: number }> {
  const out: Array<{ start: number; end: number }> = [];
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) if (accept(m[0])) out.push({ start: m.index, end: m.index + m[0].length });
  return out;
}

/** A passport number next to the word for passport: 6–10 letters and digits, at least 2 digits. */
export const PASSPORT_NUMBER_DETECTOR: Detector = {
  name: "passport_number",
  category: "national_id",
  find(text) {
    const out: Array<{ start: number; end: number }> = [];
    for (const cue of findCues(text, PASSPORT_CUES)) {
      const { from, to } = sentenceAround(text, cue.start, cue.end);
      const re = /(?<![\p{L}\p{N}])[A-Z0-9]{6,10}(?![\p{L}\p{N}])/gu;
      const slice = text.slice(from, to);
      for (let m = re.exec(slice); m !== null; m = re.exec(slice)) {
        const start = from + m.index;
        if (start < cue.end && cue.start < start + m[0].length) continue;
        const digits = (m[0].match(/\d/g) ?? []).length;
        // Right after its label ("paspoortnummer: HLYRJJLK4") one digit is enough: Dutch and other numbers are mostly letters.
        const labelled = start >= cue.end && /^[\s:=：-]{1,3}$|^\s*(?:is|ist|est|es|è|é|er|är|to|no\.?|nr\.?)\s*:?\s*$/i.test(text.slice(cue.end, start)) && m[0].length >= 8 && /^[A-Z0-9]+$/.test(m[0]);
        if ((digits >= 2 || (digits >= 1 && labelled)) && !/^(?:19|20)\d{2}$/.test(m[0])) out.push({ start, end: start + m[0].length });
      }
    }
    return out;
  },
};

/**
 * Machine-readable zones (ICAO 9303): lines of 30, 36 or 44 characters of A–Z, 0–9 and `<` with
 * filler, a document line (P<, I<, ID, A<, C<, V<) or a data line whose document number check digit
 * is valid.
 */
export const MRZ_DETECTOR: Detector = {
  name: "mrz",
  category: "national_id",
  find(text) {
    const out: Array<{ start: number; end: number }> = [];
    const re = /(?<![A-Z0-9<])[A-Z0-9<]{30,44}(?![A-Z0-9<])/g;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      const line = m[0];
      if (!line.includes("<")) continue;
      const docLine = /^(?:P|I|A|C|V)[A-Z<][A-Z<]{3}/.test(line) && /<<|<$/.test(line);
      const dataLine = icaoCheckDigit(line.slice(0, 9)) === Number(line[9]) && /^\d{6}\d[MF<]\d{6}\d/.test(line.slice(13, 28));
      const td1 = icaoCheckDigit(line.slice(5, 14)) === Number(line[14]);
      if (docLine || dataLine || (td1 && /^(?:I|A|C)[A-Z<]/.test(line))) out.push({ start: m.index, end: m.index + line.length });
    }
    return out;
  },
};
