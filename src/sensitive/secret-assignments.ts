import type { Detector } from "./categories.js";
import { isPlaceholder, secretShaped, trimValue } from "./value-shapes.js";

/**
 * `NAME=value` and `NAME: value` lines (.env files, `export`, `docker -e`, YAML, INI, compose
 * files) whose NAME says it holds a secret: one of its parts — split at `_`, `-`, `.` and camelCase
 * — is a secret word (PASSWORD, PASS, PWD, SECRET, TOKEN, PRIVATE + KEY, API + KEY, CREDENTIALS…),
 * and no part says it is a setting about the secret (MIN, LENGTH, POLICY, FILE, PATH, TTL…).
 * Also `.pgpass` lines (`host:port:database:user:password`).
 */

/** Parts that are a secret on their own ("PGPASSWORD", "SMTP_PASS", "JWT_SECRET"). */
const SECRET_PART = /^(?:\w*password|\w*passwd|pass|pwd|pw|\w*passphrase|secret|secrets|\w*secret|token|\w*token|apikey|\w*apikey|credentials?|creds|privatekey|\w*privkey|dsn|cookie|salt|pin|passcode)$/;
/** Parts that make KEY a secret ("PRIVATE_KEY", "API_KEY", "SigningKey"). */
const KEY_QUALIFIER = /^(?:private|priv|secret|api|access|signing|sign|encryption|enc|master|client|app|auth|session|jwt|hmac|webhook|license|licence|wallet|account|shared|service|storage|ssh|gpg|pgp|preshared|psk)$/;
/** Parts that make the NAME a setting about a secret, not the secret ("PASSWORD_MIN_LENGTH", "TOKEN_TTL"). */
const SETTING_PART = /^(?:min|max|length|len|policy|file|path|dir|url|uri|endpoint|host|expiry|expires|expiration|ttl|timeout|rounds|cost|algorithm|algo|enabled|enable|disabled|required|count|size|format|regex|pattern|field|header|name|type|mode|strategy|rotation|reset|hint|id|prefix|version|env|limit|limits|lifetime|issuer|audience|usage|location|provider|source|store|cache|bucket|output|input|tokens|tokenizer|encoding|budget|model)$/;

function nameParts(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .split(/[_.-]+/)
    .filter((p) => p.length > 0);
}

/** True when a variable name says it holds a secret. */
export function secretName(name: string): boolean {
  const parts = nameParts(name);
  if (parts.length === 0 || parts.some((p) => SETTING_PART.test(p))) return false;
  if (parts.some((p) => SECRET_PART.test(p) && !/^(?:bypass|compass|passport|tokens?ize\w*)$/.test(p))) return true;
  return parts.some((p, i) => p === "key" && (parts.length === 1 ? false : parts.some((q, j) => j !== i && KEY_QUALIFIER.test(q))));
}

const VALUE_WORDS = /^(?:true|false|yes|no|on|off|none|null|nil|undefined|required|optional|enabled|disabled|\d{1,3})$/i;

export const SECRET_ASSIGNMENT_DETECTOR: Detector = {
  name: "secret_env_assignment",
  category: "password",
  find(text) {
    const out: Array<{ start: number; end: number }> = [];
    const re = /(?<![\w.$-])([A-Za-z][A-Za-z0-9_.-]{1,80})\s*(?:=|:(?!\/\/))[ \t]*(["'`]?)([^\s"'`]{3,400})\2?/g;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      if (!secretName(m[1])) continue;
      const { value, offset } = trimValue(m[3]);
      if (value.length < 3 || isPlaceholder(value) || VALUE_WORDS.test(value) || /^\$/.test(value)) continue;
      // A plain word before a colon is prose ("Salt: a pinch", "Secret: we met in May"): its value must look like one.
      if (/^[A-Z]?[a-z]+$/.test(m[1]) && !secretShaped(value)) continue;
      const start = m.index + m[0].length - m[3].length - (m[2] && m[0].endsWith(m[2]) ? 1 : 0) + offset;
      out.push({ start, end: start + value.length });
    }
    return out;
  },
};

/** `.pgpass`: hostname:port:database:username:password (port digits, `*` wildcards allowed). */
export const PGPASS_DETECTOR: Detector = {
  name: "pgpass_line",
  category: "connection_string",
  find(text) {
    const out: Array<{ start: number; end: number }> = [];
    const re = /(?<![\w:.-])(?:[A-Za-z0-9*][\w.*-]*):(?:\d{2,5}|\*):(?:[\w.*-]+):(?:[\w.*@-]+):(\S+)/g;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      const { value, offset } = trimValue(m[1]);
      if (value.length < 3 || isPlaceholder(value)) continue;
      const start = m.index + m[0].length - m[1].length + offset;
      out.push({ start, end: start + value.length });
    }
    return out;
  },
};
