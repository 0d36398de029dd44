/** The JSON helpers every layer shares: plain objects, deep equality, merge patches, and JSON that reads back as written. */
import { invalidInput } from "../errors.js";

/**
 * A plain JSON-like object: not null, not an array, and made by `{}` or `Object.create(null)`
 * (a Date, a Map or a class instance is not one).
 *
 * @example
 * isPlainObject({ a: 1 }); // true
 * isPlainObject([1]);      // false
 */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v) && (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null);
}

/**
 * Deep equality of JSON values (key order ignored).
 *
 * @example
 * jsonEqual({ a: [1, 2], b: null }, { b: null, a: [1, 2] }); // true
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k], b[k]));
  }
  return false;
}

/**
 * `JSON.stringify(value)` for values that must read back as written: NaN and ±Infinity (which
 * JSON writes as null, silently changing the value), a BigInt, a function at the top, a cycle or
 * nesting deeper than the stack are INVALID_INPUT naming `field`.
 *
 * @example
 * strictJson({ score: NaN }, "metadata"); // throws INVALID_INPUT "metadata: must be JSON-serialisable (score is NaN, …)"
 */
export function strictJson(value: unknown, field: string): string {
  let json: string | undefined;
  try {
    json = JSON.stringify(value, (key, v: unknown) => {
      if (typeof v === "number" && !Number.isFinite(v)) throw new RangeError(`${key || "a value"} is ${v}, which JSON cannot represent`);
      return v;
    });
  } catch (err) {
    throw invalidInput(field, `must be JSON-serialisable (${(err as Error).message.slice(0, 120)})`);
  }
  if (json === undefined) throw invalidInput(field, "must be a JSON value");
  return json;
}

/**
 * JSON merge patch (RFC 7396): objects merge key by key, `null` removes a key, anything else
 * (strings, numbers, arrays) replaces. Pure; never mutates its inputs.
 *
 * @example
 * mergePatch({ name: "Ada", units: "metric" }, { units: null, timezone: "Europe/Paris" })
 * // → { name: "Ada", timezone: "Europe/Paris" }
 */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch)) return patch;
  const out: Record<string, unknown> = isPlainObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = mergePatch(out[key], value);
  }
  return out;
}

/** Top-level keys whose value differs between two documents (added, removed or changed). */
export function changedFields(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].filter((k) => !jsonEqual(before[k], after[k]));
}
