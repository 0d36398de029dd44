/** Procedural rules: reviewed, revocable instructions (docs/controls.md). */
export { RuleStore, resolveOwner, type RuleListOptions } from "./rule-store.js";
export { RULE_SOURCES, REVIEW_STATES, type RuleOwner, type RuleScopeLevel, type RuleSource, type ReviewState, type ProceduralRule, type NewRule, type ExportedRule } from "./rule-types.js";
