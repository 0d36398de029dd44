import { invalidInput } from "../errors.js";

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
