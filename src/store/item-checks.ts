/** The BaseStore door's checks of a namespace and an item value (also applied to imported items). */
import { invalidInput } from "../errors.js";
import { isPlainObject, strictJson } from "../core/json.js";
import { checkWellFormed } from "../core/well-formed-text.js";

/**
 * An item value as JSON text: a plain object (a Date, array or class instance would be stored as
 * something else than what was put), that JSON can hold (no BigInt, not nested beyond the
 * engine's stack, no NaN or ±Infinity, which would read back as null) and without NUL characters
 * (jsonb cannot hold them).
 */
export function itemJson(value: unknown): string {
  if (!isPlainObject(value)) throw invalidInput("value", "must be a plain object (or null to delete)");
  const json = strictJson(value, "value");
  if (json.includes("\\u0000")) throw invalidInput("value", "must not contain NUL characters");
  return json;
}

/**
 * LangGraph's namespace rules as typed errors: labels are non-empty strings without `.`, `:` or
 * NUL (BaseStore's own rules). `%`, `_`, quotes and backslashes are stored verbatim.
 */
export function checkNamespace(ns: unknown, field: string, allowEmpty: boolean): void {
  if (!Array.isArray(ns)) throw invalidInput(field, "must be an array of strings");
  if (ns.length === 0 && !allowEmpty) throw invalidInput(field, "must not be empty");
  for (const label of ns) {
    if (typeof label !== "string") throw invalidInput(field, `labels must be strings, got ${typeof label}`);
    if (label === "") throw invalidInput(field, "labels must not be empty");
    if (label.includes(".")) throw invalidInput(field, `label ${JSON.stringify(label)} contains a period; periods separate paths in LangGraph and are not allowed in labels`);
    if (label.includes(":")) throw invalidInput(field, `label ${JSON.stringify(label)} contains a colon, which LangGraph's BaseStore does not allow in labels`);
    if (label.includes("\0")) throw invalidInput(field, "labels must not contain NUL characters");
    checkWellFormed(label, `${field} label`);
  }
}

/** A text[] literal for comparing `namespace::text` (quotes every label). */
export function arrayLiteral(labels: string[]): string {
  return `{${labels.map((l) => `"${l.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`).join(",")}}`;
}
