/**
 * Opt-out at the lowest layer: every door that reads or writes a user's memory (the typed store,
 * the profile and rule stores, and everything built on them — tools, imports, HTTP) goes through
 * these two checks, inside its own transaction.
 *
 * - Reads are gated in the same statement (`NOT EXISTS (… opted_out)` is uncorrelated, so
 *   Postgres evaluates it once as a one-time filter): an opted-out user's read returns nothing,
 *   at no extra round trip.
 * - Writes are refused with OPTED_OUT. The settings row is read `FOR SHARE`, so an opt-out waits
 *   for writes already past the check and every write after it sees the flag.
 * - Deletes are never gated: removing data is always allowed.
 */
import type { Queryable } from "../db/database.js";
import { ErrorCodes, MemoryError } from "../errors.js";
import { SELECT_OPTED_OUT_FOR_SHARE_SQL, SELECT_OPTED_OUT_SQL } from "./opt-out-queries.js";

/** A user of a tenant (opt-out is per user). */
export interface OptOutScope {
  tenantId: string;
  userId: string;
}

/**
 * The read gate for one user: SQL that is true unless the user opted out. `params` receives the
 * tenant and user; the fragment references them by position.
 */
export function notOptedOutSql(scope: OptOutScope, params: unknown[]): string {
  params.push(scope.tenantId, scope.userId);
  return notOptedOutAt(`$${params.length - 1}`, `$${params.length}`);
}

/** The read gate with the tenant and user at fixed parameter positions (e.g. "$1", "$2"). */
export function notOptedOutAt(tenantParam: string, userParam: string): string {
  return `NOT EXISTS (SELECT 1 FROM memory_settings os WHERE os.tenant_id = ${tenantParam}::text AND os.user_id = ${userParam}::text AND os.opted_out)`;
}

/**
 * The read gate of a row that may belong to a user (`alias.tenant_id`, `alias.user_id`; a NULL
 * user is nobody's): true unless its owner opted out. Correlated, so it is checked per row.
 */
export function ownerNotOptedOutSql(alias: string): string {
  return `(${alias}.user_id IS NULL OR NOT EXISTS (SELECT 1 FROM memory_settings os WHERE os.tenant_id = ${alias}.tenant_id AND os.user_id = ${alias}.user_id AND os.opted_out))`;
}

/** The write gate: throws OPTED_OUT when the user opted out (and holds their settings row until commit). */
export async function assertNotOptedOut(tx: Queryable, scope: OptOutScope): Promise<void> {
  const { rows } = await tx.query<{ opted_out: boolean }>(
    SELECT_OPTED_OUT_FOR_SHARE_SQL,
    [scope.tenantId, scope.userId],
  );
  if (rows[0]?.opted_out) throw optedOut();
}

/** Whether the user opted out (a plain read, for callers that decide before doing work). */
export async function readOptedOut(tx: Queryable, scope: OptOutScope): Promise<boolean> {
  const { rows } = await tx.query<{ opted_out: boolean }>(SELECT_OPTED_OUT_SQL, [
    scope.tenantId,
    scope.userId,
  ]);
  return rows[0]?.opted_out === true;
}

export function optedOut(): MemoryError {
  return new MemoryError(
    ErrorCodes.OPTED_OUT,
    "this user has opted out of memory: nothing is read or written for them until they opt back in (deleting remains possible)",
  );
}
