/**
 * Texts to embed from a JSON value at a field path, with the path syntax of LangGraph's index
 * config: `$` (the whole value as JSON), `a.b`, `a[*].b`, `a[0]`, `a[-1]`, `*`, `{a,b.c}`.
 * Strings, numbers and booleans give their text; objects and arrays their pretty JSON.
 *
 * @example
 * textsAtPath({ chapters: [{ body: "x" }, { body: "y" }] }, "chapters[*].body") // ["x", "y"]
 */
export function textsAtPath(value: unknown, path: string): string[] {
  if (!path || path === "$") return [JSON.stringify(value, null, 2)];
  return walk(value, splitPath(path), 0);
}

/** `a.b[*].c{d,e}` → ["a", "b", "[*]", "c", "{d,e}"]. */
export function splitPath(path: string): string[] {
  const parts: string[] = [];
  let current = "";
  for (let i = 0; i < path.length; i++) {
    const c = path[i];
    if (c === "[" || c === "{") {
      if (current) parts.push(current);
      current = "";
      const close = c === "[" ? "]" : "}";
      let depth = 0;
      let j = i;
      for (; j < path.length; j++) {
        if (path[j] === c) depth++;
        else if (path[j] === close && --depth === 0) break;
      }
      parts.push(path.slice(i, j + 1));
      i = j;
    } else if (c === ".") {
      if (current) parts.push(current);
      current = "";
    } else current += c;
  }
  if (current) parts.push(current);
  return parts;
}

function leaf(v: unknown): string[] {
  if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") return [String(v)];
  if (v === null || v === undefined) return [];
  if (typeof v === "object") return [JSON.stringify(v, null, 2)];
  return [];
}

function walk(v: unknown, parts: string[], pos: number): string[] {
  if (pos >= parts.length) return leaf(v);
  const part = parts[pos];
  if (part.startsWith("[") && part.endsWith("]")) {
    if (!Array.isArray(v)) return [];
    const index = part.slice(1, -1);
    if (index === "*") return v.flatMap((item) => walk(item, parts, pos + 1));
    let i = Number.parseInt(index, 10);
    if (Number.isNaN(i)) return [];
    if (i < 0) i += v.length;
    return i >= 0 && i < v.length ? walk(v[i], parts, pos + 1) : [];
  }
  if (part.startsWith("{") && part.endsWith("}")) {
    if (!v || typeof v !== "object") return [];
    const out: string[] = [];
    for (const field of part.slice(1, -1).split(",").map((f) => f.trim())) {
      let cur: unknown = v;
      for (const p of splitPath(field)) {
        cur = cur && typeof cur === "object" && p in (cur as object) ? (cur as Record<string, unknown>)[p] : undefined;
        if (cur === undefined) break;
      }
      if (cur !== undefined) out.push(...leaf(cur));
    }
    return out;
  }
  if (part === "*") {
    if (Array.isArray(v)) return v.flatMap((item) => walk(item, parts, pos + 1));
    if (v && typeof v === "object") return Object.values(v).flatMap((item) => walk(item, parts, pos + 1));
    return [];
  }
  if (v && typeof v === "object" && part in (v as object)) return walk((v as Record<string, unknown>)[part], parts, pos + 1);
  return [];
}
