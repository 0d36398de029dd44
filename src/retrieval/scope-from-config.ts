import type { RunnableConfig } from "@langchain/core/runnables";
import { ErrorCodes, MemoryError } from "../errors.js";
import type { MemoryScope } from "../store/scope.js";

/**
 * The user scope of a graph run: `config.configurable.tenant_id` and `user_id`. Missing either is
 * SCOPE_REQUIRED — memory is never read or written for an unknown user.
 *
 * @example
 * await graph.invoke(input, { configurable: { thread_id: "t1", tenant_id: "acme", user_id: "alice" } });
 */
export function scopeFromConfig(config: RunnableConfig | undefined): MemoryScope & { tenantId: string; userId: string } {
  const c = (config?.configurable ?? {}) as Record<string, unknown>;
  const tenantId = c.tenant_id;
  const userId = c.user_id;
  if (typeof tenantId !== "string" || tenantId.length === 0 || typeof userId !== "string" || userId.length === 0) {
    throw new MemoryError(
      ErrorCodes.SCOPE_REQUIRED,
      "memory needs config.configurable.tenant_id and config.configurable.user_id (non-empty strings) on every run",
      { details: { hasTenant: typeof tenantId === "string" && tenantId.length > 0, hasUser: typeof userId === "string" && userId.length > 0 } },
    );
  }
  return { tenantId, userId };
}
