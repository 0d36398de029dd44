/**
 * What the procedural rules offer the write path: the write path (src/extraction) drives them through
 * this shape, so tests and apps can pass their own; `RuleStore` is one.
 */
import type { ChangeSource } from "../core/change-source.js";
import type { UserScope } from "../core/scope.js";

/**
 * Procedural rules: extraction proposes; a human (or the app) approves. A standing instruction the
 * user stated in their own words is approved at once, with the user as reviewer, only when the
 * target can (`approve`) and `writePolicy.approveStatedRules` is on (off by default); otherwise
 * the write path also keeps it as a preference memory carrying `metadata.ruleId` (a stand-in the
 * rule store deletes once the rule is reviewed), so the stated preference reaches prompts meanwhile.
 */
export interface RuleTarget {
  /**
   * Propose a user-scoped rule in `proposed` state; an identical approved or proposed rule is not
   * duplicated (`created: false`, with its `state` when the target knows it).
   */
  propose(
    scope: UserScope,
    rule: { text: string; taskType?: string | null; source: "learned" | "feedback"; origin: ChangeSource },
  ): Promise<{ id: string; created: boolean; state?: "proposed" | "approved" | "revoked" }>;
  /** Approve one of the user's rules (idempotent); optional — without it every rule waits for review. */
  approve?(scope: UserScope, id: string, options: { reviewer?: string | null }): Promise<unknown>;
}
