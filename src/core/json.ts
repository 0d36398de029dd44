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
