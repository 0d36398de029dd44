/**
 * One-time confirmation tokens for destructive controls (delete everything). A token is random
 * (24 bytes, base64url), only its SHA-256 is stored (table `memory_confirmations`), it is bound to
 * one tenant + user and purpose, it expires, and its first use consumes it. A missing, wrong,
 * expired, already used or other user's token is CONFIRMATION_INVALID — one message for all, so
 * the error says nothing about other users' tokens.
 *
 * A table rather than a stateless HMAC: no secret to configure and rotate, tokens work across app
 * instances, and single use is enforced.
 */
import { createHash, randomBytes } from "node:crypto";
import type { Queryable } from "../db/database.js";
import { ErrorCodes, MemoryError } from "../errors.js";
import type { UserScope } from "../core/scope.js";
import { CONSUME_CONFIRMATION_SQL, DELETE_EXPIRED_CONFIRMATIONS_SQL, INSERT_CONFIRMATION_SQL } from "./confirmation-tokens-queries.js";

export type ConfirmationPurpose = "delete_all";

const TOKEN_RE = /^[A-Za-z0-9_-]{32}$/;

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** Issue a token valid until `expiresAt`; the user's expired tokens are cleared on the way. */
export async function issueConfirmation(tx: Queryable, s: UserScope, purpose: ConfirmationPurpose, now: Date, expiresAt: Date): Promise<string> {
  const token = randomBytes(24).toString("base64url");
  await tx.query(DELETE_EXPIRED_CONFIRMATIONS_SQL, [s.tenantId, s.userId, now.toISOString()]);
  await tx.query(INSERT_CONFIRMATION_SQL, [
    hashToken(token),
    s.tenantId,
    s.userId,
    purpose,
    now.toISOString(),
    expiresAt.toISOString(),
  ]);
  return token;
}

/**
 * Consume a token inside the transaction that does the destructive work: if that work fails, the
 * rollback restores the token. Throws CONFIRMATION_INVALID.
 */
export async function consumeConfirmation(tx: Queryable, s: UserScope, purpose: ConfirmationPurpose, token: unknown, now: Date): Promise<void> {
  if (typeof token !== "string" || !TOKEN_RE.test(token)) throw invalidConfirmation();
  const { rows } = await tx.query<{ expires_at: Date | string }>(
    CONSUME_CONFIRMATION_SQL,
    [hashToken(token), s.tenantId, s.userId, purpose],
  );
  const expires = rows[0] ? new Date(rows[0].expires_at) : null;
  if (!expires || expires.getTime() <= now.getTime()) throw invalidConfirmation();
}

function invalidConfirmation(): MemoryError {
  return new MemoryError(
    ErrorCodes.CONFIRMATION_INVALID,
    "the confirmation token is missing, wrong, expired or already used; request a new one (requestDeleteAll) and confirm within its lifetime",
  );
}
