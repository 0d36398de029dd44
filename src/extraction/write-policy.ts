import { WritePolicySchema, type WritePolicyConfig } from "../config.js";
import { invalidInput } from "../errors.js";
import { isWellFormedText } from "../core/well-formed-text.js";
import { TRUSTED_SOURCES, type CandidateAction, type CandidateKind, type ExtractionSource, type ExtractorName, type MemoryCandidate } from "../core/candidate.js";
import { isSpecialCategory, type SensitiveCategory, type SensitiveFinding } from "../sensitive/categories.js";
import { blockingFindings, detectSensitive, primaryCategory } from "../sensitive/detect-sensitive.js";

/** Why a candidate was not accepted. Stable strings: counted in results and metrics. */
export const REJECTION_REASONS = [
  "invalid",
  "too_long",
  "untrusted_source",
  "unknown_source",
  "sensitive",
  "below_confidence",
  "duplicate",
  "superseded_in_batch",
] as const;
export type RejectionReason = (typeof REJECTION_REASONS)[number];

/** A rejected candidate, described without its text: safe to log and to return to clients. */
export interface PolicyRejection {
  /** Position in the input list. */
  index: number;
  reason: RejectionReason;
  /** For `sensitive`: the most specific category found. */
  category?: SensitiveCategory;
  kind: CandidateKind;
  action: CandidateAction;
  sourceMessageId: string;
  extractor: ExtractorName;
}

export interface PolicyCounts {
  candidates: number;
  accepted: number;
  rejected: number;
  byReason: Partial<Record<RejectionReason, number>>;
  /** Sensitive rejections by category. */
  byCategory: Partial<Record<SensitiveCategory, number>>;
}

/** The key of a candidate's slot: one value per kind and subject; the batch keeps a slot's last candidate. */
export const slotKeyOf = (c: Pick<MemoryCandidate, "kind" | "subject">): string => `${c.kind}|${c.subject}`;

export interface WritePolicyResult {
  accepted: MemoryCandidate[];
  rejected: PolicyRejection[];
  counts: PolicyCounts;
}

export interface WritePolicyOptions {
  /** Write-policy settings (defaults from `WritePolicySchema`: floor 0.7, no special categories). */
  config?: Partial<WritePolicyConfig>;
  /**
   * The trusted sources the candidates were extracted from (`collectExtractionSources`). When
   * given, a candidate must cite one of them, and a secret found in its source must not reappear in
   * its text in any form (a model may paraphrase "my password is hunter2" as "User's login: hunter2").
   */
  sources?: readonly ExtractionSource[];
}

const normalise = (text: string) => text.toLowerCase().replace(/\s+/g, " ").replace(/[.!\s]+$/, "").trim();
const compact = (text: string) => text.replace(/[^A-Za-z0-9]/g, "").toLowerCase();

/** Secret values of a source (credentials, card numbers, IBANs, ids) that must not leak into a paraphrase. */
function secretValues(source: ExtractionSource): Array<{ value: string; category: SensitiveCategory }> {
  return detectSensitive(source.text)
    .filter((f: SensitiveFinding) => !isSpecialCategory(f.category))
    .map((f) => ({ value: source.text.slice(f.start, f.end), category: f.category }))
    .filter((v) => compact(v.value).length >= 4);
}

/** Whether a candidate repeats a source's secret: anywhere for long values, as a whole token for short ones (PINs). */
function repeats(text: string, value: string): boolean {
  const v = compact(value);
  if (v.length >= 6) return text.includes(value) || compact(text).includes(v);
  const escaped = value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(?<![A-Za-z0-9])${escaped}(?![A-Za-z0-9])`).test(text);
}

/**
 * The pure part of the write policy, applied to every candidate whatever produced it:
 * shape and length, trusted source (the user's own messages or verified outcomes), the secret and
 * sensitive-data filter, the confidence floor, then duplicates and same-slot updates within the
 * batch (the newest statement of a subject wins). Rejections carry a reason and category but never
 * the text, and nothing here logs.
 *
 * Forget requests pass the special-category filter (forgetting is always allowed and their text is
 * only used to find what to delete), but not the secret filter: a secret was never stored, so there
 * is nothing to match and the text must not travel further.
 *
 * @example
 * const { accepted, rejected, counts } = applyWritePolicy(memories, { config: config.writePolicy, sources });
 * // rejected: [{ index: 2, reason: "sensitive", category: "api_key", … }]
 */
export function applyWritePolicy(candidates: readonly MemoryCandidate[], options: WritePolicyOptions = {}): WritePolicyResult {
  const parsed = WritePolicySchema.safeParse(options.config ?? {});
  if (!parsed.success) throw invalidInput("writePolicy", parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "));
  const config = parsed.data;
  const sources = options.sources ? new Map(options.sources.map((s) => [s.id, s])) : undefined;
  const valuesBySource = new Map<string, Array<{ value: string; category: SensitiveCategory }>>();

  const rejected: PolicyRejection[] = [];
  const kept: Array<{ index: number; candidate: MemoryCandidate }> = [];
  const reject = (index: number, c: MemoryCandidate, reason: RejectionReason, category?: SensitiveCategory) =>
    rejected.push({
      index,
      reason,
      ...(category ? { category } : {}),
      kind: c?.kind,
      action: c?.action,
      sourceMessageId: typeof c?.sourceMessageId === "string" ? c.sourceMessageId : "",
      extractor: c?.extractor,
    });

  candidates.forEach((c, index) => {
    // A text with half a surrogate pair cannot be stored as written (the store refuses it): invalid, not a failed job.
    if (!c || typeof c.text !== "string" || c.text.trim() === "" || !isWellFormedText(c.text) || typeof c.confidence !== "number" || !Number.isFinite(c.confidence)) {
      return reject(index, c, "invalid");
    }
    if (c.text.length > config.maxTextChars) return reject(index, c, "too_long");
    if (!(TRUSTED_SOURCES as readonly string[]).includes(c.source) || typeof c.sourceMessageId !== "string" || c.sourceMessageId === "") {
      return reject(index, c, "untrusted_source");
    }
    const source = sources?.get(c.sourceMessageId);
    if (sources && (!source || source.origin !== c.source)) return reject(index, c, "unknown_source");

    const findings = blockingFindings(detectSensitive(c.text), { allowSpecialCategory: config.allowSpecialCategory || c.action === "forget" });
    const category = primaryCategory(findings);
    if (category) return reject(index, c, "sensitive", category);
    if (source) {
      let values = valuesBySource.get(source.id);
      if (!values) valuesBySource.set(source.id, (values = secretValues(source)));
      const leaked = values.find((v) => repeats(c.text, v.value));
      if (leaked) return reject(index, c, "sensitive", leaked.category);
    }

    if (c.confidence < config.confidenceFloor) return reject(index, c, "below_confidence");
    kept.push({ index, candidate: c });
  });

  // Within one batch: exact duplicates collapse, and the last statement of a subject slot wins.
  const seen = new Set<string>();
  const unique: typeof kept = [];
  for (const item of kept) {
    const key = `${item.candidate.action}|${item.candidate.kind}|${normalise(item.candidate.text)}`;
    if (seen.has(key)) reject(item.index, item.candidate, "duplicate");
    else {
      seen.add(key);
      unique.push(item);
    }
  }
  const lastOfSubject = new Map<string, number>();
  for (const { index, candidate: c } of unique) {
    if (c.action === "add" && c.subject && c.subject !== "*") lastOfSubject.set(slotKeyOf(c), index);
  }
  const accepted: MemoryCandidate[] = [];
  for (const { index, candidate: c } of unique) {
    if (c.action === "add" && c.subject && c.subject !== "*" && lastOfSubject.get(slotKeyOf(c)) !== index) {
      reject(index, c, "superseded_in_batch");
      continue;
    }
    accepted.push(c);
  }

  rejected.sort((a, b) => a.index - b.index);
  const byReason: Partial<Record<RejectionReason, number>> = {};
  const byCategory: Partial<Record<SensitiveCategory, number>> = {};
  for (const r of rejected) {
    byReason[r.reason] = (byReason[r.reason] ?? 0) + 1;
    if (r.category) byCategory[r.category] = (byCategory[r.category] ?? 0) + 1;
  }
  return {
    accepted,
    rejected,
    counts: { candidates: candidates.length, accepted: accepted.length, rejected: rejected.length, byReason, byCategory },
  };
}
