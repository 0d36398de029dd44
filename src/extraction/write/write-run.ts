import { WritePolicySchema, type WritePolicyConfig } from "../../config.js";
import type { Database } from "../../db/database.js";
import { invalidInput } from "../../errors.js";
import type { MemoryRepository } from "../../store/memory-store.js";
import type { MemoryOrigin } from "../../store/types.js";
import type { MemoryCandidate } from "../../core/candidate.js";
import type { ChangeSource } from "../../core/change-source.js";
import { parseScope, type UserScope } from "../../core/scope.js";
import { slotKeyOf } from "../write-policy.js";
import { DEFAULT_PROFILE_FIELDS, type ProfileFieldMapping } from "./profile-fields.js";
import type { WriteReport } from "./write-report.js";
import type { MemoryWriteOptions, WriteAttribution, WriteTargets } from "./write-options.js";

/** Everything one write pass needs, resolved once. */
export interface WriteRun {
  store: MemoryRepository;
  db: Database;
  targets: WriteTargets;
  policy: WritePolicyConfig;
  mappings: readonly ProfileFieldMapping[];
  now: Date;
  attribution: WriteAttribution & { scope: UserScope };
  report: WriteReport;
  createdAtOf?: (candidate: MemoryCandidate) => Date | undefined;
  /**
   * What this batch said of a slot before its last word (`kind|subject` → texts): candidates the
   * policy dropped as `superseded_in_batch`. Never stored, they are still quoted where the
   * conversation is (past sessions, summaries), so the slot's write withdraws them like a stored value.
   */
  replacedInBatch?: Map<string, readonly string[]>;
}

/**
 * What the batch said of `c`'s slot before `c` (see {@link WriteRun.replacedInBatch}), taken once:
 * the first withdrawal of the slot's write carries it, so no second pass is needed for it.
 */
export function takeReplacedInBatch(run: WriteRun, c: Pick<MemoryCandidate, "kind" | "subject">): readonly string[] {
  if (!c.subject || c.subject === "*" || !run.replacedInBatch) return [];
  const key = slotKeyOf(c);
  const texts = run.replacedInBatch.get(key) ?? [];
  run.replacedInBatch.delete(key);
  return texts;
}

export function resolveWriteRun(options: MemoryWriteOptions & WriteAttribution, report: WriteReport, createdAtOf?: WriteRun["createdAtOf"]): WriteRun {
  if (!options?.store) throw invalidInput("store", "the write path needs a MemoryRepository");
  const parsed = WritePolicySchema.safeParse({ ...options.store.writePolicy, ...options.policy });
  if (!parsed.success) throw invalidInput("policy", parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "));
  return {
    store: options.store,
    db: options.store.db,
    targets: options.targets ?? {},
    policy: parsed.data,
    mappings: options.profileFields ?? DEFAULT_PROFILE_FIELDS,
    // Default: the store's clock, so one injected clock governs what is written and what is read.
    now: options.now ? options.now() : options.store.clock.now(),
    attribution: { ...options, scope: requireUserScope(options.scope) },
    report,
    createdAtOf,
  };
}

/** A user scope ({ tenantId, userId }, both non-empty): writes are never tenant- or global-wide. */
export function requireUserScope(scope: unknown): UserScope {
  return parseScope(scope);
}

/** What caused a change, for the profile history, rules and the deletion audit. */
export function changeSourceOf(run: WriteRun, candidate: MemoryCandidate): ChangeSource {
  const a = run.attribution;
  return { kind: a.writer, threadId: a.threadId ?? null, messageId: candidate.sourceMessageId, runId: runIdOf(run, candidate) };
}

export function runIdOf(run: WriteRun, candidate: MemoryCandidate): string | null {
  return run.attribution.runIdOf?.(candidate.sourceMessageId) ?? run.attribution.runId ?? null;
}

/** The user said it (asked to remember it, typed it into a file, edited it) or a pass inferred it from what they said. */
export function originOf(run: WriteRun, candidate: MemoryCandidate): MemoryOrigin {
  const w = run.attribution.writer;
  return candidate.explicit || w === "import" || w === "user_edit" || w === "api" ? "user_stated" : "extracted";
}
