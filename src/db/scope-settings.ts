import type { DbScope, Queryable } from "./database.js";
import { ErrorCodes, MemoryError } from "../errors.js";
import { SET_SCOPE_SQL } from "./db-queries.js";

/** Names of the per-transaction settings that row-level security policies read. */
export const SCOPE_SETTING_TENANT = "langgraph_memory.tenant_id";
export const SCOPE_SETTING_USER = "langgraph_memory.user_id";

export const SCOPE_SETTINGS = [SCOPE_SETTING_TENANT, SCOPE_SETTING_USER] as const;

/**
 * Clears both settings at session level (back to the empty value the connection started with):
 * PgDatabase runs it before a connection that ran a {@link touchesScopeSettings} statement goes
 * back to the pool, so that a session-level value set there never scopes the next checkout.
 */
export const RESET_SCOPE_SQL = SCOPE_SETTINGS.map((name) => `RESET ${name}`).join("; ");

// A scope setting named as `langgraph_memory.tenant_id` or `.user_id`, in any case, quoted or not.
const SCOPE_SETTING_NAME = /langgraph_memory"?\s*\.\s*"?(?:tenant_id|user_id)\b/i;

/**
 * Whether a statement may set a scope setting for the session: it names one, in its text
 * (`SET langgraph_memory.user_id …`, `set_config('langgraph_memory.user_id', …)`) or as a
 * parameter. The library's own statements never do, except {@link applyScope}'s (transaction-local).
 */
export function touchesScopeSettings(sql: string, params?: readonly unknown[]): boolean {
  return SCOPE_SETTING_NAME.test(sql) || (params?.some((p) => typeof p === "string" && SCOPE_SETTING_NAME.test(p)) ?? false);
}

/** Set the scope for the current transaction only (`set_config(…, true)` is transaction-local). */
export async function applyScope(tx: Queryable, scope: DbScope): Promise<void> {
  if (!scope || typeof scope.tenantId !== "string" || scope.tenantId.length === 0) {
    throw new MemoryError(ErrorCodes.SCOPE_REQUIRED, "a transaction scope needs a non-empty tenantId");
  }
  await tx.query(SET_SCOPE_SQL, [
    SCOPE_SETTING_TENANT,
    scope.tenantId,
    SCOPE_SETTING_USER,
    scope.userId ?? "",
  ]);
}
