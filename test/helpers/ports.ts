/**
 * Small real in-memory implementations of the write path's ports (profile, rules, settings,
 * controls), for tests and evals until — and beside — the database-backed ones. They behave as the
 * port contracts say: the profile validates fields and applies RFC 7396 merge-patches with a
 * history, rules are proposed once per text, settings hold opt-outs, controls delete through the
 * store and audit without content.
 */
import { ErrorCodes, MemoryError } from "../../src/errors.js";
import type { ChangeSource } from "../../src/core/change-source.js";
import type { UserScope } from "../../src/core/scope.js";
import type { ControlsTarget } from "../../src/controls/controls-target.js";
import type { SettingsTarget } from "../../src/controls/settings-target.js";
import type { RuleTarget } from "../../src/procedural/rule-target.js";
import type { ProfileTarget } from "../../src/profile/profile-target.js";
import type { MemoryRepository } from "../../src/store/memory-store.js";

const keyOf = (s: UserScope) => `${s.tenantId}\u0000${s.userId}`;

export interface ProfileChange {
  scope: UserScope;
  field: string;
  value: unknown;
  source: ChangeSource;
}

export class InMemoryProfileTarget implements ProfileTarget {
  readonly profiles = new Map<string, Record<string, unknown>>();
  readonly history: ProfileChange[] = [];

  constructor(
    readonly fields: readonly string[] = ["name", "timezone", "units", "language", "plan"],
    /** Per-field validation, as an app's zod schema would do; false → INVALID_INPUT. */
    private readonly validate: (field: string, value: unknown) => boolean = () => true,
  ) {}

  async applyPatch(scope: UserScope, patch: Record<string, unknown>, source: ChangeSource): Promise<void> {
    for (const [field, value] of Object.entries(patch)) {
      if (!this.fields.includes(field)) throw new MemoryError(ErrorCodes.INVALID_INPUT, `profile.${field}: unknown field`);
      if (value !== null && !this.validate(field, value)) throw new MemoryError(ErrorCodes.INVALID_INPUT, `profile.${field}: invalid value`);
    }
    const current = { ...(this.profiles.get(keyOf(scope)) ?? {}) };
    for (const [field, value] of Object.entries(patch)) {
      if (value === null) delete current[field];
      else current[field] = value;
      this.history.push({ scope, field, value, source });
    }
    this.profiles.set(keyOf(scope), current);
  }

  get(scope: UserScope): Record<string, unknown> {
    return this.profiles.get(keyOf(scope)) ?? {};
  }
}

export interface ProposedRule {
  id: string;
  scope: UserScope;
  text: string;
  state: "proposed" | "approved" | "revoked";
  source: "learned" | "feedback";
  origin: ChangeSource;
}

export class InMemoryRuleTarget implements RuleTarget {
  readonly rules: ProposedRule[] = [];

  async propose(scope: UserScope, rule: { text: string; taskType?: string | null; source: "learned" | "feedback"; origin: ChangeSource }): Promise<{ id: string; created: boolean }> {
    const same = this.rules.find((r) => keyOf(r.scope) === keyOf(scope) && r.state !== "revoked" && r.text.toLowerCase() === rule.text.toLowerCase());
    if (same) return { id: same.id, created: false };
    const id = `rule-${this.rules.length + 1}`;
    this.rules.push({ id, scope, text: rule.text, state: "proposed", source: rule.source, origin: rule.origin });
    return { id, created: true };
  }
}

export class InMemorySettingsTarget implements SettingsTarget {
  private readonly optedOut = new Set<string>();
  /** How often the opt-out was read. */
  checks = 0;

  optOut(scope: UserScope): void {
    this.optedOut.add(keyOf(scope));
  }
  optIn(scope: UserScope): void {
    this.optedOut.delete(keyOf(scope));
  }
  async isOptedOut(scope: UserScope): Promise<boolean> {
    this.checks++;
    return this.optedOut.has(keyOf(scope));
  }
}

/** Controls over the real store: deletions go through it and leave an audit entry (ids only). */
export class StoreControlsTarget implements ControlsTarget {
  readonly audit: Array<{ scope: UserScope; memoryId: string; source: ChangeSource }> = [];
  readonly deleteAllRequests: Array<{ scope: UserScope; source: ChangeSource }> = [];

  constructor(private readonly store: MemoryRepository) {}

  async deleteMemories(scope: UserScope, ids: readonly string[], source: ChangeSource): Promise<number> {
    let n = 0;
    for (const id of ids) {
      if (await this.store.delete(scope, id)) {
        n++;
        this.audit.push({ scope, memoryId: id, source });
      }
    }
    return n;
  }

  async requestDeleteAll(scope: UserScope, source: ChangeSource): Promise<void> {
    this.deleteAllRequests.push({ scope, source });
  }
}
