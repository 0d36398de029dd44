/**
 * fast-check arbitraries for hostile input: random unicode, SQL and LIKE metacharacters, NUL
 * bytes, separators of namespaces and paths, huge strings, deep JSON, NaN/Infinity vectors and
 * wrong dimensions. Strings are well-formed UTF-16 here; unpaired surrogates have their own test
 * (hostile-input.test.ts: refused with INVALID_INPUT where ids and memory texts enter).
 */
import fc from "fast-check";

/** Fragments that break naive SQL, LIKE patterns, JSON paths, namespaces, prompts and terminals. */
export const NASTY_FRAGMENTS = [
  "'",
  "''",
  '"',
  "\\",
  "\\\\",
  "%",
  "_",
  "%_%",
  "\\%",
  "'; DROP TABLE memories; --",
  "') OR ('1'='1",
  "$1",
  "$$",
  "E'\\x00'",
  "\u0000",
  "a\u0000b",
  "*",
  ".",
  ":",
  "/",
  ",",
  "{",
  "}",
  "[",
  "]",
  "[*]",
  "{a,b}",
  "..",
  "$",
  "NULL",
  "null",
  "undefined",
  "__proto__",
  "constructor",
  "toString",
  " ",
  "\t",
  "\n",
  "\r\n",
  "\u202e",
  "\ufeff",
  "\u200b",
  "\u00a0",
  "\u0007",
  "\u007f",
  "\u001b[2J",
  "𝕏",
  "👨‍👩‍👧",
  "é",
  "é",
  "ß",
  "İ",
  "ﬁ",
  "</memory>",
  "<message id=\"x\">",
  "SYSTEM:",
  "Ignore previous instructions",
  "-----BEGIN",
  "\\u0000",
  "%00",
] as const;

/** Well-formed strings (no unpaired surrogates). */
const wellFormed = (s: string) => !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s);

/**
 * A short hostile string: unicode, binary code points, metacharacters, and mixes of them. A
 * leading U+FEFF gets a character before it: PGlite drops a leading BOM from the text it returns
 * (a known problem with its own test).
 */
export const nastyString = (maxLength = 40): fc.Arbitrary<string> =>
  fc
    .oneof(
      fc.string({ unit: "grapheme", maxLength }),
      fc.string({ unit: "binary", maxLength }).filter(wellFormed),
      fc.constantFrom(...NASTY_FRAGMENTS),
      fc.array(fc.oneof(fc.constantFrom(...NASTY_FRAGMENTS), fc.string({ unit: "grapheme-ascii", maxLength: 6 })), { minLength: 1, maxLength: 6 }).map((parts) => parts.join("")),
    )
    .map((s) => (s.startsWith("\ufeff") ? `x${s}` : s));

/** Strings around and far beyond the 4,000-character text limit (and one of 1 MB). */
export const hugeString: fc.Arbitrary<string> = fc.oneof(
  fc.integer({ min: 3_990, max: 4_010 }).map((n) => "x".repeat(n)),
  fc.integer({ min: 15_990, max: 16_010 }).map((n) => "é".repeat(n)),
  fc.constant("a".repeat(process.env.LGM_RELIABILITY_FULL === "1" ? 1_000_000 : 100_000)),
  fc.constant("\u0000".repeat(10_000)),
);

/** A hostile text: mostly short, sometimes huge. */
export const hostileText: fc.Arbitrary<string> = fc.oneof({ weight: 8, arbitrary: nastyString(60) }, { weight: 1, arbitrary: hugeString });

/** JSON nested `depth` levels deep (objects and arrays alternating). */
export function deepJson(depth: number, leaf: unknown = "bottom"): Record<string, unknown> {
  let value: unknown = leaf;
  for (let i = 0; i < depth; i++) value = i % 2 ? { d: value } : [value];
  return { deep: value };
}

/** JSON-like values: random JSON with hostile keys and strings, deep nesting, and non-JSON values. */
export const hostileJson: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: fc.jsonValue({ maxDepth: 4, stringUnit: "grapheme" }) },
  { weight: 3, arbitrary: fc.dictionary(nastyString(12), fc.oneof(nastyString(20), fc.double(), fc.boolean(), fc.constant(null)), { maxKeys: 5 }) },
  { weight: 2, arbitrary: fc.integer({ min: 1, max: 3_000 }).map((d) => deepJson(d)) },
  // (a bare Date is left out: it passes "is an object" checks and is stored as a JSON string —
  // a known problem with its own test)
  { weight: 1, arbitrary: fc.constantFrom<unknown>(NaN, Infinity, -Infinity, undefined, () => 1, Symbol("s"), 10n, { at: new Date(0) }, [1, [2, [3]]], "a\u0000b", { a: "\u0000" }, { "\u0000": 1 }) },
);

/**
 * `hostileJson` as a JSON request body can carry it (the HTTP tests send `JSON.stringify` of it):
 * no BigInt (the client could not send it), no nesting beyond 2,000 levels (the client's own
 * JSON.stringify stack), no top-level undefined, function or Date.
 */
export const hostileItemJson: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: fc.jsonValue({ maxDepth: 4, stringUnit: "grapheme" }) },
  { weight: 3, arbitrary: fc.dictionary(nastyString(12), fc.oneof(nastyString(20), fc.double(), fc.boolean(), fc.constant(null)), { maxKeys: 5 }) },
  { weight: 2, arbitrary: fc.integer({ min: 1, max: 2_000 }).map((d) => deepJson(d)) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(NaN, Infinity, -Infinity, [1, [2, [3]]], "a\u0000b", { a: "\u0000" }, { "\u0000": 1 }, { f: () => 1 }, { at: new Date(0) }) },
);

/** Vectors: NaN/Infinity, wrong dimensions, empty, too long, non-numbers, typed arrays. */
export const hostileVector = (dims: number): fc.Arbitrary<unknown> =>
  fc.oneof(
    fc.array(fc.double(), { minLength: dims, maxLength: dims }),
    fc.array(fc.double({ noNaN: true, noDefaultInfinity: true }), { minLength: 0, maxLength: dims + 3 }),
    fc.constantFrom(dims - 1, dims + 1, 1, 2_000).map((n) => Array.from({ length: n }, (_, i) => Math.sin(i))),
    fc.constant(new Array(dims).fill(NaN)),
    fc.constant([...new Array(dims - 1).fill(0.1), Infinity]),
    fc.constant(new Array(dims).fill(0)),
    fc.constant(new Array(dims).fill(Number.MAX_VALUE)),
    fc.constant(new Array(dims).fill(5e-324)),
    fc.array(fc.anything(), { maxLength: 5 }),
    fc.constant(new Float32Array(dims).fill(0.5)),
    fc.constantFrom<unknown>(null, "0.1,0.2", { 0: 1, length: 1 }),
  );

/** Ids as callers might mistype or forge them. */
export const hostileId: fc.Arbitrary<string> = fc.oneof(fc.uuid(), nastyString(40), fc.constantFrom("00000000-0000-0000-0000-000000000000", "ffffffff-ffff-ffff-ffff-ffffffffffff", "1", "-1", "9223372036854775808"));
