/**
 * What the write path needs from the profile, the procedural rules and the user's memory
 * settings — as small interfaces, so extraction does not import those modules (they implement
 * these; tests and apps can pass their own).
 */
import type { ChangeSource } from "../core/change-source.js";
import type { UserScope } from "../core/scope.js";


/** The user's profile document (one per tenant + user). */
export interface ProfileTarget {
  /**
   * Merge-patch the profile (RFC 7396: `null` removes a field) after validating it against the
   * app's profile schema; records who wrote each field. Fields the schema does not know are an
   * INVALID_INPUT error (callers map candidates to known fields first).
   */
  applyPatch(scope: UserScope, patch: Record<string, unknown>, source: ChangeSource): Promise<void>;
  /** The profile fields extraction may write, e.g. `["name", "timezone", "units", …]`. */
  readonly fields: readonly string[];
  /**
   * The user's profile document (null: none). Optional: with it, a statement that a field's value
   * is no longer true ("I don't work at Acme any more") removes the field.
   */
  getDocument?(scope: UserScope): Promise<Record<string, unknown> | null>;
}

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

/** The user's memory settings (opt-out). */
export interface SettingsTarget {
  /** True while the user has opted out: nothing is read or written for them. */
  isOptedOut(scope: UserScope): Promise<boolean>;
}

/**
 * User controls the write path routes deletions through when the app has them: deletions then
 * leave an audit row (without content), and "forget everything" goes to the confirmed delete-all
 * path instead of deleting at once.
 */
export interface ControlsTarget {
  /**
   * Delete these memories of the user (row and embedding) and the fact wherever it is quoted, and
   * audit each deletion without its content; returns how many were deleted. `exceptJobId`: the job
   * doing it (its own payload is left alone); `terms`: what the request names besides, withdrawn too.
   */
  deleteMemories(scope: UserScope, ids: readonly string[], source: ChangeSource, options?: { exceptJobId?: number | null; terms?: readonly string[] }): Promise<number>;
  /**
   * Record a "forget everything about me" request. Never deletes by itself: the app shows the user
   * the delete-all confirmation (a token that expires) and deletes only once it is confirmed.
   */
  requestDeleteAll(scope: UserScope, source: ChangeSource): Promise<void>;
}
