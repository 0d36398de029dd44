import { regexDetector, regexSpans, type Detector } from "./categories.js";
import { shannonEntropy } from "./checksums.js";
import { isPlaceholder } from "./value-shapes.js";

export { isPlaceholder };

/**
 * API keys, tokens, private keys, connection strings and passwords. Provider formats come first
 * (exact prefixes, near-zero false positives); context patterns ("my api key is …", "password: …")
 * and the high-entropy fallback catch the rest.
 */

// Provider key formats. Lookarounds instead of \b where keys may contain "-" or "_".
const B = "(?<![A-Za-z0-9_-])";
const E = "(?![A-Za-z0-9_-])";
const re = (src: string, flags = "g") => new RegExp(src, flags);

const TWILIO_SID = /\b(?:AC|SK)[0-9a-f]{32}\b/g;
const HAS_TWILIO_SID = new RegExp(TWILIO_SID.source);
const HEX_32 = /(?<![0-9A-Za-z])[0-9a-fA-F]{32}(?![0-9A-Za-z])/g;
/**
 * A token cue right before the value: "auth token 7ba0…", "auth token is 7ba0…", "token: '7ba0…'",
 * "TWILIO_AUTH_TOKEN=7ba0…" (no \b before "auth": "_" is a word character).
 */
const TOKEN_CUE_BEFORE = /(?<![A-Za-z0-9])(auth[_ -]?)?token\b\s*(?:is|was|[:=])?\s*["'`]?$/i;
const TWILIO_WORD = /(?<![A-Za-z0-9])twilio(?![A-Za-z0-9])/i;
/** How far before "token" the word "twilio" may be, not counting SIDs (a 34-character SID is one word of talk). */
const TWILIO_CUE_DISTANCE = 40;

/**
 * A lone 32-hex string is a Twilio auth token or API key secret when the text also holds a Twilio
 * SID (credentials travel in pairs, as AWS key ids and secrets do), or when it follows "auth token",
 * or "token" with "twilio" shortly before. Without such context it stays an ordinary hex string
 * (an MD5 checksum, a request id), as the high-entropy fallback leaves pure hex alone.
 */
function isTwilioSecret(text: string, start: number): boolean {
  if (HAS_TWILIO_SID.test(text)) return true;
  // The sentence before the value, SIDs collapsed so "Twilio account AC… with auth token …" counts
  // the SID as one word, not 34 characters.
  const before = text.slice(Math.max(0, start - 400), start).replace(/^[\s\S]*[.\n]/, "").replace(TWILIO_SID, "SID");
  const cue = TOKEN_CUE_BEFORE.exec(before);
  if (!cue) return false;
  if (cue[1] !== undefined) return true;
  return TWILIO_WORD.test(before.slice(Math.max(0, cue.index - TWILIO_CUE_DISTANCE - "twilio".length), cue.index));
}

export const PROVIDER_KEY_DETECTORS: Detector[] = [
  regexDetector("anthropic_key", "api_key", re(`${B}sk-ant-(?:api|admin|sid)?\\d{0,2}-?[A-Za-z0-9_-]{20,}${E}`)),
  // OpenAI: sk-…, sk-proj-…, sk-svcacct-…, sk-admin-… (the Anthropic prefix is handled above).
  regexDetector("openai_key", "api_key", re(`${B}sk-(?!ant-)(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,}${E}`), (m) => /\d/.test(m[0]) && /[A-Za-z]{2}/.test(m[0])),
  regexDetector("aws_access_key_id", "api_key", /\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|APKA|AROA|ASCA)[A-Z0-9]{16}\b/g),
  regexDetector(
    "aws_secret_access_key",
    "api_key",
    /\b(?:aws[_ -]?secret(?:[_ -]access)?(?:[_ -]key)?|secret[_ -]access[_ -]key)\b["'`]?\s*(?:is|was|[:=])?\s*["'`]?([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])/gi,
    undefined,
    1,
  ),
  {
    // AWS credentials travel in pairs: next to an access key id, a lone 40-character base64 token
    // is its secret half even when no "secret" cue word precedes it.
    name: "aws_secret_beside_key_id",
    category: "api_key",
    find(text) {
      if (!/\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/.test(text)) return [];
      return regexSpans(/(?<![A-Za-z0-9/+])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])/g, text, (m) => /\d/.test(m[0]) && /[a-z]/.test(m[0]) && /[A-Z]/.test(m[0]));
    },
  },
  regexDetector("github_token", "api_key", re(`${B}(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})${E}`)),
  regexDetector("gitlab_token", "api_key", re(`${B}gl(?:pat|dt|rt|ptt|cbt)-[A-Za-z0-9_-]{20,}${E}`)),
  regexDetector("slack_token", "api_key", [re(`${B}xox[abposre]-[A-Za-z0-9-]{10,}${E}`), /https:\/\/hooks\.slack\.com\/(?:services|workflows)\/[A-Za-z0-9/_-]{20,}/g]),
  regexDetector("stripe_key", "api_key", re(`${B}(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}${E}|${B}whsec_[A-Za-z0-9]{24,}${E}`)),
  regexDetector("google_api_key", "api_key", [re(`${B}AIza[0-9A-Za-z_-]{35}${E}`), re(`${B}GOCSPX-[A-Za-z0-9_-]{20,}${E}`)]),
  regexDetector("google_oauth_token", "token", re(`${B}ya29\\.[0-9A-Za-z_-]{20,}`)),
  {
    // Account and API key SIDs, and the 32-hex auth token or key secret that goes with them.
    name: "twilio_key",
    category: "api_key",
    find: (text) => [...regexSpans(TWILIO_SID, text), ...regexSpans(HEX_32, text, (m) => isTwilioSecret(text, m.index))],
  },
  regexDetector("sendgrid_key", "api_key", re(`${B}SG\\.[A-Za-z0-9_-]{16,32}\\.[A-Za-z0-9_-]{16,64}${E}`)),
  regexDetector("npm_token", "api_key", re(`${B}npm_[A-Za-z0-9]{36}${E}`)),
  regexDetector("huggingface_token", "api_key", re(`${B}hf_[A-Za-z0-9]{30,}${E}`)),
  regexDetector("mailgun_key", "api_key", /\bkey-[0-9a-f]{32}\b/g),
  regexDetector("digitalocean_token", "api_key", /\bdo[opr]_v1_[a-f0-9]{64}\b/g),
  regexDetector("shopify_token", "api_key", /\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b/g),
  regexDetector("pypi_token", "api_key", /\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}/g),
  regexDetector("telegram_bot_token", "api_key", re(`(?<!\\d)\\d{8,10}:AA[A-Za-z0-9_-]{33}${E}`)),
  regexDetector("discord_webhook", "api_key", /https:\/\/(?:ptb\.|canary\.)?discord(?:app)?\.com\/api\/webhooks\/\d+\/[A-Za-z0-9_-]{20,}/g),
  regexDetector("age_secret_key", "private_key", /\bAGE-SECRET-KEY-1[0-9A-Z]{58}\b/g),
];

/**
 * A private key block, body included: up to its END line, or — pasted without one, or cut short
 * ("lQOYBGZ3...") — the base64 chunks after the header (a chunk has a digit, "+" or "/", so the
 * sentence that follows stays). The header alone would leave the key material in redacted text.
 */
export const PRIVATE_KEY_DETECTOR = regexDetector("private_key_block", "private_key", [
  /-----BEGIN ((?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?)-----(?:[\s\S]{0,20000}?-----END \1-----|(?:\s+(?=[A-Za-z0-9+/=]*[0-9+/])[A-Za-z0-9+/=]{4,}(?:\.{2,}|…)?(?=\s|$))*)/g,
  /PuTTY-User-Key-File-\d:/g,
]);

export const TOKEN_DETECTORS: Detector[] = [
  regexDetector("jwt", "token", re(`${B}eyJ[A-Za-z0-9_-]{8,}\\.eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{0,}`)),
  regexDetector("bearer_token", "token", /\bBearer\s+([A-Za-z0-9\-._~+/]{16,}=*)/gi, (m) => /\d/.test(m[1]) || /[A-Z]/.test(m[1].slice(1)), 1),
  // Basic auth: only when the value decodes to "user:password".
  regexDetector("basic_auth", "token", /\bBasic\s+([A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])/g, (m) => decodesToCredentials(m[1]), 1),
];

function decodesToCredentials(b64: string): boolean {
  try {
    const decoded = Buffer.from(b64, "base64").toString("utf8");
    return /^[\x20-\x7e]+:[\x20-\x7e]+$/.test(decoded);
  } catch {
    return false;
  }
}

export const CONNECTION_STRING_DETECTORS: Detector[] = [
  // scheme://user:password@host, any scheme, the user may be empty (redis://:pw@host) — the password
  // must be a real value, not a placeholder.
  regexDetector("url_with_password", "connection_string", /\b[a-z][a-z0-9+.-]{1,20}:\/\/[^\s:/?#@'"]*:([^\s@/'"]+)@[^\s/'"]+/gi, (m) => !isPlaceholder(m[1])),
  // ADO.NET / ODBC / Azure style key=value strings.
  regexDetector("keyvalue_connection_string", "connection_string", [
    /\b(?:Password|Pwd)\s*=\s*([^;\s'"]{3,})\s*;/gi,
    /\b(?:AccountKey|SharedAccessKey|SharedAccessSignature)\s*=\s*[A-Za-z0-9+/=%&]{20,}/g,
  ], (m) => m[1] === undefined || !isPlaceholder(m[1])),
];

/** Words that follow "password is" in ordinary talk about passwords, not a password itself. */
const NOT_A_SECRET_VALUE = new Set(
  (
    "is was wrong incorrect invalid expired expiring required missing empty too not no correct right the a an being still changed reset " +
    "saved stored hashed encrypted weak strong secure insecure long short case-sensitive different same mandatory optional protected set ok " +
    "okay fine good bad broken forgotten lost needed in on at for my your their our his her this that it its also and or but so because now " +
    "then there here what which who whatever none null undefined nil managed generated random shared very really super quite pretty complex " +
    "simple easy hard visible hidden unknown known n/a tbd todo something anything nothing same incorrectly rejected accepted working " +
    "ignored used reused unique asked prompted requested sent shown displayed masked rotated updated leaked compromised enabled disabled " +
    "locked unlocked valid written just only already somewhere going about of to with from by as if when where how why " +
    "probably definitely maybe supposed meant great terrible awful horrible secret private personal mine yours"
  ).split(/\s+/),
);

function looksLikeSecretValue(value: string): boolean {
  const v = value.replace(/[.,;:!?)\]]+$/, "");
  if (v.length < 3 || isPlaceholder(v) || /^(?:<|\$\{|\{\{|\[)/.test(v)) return false;
  if (NOT_A_SECRET_VALUE.has(v.toLowerCase())) return false;
  return true;
}

const PASSWORD_WORDS = "(?:pass(?:word|wd|phrase|code)|pwd|pw|wi-?fi (?:key|code)|login password|master password|admin password)";
/** "my password is hunter2", "the password for the staging db is X", "pw: X", "User's password is X". */
export const PASSWORD_DETECTORS: Detector[] = [
  regexDetector(
    "password_statement",
    "password",
    new RegExp(
      `\\b${PASSWORD_WORDS}\\b(?:\\s+(?:for|to|of|on|at)\\s+(?:the\\s+|my\\s+|our\\s+|their\\s+)?[\\w.@-]+(?:\\s[\\w.@-]+){0,3}?)?\\s*(?:is|was|are|=|:|-|->)\\s*(?:now\\s+|still\\s+|just\\s+|literally\\s+)?["'\`“‘]?([^\\s"'\`”’]{2,}[^\\s"'\`”’.,;:!?)])`,
      "gi",
    ),
    (m) => looksLikeSecretValue(m[1]),
    1,
  ),
  // "passcode 4821", "PIN is 0711", "pin: 1234" — PINs only count when the value is digits.
  regexDetector("pin_code", "password", /\b(?:PIN|pin code|PIN number|passcode|unlock code|door code|alarm code)\b\s*(?:is|was|=|:)?\s*(\d{4,8})\b/gi, undefined, 1),
  // "password Pinguin6388?" (a list: "network GuestNet, password …") — no "is" or ":", so the value
  // must look like a password itself (letters mixed with digits or symbols, or a number).
  regexDetector("password_bare_value", "password", new RegExp(`\\b${PASSWORD_WORDS}\\s+["'\`“‘]?([^\\s"'\`”’,;]{4,})`, "gi"), (m) => passwordLikeValue(m[1]), 1),
  // "I changed my Netflix password to Marmelade6402", "set the wifi password to …".
  regexDetector(
    "password_changed_to",
    "password",
    new RegExp(`\\b(?:chang(?:e|es|ed|ing)|set(?:s|ting)?|reset(?:s|ting)?|updat(?:e|es|ed|ing)|switch(?:ed|es|ing)?|made)\\s+(?:[\\w'’.@-]+\\s+){0,4}?${PASSWORD_WORDS}\\s+(?:to|into|as)\\s+["'\`“‘]?([^\\s"'\`”’,;]{4,})`, "gi"),
    (m) => passwordLikeValue(m[1]),
    1,
  ),
  // Codes of a place or device, with what they open in between: "the alarm code for the office is
  // 5318", "gate code to the garage: 4471", "the safe combination is 2208".
  regexDetector(
    "access_code_for",
    "password",
    /\b(?:PIN|pin code|passcode|unlock code|door code|alarm code|gate code|garage code|safe code|lock code|locker code|keypad code|entry code|access code|security code|(?:safe|lock|locker|padlock) combination)\b(?:\s+(?:for|to|of|on|at)\s+(?:the\s+|my\s+|our\s+|their\s+|his\s+|her\s+)?[\w.@'’-]+(?:\s[\w.@'’-]+){0,3}?)?\s*(?:is|was|=|:)?\s*(\d{4,8})\b/gi,
    undefined,
    1,
  ),
];

/**
 * A value that reads as a password, not a word: letters with digits or symbols (6+ characters), or
 * a number of 4–12 digits — and not an address, a placeholder or a word of talk about passwords.
 */
function passwordLikeValue(raw: string): boolean {
  const value = raw.replace(/[.,;:!?)\]]+$/, "");
  if (!looksLikeSecretValue(value) || /^(?:https?:|www\.)/i.test(value) || value.includes("@")) return false;
  if (/^\d{4,12}$/.test(value)) return true;
  const letters = /\p{L}/u.test(value);
  return letters && value.length >= 6 && (/\d/.test(value) || /[!#$%^&*_+=~?|\\<>]/.test(value));
}

/**
 * Generic "<secret word> is <value>" and `key=value` assignments: the value must look like a
 * credential (a digit and a letter, or 20+ characters), not an English word.
 */
export const GENERIC_SECRET_DETECTORS: Detector[] = [
  {
    name: "secret_assignment",
    category: "api_key",
    find: (text) =>
      regexSpans(
        /\b(?:api[_ -]?key|apikey|secret[_ -]?key|client[_ -]?secret|app[_ -]?secret|signing[_ -]?secret|webhook[_ -]?secret|access[_ -]?key(?:[_ -]?id)?|private[_ -]?token|api[_ -]?secret|secret)\b(?:\s+(?:for|of|to|on)\s+[\w .-]{1,30}?)?\s*(?:is|was|=|:|->)\s*["'`]?([A-Za-z0-9_\-./+=~]{12,})/gi,
        text,
        (m) => credentialLike(m[1]),
        1,
      ),
  },
  {
    name: "token_assignment",
    category: "token",
    find: (text) =>
      regexSpans(
        /\b(?:access[_ -]?token|auth[_ -]?token|refresh[_ -]?token|api[_ -]?token|session[_ -]?(?:token|id|cookie)|bot[_ -]?token|personal access token|token)\b(?:\s+(?:for|of|to|on)\s+[\w .-]{1,30}?)?\s*(?:is|was|=|:|->)\s*["'`]?([A-Za-z0-9_\-./+=~]{12,})/gi,
        text,
        (m) => credentialLike(m[1]),
        1,
      ),
  },
];

function credentialLike(value: string): boolean {
  const v = value.replace(/[.,;:!?)]+$/, "");
  if (isPlaceholder(v) || /^v?\d+(?:\.\d+)+/.test(v)) return false;
  const hasDigit = /\d/.test(v);
  const hasLetter = /[A-Za-z]/.test(v);
  return (hasDigit && hasLetter) || (v.length >= 20 && shannonEntropy(v) >= 3.5);
}
