import { createHash } from "node:crypto";

/**
 * A uuid derived from what a write is: the same candidate from the same message of the same user
 * always gets the same id. A retried job (a worker died after writing, before completing) finds
 * its earlier write by id instead of adding it twice.
 *
 * @example
 * deterministicMemoryId(["acme", "alice", "thread-1", "msg-7", "fact", "user lives in berlin"]);
 * // "3f0c…-…" (always the same for these parts)
 */
export function deterministicMemoryId(parts: ReadonlyArray<string | null | undefined>): string {
  const hash = createHash("sha256");
  for (const p of parts) hash.update(`${p ?? ""}\u0000`);
  const b = hash.digest().subarray(0, 16);
  // RFC 4122 layout: version 5 (name-based, SHA), variant 10.
  b[6] = (b[6] & 0x0f) | 0x50;
  b[8] = (b[8] & 0x3f) | 0x80;
  const hex = b.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
