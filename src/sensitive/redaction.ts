/**
 * Secrets are cut out of message text before it is queued for background extraction, so the job
 * table never holds an API key or a card number and the extraction model never receives one. A
 * candidate that still carries a redaction mark (a model paraphrasing "my key is [redacted:api_key]")
 * is refused as sensitive with the mark's category.
 */
import { SENSITIVE_CATEGORIES, type SensitiveCategory } from "./categories.js";
import { detectSecretsAndIdentifiers } from "./detect-sensitive.js";
import { createHash } from "node:crypto";
import { BoundedCache } from "../cache/bounded-cache.js";

const MARK_RE = /\[redacted:([a-z_]+)\]/;

/**
 * Redacted texts by a hash of the original. The schedule node redacts a turn's new messages and, as
 * context, the few before them, which it redacted on earlier turns: detection is pure, so each text
 * is scanned once. Keys are hashes and values are redacted, so the cache never holds a secret.
 */
const redacted = new BoundedCache<string, string>(5_000);
const MIN_CACHED_LENGTH = 64;

/**
 * Replace secrets, financial and identity numbers with `[redacted:<category>]`. Special-category
 * text (health, religion, …) is left alone: it is not a credential, the extractor needs it for
 * context, and the write policy decides about it (`allowSpecialCategory`).
 *
 * @example
 * redactSecrets("my key is sk-proj-4fJq9xLm2TzR8vWb1KdN6pYh") // "my key is [redacted:api_key]"
 */
export function redactSecrets(text: string): string {
  if (text.length < MIN_CACHED_LENGTH) return redactNow(text);
  const key = createHash("sha256").update(text).digest("base64");
  return redacted.getOrCompute(key, () => redactNow(text));
}

function redactNow(text: string): string {
  const findings = detectSecretsAndIdentifiers(text);
  if (findings.length === 0) return text;
  let out = "";
  let at = 0;
  for (const f of findings) {
    if (f.end <= at) continue;
    out += text.slice(at, Math.max(at, f.start)) + `[redacted:${f.category}]`;
    at = f.end;
  }
  return out + text.slice(at);
}

/** The category of the first redaction mark in a text, if it has one. */
export function redactedCategory(text: string): SensitiveCategory | undefined {
  const m = MARK_RE.exec(text);
  if (!m) return undefined;
  return (SENSITIVE_CATEGORIES as readonly string[]).includes(m[1]) ? (m[1] as SensitiveCategory) : "high_entropy";
}
