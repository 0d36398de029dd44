/**
 * Check digits of national identity numbers (European and Asian formats) and of travel documents
 * (ICAO 9303). Each takes the number without separators. A format match without a valid check
 * digit is usually another number, so these keep false refusals down.
 */

const d = (s: string, i: number) => s.charCodeAt(i) - 48;
const weighted = (s: string, weights: readonly number[]) => weights.reduce((sum, w, i) => sum + w * d(s, i), 0);

function validDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** ICAO 9303 check digit (weights 7-3-1; `<` = 0, A–Z = 10–35): passports, ID cards, MRZ fields. */
export function icaoCheckDigit(field: string): number {
  const weights = [7, 3, 1];
  let sum = 0;
  for (let i = 0; i < field.length; i++) {
    const ch = field[i];
    const v = ch === "<" ? 0 : ch >= "0" && ch <= "9" ? d(ch, 0) : ch >= "A" && ch <= "Z" ? ch.charCodeAt(0) - 55 : -1;
    if (v < 0) return -1;
    sum += v * weights[i % 3];
  }
  return sum % 10;
}

/** A document number followed by its ICAO check digit (German ID card and passport: 9 characters + 1). */
export function icaoNumberValid(value: string): boolean {
  if (!/^[A-Z0-9]{6,9}\d$/.test(value) || !/\d/.test(value.slice(0, -1))) return false;
  return icaoCheckDigit(value.slice(0, -1)) === d(value, value.length - 1);
}

/** Polish PESEL: 11 digits, date of birth (century in the month), weights 1-3-7-9. */
export function peselValid(s: string): boolean {
  if (!/^\d{11}$/.test(s)) return false;
  const m = Number(s.slice(2, 4));
  const century = [1900, 2000, 2100, 2200, 1800][Math.floor(m / 20)];
  if (!validDate(century + Number(s.slice(0, 2)), m % 20, Number(s.slice(4, 6)))) return false;
  return (10 - (weighted(s, [1, 3, 7, 9, 1, 3, 7, 9, 1, 3]) % 10)) % 10 === d(s, 10);
}

/** Portuguese NIF: 9 digits, mod 11. */
export function ptNifValid(s: string): boolean {
  if (!/^[1-35-9]\d{8}$/.test(s)) return false;
  const r = 11 - (weighted(s, [9, 8, 7, 6, 5, 4, 3, 2]) % 11);
  return (r >= 10 ? 0 : r) === d(s, 8);
}

/** Turkish T.C. kimlik numarası: 11 digits, two check digits. */
export function tcknValid(s: string): boolean {
  if (!/^[1-9]\d{10}$/.test(s)) return false;
  const odd = d(s, 0) + d(s, 2) + d(s, 4) + d(s, 6) + d(s, 8);
  const even = d(s, 1) + d(s, 3) + d(s, 5) + d(s, 7);
  if ((((odd * 7 - even) % 10) + 10) % 10 !== d(s, 9)) return false;
  let sum = 0;
  for (let i = 0; i < 10; i++) sum += d(s, i);
  return sum % 10 === d(s, 10);
}

/** Japanese individual number (My Number): 12 digits, mod 11. */
export function myNumberValid(s: string): boolean {
  if (!/^\d{12}$/.test(s)) return false;
  let sum = 0;
  for (let n = 1; n <= 11; n++) sum += d(s, 11 - n) * (n <= 6 ? n + 1 : n - 5);
  const r = sum % 11;
  return (r <= 1 ? 0 : 11 - r) === d(s, 11);
}

/** Chinese resident identity card: 18 characters, region, date of birth, ISO 7064 mod 11-2 (X = 10). */
export function chinaIdValid(s: string): boolean {
  const id = s.toUpperCase();
  if (!/^[1-9]\d{16}[\dX]$/.test(id)) return false;
  if (!validDate(Number(id.slice(6, 10)), Number(id.slice(10, 12)), Number(id.slice(12, 14))) || Number(id.slice(6, 10)) < 1900) return false;
  const sum = weighted(id, [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2]);
  return "10X98765432"[sum % 11] === id[17];
}

/** Belgian national register number: 11 digits, mod 97 (people born from 2000 on: 2 prefixed). */
export function belgianNnValid(s: string): boolean {
  if (!/^\d{11}$/.test(s)) return false;
  const body = Number(s.slice(0, 9));
  const check = Number(s.slice(9));
  return 97 - (body % 97) === check || 97 - ((2_000_000_000 + body) % 97) === check;
}

/** Korean resident registration number: 13 digits, date of birth, mod 11 (numbers issued before 2020). */
export function krRrnValid(s: string): boolean {
  if (!/^\d{13}$/.test(s)) return false;
  const centuries: Record<string, number> = { "1": 1900, "2": 1900, "5": 1900, "6": 1900, "3": 2000, "4": 2000, "7": 2000, "8": 2000, "9": 1800, "0": 1800 };
  if (!validDate(centuries[s[6]] + Number(s.slice(0, 2)), Number(s.slice(2, 4)), Number(s.slice(4, 6)))) return false;
  return (11 - (weighted(s, [2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5]) % 11)) % 10 === d(s, 12);
}

/** Finnish henkilötunnus: DDMMYY, century sign, 3 digits, mod-31 check character. */
export function hetuValid(s: string): boolean {
  const m = /^(\d{2})(\d{2})(\d{2})([-+ABCDEFUVWXY])(\d{3})([0-9A-Y])$/.exec(s.toUpperCase());
  if (!m) return false;
  const century = m[4] === "+" ? 1800 : /[-UVWXY]/.test(m[4]) ? 1900 : 2000;
  if (!validDate(century + Number(m[3]), Number(m[2]), Number(m[1]))) return false;
  return "0123456789ABCDEFHJKLMNPRSTUVWXY"[Number(m[1] + m[2] + m[3] + m[5]) % 31] === m[6];
}

/** Norwegian fødselsnummer: 11 digits, two mod-11 check digits. */
export function noFnrValid(s: string): boolean {
  if (!/^\d{11}$/.test(s)) return false;
  const check = (w: number[]) => {
    const r = 11 - (weighted(s, w) % 11);
    return r === 11 ? 0 : r;
  };
  return check([3, 7, 6, 1, 8, 9, 4, 5, 2]) === d(s, 9) && check([5, 4, 3, 2, 7, 6, 5, 4, 3, 2]) === d(s, 10);
}

/** Swiss AHV/AVS number: 756 + 10 digits, EAN-13 check digit. */
export function ahvValid(s: string): boolean {
  if (!/^756\d{10}$/.test(s)) return false;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += d(s, i) * (i % 2 === 0 ? 1 : 3);
  return (10 - (sum % 10)) % 10 === d(s, 12);
}

/** Romanian CNP: 13 digits, date of birth, weights 279146358279. */
export function cnpValid(s: string): boolean {
  if (!/^[1-9]\d{12}$/.test(s)) return false;
  const century = [0, 1900, 1900, 1800, 1800, 2000, 2000, 1900, 1900, 1900][d(s, 0)];
  if (!validDate(century + Number(s.slice(1, 3)), Number(s.slice(3, 5)), Number(s.slice(5, 7)))) return false;
  const r = weighted(s, [2, 7, 9, 1, 4, 6, 3, 5, 8, 2, 7, 9]) % 11;
  return (r === 10 ? 1 : r) === d(s, 12);
}

/** Czech and Slovak rodné číslo (from 1954): 10 digits divisible by 11, date of birth. */
export function rodneCisloValid(s: string): boolean {
  if (!/^\d{10}$/.test(s)) return false;
  const month = Number(s.slice(2, 4)) % 50 % 20;
  if (!validDate(1900 + Number(s.slice(0, 2)), month, Number(s.slice(4, 6)))) return false;
  return BigInt(s) % 11n === 0n || (Number(s.slice(0, 9)) % 11 === 10 && d(s, 9) === 0);
}

/** Polish NIP (tax number): 10 digits, weights 6-5-7-2-3-4-5-6-7. */
export function nipValid(s: string): boolean {
  return /^\d{10}$/.test(s) && weighted(s, [6, 5, 7, 2, 3, 4, 5, 6, 7]) % 11 === d(s, 9);
}

/** Austrian social insurance number: 10 digits, the 4th a check digit, then the date of birth. */
export function atSvnrValid(s: string): boolean {
  if (!/^[1-9]\d{9}$/.test(s)) return false;
  const sum = [3, 7, 9, 0, 5, 8, 4, 2, 1, 6].reduce((acc, w, i) => acc + w * d(s, i), 0);
  return sum % 11 === d(s, 3);
}

const CF_ODD: Record<string, number> = Object.fromEntries(
  [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23].flatMap((v, i) => [[String.fromCharCode(65 + i), v], ...(i < 10 ? [[String(i), [1, 0, 5, 7, 9, 13, 15, 17, 19, 21][i]]] : [])]),
);

/** Italian codice fiscale: 16 characters, the last a check letter over odd and even positions. */
export function codiceFiscaleValid(s: string): boolean {
  const cf = s.toUpperCase();
  if (!/^[A-Z]{6}[0-9LMNPQRSTUV]{2}[A-EHLMPR-T][0-9LMNPQRSTUV]{2}[A-Z][0-9LMNPQRSTUV]{3}[A-Z]$/.test(cf)) return false;
  let sum = 0;
  for (let i = 0; i < 15; i++) {
    const ch = cf[i];
    sum += i % 2 === 0 ? CF_ODD[ch] : ch >= "0" && ch <= "9" ? d(ch, 0) : ch.charCodeAt(0) - 65;
  }
  return String.fromCharCode(65 + (sum % 26)) === cf[15];
}

/** Singapore NRIC/FIN: a letter, 7 digits, a check letter. */
export function nricValid(s: string): boolean {
  const m = /^([STFGM])(\d{7})([A-Z])$/.exec(s.toUpperCase());
  if (!m) return false;
  let sum = weighted(m[2], [2, 7, 6, 5, 4, 3, 2]) + (m[1] === "T" || m[1] === "G" ? 4 : m[1] === "M" ? 3 : 0);
  sum %= 11;
  const table = m[1] === "S" || m[1] === "T" ? "JZIHGFEDCBA" : m[1] === "M" ? "KLJNPQRTUWX" : "XWUTRQPNMLK";
  return table[sum] === m[3];
}

/** Taiwan national identification number: a letter, 1 or 2, 8 digits. */
export function taiwanIdValid(s: string): boolean {
  const m = /^([A-Z])([12]\d{8})$/.exec(s.toUpperCase());
  if (!m) return false;
  const code = "ABCDEFGHJKLMNPQRSTUVXYWZIO".indexOf(m[1]) + 10;
  const digits = String(code) + m[2];
  const weights = [1, 9, 8, 7, 6, 5, 4, 3, 2, 1, 1];
  return weighted(digits, weights) % 10 === 0;
}
