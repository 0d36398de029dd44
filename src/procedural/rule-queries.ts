/**
 * Named SQL of the rule store. Owner predicates are built from fixed fragments: every statement
 * filters by the owner's scope columns.
 */
import { notOptedOutAt, notOptedOutSql } from "../store/opt-out.js";
import type { ChangeSource } from "../core/change-source.js";
import type { ExportedRule, ProceduralRule, ReviewState, RuleScopeLevel, RuleSource } from "./rule-types.js";

/** An owner with explicit columns, as stored. */
export interface ResolvedOwner {
  level: RuleScopeLevel;
  tenantId: string | null;
  userId: string | null;
  /** Only task owners carry one. */
  taskType: string | null;
}

export const RULE_COLUMNS = `r.id, r.scope, r.tenant_id, r.user_id, r.task_type, r.text, r.source, r.priority, r.active, r.review_state,
  r.origin_kind, r.source_thread_id, r.source_message_id, r.source_run_id, r.reviewed_at, r.reviewed_by, r.created_at, r.updated_at, r.metadata`;

/** Rows of exactly this owner (user rules of any task type; task rules of the owner's task type). */
export function ownerSql(o: ResolvedOwner, params: unknown[]): string {
  params.push(o.level);
  let sql = `r.scope = $${params.length}`;
  params.push(o.tenantId);
  sql += ` AND r.tenant_id IS NOT DISTINCT FROM $${params.length}::text`;
  if (o.tenantId !== null) sql += ` AND r.tenant_id = $${params.length}::text`; // lets the btree lead with tenant
  params.push(o.userId);
  sql += ` AND r.user_id IS NOT DISTINCT FROM $${params.length}::text`;
  if (o.level === "task") {
    params.push(o.taskType);
    sql += ` AND r.task_type = $${params.length}::text`;
  }
  return sql;
}

/** The opt-out read gate of a user owner; TRUE for shared owners. */
export function ownerGateSql(o: ResolvedOwner, params: unknown[]): string {
  return o.level === "user" ? notOptedOutSql({ tenantId: o.tenantId!, userId: o.userId! }, params) : "TRUE";
}

/**
 * Approved, active rules that apply to one user for one task type (null = none): global rules,
 * task rules of every tenant and of the user's tenant, the tenant's rules, and the user's own
 * (unlimited, or limited to this task type) — the SQL function `memory_active_rules` (migration
 * 0007), which the load-memory node's one-round-trip read shares. Nothing while the user is opted
 * out. $1 tenant, $2 user, $3 task type, $4 limit.
 */
export const ACTIVE_RULES_SQL = `
SELECT r.id, r.text, r.priority, r.scope, r.task_type FROM memory_active_rules($1::text, $2::text, $3::text, $4::int) r
WHERE ${notOptedOutAt("$1", "$2")}
ORDER BY r.priority DESC, r.created_at, r.id`;

/** Insert one rule; an identical open (proposed or approved) rule of the same owner makes it a no-op (no row). */
export const INSERT_RULE_SQL = `
INSERT INTO procedural_rules AS r (id, scope, tenant_id, user_id, task_type, text, source, priority, active, review_state, origin_kind,
  source_thread_id, source_message_id, source_run_id, reviewed_at, reviewed_by, created_at, updated_at, metadata)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15::timestamptz, $16, $17::timestamptz, $18::timestamptz, $19::jsonb)
ON CONFLICT DO NOTHING
RETURNING ${RULE_COLUMNS}`;

/** The open rule with the same text as $5 for an owner: $1 scope, $2 tenant, $3 user, $4 task type. */
export const FIND_OPEN_RULE_SQL = `
SELECT ${RULE_COLUMNS} FROM procedural_rules r
WHERE r.scope = $1 AND r.tenant_id IS NOT DISTINCT FROM $2::text AND r.user_id IS NOT DISTINCT FROM $3::text
  AND r.task_type IS NOT DISTINCT FROM $4::text AND r.review_state IN ('proposed', 'approved')
  AND r.text_key = lower(regexp_replace(btrim($5::text), '\\s+', ' ', 'g'))`;

export interface RuleRow {
  id: string;
  scope: RuleScopeLevel;
  tenant_id: string | null;
  user_id: string | null;
  task_type: string | null;
  text: string;
  source: RuleSource;
  priority: number;
  active: boolean;
  review_state: ReviewState;
  origin_kind: ChangeSource["kind"] | null;
  source_thread_id: string | null;
  source_message_id: string | null;
  source_run_id: string | null;
  reviewed_at: Date | string | null;
  reviewed_by: string | null;
  created_at: Date | string;
  updated_at: Date | string;
  metadata: Record<string, unknown> | string;
}

export function ruleFromRow(r: RuleRow): ProceduralRule {
  return {
    id: r.id,
    scope: r.scope,
    tenantId: r.tenant_id,
    userId: r.user_id,
    taskType: r.task_type,
    text: r.text,
    source: r.source,
    priority: Number(r.priority),
    active: r.active,
    state: r.review_state,
    origin: r.origin_kind ? { kind: r.origin_kind, threadId: r.source_thread_id, messageId: r.source_message_id, runId: r.source_run_id } : null,
    reviewedAt: toDate(r.reviewed_at),
    reviewedBy: r.reviewed_by,
    createdAt: toDate(r.created_at)!,
    updatedAt: toDate(r.updated_at)!,
    metadata: typeof r.metadata === "string" ? (JSON.parse(r.metadata) as Record<string, unknown>) : r.metadata,
  };
}

export function exportRule(r: ProceduralRule): ExportedRule {
  return {
    id: r.id,
    scope: r.scope,
    taskType: r.taskType,
    text: r.text,
    source: r.source,
    priority: r.priority,
    active: r.active,
    state: r.state,
    origin: r.origin,
    reviewedAt: r.reviewedAt?.toISOString() ?? null,
    reviewedBy: r.reviewedBy,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
    metadata: r.metadata,
  };
}

function toDate(v: Date | string | null): Date | null {
  if (v === null || v === undefined) return null;
  return v instanceof Date ? v : new Date(v);
}

/**
 * Delete the memories that stood in for one of a user's rules while it awaited review: the write
 * path stores a stated standing instruction both as a proposed rule and as a preference memory
 * carrying `metadata.ruleId`, so the preference reaches prompts before anyone reviews the rule.
 * Once the rule is reviewed (approved: the rule carries it; revoked: the reviewer said no) or
 * deleted, the stand-in goes, so the preference is never rendered twice nor outlives its rule.
 * $1 tenant, $2 user, $3 rule id. → n
 */
export const DELETE_RULE_STAND_INS_SQL = `
WITH d AS (
  DELETE FROM memories m
  WHERE m.scope = 'user' AND m.tenant_id = $1 AND m.user_id = $2 AND m.metadata->>'ruleId' = $3::text
  RETURNING 1
)
SELECT count(*)::int AS n FROM d`;

/** A statement with its values, built for one owner. */
export interface RuleStatement {
  text: string;
  values: unknown[];
}

/** One rule of exactly this owner, behind the owner's opt-out gate. */
export function selectOwnerRuleSql(o: ResolvedOwner, id: string): RuleStatement {
  const values: unknown[] = [];
  const where = `${ownerSql(o, values)} AND ${ownerGateSql(o, values)}`;
  values.push(id);
  return { text: `SELECT ${RULE_COLUMNS} FROM procedural_rules r WHERE ${where} AND r.id = $${values.length}::uuid`, values };
}

/** The owner's rules, highest priority first; `states` null = every review state. */
export function listOwnerRulesSql(o: ResolvedOwner, filter: { states: readonly ReviewState[] | null; activeOnly: boolean; limit: number }): RuleStatement {
  const values: unknown[] = [];
  const where = `${ownerSql(o, values)} AND ${ownerGateSql(o, values)}`;
  values.push(filter.states, filter.activeOnly, filter.limit);
  const n = values.length;
  return {
    text: `SELECT ${RULE_COLUMNS} FROM procedural_rules r
     WHERE ${where} AND ($${n - 2}::text[] IS NULL OR r.review_state = ANY($${n - 2}::text[])) AND (NOT $${n - 1}::boolean OR r.active)
     ORDER BY r.priority DESC, r.created_at, r.id LIMIT $${n}::int`,
    values,
  };
}

/** Delete one rule of exactly this owner (no opt-out gate: deleting is always allowed). */
export function deleteOwnerRuleSql(o: ResolvedOwner, id: string): RuleStatement {
  const values: unknown[] = [];
  const where = ownerSql(o, values);
  values.push(id);
  return { text: `DELETE FROM procedural_rules r WHERE ${where} AND r.id = $${values.length}::uuid`, values };
}

/** What an update of one rule changes. */
export type RuleChange =
  | { kind: "active"; active: boolean }
  | { kind: "edit"; text?: string; priority?: number }
  /** `from`: the states the review moves from; a rule already in the target keeps its review time (idempotent). */
  | { kind: "review"; to: ReviewState; reviewer: string | null; from: readonly ReviewState[] };

function setClause(change: RuleChange, values: unknown[]): string {
  switch (change.kind) {
    case "active":
      values.push(change.active);
      return `active = $${values.length}`;
    case "edit": {
      const sets: string[] = [];
      if (change.text !== undefined) {
        values.push(change.text);
        sets.push(`text = $${values.length}`);
      }
      if (change.priority !== undefined) {
        values.push(change.priority);
        sets.push(`priority = $${values.length}`);
      }
      return sets.join(", ");
    }
    case "review": {
      values.push(change.to, change.reviewer, change.from);
      const n = values.length;
      return `review_state = $${n - 2}, reviewed_by = CASE WHEN r.review_state = ANY($${n}::text[]) THEN $${n - 1}::text ELSE r.reviewed_by END,
        reviewed_at = CASE WHEN r.review_state = ANY($${n}::text[]) THEN now() ELSE r.reviewed_at END`;
    }
  }
}

/** Update one rule of exactly this owner, returning it (no row: not this owner's). */
export function updateOwnerRuleSql(o: ResolvedOwner, id: string, change: RuleChange): RuleStatement {
  const values: unknown[] = [];
  const set = setClause(change, values);
  const where = ownerSql(o, values);
  values.push(id);
  return {
    text: `UPDATE procedural_rules r SET ${set}, updated_at = now() WHERE ${where} AND r.id = $${values.length}::uuid RETURNING ${RULE_COLUMNS}`,
    values,
  };
}

/** Every rule of one user: $1 tenant, $2 user. */
export const DELETE_USER_RULES_SQL = "DELETE FROM procedural_rules WHERE scope = 'user' AND tenant_id = $1 AND user_id = $2";

/** Every rule of one user (all states), oldest first: $1 tenant, $2 user. */
export const EXPORT_USER_RULES_SQL = `SELECT ${RULE_COLUMNS} FROM procedural_rules r WHERE r.scope = 'user' AND r.tenant_id = $1 AND r.user_id = $2 ORDER BY r.created_at, r.id`;
