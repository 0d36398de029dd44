import type { SensitiveFinding } from "./categories.js";
import { compileLexicon, hasCue } from "./cue-words.js";
import { foldText } from "./text-tokens.js";

/**
 * "Cancer" is also a star sign in most languages (Krebs, рак, cancro, kreeft, yengeç, 巨蟹座). A
 * health finding on that word is dropped when the text talks astrology: a horoscope word or
 * another sign's name that is nothing else (Scorpio, Sagittarius — not Leo, a first name).
 * Source: Wiktionary's translations of "horoscope", "zodiac", "star sign", "ascendant" and of the
 * twelve signs.
 */
const CANCER_SIGN = new Set(["cancer", "cancers", "krebs", "рак", "kanser", "cancro", "cancer", "kreeft", "kräftan", "kraftan", "krepsen", "krebsen", "rak", "raka", "yengec", "巨蟹座", "蟹座", "かに座", "게자리"]);

const ASTROLOGY = compileLexicon([
  "horoscope", "horoscopes", "zodiac", "star sign", "starsign", "ascendant", "rising sign", "sun sign", "moon sign", "astrology", "astrolog*",
  "sternzeichen", "aszendent", "horoskop*", "tierkreis*", "signe astrologique", "signe du zodiaque", "horoscopo", "signo del zodiaco", "signo", "zodiaco", "segno zodiacale", "oroscopo", "ascendente",
  "sterrenbeeld", "horoscoop", "dierenriem", "znak zodiaku", "zodiak", "burc*", "stjarntecken", "stjernetegn", "гороскоп*", "знак зодиака", "зодиак*", "星座", "별자리", "占星",
  "scorpio", "sagittarius", "capricorn", "aquarius", "pisces", "gemini", "taurus", "virgo", "steinbock", "wassermann", "skorpion", "jungfrau",
]);

/** Whether a health finding is the star sign Cancer in a text about astrology. */
export function isStarSign(text: string, f: SensitiveFinding): boolean {
  return f.category === "health" && CANCER_SIGN.has(foldText(text.slice(f.start, f.end))) && hasCue(text, ASTROLOGY);
}
