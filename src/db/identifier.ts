import { invalidInput } from "../errors.js";

/** Quote a SQL identifier: wrap in double quotes and double any quote inside. */
export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/**
 * Validate a schema name from configuration. Any character is allowed (it is quoted), but not an
 * empty name, a NUL byte, or more than Postgres' 63-byte identifier limit (which would silently
 * truncate and point two configurations at one schema).
 */
export function validateSchemaName(name: string): string {
  if (typeof name !== "string" || name.length === 0) throw invalidInput("schema", "must be a non-empty string");
  if (name.includes("\u0000")) throw invalidInput("schema", "must not contain a NUL byte");
  if (Buffer.byteLength(name, "utf8") > 63) throw invalidInput("schema", "must be at most 63 bytes (Postgres truncates longer identifiers)");
  return name;
}
