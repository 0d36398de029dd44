/**
 * The words of a text with their offsets, folded for matching (lower case, diacritics removed, so
 * "Contraseña", "contrasena" and "CONTRASEÑA" are one word), in one pass shared by the detectors
 * that look for cue words. Offsets are those of the original text, so findings can be redacted.
 */

/** One token: a run of letters/digits (joined by `'`, `-`, `_`, `.`) or one CJK/kana/hangul run. */
export interface Token {
  /** The folded text of the token. */
  folded: string;
  start: number;
  end: number;
  /** CJK, kana or hangul: no spaces between words, so cue words match inside the run. */
  cjk: boolean;
}

export interface TokenizedText {
  text: string;
  /** `text` folded character by character (same length, same offsets). */
  folded: string;
  tokens: Token[];
}

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー]/u;
const WORD_CHAR = /[\p{L}\p{N}\p{M}]/u;

const foldCache = new Map<string, string>();

/**
 * Letters with a stroke that Unicode does not decompose, folded to their base letter like the
 * accented ones: Polish "hasło" matches "haslo", Norwegian "fødselsnummer" "fodselsnummer" (ß and æ
 * stay: they fold to two letters).
 */
const STROKED: Readonly<Record<string, string>> = { ł: "l", ø: "o", đ: "d", ħ: "h", ŧ: "t", ƀ: "b" };

/** One UTF-16 unit folded to one unit: lower case, without its diacritic (ß and æ stay as they are). */
function foldChar(ch: string): string {
  const cached = foldCache.get(ch);
  if (cached !== undefined) return cached;
  let out = ch.toLowerCase();
  if (out.length !== 1) out = ch;
  const base = out.normalize("NFD").replace(/\p{M}+/gu, "");
  if (base.length === 1) out = base;
  if (out === "ı") out = "i"; // Turkish dotless i: "şifrem" and "ŞİFREM" fold alike
  out = STROKED[out] ?? out;
  if (foldCache.size < 4096) foldCache.set(ch, out);
  return out;
}

/** `text` folded unit by unit (same length): lower case, without diacritics. */
export function foldText(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    const code = ch.charCodeAt(0);
    out += code < 0x80 ? (code >= 65 && code <= 90 ? String.fromCharCode(code + 32) : ch) : foldChar(ch);
  }
  return out;
}

let last: TokenizedText | null = null;
let lastLong: TokenizedText | null = null;

/**
 * Tokens of `text`. Memoised for the last text and the last long one (the detectors of one
 * `detectSensitive` call share it; the short clauses they look into do not evict a long text).
 *
 * @example
 * tokenize("Mein Passwort: x").tokens.map((t) => t.folded) // ["mein", "passwort", "x"]
 */
export function tokenize(text: string): TokenizedText {
  if (last !== null && last.text === text) return last;
  if (lastLong !== null && lastLong.text === text) return lastLong;
  const result = tokenizeNow(text);
  if (text.length >= 256) lastLong = result;
  else last = result;
  return result;
}

function tokenizeNow(text: string): TokenizedText {
  const folded = foldText(text);
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (CJK.test(ch)) {
      const start = i;
      while (i < text.length && CJK.test(text[i])) i++;
      tokens.push({ folded: folded.slice(start, i), start, end: i, cjk: true });
      continue;
    }
    if (!WORD_CHAR.test(ch)) {
      i++;
      continue;
    }
    const start = i;
    while (i < text.length) {
      if (WORD_CHAR.test(text[i]) && !CJK.test(text[i])) i++;
      // Joiners inside a word: "d'ordine", "WLAN-Passwort", "api_key", "wi-fi".
      else if (/['’_-]/.test(text[i]) && i + 1 < text.length && WORD_CHAR.test(text[i + 1]) && !CJK.test(text[i + 1])) i++;
      else break;
    }
    tokens.push({ folded: folded.slice(start, i), start, end: i, cjk: false });
  }
  return { text, folded, tokens };
}

/** The parts of a compound token: "wlan-passwort" → ["wlan", "passwort"], "api_key" → ["api", "key"]. */
export function partsOf(folded: string): string[] {
  return folded.split(/['’_-]+/).filter((p) => p.length > 0);
}
