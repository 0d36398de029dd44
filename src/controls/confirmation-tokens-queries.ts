/** The statements of the one-time confirmation tokens (table `memory_confirmations`; `$1`…: see each). */

/** Clear a user's expired tokens (`$1` tenant, `$2` user, `$3` now). */
export const DELETE_EXPIRED_CONFIRMATIONS_SQL = "DELETE FROM memory_confirmations WHERE tenant_id = $1 AND user_id = $2 AND expires_at <= $3::timestamptz";

/** Store a token's hash (`$1`), bound to tenant, user and purpose, with its creation and expiry. */
export const INSERT_CONFIRMATION_SQL =
  "INSERT INTO memory_confirmations (token_hash, tenant_id, user_id, purpose, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6)";

/** Consume a token (its first use removes it), returning its expiry to check. */
export const CONSUME_CONFIRMATION_SQL =
  "DELETE FROM memory_confirmations WHERE token_hash = $1 AND tenant_id = $2 AND user_id = $3 AND purpose = $4 RETURNING expires_at";
