/**
 * JSON text exactly as `jq -c` (jq 1.6) writes it. The bash skill builds each line with jq, and the
 * TypeScript twin writes the same bytes. So a line has the same length whichever side wrote it, and
 * the 4096-byte line limit accepts and refuses the same entries on both sides.
 *
 * It differs from JSON.stringify in two places. jq escapes DEL (U+007F) as \u007f. jq also formats
 * numbers with David Gay's g_fmt: shortest round-trip digits, an exponent of at least two digits
 * ("1e-07", "1e+21"), and plain digits up to 15 places past the significant ones
 * ("123456789012345690000000").
 *
 * @example
 * jqStringify({ a: 1e-7, s: "x\u007f" }) // '{"a":1e-07,"s":"x\\u007f"}'
 */
export function jqStringify(value: unknown): string {
  if (value === null) return "null";
  switch (typeof value) {
    case "boolean":
      return value ? "true" : "false";
    case "number":
      return jqNumber(value);
    case "string":
      return jqString(value);
    case "object": {
      if (Array.isArray(value)) return `[${value.map((v) => jqStringify(v === undefined ? null : v)).join(",")}]`;
      const parts: string[] = [];
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        if (v === undefined || typeof v === "function" || typeof v === "symbol") continue;
        parts.push(`${jqString(k)}:${jqStringify(v)}`);
      }
      return `{${parts.join(",")}}`;
    }
    default:
      return "null";
  }
}

/** A JSON string literal as jq writes it: JSON.stringify's escapes, plus DEL as \u007f. */
export function jqString(s: string): string {
  const json = JSON.stringify(s);
  return json.includes("\u007f") ? json.replace(/\u007f/g, "\\u007f") : json;
}

/** A number as jq 1.6 prints it (jv_dump_term and jvp_dtoa_fmt). */
export function jqNumber(x: number): string {
  if (Number.isNaN(x)) return "null";
  // jq clamps infinities to ±DBL_MAX before formatting.
  if (x === Infinity) return "1.7976931348623157e+308";
  if (x === -Infinity) return "-1.7976931348623157e+308";
  if (x === 0) return Object.is(x, -0) ? "-0" : "0";
  const sign = x < 0 ? "-" : "";
  const [mantissa, exponent] = Math.abs(x).toExponential().split("e");
  const digits = mantissa.replace(".", "");
  const decpt = Number(exponent) + 1; // position of the decimal point relative to the digits
  if (decpt <= -4 || decpt > digits.length + 15) {
    const e = decpt - 1;
    const frac = digits.length > 1 ? `.${digits.slice(1)}` : "";
    return `${sign}${digits[0]}${frac}e${e < 0 ? "-" : "+"}${String(Math.abs(e)).padStart(2, "0")}`;
  }
  if (decpt <= 0) return `${sign}0.${"0".repeat(-decpt)}${digits}`;
  if (decpt >= digits.length) return `${sign}${digits}${"0".repeat(decpt - digits.length)}`;
  return `${sign}${digits.slice(0, decpt)}.${digits.slice(decpt)}`;
}
