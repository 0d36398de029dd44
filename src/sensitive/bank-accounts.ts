import type { Detector } from "./categories.js";
import { compileLexicon, findCues } from "./cue-words.js";
import { BANK_ACCOUNT_WORDS } from "./lexicon/id-document-words.js";

/**
 * Domestic bank account numbers (IBANs are financial.ts): a UK sort code with its account, a US
 * ABA routing number (checksum) with its account, and an account number after its name in any
 * language of the lexicon — "account" alone only where the text is about a bank (so "AWS account
 * 123456789012" stays storable).
 */

const ACCOUNT_WORDS = compileLexicon(BANK_ACCOUNT_WORDS, { fuzzy: true });
/** Words that make "account" a bank's. */
const BANK_CONTEXT = /\b(?:bank|banking|sort code|routing|aba|iban|bic|swift|bsb|ifsc|direct deposit|wire|transfer|deposit|paycheck|salary|payroll|überweisung|virement|transferencia|bonifico|transferência|overschrijving|przelew|havale|överföring)\b|банк|銀行|银行|은행/i;
const ACCOUNT_ALONE = compileLexicon(["account", "konto", "compte", "cuenta", "conto", "conta", "rekening", "hesap", "счет", "счёт", "口座", "账户"]);

function abaValid(digits: string): boolean {
  if (!/^\d{9}$/.test(digits)) return false;
  const n = (i: number) => digits.charCodeAt(i) - 48;
  return (3 * (n(0) + n(3) + n(6)) + 7 * (n(1) + n(4) + n(7)) + (n(2) + n(5) + n(8))) % 10 === 0;
}

const NUMBER = /(?<![\d+])\d(?:[ -]?\d){5,17}(?![\d])/g;

function numbersNear(text: string, start: number, end: number): Array<{ start: number; end: number; digits: string }> {
  const from = end;
  const slice = text.slice(from, Math.min(text.length, from + 60)).split(/[\n.!?](?:\s|$)/)[0];
  const out: Array<{ start: number; end: number; digits: string }> = [];
  NUMBER.lastIndex = 0;
  for (let m = NUMBER.exec(slice); m !== null; m = NUMBER.exec(slice)) {
    out.push({ start: from + m.index, end: from + m.index + m[0].length, digits: m[0].replace(/\D/g, "") });
    if (out.length >= 2) break;
  }
  void start;
  return out;
}

export const BANK_ACCOUNT_DETECTOR: Detector = {
  name: "bank_account_number",
  category: "bank_account",
  find(text) {
    const out: Array<{ start: number; end: number }> = [];
    const sortCode = /(?<![\d-])\d{2}-\d{2}-\d{2}(?![\d-])/g;
    const hasSortCode = /\bsort[- ]?code\b/i.test(text);
    if (hasSortCode) for (let m = sortCode.exec(text); m !== null; m = sortCode.exec(text)) out.push({ start: m.index, end: m.index + m[0].length });
    const bankish = BANK_CONTEXT.test(text);
    const cues = [...findCues(text, ACCOUNT_WORDS), ...(bankish || hasSortCode ? findCues(text, ACCOUNT_ALONE) : [])];
    for (const cue of cues) {
      const word = text.slice(cue.start, cue.end).toLowerCase();
      for (const n of numbersNear(text, cue.start, cue.end)) {
        if (/routing|aba/.test(word) && n.digits.length === 9) {
          if (abaValid(n.digits)) out.push(n);
          continue;
        }
        if (n.digits.length >= 6 && n.digits.length <= 18 && !/^(?:19|20)\d{2}(?:0[1-9]|1[0-2])(?:[0-2]\d|3[01])$/.test(n.digits)) out.push(n);
      }
    }
    return out;
  },
};
