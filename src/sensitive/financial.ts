import { regexDetector, type Detector } from "./categories.js";
import { IBAN_LENGTHS, ibanValid, luhnValid } from "./checksums.js";
import { compileLexicon, findCues } from "./cue-words.js";

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

/**
 * Card numbers the networks and payment processors publish for testing (Stripe's, Adyen's and
 * Braintree's documentation): not anyone's card when the clause says it is a test one.
 */
const PUBLISHED_TEST_CARDS = new Set([
  "4242424242424242", "4000056655665556", "5555555555554444", "2223003122003222", "5200828282828210", "5105105105105100", "378282246310005", "371449635398431",
  "6011111111111117", "6011000990139424", "3056930009020004", "36227206271667", "3566002020360505", "6200000000000005", "4111111111111111", "4012888888881881", "4000000000000002",
]);
const TEST_WORDS = /\b(?:test|tests|testing|sandbox|dummy|testkarte|carte de test|tarjeta de prueba|carta di test|cartao de teste|testkaart)\b/i;

/** Whether a span is one of the published test card numbers, in a clause that calls it a test. */
export function isPublishedTestCard(text: string, start: number, end: number): boolean {
  if (!PUBLISHED_TEST_CARDS.has(text.slice(start, end).replace(/\D/g, ""))) return false;
  const from = Math.max(0, start - 60);
  return TEST_WORDS.test(text.slice(from, Math.min(text.length, end + 60)));
}

/** Words for a payment card (Wiktionary's translations of "credit card", "debit card", "bank card"). */
const CARD_WORDS = compileLexicon([
  "card", "cards", "credit card", "debit card", "visa", "mastercard", "amex", "karte", "kreditkarte", "*karte", "carte", "carte bleue", "tarjeta", "carta", "cartao", "kaart", "creditcard",
  "karta", "karty", "karte", "kartu", "kart", "kartim", "kartimin", "kort", "kortet", "kortnummer", "kortnummeret", "карта", "карты", "карте", "картой", "カード", "信用卡", "银行卡", "카드",
]);

/**
 * A card number printed in groups of any size ("51 68 3933 1633 8470") when a word for a card
 * stands in its clause: Luhn-valid, a known issuer prefix, 13–19 digits.
 */
export const GROUPED_CARD_NEAR_WORD_DETECTOR: Detector = {
  name: "payment_card_near_word",
  category: "card_number",
  find(text) {
    const cues = findCues(text, CARD_WORDS);
    if (cues.length === 0) return [];
    const out: Array<{ start: number; end: number }> = [];
    const re = /(?<![\d+]|[\d\-./][\-./])\d{1,6}(?:[ .-]\d{1,6}){1,6}(?!\d|[\-/.]\d)/g;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      const digits = m[0].replace(/\D/g, "");
      if (digits.length < 13 || digits.length > 19 || !CARD_IIN.test(digits) || !luhnValid(digits)) continue;
      if (cues.some((c) => Math.abs(c.start - m!.index) < 80)) out.push({ start: m.index, end: m.index + m[0].length });
    }
    return out;
  },
};

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
