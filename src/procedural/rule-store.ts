import { randomUUID } from "node:crypto";
import { isPlainObject, strictJson } from "../core/json.js";
import type { Database, DbScope, Queryable } from "../db/database.js";
import { ErrorCodes, MemoryError, describeValue, invalidInput } from "../errors.js";
import type { ChangeSource } from "../core/change-source.js";
import { resolveUserScope, type UserScope } from "../core/scope.js";
import type { RuleTarget } from "./rule-target.js";
import type { ActiveRule } from "../state/types.js";
import { assertNotOptedOut } from "../store/opt-out.js";
import { recordDeletion, type DeletionContext } from "../store/deletion-audit.js";
import { SqlState, sqlStateOf } from "../db/sqlstate.js";
import { checkChangeSource } from "../profile/profile-store.js";
import { checkWellFormed } from "../core/well-formed-text.js";
import { refuseSensitiveText } from "../sensitive/sensitive-content.js";
import {
  ACTIVE_RULES_SQL,
  DELETE_RULE_STAND_INS_SQL,
  DELETE_USER_RULES_SQL,
  EXPORT_USER_RULES_SQL,
  FIND_OPEN_RULE_SQL,
  INSERT_RULE_SQL,
  deleteOwnerRuleSql,
  exportRule,
  listOwnerRulesSql,
  ruleFromRow,
  selectOwnerRuleSql,
  updateOwnerRuleSql,
  type ResolvedOwner,
  type RuleChange,
  type RuleRow,
} from "./rule-queries.js";
import {
  REVIEW_STATES,
  RULE_SOURCES,
  type ExportedRule,
  type NewRule,
  type ProceduralRule,
  type ReviewState,
  type RuleOwner,
  type RuleSource,
} from "./rule-types.js";

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_RULE_CHARS = 2000;
const MAX_ID_CHARS = 256;

export interface RuleListOptions {
  states?: readonly ReviewState[];
  /** Include paused (inactive) rules (default true). */
  includeInactive?: boolean;
  limit?: number;
}

/**
 * Procedural memory: instructions for how to behave with a user ("answer with diffs, not full
 * files"), scoped global / tenant / task type / user, with a source (manual, feedback, learned),
 * a priority, an active flag and a review state. Only approved, active rules reach the prompt
 * ({@link activeFor}, read fresh every turn, so a revoke takes effect on the next one).
 * Implements the extraction write path's {@link RuleTarget}: extraction only ever proposes.
 *
 * Opt-out: for a user's rules, reads return nothing and adding, proposing, approving or editing
 * throws OPTED_OUT while the user is opted out; revoking, pausing and deleting stay allowed.
 *
 * @example
 * const rules = new RuleStore(db);
 * const alice = { tenantId: "acme", userId: "alice" };
 * const { id } = await rules.propose(alice, { text: "Answer with diffs, not full files.", source: "feedback", origin: { kind: "extraction", threadId: "t1" } });
 * await rules.approve(alice, id, { reviewer: "alice" });
 * await rules.activeFor(alice); // [{ id, text: "Answer with diffs, not full files.", priority: 0, scope: "user" }]
 */
export class RuleStore implements RuleTarget {
  constructor(readonly db: Database) {}

  /**
   * Add a rule (manual rules are approved unless `state` says otherwise). An identical open rule of
   * the same owner is INVALID_INPUT naming its id.
   *
   * @example
   * await rules.add({ level: "tenant", tenantId: "acme" }, { text: "Quote prices in EUR.", priority: 10 });
   */
  async add(owner: RuleOwner, rule: NewRule): Promise<ProceduralRule> {
    const o = resolveOwner(owner);
    const checked = checkNewRule(rule, o);
    return this.db.transaction(async (tx) => {
      if (o.level === "user") await assertNotOptedOut(tx, userOf(o));
      const created = await insertRule(tx, o, checked);
      if (created) return created;
      const existing = (await tx.query<RuleRow>(FIND_OPEN_RULE_SQL, [o.level, o.tenantId, o.userId, checked.taskType, checked.text])).rows[0];
      throw invalidInput("rule.text", `an identical ${existing?.review_state ?? "open"} rule already exists for this owner (${existing?.id ?? "unknown id"})`, {
        existingId: existing?.id,
      });
    }, { scope: dbScopeOfOwner(o) });
  }

  /**
   * Propose a user-scoped rule in `proposed` state (the extraction write path). An identical
   * proposed or approved rule of the user is not duplicated: its id and state come back with
   * `created: false`. A revoked identical rule does not block a new proposal (a human reviews it
   * again). {@link RuleTarget} method.
   */
  async propose(
    scope: UserScope,
    rule: { text: string; taskType?: string | null; source: "learned" | "feedback"; origin: ChangeSource },
  ): Promise<{ id: string; created: boolean; state: ReviewState }> {
    const s = resolveUserScope(scope);
    if (!rule || typeof rule !== "object") throw invalidInput("rule", "must be an object with text, source and origin");
    if (rule.source !== "learned" && rule.source !== "feedback") throw invalidInput("rule.source", 'must be "learned" or "feedback"');
    const o: ResolvedOwner = { level: "user", tenantId: s.tenantId, userId: s.userId, taskType: null };
    const checked = checkNewRule({ text: rule.text, taskType: rule.taskType, source: rule.source, state: "proposed", origin: rule.origin }, o);
    return this.db.transaction(async (tx) => {
      await assertNotOptedOut(tx, s);
      const created = await insertRule(tx, o, checked);
      if (created) return { id: created.id, created: true, state: created.state };
      const existing = (await tx.query<RuleRow>(FIND_OPEN_RULE_SQL, ["user", s.tenantId, s.userId, checked.taskType, checked.text])).rows[0];
      if (!existing) throw new MemoryError(ErrorCodes.DB_QUERY_FAILED, "rule proposal conflicted but no open rule was found; retry", { retryable: true });
      return { id: existing.id, created: false, state: existing.review_state };
    }, { scope: s });
  }

  /**
   * Approve a proposed (or previously revoked) rule: it reaches the prompt from the next turn. A
   * user rule's stand-in preference memory (written beside a stated rule awaiting review) is
   * deleted in the same transaction, so the preference is not rendered twice.
   */
  async approve(owner: RuleOwner, id: string, options: { reviewer?: string | null } = {}): Promise<ProceduralRule> {
    return this.transition(owner, id, "approved", options.reviewer ?? null);
  }

  /**
   * Revoke a rule: it no longer reaches the prompt, from the next turn on — nor does its stand-in
   * preference memory, deleted in the same transaction. Allowed while opted out.
   */
  async revoke(owner: RuleOwner, id: string, options: { reviewer?: string | null } = {}): Promise<ProceduralRule> {
    return this.transition(owner, id, "revoked", options.reviewer ?? null);
  }

  /** Pause (false) or resume (true) a rule without changing its review state. */
  async setActive(owner: RuleOwner, id: string, active: boolean): Promise<ProceduralRule> {
    if (typeof active !== "boolean") throw invalidInput("active", "must be true or false");
    return this.change(owner, id, active, { kind: "active", active });
  }

  /** Change a rule's text and/or priority. */
  async update(owner: RuleOwner, id: string, patch: { text?: string; priority?: number }): Promise<ProceduralRule> {
    if (!patch || typeof patch !== "object") throw invalidInput("patch", "must be an object");
    const text = patch.text === undefined ? undefined : checkText(patch.text, "patch.text");
    const priority = patch.priority === undefined ? undefined : checkPriority(patch.priority, "patch.priority");
    if (text === undefined && priority === undefined) throw invalidInput("patch", "names nothing to change (text, priority)");
    return this.change(owner, id, true, { kind: "edit", text, priority });
  }

  /** One rule of exactly this owner, or null (also for another owner's id, and while opted out). */
  async get(owner: RuleOwner, id: string): Promise<ProceduralRule | null> {
    const o = resolveOwner(owner);
    checkRuleId(id);
    return this.db.transaction(async (tx) => {
      const q = selectOwnerRuleSql(o, id);
      const { rows } = await tx.query<RuleRow>(q.text, q.values);
      return rows[0] ? ruleFromRow(rows[0]) : null;
    }, { scope: dbScopeOfOwner(o) });
  }

  /** The rules of exactly this owner (a user's: every task type), highest priority first. */
  async list(owner: RuleOwner, options: RuleListOptions = {}): Promise<ProceduralRule[]> {
    const o = resolveOwner(owner);
    const states = options.states ? options.states.map((st, i) => checkState(st, `states[${i}]`)) : null;
    const limit = options.limit ?? 1000;
    if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) throw invalidInput("limit", "must be an integer from 1 to 10000");
    return this.db.transaction(async (tx) => {
      const q = listOwnerRulesSql(o, { states, activeOnly: options.includeInactive === false, limit });
      const { rows } = await tx.query<RuleRow>(q.text, q.values);
      return rows.map(ruleFromRow);
    }, { scope: dbScopeOfOwner(o) });
  }

  /**
   * The approved, active rules that apply to a user (global, their tenant's, task rules for
   * `taskType`, their own), highest priority first, as they go into state and the prompt. Empty
   * while the user is opted out. Read fresh on every call: nothing is cached across turns.
   *
   * @example
   * const rules = await store.activeFor({ tenantId: "acme", userId: "alice" }, { taskType: "coding" });
   */
  async activeFor(scope: UserScope, options: { taskType?: string | null; limit?: number } = {}): Promise<ActiveRule[]> {
    const s = resolveUserScope(scope);
    const taskType = options.taskType === undefined || options.taskType === null || options.taskType === "" ? null : checkTaskType(options.taskType, "taskType");
    const limit = options.limit ?? 50;
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw invalidInput("limit", "must be an integer from 1 to 1000");
    return this.db.transaction(async (tx) => {
      const { rows } = await tx.query<{ id: string; text: string; priority: number; scope: ActiveRule["scope"]; task_type: string | null }>(ACTIVE_RULES_SQL, [
        s.tenantId,
        s.userId,
        taskType,
        limit,
      ]);
      return rows.map((r) => ({ id: r.id, text: r.text, priority: Number(r.priority), scope: r.scope, taskType: r.task_type }));
    }, { scope: s });
  }

  /**
   * Delete one rule of this owner, and the stand-in preference memory of a user rule (allowed while
   * opted out). NOT_FOUND for an id the owner does not have. Audited.
   */
  async delete(owner: RuleOwner, id: string, audit: DeletionContext = {}): Promise<void> {
    const o = resolveOwner(owner);
    checkRuleId(id);
    await this.db.transaction(async (tx) => {
      const q = deleteOwnerRuleSql(o, id);
      const { rowCount } = await tx.query(q.text, q.values);
      if (rowCount === 0) throw ruleNotFound(id);
      await recordDeletion(tx, { tenantId: o.tenantId, userId: o.userId }, "rule", rowCount, { via: "rules.delete", ...audit });
      if (o.level === "user") await deleteStandIns(tx, userOf(o), id, { via: "rules.delete", ...audit });
    }, { scope: dbScopeOfOwner(o) });
  }

  /** Inside a scoped transaction: delete every rule of one user, audited; returns the count. */
  async deleteUserRulesIn(tx: Queryable, s: UserScope, audit: DeletionContext & { via: string }): Promise<number> {
    const { rowCount } = await tx.query(DELETE_USER_RULES_SQL, [s.tenantId, s.userId]);
    await recordDeletion(tx, s, "rule", rowCount, audit);
    return rowCount;
  }

  /** Inside a scoped transaction: every rule of one user (all states), oldest first. */
  async exportIn(tx: Queryable, s: UserScope): Promise<ExportedRule[]> {
    const { rows } = await tx.query<RuleRow>(EXPORT_USER_RULES_SQL, [s.tenantId, s.userId]);
    return rows.map((r) => exportRule(ruleFromRow(r)));
  }

  /** Inside a scoped transaction: restore exported user rules with their ids, dates and states; existing ones are skipped. */
  async importIn(tx: Queryable, s: UserScope, rules: readonly ExportedRule[]): Promise<{ imported: number; skipped: number }> {
    if (!Array.isArray(rules)) throw invalidInput("rules", "must be an array");
    await assertNotOptedOut(tx, s);
    const o: ResolvedOwner = { level: "user", tenantId: s.tenantId, userId: s.userId, taskType: null };
    const checked = rules.map((r, i) => {
      if (!r || typeof r !== "object") throw invalidInput(`rules[${i}]`, "must be an exported rule");
      if (r.scope !== "user") throw invalidInput(`rules[${i}].scope`, 'must be "user" (an export holds only the user\'s own rules)');
      checkRuleId(r.id, `rules[${i}].id`);
      const c = checkNewRule(
        { text: r.text, taskType: r.taskType, source: r.source, state: r.state, active: r.active, priority: r.priority, origin: r.origin ?? undefined, metadata: r.metadata },
        o,
        `rules[${i}]`,
      );
      return {
        ...c,
        id: r.id,
        reviewedAt: checkIsoOrNull(r.reviewedAt, `rules[${i}].reviewedAt`),
        reviewedBy: checkOptionalLabel(r.reviewedBy, `rules[${i}].reviewedBy`),
        createdAt: checkIsoOrNull(r.createdAt, `rules[${i}].createdAt`),
        updatedAt: checkIsoOrNull(r.updatedAt, `rules[${i}].updatedAt`),
      };
    });
    let imported = 0;
    for (const c of checked) if (await insertRule(tx, o, c)) imported++;
    return { imported, skipped: checked.length - imported };
  }

  private async transition(owner: RuleOwner, id: string, to: "approved" | "revoked", reviewer: string | null): Promise<ProceduralRule> {
    const label = checkOptionalLabel(reviewer, "reviewer");
    const from: ReviewState[] = to === "approved" ? ["proposed", "revoked"] : ["proposed", "approved"];
    return this.change(
      owner,
      id,
      to === "approved",
      { kind: "review", to, reviewer: label, from },
      // Reviewed: the stand-in preference of a user rule has done its job (see deleteStandIns).
      async (tx, rule) => {
        if (rule.scope === "user") await deleteStandIns(tx, { tenantId: rule.tenantId!, userId: rule.userId! }, rule.id, { via: `rules.${to === "approved" ? "approve" : "revoke"}`, actor: label });
      },
    );
  }

  /**
   * UPDATE one rule of exactly this owner; NOT_FOUND outside it. `gated`: refused while the owner
   * (a user) is opted out. `after` runs in the same transaction with the updated rule.
   */
  private async change(
    owner: RuleOwner,
    id: string,
    gated: boolean,
    change: RuleChange,
    after?: (tx: Queryable, rule: ProceduralRule) => Promise<void>,
  ): Promise<ProceduralRule> {
    const o = resolveOwner(owner);
    checkRuleId(id);
    return this.db.transaction(async (tx) => {
      if (gated && o.level === "user") await assertNotOptedOut(tx, userOf(o));
      const q = updateOwnerRuleSql(o, id, change);
      try {
        const { rows } = await tx.query<RuleRow>(q.text, q.values);
        if (!rows[0]) throw ruleNotFound(id);
        const rule = ruleFromRow(rows[0]);
        if (after) await after(tx, rule);
        return rule;
      } catch (err) {
        if (sqlStateOf(err) === SqlState.UNIQUE_VIOLATION) {
          throw invalidInput("rule", `an identical proposed or approved rule already exists for this owner; revoke or delete it first`);
        }
        throw err;
      }
    }, { scope: dbScopeOfOwner(o) });
  }
}

/**
 * Delete a user rule's stand-in preference memories (`metadata.ruleId`, written by the extraction
 * write path beside a stated rule awaiting review), audited without content. Returns the count.
 */
async function deleteStandIns(tx: Queryable, s: UserScope, ruleId: string, audit: DeletionContext & { via: string }): Promise<number> {
  const { rows } = await tx.query<{ n: number }>(DELETE_RULE_STAND_INS_SQL, [s.tenantId, s.userId, ruleId]);
  const n = Number(rows[0]?.n ?? 0);
  if (n > 0) await recordDeletion(tx, s, "memory", n, audit);
  return n;
}

interface CheckedRule {
  id?: string;
  text: string;
  taskType: string | null;
  source: RuleSource;
  state: ReviewState;
  active: boolean;
  priority: number;
  origin: Required<ChangeSource> | null;
  metadata: string;
  reviewedAt?: string | null;
  reviewedBy?: string | null;
  createdAt?: string | null;
  updatedAt?: string | null;
}

async function insertRule(tx: Queryable, o: ResolvedOwner, c: CheckedRule): Promise<ProceduralRule | null> {
  const now = new Date().toISOString();
  const { rows } = await tx.query<RuleRow>(INSERT_RULE_SQL, [
    c.id ?? randomUUID(),
    o.level,
    o.tenantId,
    o.userId,
    c.taskType,
    c.text,
    c.source,
    c.priority,
    c.active,
    c.state,
    c.origin?.kind ?? null,
    c.origin?.threadId ?? null,
    c.origin?.messageId ?? null,
    c.origin?.runId ?? null,
    c.reviewedAt !== undefined ? c.reviewedAt : c.state === "proposed" ? null : now,
    c.reviewedBy ?? null,
    c.createdAt ?? now,
    c.updatedAt ?? c.createdAt ?? now,
    c.metadata,
  ]);
  return rows[0] ? ruleFromRow(rows[0]) : null;
}

/** Validate an owner; a missing id is SCOPE_REQUIRED, never a wider owner. */
export function resolveOwner(owner: unknown): ResolvedOwner {
  if (!owner || typeof owner !== "object") {
    throw new MemoryError(ErrorCodes.SCOPE_REQUIRED, "a rule operation needs an owner: { tenantId, userId }, { level: 'tenant', tenantId }, { level: 'task', taskType, tenantId? } or { level: 'global' }");
  }
  const w = owner as { level?: unknown; tenantId?: unknown; userId?: unknown; taskType?: unknown };
  const level = w.level ?? "user";
  switch (level) {
    case "global":
      if (w.tenantId !== undefined || w.userId !== undefined || w.taskType !== undefined) throw invalidInput("owner", "a global owner takes no tenantId, userId or taskType");
      return { level: "global", tenantId: null, userId: null, taskType: null };
    case "tenant":
      if (w.userId !== undefined || w.taskType !== undefined) throw invalidInput("owner", "a tenant owner takes only tenantId");
      return { level: "tenant", tenantId: requireOwnerId(w.tenantId, "tenantId"), userId: null, taskType: null };
    case "task":
      if (w.userId !== undefined) throw invalidInput("owner", "a task owner takes taskType and an optional tenantId");
      return {
        level: "task",
        tenantId: w.tenantId === undefined || w.tenantId === null ? null : requireOwnerId(w.tenantId, "tenantId"),
        userId: null,
        taskType: checkTaskType(w.taskType, "owner.taskType"),
      };
    case "user": {
      const s = resolveUserScope({ tenantId: w.tenantId, userId: w.userId });
      return { level: "user", tenantId: s.tenantId, userId: s.userId, taskType: null };
    }
    default:
      throw invalidInput("owner.level", `must be "user", "tenant", "task" or "global", got ${describeValue(level)}`);
  }
}

function requireOwnerId(v: unknown, name: string): string {
  if (typeof v !== "string" || v.trim() === "") throw new MemoryError(ErrorCodes.SCOPE_REQUIRED, `owner.${name} is required (a non-empty string)`);
  if (v.length > MAX_ID_CHARS || v.includes("\0")) throw invalidInput(`owner.${name}`, `at most ${MAX_ID_CHARS} characters and no NUL bytes`);
  return v;
}

function dbScopeOfOwner(o: ResolvedOwner): DbScope | undefined {
  return o.tenantId === null ? undefined : { tenantId: o.tenantId, userId: o.userId };
}

function userOf(o: ResolvedOwner): UserScope {
  return { tenantId: o.tenantId!, userId: o.userId! };
}

function checkNewRule(rule: NewRule, o: ResolvedOwner, field = "rule"): CheckedRule {
  if (!rule || typeof rule !== "object") throw invalidInput(field, "must be an object with a text");
  const source = rule.source ?? "manual";
  if (!RULE_SOURCES.includes(source)) throw invalidInput(`${field}.source`, `must be one of ${RULE_SOURCES.join(", ")}`);
  const state = rule.state ?? (source === "manual" ? "approved" : "proposed");
  checkState(state, `${field}.state`);
  let taskType: string | null = o.taskType;
  if (rule.taskType !== undefined && rule.taskType !== null && rule.taskType !== "") {
    if (o.level !== "user" && o.level !== "task") throw invalidInput(`${field}.taskType`, `a ${o.level} rule applies to every task; use a task owner`);
    const t = checkTaskType(rule.taskType, `${field}.taskType`);
    if (o.level === "task" && t !== o.taskType) throw invalidInput(`${field}.taskType`, "differs from the owner's taskType");
    taskType = t;
  }
  if (rule.active !== undefined && typeof rule.active !== "boolean") throw invalidInput(`${field}.active`, "must be true or false");
  const metadata = rule.metadata ?? {};
  if (!isPlainObject(metadata)) throw invalidInput(`${field}.metadata`, "must be a plain object");
  const metadataJson = strictJson(metadata, `${field}.metadata`);
  if (metadataJson.length > 16_384 || metadataJson.includes("\\u0000")) throw invalidInput(`${field}.metadata`, "must be at most 16 KiB of JSON without NUL characters");
  return {
    text: checkText(rule.text, `${field}.text`),
    taskType,
    source,
    state,
    active: rule.active ?? true,
    priority: rule.priority === undefined ? 0 : checkPriority(rule.priority, `${field}.priority`),
    origin: rule.origin === undefined || rule.origin === null ? null : checkChangeSource(rule.origin, `${field}.origin`),
    metadata: metadataJson,
  };
}

function checkText(text: unknown, field: string): string {
  if (typeof text !== "string" || text.trim() === "") throw invalidInput(field, "must be a non-empty string");
  if (text.length > MAX_RULE_CHARS) throw invalidInput(field, `is ${text.length} characters; a rule holds at most ${MAX_RULE_CHARS}`);
  if (text.includes("\0")) throw invalidInput(field, "must not contain NUL characters");
  checkWellFormed(text, field);
  // A rule is prompt text for every later turn: never a credential or an identifier. Subjects such
  // as health stay allowed ("never give medical advice" is a rule an operator writes).
  refuseSensitiveText(text, field, { allowSpecialCategory: true });
  return text.trim();
}

function checkPriority(v: unknown, field: string): number {
  if (!Number.isInteger(v) || (v as number) < -1000 || (v as number) > 1000) throw invalidInput(field, "must be an integer from -1000 to 1000");
  return v as number;
}

function checkState(v: unknown, field: string): ReviewState {
  if (!REVIEW_STATES.includes(v as ReviewState)) throw invalidInput(field, `must be one of ${REVIEW_STATES.join(", ")}`);
  return v as ReviewState;
}

function checkTaskType(v: unknown, field: string): string {
  if (typeof v !== "string" || v.trim() === "" || v.length > 200 || v.includes("\0")) throw invalidInput(field, "must be a non-empty string of at most 200 characters");
  return v;
}

function checkRuleId(id: unknown, field = "id"): asserts id is string {
  if (typeof id !== "string" || !UUID_RE.test(id)) throw invalidInput(field, "must be a rule id (a uuid)");
}

function checkOptionalLabel(v: unknown, field: string): string | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== "string" || v.length > 200 || v.includes("\0")) throw invalidInput(field, "must be a string of at most 200 characters");
  return v;
}

function checkIsoOrNull(v: unknown, field: string): string | null {
  if (v === null || v === undefined) return null;
  const d = typeof v === "string" ? new Date(v) : undefined;
  if (!d || Number.isNaN(d.getTime())) throw invalidInput(field, "must be an ISO date string or null");
  return d.toISOString();
}

function ruleNotFound(id: string): MemoryError {
  return new MemoryError(ErrorCodes.NOT_FOUND, `no rule ${id} for this owner`, { details: { id } });
}
