import { countTextTokensCached, type TokenEncoding } from "../tokens/count-text.js";

/** A rendered prompt section and what it cost. */
export interface FormattedSection {
  /** The section text ("" when nothing was included). */
  text: string;
  tokens: number;
  /** Indices (in the input order) of the items included and left out. */
  included: number[];
  dropped: number[];
}

/** A section with nothing in it (a fresh object: callers may keep and extend its arrays). */
export function emptySection(): FormattedSection {
  return { text: "", tokens: 0, included: [], dropped: [] };
}

/**
 * Render `header` + one line per item, taking whole items in order while they fit in `maxTokens`
 * (an item that does not fit is skipped, a smaller later one may still fit). Never cuts an item
 * mid-value. The final count is exact: the joined text is counted, not estimated.
 */
export function fitLines(
  header: string,
  lines: readonly string[],
  options: { maxTokens?: number; encoding?: TokenEncoding; render?: (included: number[]) => string } = {},
): FormattedSection {
  const encoding = options.encoding ?? "o200k_base";
  const max = options.maxTokens ?? Number.POSITIVE_INFINITY;
  const render = options.render ?? ((idx: number[]) => [header, ...idx.map((i) => lines[i])].join("\n"));
  if (lines.length === 0) return emptySection();
  const included: number[] = [];
  let estimate = countTextTokensCached(header, encoding);
  for (let i = 0; i < lines.length; i++) {
    // +1: the newline joining the line (BPE rarely merges across it; the exact count below decides).
    const t = countTextTokensCached(lines[i], encoding) + 1;
    if (estimate + t <= max) {
      included.push(i);
      estimate += t;
    }
  }
  let text = included.length > 0 ? render(included) : "";
  let tokens = text ? countTextTokensCached(text, encoding) : 0;
  while (tokens > max && included.length > 0) {
    included.pop();
    text = included.length > 0 ? render(included) : "";
    tokens = text ? countTextTokensCached(text, encoding) : 0;
  }
  const kept = new Set(included);
  const dropped = lines.map((_, i) => i).filter((i) => !kept.has(i));
  return { text, tokens, included, dropped };
}
