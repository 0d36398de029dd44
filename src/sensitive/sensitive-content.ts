/**
 * The write policy's secret and sensitive-data filter (`detectSensitive`, src/sensitive)
 * applied to what a user writes through the controls — edits of a memory or the profile, and
 * imports. Extraction and the memory tools already refuse such data; an edit or an import must not
 * be the side door. A refusal names the field and the kind of data, never the value.
 */
import type { SensitiveCategory } from "./categories.js";
import { blockingFindings, detectSensitive, primaryCategory, type StorableOptions } from "./detect-sensitive.js";
import { ErrorCodes, MemoryError } from "../errors.js";

/** How a refusal describes each category to the person who typed it. */
const DESCRIPTIONS: Record<SensitiveCategory, string> = {
  private_key: "a private key",
  api_key: "an API key or other credential",
  token: "an access token",
  connection_string: "a connection string with a password",
  password: "a password, PIN or access code",
  high_entropy: "what looks like a secret key or token",
  card_number: "a payment card number",
  iban: "a bank account number (IBAN)",
  bank_account: "a bank account or routing number",
  national_id: "a national identity or tax number",
  health: "health information",
  genetic: "genetic information",
  biometric: "biometric information",
  religion: "religious beliefs",
  sexual_orientation: "sexual orientation or gender identity",
  political_opinion: "political opinions",
  ethnicity: "racial or ethnic origin",
  trade_union: "trade-union membership",
  criminal_record: "criminal convictions or offences",
};

export interface SensitiveCheckOptions extends StorableOptions {
  /**
   * Skip the high-entropy fallback in strings without a space: for machine-written fields
   * (metadata, item values) where random ids are expected. Named formats (keys, tokens, cards,
   * ids…) are still refused, and so is a high-entropy token inside a sentence.
   */
  ignoreHighEntropy?: boolean;
}

/** The most specific category that blocks storing `text`, or undefined when it may be stored. */
export function sensitiveCategoryOf(text: string, options: SensitiveCheckOptions = {}): SensitiveCategory | undefined {
  const findings = blockingFindings(detectSensitive(text), options);
  const lone = options.ignoreHighEntropy === true && !/\s/.test(text.trim());
  return primaryCategory(lone ? findings.filter((f) => f.category !== "high_entropy") : findings);
}

/**
 * The first blocking category among the strings of a JSON-like value — string values and object
 * keys, at any depth (walked without recursion, so deep documents cannot overflow the stack).
 */
export function sensitiveCategoryIn(value: unknown, options: SensitiveCheckOptions = {}): SensitiveCategory | undefined {
  const stack: unknown[] = [value];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === "string") {
      const category = sensitiveCategoryOf(v, options);
      if (category) return category;
    } else if (v && typeof v === "object" && !seen.has(v)) {
      seen.add(v);
      if (Array.isArray(v)) for (const item of v) stack.push(item);
      else
        for (const [key, item] of Object.entries(v)) {
          const category = sensitiveCategoryOf(key, options);
          if (category) return category;
          stack.push(item);
        }
    }
  }
  return undefined;
}

/**
 * SENSITIVE_CONTENT for `field`: what kind of data was found and what to do, never the value.
 *
 * @example
 * sensitiveContent("text", "password").message
 * // "text: holds a password, PIN or access code, which memory never stores — remove it (keep the rest) and send the edit again"
 */
export function sensitiveContent(field: string, category: SensitiveCategory): MemoryError {
  return new MemoryError(ErrorCodes.SENSITIVE_CONTENT, `${field}: holds ${DESCRIPTIONS[category]}, which memory never stores — remove it (keep the rest) and send the edit again`, {
    details: { field, category },
  });
}

/** Throw {@link sensitiveContent} when `text` (a string) holds blocking data; anything else passes (the store validates it). */
export function refuseSensitiveText(text: unknown, field: string, options: StorableOptions = {}): void {
  if (typeof text !== "string") return;
  const category = sensitiveCategoryOf(text, options);
  if (category) throw sensitiveContent(field, category);
}
