import type { ChangeSource } from "../core/change-source.js";

/** Where a rule applies: everyone, one tenant, one task type, or one user. */
export type RuleScopeLevel = "global" | "tenant" | "task" | "user";
/** How a rule came about: written by the app or an admin, from the user's feedback, or learned by extraction. */
export type RuleSource = "manual" | "feedback" | "learned";
/** Only `approved` (and active) rules reach the prompt. */
export type ReviewState = "proposed" | "approved" | "revoked";

export const RULE_SOURCES: readonly RuleSource[] = ["manual", "feedback", "learned"];
export const REVIEW_STATES: readonly ReviewState[] = ["proposed", "approved", "revoked"];

/**
 * Who a rule belongs to.
 *
 * @example
 * const alice: RuleOwner = { tenantId: "acme", userId: "alice" };            // one user
 * const acme: RuleOwner = { level: "tenant", tenantId: "acme" };              // every user of acme
 * const coding: RuleOwner = { level: "task", taskType: "coding", tenantId: "acme" }; // acme's coding tasks
 * const everyone: RuleOwner = { level: "global" };
 */
export type RuleOwner =
  | { level?: "user"; tenantId: string; userId: string }
  | { level: "tenant"; tenantId: string }
  | { level: "task"; taskType: string; tenantId?: string | null }
  | { level: "global" };

/** A stored rule. */
export interface ProceduralRule {
  id: string;
  scope: RuleScopeLevel;
  tenantId: string | null;
  userId: string | null;
  /** Task type the rule is limited to (task rules always; user rules optionally). */
  taskType: string | null;
  text: string;
  source: RuleSource;
  /** Higher first in the prompt, and kept first under a tight budget. */
  priority: number;
  /** Paused rules (false) never reach the prompt, whatever their review state. */
  active: boolean;
  state: ReviewState;
  /** The turn or action that created it (extraction: thread/message). */
  origin: Required<ChangeSource> | null;
  reviewedAt: Date | null;
  reviewedBy: string | null;
  createdAt: Date;
  updatedAt: Date;
  metadata: Record<string, unknown>;
}

/** What `add` takes. */
export interface NewRule {
  text: string;
  priority?: number;
  /** Default `manual`. */
  source?: RuleSource;
  /** Default: `approved` for manual rules, `proposed` for feedback and learned ones. */
  state?: ReviewState;
  active?: boolean;
  /** Limit a user's rule to one task type (task-level owners carry theirs). */
  taskType?: string | null;
  origin?: ChangeSource;
  metadata?: Record<string, unknown>;
}

/** A rule as exported (ISO dates). */
export interface ExportedRule {
  id: string;
  scope: RuleScopeLevel;
  taskType: string | null;
  text: string;
  source: RuleSource;
  priority: number;
  active: boolean;
  state: ReviewState;
  origin: Required<ChangeSource> | null;
  reviewedAt: string | null;
  reviewedBy: string | null;
  createdAt: string;
  updatedAt: string;
  metadata: Record<string, unknown>;
}
