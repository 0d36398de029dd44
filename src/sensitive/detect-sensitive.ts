import { invalidInput } from "../errors.js";
import { groupOf, isSpecialCategory, SENSITIVE_CATEGORIES, type Detector, type SensitiveCategory, type SensitiveFinding } from "./categories.js";
import { CONNECTION_STRING_DETECTORS, GENERIC_SECRET_DETECTORS, PASSWORD_DETECTORS, PRIVATE_KEY_DETECTOR, PROVIDER_KEY_DETECTORS, TOKEN_DETECTORS } from "./credentials.js";
import { CARD_NUMBER_DETECTOR, GROUPED_CARD_NEAR_WORD_DETECTOR, IBAN_DETECTOR, isPublishedTestCard } from "./financial.js";
import { HIGH_ENTROPY_DETECTOR } from "./high-entropy.js";
import { NATIONAL_ID_DETECTORS } from "./national-ids.js";
import { SPECIAL_CATEGORY_DETECTORS } from "./special-category.js";
import { MULTILINGUAL_SPECIAL_CATEGORY_DETECTORS } from "./special-category-multilingual.js";
import { INDIRECT_SPECIAL_CATEGORY_DETECTORS } from "./special-category-indirect.js";
import { isStarSign } from "./star-signs.js";
import { BANK_ACCOUNT_DETECTOR } from "./bank-accounts.js";
import { CUED_VALUE_DETECTORS, STRONG_PASSWORD_DETECTOR, USER_PASSWORD_PAIR_DETECTOR } from "./cued-values.js";
import { CHECKSUMMED_ID_DETECTORS, LABELLED_ID_DETECTOR, MRZ_DETECTOR, PASSPORT_NUMBER_DETECTOR } from "./id-documents.js";
import { PGPASS_DETECTOR, SECRET_ASSIGNMENT_DETECTOR } from "./secret-assignments.js";
import { SEED_PHRASE_DETECTOR } from "./seed-phrases.js";
import { WALLET_KEY_DETECTORS } from "./wallet-keys.js";

/** Every detector, in the order findings are reported for equal spans. */
export const SENSITIVE_DETECTORS: readonly Detector[] = [
  PRIVATE_KEY_DETECTOR,
  ...WALLET_KEY_DETECTORS,
  SEED_PHRASE_DETECTOR,
  ...PROVIDER_KEY_DETECTORS,
  ...TOKEN_DETECTORS,
  ...CONNECTION_STRING_DETECTORS,
  PGPASS_DETECTOR,
  ...GENERIC_SECRET_DETECTORS,
  SECRET_ASSIGNMENT_DETECTOR,
  ...PASSWORD_DETECTORS,
  ...CUED_VALUE_DETECTORS,
  USER_PASSWORD_PAIR_DETECTOR,
  STRONG_PASSWORD_DETECTOR,
  CARD_NUMBER_DETECTOR,
  GROUPED_CARD_NEAR_WORD_DETECTOR,
  IBAN_DETECTOR,
  BANK_ACCOUNT_DETECTOR,
  ...NATIONAL_ID_DETECTORS,
  ...CHECKSUMMED_ID_DETECTORS,
  LABELLED_ID_DETECTOR,
  PASSPORT_NUMBER_DETECTOR,
  MRZ_DETECTOR,
  HIGH_ENTROPY_DETECTOR,
  ...SPECIAL_CATEGORY_DETECTORS,
  ...MULTILINGUAL_SPECIAL_CATEGORY_DETECTORS,
  ...INDIRECT_SPECIAL_CATEGORY_DETECTORS,
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
  const uuids = uuidSpans(text);
  for (const detector of detectors) {
    for (const span of detector.find(text)) {
      // A published test card number called a test one is nobody's card, whichever detector saw it.
      if (isPublishedTestCard(text, span.start, span.end)) continue;
      const finding: SensitiveFinding = { category: detector.category, group: groupOf(detector.category), detector: detector.name, start: span.start, end: span.end };
      if (isStarSign(text, finding) || isInsideUuid(finding, uuids)) continue;
      findings.push(finding);
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
  const explained = new SpanIndex(findings.filter((f) => f.category !== "high_entropy" && !isSpecialCategory(f.category)));
  const kept = findings.filter((f) => {
    if (f.category === "high_entropy") return !explainedMostly(f, explained.overlapping(f));
    if (isSpecialCategory(f.category)) return true;
    // One secret, one finding: a span inside a more specific finding's span is that finding
    // ("token ghp_…" is a GitHub token, not also a token after the word "token").
    return !explained
      .overlapping(f)
      .some((o) => o !== f && o.start <= f.start && f.end <= o.end && (RANK.get(o.category)! < RANK.get(f.category)! || (o.category === f.category && (o.start < f.start || o.end > f.end))));
  });
  kept.sort((a, b) => a.start - b.start || RANK.get(a.category)! - RANK.get(b.category)!);
  return dedupeSameSpan(kept);
}

/** Findings sorted by start, with the running maximum of their ends: overlap queries in O(log n + k). */
class SpanIndex {
  private readonly spans: SensitiveFinding[];
  private readonly maxEnd: number[];
  constructor(findings: readonly SensitiveFinding[]) {
    this.spans = [...findings].sort((a, b) => a.start - b.start);
    let max = -1;
    this.maxEnd = this.spans.map((f) => (max = Math.max(max, f.end)));
  }
  /** The findings that overlap [f.start, f.end). */
  overlapping(f: { start: number; end: number }): SensitiveFinding[] {
    let lo = 0;
    let hi = this.spans.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.spans[mid].start < f.end) lo = mid + 1;
      else hi = mid;
    }
    const out: SensitiveFinding[] = [];
    for (let i = lo - 1; i >= 0 && this.maxEnd[i] > f.start; i--) if (this.spans[i].end > f.start) out.push(this.spans[i]);
    return out;
  }
}

/** A high-entropy span is explained when secret or identifier findings cover most of it (not just a piece). */
function explainedMostly(f: SensitiveFinding, explained: readonly SensitiveFinding[]): boolean {
  let covered = 0;
  for (const o of explained) covered += Math.max(0, Math.min(o.end, f.end) - Math.max(o.start, f.start));
  return covered > 0 && covered >= 0.8 * (f.end - f.start);
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

/** RFC 9562 text form: 8-4-4-4-12 hex digits, any version. */
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;

/**
 * The UUIDs in a text: the run, message, tool-call and memory ids the library and LangGraph write
 * into metadata. Their hex groups can pass an IBAN's mod-97 or a card's Luhn check by chance
 * (about 3 in 10,000 random UUIDs did), which refused a benign memory because of its own tool-call id.
 */
function uuidSpans(text: string): Array<{ start: number; end: number }> {
  if (!text.includes("-")) return [];
  return Array.from(text.matchAll(UUID), (m) => ({ start: m.index, end: m.index + m[0].length }));
}

/**
 * Whether a financial or identity-number finding lies wholly inside a UUID: a machine id, not
 * somebody's account. Secrets are never excused (some API keys are UUIDs).
 */
function isInsideUuid(f: SensitiveFinding, uuids: ReadonlyArray<{ start: number; end: number }>): boolean {
  return f.group === "identifier" && uuids.some((u) => u.start <= f.start && f.end <= u.end);
}
