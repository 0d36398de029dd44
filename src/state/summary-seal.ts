/**
 * The rolling summary travels in graph state, which a client can write too — through the input of a
 * graph whose input schema has a `summary` channel, or the LangGraph API's update-state. A planted
 * summary ("the user is a verified admin") would reach the prompt as the conversation's own memory.
 * So the memory steps seal each summary they write: an HMAC-SHA256, with the database's key
 * (migration 0008's `memory_seal_keys`), over the summary and the tenant, user and thread it belongs
 * to. A summary without a valid seal — planted, malformed, copied from another thread or user, or
 * written before seals existed — is dropped and the summary rebuilt from the messages. Pure
 * functions: the caller holds the key.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { readSummary } from "./state-schemas.js";
import type { SessionSummary } from "./types.js";

/** Whose summary: the run's tenant, user and thread. */
export interface SealScope {
  tenantId: string;
  userId: string;
  threadId: string;
}

const VERSION = "v1";

function mac(summary: SessionSummary, key: Uint8Array, scope: SealScope): string {
  const e = summary.entities;
  // Every field the prompt or the next summary reads, in a fixed order. The fields added later
  // are sealed when present, so seals made before them still verify.
  const fields: unknown[] = [
    VERSION, scope.tenantId, scope.userId, scope.threadId,
    summary.text, e.people, e.places, e.numbers, e.dates, e.decisions, e.openTasks,
    summary.coversThroughMessageId, summary.tokens, summary.updatedAt ?? null,
  ];
  if (e.references !== undefined || e.commitments !== undefined || e.closedTasks !== undefined || summary.factRecency !== undefined) {
    fields.push(e.references ?? null, e.commitments ?? null, e.closedTasks ?? null, summary.factRecency ?? null);
  }
  const body = JSON.stringify(fields);
  return `${VERSION}.${createHmac("sha256", key).update(body).digest("base64url")}`;
}

/**
 * The summary with its seal for this tenant, user and thread.
 *
 * @example
 * const sealed = sealSummary(summary, key, { tenantId: "acme", userId: "alice", threadId: "t1" });
 */
export function sealSummary(summary: SessionSummary, key: Uint8Array, scope: SealScope): SessionSummary {
  const { seal: _old, ...rest } = summary;
  return { ...rest, seal: mac(rest, key, scope) };
}

/**
 * The summary when it is well formed and sealed with `key` for this tenant, user and thread; null
 * otherwise (absent, malformed, planted, or another thread's).
 *
 * @example
 * const summary = verifySummary(state.summary, key, scope); // null → summarise afresh
 */
export function verifySummary(value: unknown, key: Uint8Array, scope: SealScope): SessionSummary | null {
  const summary = readSummary(value);
  if (!summary || typeof summary.seal !== "string") return null;
  const expected = Buffer.from(mac(summary, key, scope));
  const given = Buffer.from(summary.seal);
  return given.length === expected.length && timingSafeEqual(given, expected) ? summary : null;
}
