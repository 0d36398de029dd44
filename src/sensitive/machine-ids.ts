import type { SensitiveFinding } from "./categories.js";

/** RFC 9562 text form: 8-4-4-4-12 hex digits, any version. */
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;

/**
 * The UUIDs in a text: the run, message, tool-call and memory ids the library and LangGraph write
 * into metadata. Their hex groups can pass an IBAN's mod-97 or a card's Luhn check by chance
 * (about 3 in 10,000 random UUIDs did), which refused a benign memory because of its own tool-call id.
 */
export function uuidSpans(text: string): Array<{ start: number; end: number }> {
  if (!text.includes("-")) return [];
  return Array.from(text.matchAll(UUID), (m) => ({ start: m.index, end: m.index + m[0].length }));
}

/**
 * Whether a financial or identity-number finding lies wholly inside a UUID: a machine id, not
 * somebody's account. Secrets are never excused (some API keys are UUIDs).
 */
export function isInsideUuid(f: SensitiveFinding, uuids: ReadonlyArray<{ start: number; end: number }>): boolean {
  return f.group === "identifier" && uuids.some((u) => u.start <= f.start && f.end <= u.end);
}
