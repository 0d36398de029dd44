import { countTextTokens } from "../tokens/count-text.js";

/**
 * Tokens of one array element when it looks like a chat message (has `content`), else 0. Counted
 * once, when the element is first stored, and kept beside it, so a thread's token count costs
 * nothing on later puts.
 */
export function itemTokens(item: unknown): number {
  if (item === null || typeof item !== "object") return 0;
  const content = (item as { content?: unknown }).content;
  if (typeof content === "string") return countTextTokens(content);
  if (Array.isArray(content)) {
    let total = 0;
    for (const part of content) {
      if (typeof part === "string") total += countTextTokens(part);
      else if (part && typeof part === "object" && typeof (part as { text?: unknown }).text === "string") {
        total += countTextTokens((part as { text: string }).text);
      }
    }
    return total;
  }
  return 0;
}
