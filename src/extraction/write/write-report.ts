import type { ExtractionDiagnostics } from "../../core/candidate.js";
import type { SensitiveCategory } from "../../sensitive/categories.js";
import type { PolicyCounts, RejectionReason } from "../write-policy.js";

/**
 * What one pass of the write path did. Counts and ids only — never memory text — so it is safe to
 * log, return from tools and export as metrics.
 */
export interface WriteReport {
  /** Set when nothing was read or written: the user opted out of memory. */
  skipped?: "opted_out";
  /** Candidates the pass received (from an extractor, a tool call or an import). */
  candidates: number;
  /** New memories that replaced nothing. */
  added: number;
  /** Candidates that collapsed into an existing memory (near-duplicate, same statement, or a retried write): no new row. */
  deduped: number;
  /** New memories that replaced older ones of the same slot (`superseded_by`), or that a profile field now holds. */
  superseded: number;
  /** Memories removed by forget requests. */
  deleted: number;
  /** Profile fields set or removed through the profile target. */
  profileFieldsChanged: number;
  /** Procedure candidates proposed as rules (new proposals only). */
  rulesProposed: number;
  /** Rules approved at once: standing instructions the user stated themselves (`writePolicy.approveStatedRules`). */
  rulesApproved: number;
  /** "Forget everything" requests: recorded (and handed to the delete-all confirmation), never executed. */
  forgetAllRequested: number;
  /** Forget requests that matched nothing (nothing was deleted). */
  forgetUnmatched: number;
  /** Candidates refused by the write policy, by reason and by sensitive category. */
  refused: number;
  refusedByReason: Partial<Record<RejectionReason, number>>;
  refusedByCategory: Partial<Record<SensitiveCategory, number>>;
  /** Ids of the memories this pass wrote (added or superseding) or refreshed (deduped). */
  memoryIds: string[];
  /** Ids of the memories this pass deleted. */
  deletedIds: string[];
  /** What the extractor saw (extraction passes only). */
  diagnostics?: ExtractionDiagnostics;
}

export function emptyWriteReport(candidates = 0): WriteReport {
  return {
    candidates,
    added: 0,
    deduped: 0,
    superseded: 0,
    deleted: 0,
    profileFieldsChanged: 0,
    rulesProposed: 0,
    rulesApproved: 0,
    forgetAllRequested: 0,
    forgetUnmatched: 0,
    refused: 0,
    refusedByReason: {},
    refusedByCategory: {},
    memoryIds: [],
    deletedIds: [],
  };
}

/** Count one refusal. */
export function countRefusal(report: WriteReport, reason: RejectionReason, category?: SensitiveCategory): void {
  report.refused++;
  report.refusedByReason[reason] = (report.refusedByReason[reason] ?? 0) + 1;
  if (category) report.refusedByCategory[category] = (report.refusedByCategory[category] ?? 0) + 1;
}

/** Fold the pure policy's counts into a report. */
export function addPolicyCounts(report: WriteReport, counts: PolicyCounts): void {
  for (const [reason, n] of Object.entries(counts.byReason)) {
    report.refusedByReason[reason as RejectionReason] = (report.refusedByReason[reason as RejectionReason] ?? 0) + (n ?? 0);
    report.refused += n ?? 0;
  }
  for (const [category, n] of Object.entries(counts.byCategory)) {
    report.refusedByCategory[category as SensitiveCategory] = (report.refusedByCategory[category as SensitiveCategory] ?? 0) + (n ?? 0);
  }
}

/** Sum reports (a job's passes, an import's entries). */
export function mergeWriteReports(into: WriteReport, other: WriteReport): WriteReport {
  const numeric = ["candidates", "added", "deduped", "superseded", "deleted", "profileFieldsChanged", "rulesProposed", "forgetAllRequested", "forgetUnmatched", "refused"] as const;
  for (const k of numeric) into[k] += other[k];
  for (const [r, n] of Object.entries(other.refusedByReason)) into.refusedByReason[r as RejectionReason] = (into.refusedByReason[r as RejectionReason] ?? 0) + (n ?? 0);
  for (const [c, n] of Object.entries(other.refusedByCategory)) into.refusedByCategory[c as SensitiveCategory] = (into.refusedByCategory[c as SensitiveCategory] ?? 0) + (n ?? 0);
  into.memoryIds.push(...other.memoryIds);
  into.deletedIds.push(...other.deletedIds);
  if (other.skipped) into.skipped = other.skipped;
  return into;
}
