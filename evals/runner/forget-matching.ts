import { ErrorCodes, isMemoryError } from "../../src/errors.js";
import type { MemoryControls } from "../../src/controls/memory-controls.js";
import type { UserScope } from "../../src/core/scope.js";

/** What a `forget` action removed. */
export interface ForgetOutcome {
  memories: number;
  profileFields: number;
  rules: number;
}

/**
 * The `forget` action of the scenario format, through the controls API only: every memory of the
 * user whose text contains `match` (case-insensitive) — facts, preferences, episodes and past
 * sessions, with the older versions each superseded — every profile field whose value contains it,
 * and every rule of the user whose text contains it. Other users and tenants are untouched: every
 * call is scoped to this user.
 */
export async function forgetMatching(controls: MemoryControls, scope: UserScope, match: string): Promise<ForgetOutcome> {
  const needle = match.toLowerCase();
  const contains = (text: string) => text.toLowerCase().includes(needle);
  const seen = await controls.inspect(scope);
  const outcome: ForgetOutcome = { memories: 0, profileFields: 0, rules: 0 };
  for (const m of seen.memories) {
    if (!contains(m.text)) continue;
    try {
      outcome.memories += (await controls.deleteMemory(scope, m.id)).deleted;
    } catch (err) {
      // Already deleted with a newer version's chain.
      if (!isMemoryError(err, ErrorCodes.NOT_FOUND)) throw err;
    }
  }
  const fields = Object.entries(seen.profile?.document ?? {}).filter(([, value]) => contains(typeof value === "string" ? value : JSON.stringify(value)));
  if (fields.length > 0) {
    await controls.updateProfile(scope, Object.fromEntries(fields.map(([field]) => [field, null])));
    outcome.profileFields = fields.length;
  }
  for (const rule of seen.rules) {
    if (!contains(rule.text)) continue;
    try {
      await controls.deleteRule(scope, rule.id);
      outcome.rules++;
    } catch (err) {
      // Already deleted: forgetting a memory above removes the user's rules that state it too.
      if (!isMemoryError(err, ErrorCodes.NOT_FOUND)) throw err;
    }
  }
  return outcome;
}
