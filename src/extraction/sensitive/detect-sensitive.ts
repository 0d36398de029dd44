import { invalidInput } from "../../errors.js";
import { groupOf, isSpecialCategory, SENSITIVE_CATEGORIES, type Detector, type SensitiveCategory, type SensitiveFinding } from "./categories.js";
import { CONNECTION_STRING_DETECTORS, GENERIC_SECRET_DETECTORS, PASSWORD_DETECTORS, PRIVATE_KEY_DETECTOR, PROVIDER_KEY_DETECTORS, TOKEN_DETECTORS } from "./credentials.js";
import { CARD_NUMBER_DETECTOR, IBAN_DETECTOR } from "./financial.js";
import { HIGH_ENTROPY_DETECTOR } from "./high-entropy.js";
import { NATIONAL_ID_DETECTORS } from "./national-ids.js";
import { SPECIAL_CATEGORY_DETECTORS } from "./special-category.js";

/** Every detector, in the order findings are reported for equal spans. */
export const SENSITIVE_DETECTORS: readonly Detector[] = [
  PRIVATE_KEY_DETECTOR,
  ...PROVIDER_KEY_DETECTORS,
  ...TOKEN_DETECTORS,
  ...CONNECTION_STRING_DETECTORS,
  ...GENERIC_SECRET_DETECTORS,
  ...PASSWORD_DETECTORS,
  CARD_NUMBER_DETECTOR,
  IBAN_DETECTOR,
  ...NATIONAL_ID_DETECTORS,
  HIGH_ENTROPY_DETECTOR,
  ...SPECIAL_CATEGORY_DETECTORS,
];

const RANK = new Map<SensitiveCategory, number>(SENSITIVE_CATEGORIES.map((c, i) => [c, i]));

/** The most specific category among findings (private keys before API keys before … before special categories). */
export function primaryCategory(findings: readonly SensitiveFinding[]): SensitiveCategory | undefined {
  let best: SensitiveCategory | undefined;
  for (const f of findings) if (best === undefined || RANK.get(f.category)! < RANK.get(best)!) best = f.category;
  return best;
}

/** The detectors of secrets and financial and identity numbers: what redaction cuts out. */
const SECRET_AND_IDENTIFIER_DETECTORS: readonly Detector[] = SENSITIVE_DETECTORS.filter((d) => !isSpecialCategory(d.category));

/**
 * Find secrets, financial and identity numbers and special-category data in a text. Findings carry
 * a category, the detector's name and offsets — never the matched text, so they are safe to log.
 * A high-entropy match inside a span a secret or identifier detector already explains is dropped
 * (one secret, one finding).
 *
 * @example
 * detectSensitive("here's my key sk-proj-4fJq9xLm2TzR8vWb1KdN6pYh can you check why it fails")
 * // [{ category: "api_key", group: "secret", detector: "openai_key", start: 14, end: 46 }]
 */
export function detectSensitive(text: string): SensitiveFinding[] {
  if (typeof text !== "string" || text.length === 0) return [];
  checkScanLength(text);
  return settle(findingsOf(text, SENSITIVE_DETECTORS));
}

/**
 * `detectSensitive(text)` without its special-category findings: the secrets, card, IBAN and
 * national-id findings redaction cuts out. The special-category detectors do not run (they cannot
 * change these findings: only a secret or identifier explains a high-entropy match).
 *
 * @example
 * detectSecretsAndIdentifiers("I'm diabetic; my pw is hunter22") // [{ category: "password", … }]
 */
export function detectSecretsAndIdentifiers(text: string): SensitiveFinding[] {
  if (typeof text !== "string" || text.length === 0) return [];
  checkScanLength(text);
  return settle(findingsOf(text, SECRET_AND_IDENTIFIER_DETECTORS));
}

/**
 * Longest text the detectors read. Memory texts are at most `writePolicy.maxTextChars` (4,000) and
 * payload messages are cut to 8,000 characters before they are scanned; past about 4 MB of text
 * without spaces a detector's regular expression overflowed the stack (an untyped RangeError).
 */
export const MAX_SCAN_CHARS = 1_000_000;

function checkScanLength(text: string): void {
  if (text.length > MAX_SCAN_CHARS) {
    throw invalidInput("text", `is ${text.length} characters; the secret filter reads at most ${MAX_SCAN_CHARS} — split the text (or cut it) and check each part`, { limit: MAX_SCAN_CHARS });
  }
}

function findingsOf(text: string, detectors: readonly Detector[]): SensitiveFinding[] {
  const findings: SensitiveFinding[] = [];
  for (const detector of detectors) {
    for (const span of detector.find(text)) {
      findings.push({ category: detector.category, group: groupOf(detector.category), detector: detector.name, start: span.start, end: span.end });
    }
  }
  return findings;
}

/**
 * Drop high-entropy findings a secret or identifier finding explains, order by position (most
 * specific first), de-duplicate. A special-category finding explains nothing: "diabetes" glued to a
 * token ("I have diabetes:Zk7pW2mN8vR4…") makes the token no less a secret, and letting the health
 * word absorb it would leave the token in redacted text and let it through the write policy when
 * the app allows special categories.
 */
function settle(findings: SensitiveFinding[]): SensitiveFinding[] {
  const explained = findings.filter((f) => f.category !== "high_entropy" && !isSpecialCategory(f.category));
  const kept = findings.filter((f) => f.category !== "high_entropy" || !explained.some((o) => o.start < f.end && f.start < o.end));
  kept.sort((a, b) => a.start - b.start || RANK.get(a.category)! - RANK.get(b.category)!);
  return dedupeSameSpan(kept);
}

function dedupeSameSpan(findings: SensitiveFinding[]): SensitiveFinding[] {
  const seen = new Set<string>();
  return findings.filter((f) => {
    const key = `${f.category}:${f.start}:${f.end}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export interface StorableOptions {
  /** Special-category data (health, religion, …) is storable when the app opts in. Secrets never are. */
  allowSpecialCategory?: boolean;
}

/** Findings that block storage under the given options. */
export function blockingFindings(findings: readonly SensitiveFinding[], options: StorableOptions = {}): SensitiveFinding[] {
  return findings.filter((f) => !(options.allowSpecialCategory === true && isSpecialCategory(f.category)));
}

/**
 * True when a text may be stored: no secret, card, IBAN or national id, and no special-category
 * data unless `allowSpecialCategory`.
 *
 * @example
 * isStorable("User prefers metric units.") // true
 * isStorable("User's password is hunter2.") // false
 * isStorable("User is vegetarian for religious reasons; keeps kosher.", { allowSpecialCategory: true }) // true
 */
export function isStorable(text: string, options: StorableOptions = {}): boolean {
  return blockingFindings(detectSensitive(text), options).length === 0;
}
