import { createHash } from "node:crypto";

/**
 * The id of a thread's past-session memory: a name-based uuid (v5 layout, SHA-256 of tenant, user
 * and thread). One thread of one user always maps to the same row, so a summary change updates it
 * in place, and two indexers racing on a new thread cannot create two rows (the second insert hits
 * the primary key).
 *
 * @example
 * sessionMemoryId({ tenantId: "acme", userId: "alice" }, "thread-1") // "3f2a…-5…"
 */
export function sessionMemoryId(scope: { tenantId: string; userId: string }, threadId: string): string {
  const bytes = createHash("sha256").update(`langgraph-memory:session\0${scope.tenantId}\0${scope.userId}\0${threadId}`).digest().subarray(0, 16);
  bytes[6] = (bytes[6] & 0x0f) | 0x50;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
