import { isPlainObject, jsonEqual } from "../core/json.js";

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
