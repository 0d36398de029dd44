import type { DbScope, Queryable } from "./database.js";
import { ErrorCodes, MemoryError } from "../errors.js";

/** Names of the per-transaction settings that row-level security policies read. */
export const SCOPE_SETTING_TENANT = "langgraph_memory.tenant_id";
export const SCOPE_SETTING_USER = "langgraph_memory.user_id";

/** Set the scope for the current transaction only (`set_config(…, true)` is transaction-local). */
export async function applyScope(tx: Queryable, scope: DbScope): Promise<void> {
  if (!scope || typeof scope.tenantId !== "string" || scope.tenantId.length === 0) {
    throw new MemoryError(ErrorCodes.SCOPE_REQUIRED, "a transaction scope needs a non-empty tenantId");
  }
  await tx.query("SELECT set_config($1, $2, true), set_config($3, $4, true)", [
    SCOPE_SETTING_TENANT,
    scope.tenantId,
    SCOPE_SETTING_USER,
    scope.userId ?? "",
  ]);
}
