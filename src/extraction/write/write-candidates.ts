import { ErrorCodes, isMemoryError } from "../../errors.js";
import { requireThreadOwner } from "../../threads/thread-owner.js";
import type { MemoryCandidate } from "../../core/candidate.js";
import { applyWritePolicy, slotKeyOf, type PolicyRejection } from "../write-policy.js";
import type { UserScope } from "../../core/scope.js";
import { applyAdd } from "./apply-add.js";
import { applyForget } from "./apply-forget.js";
import { redactedCategory } from "../../sensitive/redaction.js";
import { withUserWriteLock } from "../../store/user-write-lock.js";
import type { WriteCandidatesOptions, WriteTargets } from "./write-options.js";
import { addPolicyCounts, countRefusal, emptyWriteReport, type WriteReport } from "./write-report.js";
import { requireUserScope, resolveWriteRun } from "./write-run.js";

/** True while the user has opted out (false when the app has no settings target). */
export async function isOptedOut(targets: WriteTargets | undefined, scope: UserScope): Promise<boolean> {
  return targets?.settings ? targets.settings.isOptedOut(scope) : false;
}

/**
 * The write path for candidates from anywhere (an extractor, an agent's `manage_memory` call, an
 * import): nothing for an opted-out user; then the pure write policy (shape, trusted source, the
 * secret and sensitive-data filter, confidence floor, batch dedupe); then, against the store and
 * one user at a time, each accepted candidate:
 *
 * - `procedure` → a proposed rule (with a rule target);
 * - a fact or preference whose subject is a profile field → a merge-patch of the profile;
 * - otherwise a memory: collapsed into a near-duplicate (≥ `dedupeThreshold` similarity, same kind,
 *   same polarity), superseding the old value of its subject slot or the statement it negates, or
 *   added — with thread, message and run id, and `expires_at` for episodes;
 * - `forget` → the matching memories of that user are deleted (conservatively; "forget everything"
 *   is only recorded, see {@link applyForget}).
 *
 * Writes are idempotent (deterministic ids, same-statement checks), so a retried job writes once.
 * The report has counts and ids, never text.
 *
 * @example
 * const report = await writeCandidates(candidates, { store, scope: { tenantId: "acme", userId: "alice" }, writer: "extraction", threadId: "t1" });
 * // { added: 1, deduped: 0, superseded: 1, refused: 2, refusedByCategory: { api_key: 1, health: 1 }, … }
 */
export async function writeCandidates(candidates: readonly MemoryCandidate[], options: WriteCandidatesOptions): Promise<WriteReport> {
  const report = emptyWriteReport(candidates.length);
  const run = resolveWriteRun(options, report, options.createdAtOf);
  const scope = requireUserScope(options.scope);
  if (!options.optOutChecked && (await isOptedOut(options.targets, scope))) return { ...report, skipped: "opted_out" };
  // Attributed to a thread: the thread must be the scope's own (a foreign thread id writes nothing).
  if (run.attribution.threadId) await requireThreadOwner(run.db, run.attribution.threadId, scope);

  const { accepted, rejected, counts } = applyWritePolicy(candidates, { config: run.policy, sources: options.sources });
  addPolicyCounts(report, counts);
  run.replacedInBatch = replacedInBatchOf(candidates, rejected);
  // A candidate built from redacted text ("User's key is [redacted:api_key]") is a secret's shadow: refuse it too.
  const kept = accepted.filter((c) => {
    const category = redactedCategory(c.text);
    if (category) countRefusal(report, "sensitive", category);
    return !category;
  });
  if (kept.length === 0) return report;

  try {
    await withUserWriteLock(run.db, scope, async () => {
      await options.beforeWrite?.();
      for (const c of kept) {
        if (c.action === "forget") await applyForget(run, c);
        else await applyAdd(run, c);
      }
    });
  } catch (err) {
    // The user opted out while the pass ran (the store refuses writes for them): stop, write nothing more.
    if (!isMemoryError(err, ErrorCodes.OPTED_OUT)) throw err;
    report.skipped = "opted_out";
  }
  return report;
}

/** The texts of candidates the policy dropped because a later one of the batch has their slot, by slot. */
function replacedInBatchOf(candidates: readonly MemoryCandidate[], rejected: readonly PolicyRejection[]): Map<string, string[]> {
  const bySlot = new Map<string, string[]>();
  for (const r of rejected) {
    const c = candidates[r.index];
    if (r.reason !== "superseded_in_batch" || !c) continue;
    const key = slotKeyOf(c);
    bySlot.set(key, [...(bySlot.get(key) ?? []), c.text]);
  }
  return bySlot;
}
