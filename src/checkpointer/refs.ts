/**
 * Where a stored value is. Every channel value (in `checkpoints.vals`) and every pending write (in
 * `checkpoint_writes.value`) is one of these JSON shapes; the bytes themselves live in
 * `checkpoint_items`, each stored once per thread and numbered (`seq`):
 *
 * - `[lo, hi, …]`  an array whose elements are the items lo…hi (inclusive ranges, in order);
 * - `n`            the value is item n (a message, or any value too large to inline);
 * - `{"v": json}`  a small value inlined: the serializer's JSON, embedded as is;
 * - `{"k": [[key, count], …], "i": [lo, hi, …], "v"?: json}`  a plain object (e.g. a graph's
 *   input `{ messages: [...] }`) whose listed keys hold items: `count` elements as an array, or
 *   one element as is when `count` is -1. The other keys are the `v` JSON, or, without `v`, the
 *   first item of `i`.
 *
 * SQL finds the items a reference needs with {@link refPairsSql}; nothing else in SQL looks inside.
 */
export type Ref = number[] | number | InlineRef | RecordRef;

export interface InlineRef {
  v: unknown;
}

export interface RecordRef {
  k: Array<[string, number]>;
  i: number[];
  v?: unknown;
}

export function isInlineRef(ref: Ref): ref is InlineRef {
  return typeof ref === "object" && !Array.isArray(ref) && !("k" in ref);
}

export function isRecordRef(ref: Ref): ref is RecordRef {
  return typeof ref === "object" && !Array.isArray(ref) && "k" in ref;
}

/** The item numbers a reference needs, in the order the value uses them. */
export function refSeqs(ref: Ref): number[] {
  if (typeof ref === "number") return [ref];
  if (Array.isArray(ref)) return expandRanges(ref);
  if (isRecordRef(ref)) return expandRanges(ref.i);
  return [];
}

export function expandRanges(ranges: readonly number[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < ranges.length; i += 2) for (let s = ranges[i]; s <= ranges[i + 1]; s += 1) out.push(s);
  return out;
}

/** Inclusive [lo, hi] pairs of consecutive runs, in order: [3, 4, 5, 9] → [3, 5, 9, 9]. */
export function compressRanges(seqs: readonly number[]): number[] {
  const out: number[] = [];
  for (const seq of seqs) {
    const last = out.length - 1;
    if (last > 0 && seq === out[last] + 1) out[last] = seq;
    else out.push(seq, seq);
  }
  return out;
}

/** Whether a parsed reference has a shape this module writes (a corrupt row fails here, not later). */
export function isRef(x: unknown): x is Ref {
  if (typeof x === "number") return Number.isInteger(x);
  if (Array.isArray(x)) return isRanges(x);
  if (x === null || typeof x !== "object") return false;
  const o = x as Record<string, unknown>;
  if (!("k" in o)) return "v" in o;
  return (
    Array.isArray(o.k) &&
    o.k.every((e) => Array.isArray(e) && e.length === 2 && typeof e[0] === "string" && Number.isInteger(e[1]) && (e[1] as number) >= -1) &&
    isRanges(o.i)
  );
}

function isRanges(x: unknown): x is number[] {
  return Array.isArray(x) && x.length % 2 === 0 && x.every((n, i) => Number.isInteger(n) && (i % 2 === 0 || n >= x[i - 1]));
}

/**
 * A lateral subquery yielding `(lo, hi)` for every item range the JSON reference `expr` needs:
 * arrays are ranges, a number is one item, a record lists its ranges under "i", inline values
 * need none.
 */
export function refPairsSql(expr: string): string {
  return `(
    SELECT (x.a ->> (2 * g - 2))::int8 AS lo, (x.a ->> (2 * g - 1))::int8 AS hi
    FROM (SELECT CASE json_typeof(${expr}) WHEN 'array' THEN ${expr} WHEN 'number' THEN json_build_array(${expr}, ${expr})
                 WHEN 'object' THEN ${expr} -> 'i' END AS a) x
    CROSS JOIN LATERAL generate_series(1, coalesce(json_array_length(x.a), 0) / 2) AS g
  )`;
}
