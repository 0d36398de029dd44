import { invalidInput } from "../errors.js";

/** Operators the BaseStore door accepts in a search filter. */
export const FILTER_OPERATORS = ["$eq", "$ne", "$gt", "$gte", "$lt", "$lte", "$in", "$nin", "$exists"] as const;
type FilterOperator = (typeof FILTER_OPERATORS)[number];

/**
 * Compile a BaseStore search filter on the item's top-level fields into SQL over `alias.value`
 * (jsonb). Field names and operands travel as parameters, never as SQL text.
 *
 * Semantics follow InMemoryStore: a plain value matches by equality (objects and arrays by deep
 * equality, where InMemoryStore never matches them); `$ne`/`$nin` also match a missing field;
 * `$gt`… compare numbers numerically and strings in code-point order (InMemoryStore coerces
 * both sides with `Number()`). An unknown `$operator` is INVALID_INPUT instead of matching nothing.
 *
 * @example
 * compileItemFilter({ score: { $gte: 3 }, color: "red" }, params, "i")
 */
export function compileItemFilter(filter: unknown, params: unknown[], alias: string): string {
  if (filter === undefined || filter === null) return "TRUE";
  if (typeof filter !== "object" || Array.isArray(filter)) throw invalidInput("filter", "must be an object of field → value or { $operator: value }");
  const clauses: string[] = [];
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  for (const [field, condition] of Object.entries(filter as Record<string, unknown>)) {
    const f = p(field);
    const val = `${alias}.value -> ${f}::text`;
    if (isOperatorObject(condition)) {
      for (const [op, operand] of Object.entries(condition)) {
        clauses.push(compileOperator(op as FilterOperator, operand, val, `${alias}.value`, f, p, field));
      }
    } else {
      clauses.push(`${val} = ${p(JSON.stringify(condition ?? null))}::jsonb`);
    }
  }
  return clauses.length ? clauses.join(" AND ") : "TRUE";
}

function isOperatorObject(v: unknown): v is Record<string, unknown> {
  if (!v || typeof v !== "object" || Array.isArray(v)) return false;
  const keys = Object.keys(v);
  if (keys.length === 0 || !keys.some((k) => k.startsWith("$"))) return false;
  for (const k of keys) {
    if (!(FILTER_OPERATORS as readonly string[]).includes(k)) {
      throw invalidInput("filter", `unknown operator ${JSON.stringify(k)}; use one of ${FILTER_OPERATORS.join(" ")}`);
    }
  }
  return true;
}

function compileOperator(op: FilterOperator, operand: unknown, val: string, doc: string, fieldParam: string, p: (v: unknown) => string, field: string): string {
  switch (op) {
    case "$eq":
      return `${val} = ${p(JSON.stringify(operand ?? null))}::jsonb`;
    case "$ne":
      return `${val} IS DISTINCT FROM ${p(JSON.stringify(operand ?? null))}::jsonb`;
    case "$in":
    case "$nin": {
      if (!Array.isArray(operand)) throw invalidInput(`filter.${field}.${op}`, "must be an array");
      const list = `${p(JSON.stringify(operand))}::jsonb`;
      const member = `EXISTS (SELECT 1 FROM jsonb_array_elements(${list}) AS e(v) WHERE e.v = ${val})`;
      return op === "$in" ? member : `NOT ${member}`;
    }
    case "$exists":
      if (typeof operand !== "boolean") throw invalidInput(`filter.${field}.$exists`, "must be true or false");
      return `${operand ? "" : "NOT "}jsonb_exists(${doc}, ${fieldParam}::text)`;
    default: {
      const cmp = { $gt: ">", $gte: ">=", $lt: "<", $lte: "<=" }[op];
      if (typeof operand === "number" && Number.isFinite(operand)) {
        return `(CASE WHEN jsonb_typeof(${val}) = 'number' THEN (${val})::text::float8 END) ${cmp} ${p(operand)}::float8`;
      }
      if (typeof operand === "string") {
        return `(CASE WHEN jsonb_typeof(${val}) = 'string' THEN ${doc} ->> ${fieldParam}::text END) COLLATE "C" ${cmp} ${p(operand)}::text COLLATE "C"`;
      }
      throw invalidInput(`filter.${field}.${op}`, "must be a finite number or a string");
    }
  }
}
