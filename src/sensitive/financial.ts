import { regexDetector, type Detector } from "./categories.js";
import { IBAN_LENGTHS, ibanValid, luhnValid } from "./checksums.js";

/** Issuer prefixes of the major card networks (Visa, Mastercard, Amex, Discover, JCB, Diners, Maestro, UnionPay). */
const CARD_IIN = /^(?:4|5[1-5]|2(?:2[2-9]|[3-6]\d|7[01]|720)|3[47]|3(?:0[0-5]|[689])|6(?:011|5|4[4-9]|2)|35(?:2[89]|[3-8]\d)|5[06-9]|6\d)/;

/**
 * 13–19 digits, unbroken or grouped the way cards are printed (spaces, hyphens or dots, one kind), Luhn-valid, with a known issuer
 * prefix. Not preceded by "+" (phone numbers) and not part of a longer number (a digit, or a "-",
 * "." or "/" joined to digits, on either side: order numbers, dates, decimals). A word glued on
 * with one of those ("visa/4111 …", "diabetes-4111 …") does not hide the card.
 */
export const CARD_NUMBER_DETECTOR: Detector = regexDetector(
  "payment_card",
  "card_number",
  /(?<![\d+]|[\d\-./][-./])\d(?:[ .-]?\d){12,18}(?!\d|[-/.]\d)/g,
  (m) => {
    const separators = m[0].match(/[ .-]/g) ?? [];
    if (new Set(separators).size > 1) return false; // mixed separators: a date, a phone number
    if (separators.length > 0 && !cardGrouping(m[0].split(/[ .-]/).map((g) => g.length))) return false;
    const digits = m[0].replace(/\D/g, "");
    return digits.length >= 13 && digits.length <= 19 && CARD_IIN.test(digits) && luhnValid(digits);
  },
);

/** How cards are printed: 4-4-4-4(-1..3), Amex 4-6-5, Diners 4-6-4. Other groupings are phone or id numbers. */
function cardGrouping(sizes: number[]): boolean {
  const key = sizes.join("-");
  if (key === "4-6-5" || key === "4-6-4") return true;
  return sizes.length >= 3 && sizes.slice(0, -1).every((n) => n === 4) && sizes[sizes.length - 1] >= 1 && sizes[sizes.length - 1] <= 4;
}

/**
 * IBANs with or without separators (spaces, hyphens, dots), any case, mod-97 checked against the country's length. The match
 * may run into a following word, so the check is on exactly the country's length.
 */
export const IBAN_DETECTOR: Detector = {
  name: "iban",
  category: "iban",
  find(text) {
    const spans: Array<{ start: number; end: number }> = [];
    const re = /\b[A-Z]{2}\d{2}(?:[ .-]?[A-Z0-9]{1,4}){3,8}/gi;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      const country = m[0].slice(0, 2).toUpperCase();
      const length = IBAN_LENGTHS[country];
      if (length === undefined) continue;
      let compact = "";
      let end = m.index;
      for (let i = 0; i < m[0].length && compact.length < length; i++) {
        const ch = m[0][i];
        end = m.index + i + 1;
        if (!/[ .-]/.test(ch)) compact += ch.toUpperCase();
      }
      if (compact.length === length && ibanValid(compact)) {
        spans.push({ start: m.index, end });
        re.lastIndex = end;
      }
    }
    return spans;
  },
};
