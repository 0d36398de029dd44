/**
 * Subject slots: keys of single-valued attributes, so a newer statement supersedes an older one
 * ("lives in Berlin" → "moved to Lisbon"). Multi-valued things (likes, languages spoken, episodes)
 * get no subject: a second "likes sushi" must not replace "likes ramen".
 */

export const LANGUAGES =
  "English|German|French|Spanish|Italian|Portuguese|Dutch|Polish|Czech|Swedish|Norwegian|Danish|Finnish|Greek|Turkish|Russian|Ukrainian|Arabic|Hebrew|Hindi|Bengali|Urdu|Japanese|Chinese|Mandarin|Cantonese|Korean|Vietnamese|Thai|Indonesian|Malay|Tagalog|Swahili|Romanian|Hungarian|Catalan|Basque|Irish|Welsh";

const LANGUAGE_RE = new RegExp(`\\b(?:${LANGUAGES})\\b`, "i");

/** Slot keys whose statements are preferences (content and tone) rather than procedures (how to work). */
export const PREFERENCE_SUBJECTS = new Set([
  "units",
  "language.response",
  "response.tone",
  "response.length",
  "response.emoji",
  "name.preferred",
  "timezone",
  "format.date",
  "format.time",
  "language.spelling",
  "currency",
  "ui.theme",
]);

const RULES: Array<[RegExp, string]> = [
  [/\b(?:metric|imperial|celsius|fahrenheit|°\s?[CF]|kilomet(?:er|re)s?|km|miles|kilograms?|kg|pounds|lbs|litres?|liters?|gallons?|SI units)\b/i, "units"],
  [/\b(?:formal|informal|casual|friendly|professional|polite|blunt|direct|neutral)\b(?:\s+(?:tone|style|language|register))?/i, "response.tone"],
  [/\b(?:concise|brief|short|shorter|long|longer|detailed|verbose|terse|one-line|succinct)\b\s*(?:answers?|responses?|replies|explanations?|summaries)?/i, "response.length"],
  [/\bemojis?\b/i, "response.emoji"],
  [/\b(?:diffs?|patch(?:es)?|full files?|whole files?|entire files?)\b/i, "code.output"],
  [/\b(?:tabs|spaces)\b/i, "code.indentation"],
  [/\b(?:vim|neovim|emacs|vs ?code|visual studio code|intellij|webstorm|pycharm|sublime(?: text)?|nano|zed|cursor)\b/i, "tools.editor"],
  [/\b(?:npm|pnpm|yarn|bun)\b/i, "tools.package_manager"],
  [/\b(?:dark|light) (?:mode|theme)\b/i, "ui.theme"],
  [/\b(?:24-hour|12-hour|am\/pm|24h|12h)\b/i, "format.time"],
  [/\b(?:dd\/mm(?:\/yyyy)?|mm\/dd(?:\/yyyy)?|yyyy-mm-dd|ISO(?: 8601)? dates?|day-month-year|month-day-year)\b/i, "format.date"],
  [/\b(?:British|American|UK|US|Canadian|Australian) (?:English )?spellings?\b|\bspell(?:ing)? (?:it |things )?the (?:British|American) way\b/i, "language.spelling"],
  [/\b(?:euros?|dollars|USD|EUR|GBP|CHF|JPY|pounds sterling)\b/i, "currency"],
  [/\b(?:vegetarian|vegan|pescatarian|pescetarian|flexitarian|meat|pork|beef|keto|paleo)\b/i, "diet"],
];

/**
 * Slots that work like settings: a request about them is a standing preference even without
 * "always" or "from now on" ("Please use metric units.", "answer me in Spanish"), unless it says
 * it is for once. Tone and length are not among them: "use a formal tone" is often for one message.
 */
export const SETTING_SUBJECTS = new Set(["units", "language.response", "language.spelling", "format.date", "format.time", "currency"]);

/** The slot a preference or instruction phrase talks about, if it is a single-valued one. */
export function preferenceSubject(phrase: string): string | undefined {
  if (/\b(?:in|into|reply in|answer in|respond in|write in|speak)\s+(?:English|German|French|Spanish|Italian|Portuguese|Dutch|Polish|Japanese|Chinese|Mandarin|Korean|Russian|Arabic|Turkish|Swedish)\b/i.test(phrase)) {
    return "language.response";
  }
  for (const [re, subject] of RULES) if (re.test(phrase)) return subject;
  if (LANGUAGE_RE.test(phrase) && phrase.trim().split(/\s+/).length <= 3) return "language.response";
  return undefined;
}

/** `my <attribute> is …` → slot and kind. */
export function attributeSlot(attribute: string): { subject: string; kind: "fact" | "preference" } | undefined {
  const a = attribute.toLowerCase().replace(/\s+/g, " ").trim();
  const fav = /^favou?rite (.+)$/.exec(a);
  if (fav) return { subject: `favorite.${fav[1].replace(/[^a-z0-9]+/g, "_")}`, kind: "preference" };
  const table: Record<string, { subject: string; kind: "fact" | "preference" }> = {
    name: { subject: "name", kind: "fact" },
    "full name": { subject: "name", kind: "fact" },
    "first name": { subject: "name", kind: "fact" },
    nickname: { subject: "name.preferred", kind: "preference" },
    birthday: { subject: "birthday", kind: "fact" },
    "date of birth": { subject: "birthday", kind: "fact" },
    email: { subject: "contact.email", kind: "fact" },
    "email address": { subject: "contact.email", kind: "fact" },
    "e-mail": { subject: "contact.email", kind: "fact" },
    "work email": { subject: "contact.email.work", kind: "fact" },
    phone: { subject: "contact.phone", kind: "fact" },
    "phone number": { subject: "contact.phone", kind: "fact" },
    "mobile number": { subject: "contact.phone", kind: "fact" },
    mobile: { subject: "contact.phone", kind: "fact" },
    address: { subject: "address.home", kind: "fact" },
    "home address": { subject: "address.home", kind: "fact" },
    "work address": { subject: "address.work", kind: "fact" },
    "office address": { subject: "address.work", kind: "fact" },
    pronouns: { subject: "pronouns", kind: "preference" },
    "native language": { subject: "language.native", kind: "fact" },
    "first language": { subject: "language.native", kind: "fact" },
    "mother tongue": { subject: "language.native", kind: "fact" },
    timezone: { subject: "timezone", kind: "fact" },
    "time zone": { subject: "timezone", kind: "fact" },
    "job title": { subject: "occupation", kind: "fact" },
    job: { subject: "occupation", kind: "fact" },
    role: { subject: "occupation", kind: "fact" },
    title: { subject: "occupation", kind: "fact" },
    occupation: { subject: "occupation", kind: "fact" },
    profession: { subject: "occupation", kind: "fact" },
    employer: { subject: "employer", kind: "fact" },
    company: { subject: "employer", kind: "fact" },
    team: { subject: "work.team", kind: "fact" },
    department: { subject: "work.team", kind: "fact" },
    "github username": { subject: "account.github", kind: "fact" },
    "github handle": { subject: "account.github", kind: "fact" },
    github: { subject: "account.github", kind: "fact" },
    username: { subject: "account.username", kind: "fact" },
    handle: { subject: "account.username", kind: "fact" },
    hometown: { subject: "location.origin", kind: "fact" },
    "home town": { subject: "location.origin", kind: "fact" },
    city: { subject: "location.home", kind: "fact" },
    "home city": { subject: "location.home", kind: "fact" },
    "dietary restriction": { subject: "diet", kind: "fact" },
    "dietary restrictions": { subject: "diet", kind: "fact" },
    diet: { subject: "diet", kind: "fact" },
    "preferred language": { subject: "language.response", kind: "preference" },
    "preferred units": { subject: "units", kind: "preference" },
    currency: { subject: "currency", kind: "preference" },
    "default currency": { subject: "currency", kind: "preference" },
  };
  return table[a];
}

/** Attribute names `my X is …` understands (alternation for a regex). */
export const ATTRIBUTE_NAMES =
  "full name|first name|name|nickname|birthday|date of birth|email address|work email|e-mail|email|phone number|mobile number|phone|mobile|home address|work address|office address|address|pronouns|native language|first language|mother tongue|preferred language|preferred units|time ?zone|job title|job|role|title|occupation|profession|employer|company|team|department|github username|github handle|github|username|handle|hometown|home town|home city|city|dietary restrictions?|diet|default currency|currency|favou?rite [a-z]+(?: [a-z]+)?";
