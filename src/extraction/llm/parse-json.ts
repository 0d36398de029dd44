/**
 * Find the JSON object in a model's text answer: the whole text, a ```json fence, or the first
 * balanced {…} (models like to add a sentence before or after). A bare array is taken as the
 * memories list. Returns undefined when there is no parseable object.
 */
export function parseJsonObject(text: string): Record<string, unknown> | undefined {
  const candidates: string[] = [text.trim()];
  for (const m of text.matchAll(/```(?:json|JSON)?\s*([\s\S]*?)```/g)) candidates.push(m[1].trim());
  const balanced = firstBalanced(text);
  if (balanced) candidates.push(balanced);
  for (const c of candidates) {
    if (c === "") continue;
    try {
      const value: unknown = JSON.parse(c);
      if (Array.isArray(value)) return { memories: value };
      if (value !== null && typeof value === "object") return value as Record<string, unknown>;
    } catch {
      // try the next candidate
    }
  }
  return undefined;
}

/** The first balanced `{…}` or `[…]` span, skipping braces inside strings. */
function firstBalanced(text: string): string | undefined {
  const start = text.search(/[{[]/);
  if (start < 0) return undefined;
  const open = text[start];
  const close = open === "{" ? "}" : "]";
  let depth = 0;
  let inString = false;
  let escaped = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === "\\") escaped = true;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === open) depth++;
    else if (ch === close && --depth === 0) return text.slice(start, i + 1);
  }
  return undefined;
}
