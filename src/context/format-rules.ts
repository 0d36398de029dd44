import type { ActiveRule } from "../state/types.js";
import { countTextTokensCached, type TokenEncoding } from "../tokens/count-text.js";
import { emptySection, type FormattedSection } from "./fit-lines.js";

export const RULES_HEADER = "Behavioral rules (learned from this user; follow them unless the current request says otherwise):";

/**
 * Render approved procedural rules, highest `priority` first (ties keep their order). Within
 * `maxTokens`, whole rules are kept by priority; a rule that does not fit beside the higher ones is
 * left out (a shorter, lower one may still fit). Counts are exact (each candidate text is counted;
 * a rule list is short). Pure. `included`/`dropped` index into the input array.
 *
 * @example
 * formatRules([{ id: "r1", text: "Answer with diffs, not full files.", priority: 5, scope: "user" }]).text
 * // Behavioral rules (…):
 * // - Answer with diffs, not full files.
 */
export function formatRules(rules: readonly ActiveRule[] | null | undefined, options: { maxTokens?: number; encoding?: TokenEncoding } = {}): FormattedSection {
  if (!rules || rules.length === 0) return emptySection();
  const encoding = options.encoding ?? "o200k_base";
  const max = options.maxTokens ?? Number.POSITIVE_INFINITY;
  const order = rules
    .map((rule, index) => ({ rule, index }))
    .filter(({ rule }) => rule.text.trim() !== "")
    .sort((a, b) => b.rule.priority - a.rule.priority || a.index - b.index);
  const lines: string[] = [];
  const included: number[] = [];
  let text = "";
  let tokens = 0;
  for (const { rule, index } of order) {
    const line = `- ${rule.text.trim().replace(/\s*\n\s*/g, " ")}`;
    const candidate = [RULES_HEADER, ...lines, line].join("\n");
    const t = countTextTokensCached(candidate, encoding);
    if (t <= max) {
      lines.push(line);
      included.push(index);
      text = candidate;
      tokens = t;
    }
  }
  const kept = new Set(included);
  return { text, tokens, included, dropped: rules.map((_, i) => i).filter((i) => !kept.has(i)) };
}
