import type { WriteTargets } from "../extraction/write/write-options.js";
import type { LangGraphMemory } from "../memory.js";

/**
 * Every write target of a memory: profile fields go to the profile, procedures become proposed
 * rules, opted-out users are skipped, and deletions go through the controls (audited; "forget
 * everything" is recorded for the user's confirmation, never executed).
 *
 * @example
 * const report = await processExtractionPayload(payload, { store: memory.store, model: memory.model, scope, targets: writeTargetsOf(memory) });
 */
export function writeTargetsOf(memory: LangGraphMemory): WriteTargets {
  return { profile: memory.profiles, rules: memory.rules, settings: memory.settings, controls: memory.controls.writeTarget };
}
