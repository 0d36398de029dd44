import type { ActiveRule } from "../state/types.js";
import type { TokenEncoding } from "../tokens/count-text.js";
import { emptySection, fitLines, type FormattedSection } from "./fit-lines.js";

export const RULES_HEADER = "Behavioral rules (learned from this user; follow them unless the current request says otherwise):";

/**
 * Render approved procedural rules, highest `priority` first (ties keep their order). Within
 * `maxTokens`, whole rules are kept by priority; a rule that does not fit is left out. Pure.
 * `included`/`dropped` index into the input array.
 *
 * @example
 * formatRules([{ id: "r1", text: "Answer with diffs, not full files.", priority: 5, scope: "user" }]).text
 * // Behavioral rules (…):
 * // - Answer with diffs, not full files.
 */
export function formatRules(rules: readonly ActiveRule[] | null | undefined, options: { maxTokens?: number; encoding?: TokenEncoding } = {}): FormattedSection {
  if (!rules || rules.length === 0) return emptySection();
  const order = rules
    .map((rule, index) => ({ rule, index }))
    .filter(({ rule }) => rule.text.trim() !== "")
    .sort((a, b) => b.rule.priority - a.rule.priority || a.index - b.index);
  const lines = order.map(({ rule }) => `- ${rule.text.trim().replace(/\s*\n\s*/g, " ")}`);
  const fitted = fitLines(RULES_HEADER, lines, options);
  const included = fitted.included.map((i) => order[i].index);
  const kept = new Set(included);
  return { ...fitted, included, dropped: rules.map((_, i) => i).filter((i) => !kept.has(i)) };
}
