import type { RunnableConfig } from "@langchain/core/runnables";
import { ErrorCodes, MemoryError } from "../errors.js";
import { readScopeId, readThreadId } from "../core/scope.js";

/** Who a memory-enabled run is for and which conversation it belongs to. */
export interface RunScope {
  tenantId: string;
  userId: string;
  threadId: string;
}

/** The `config.configurable` keys every memory-enabled run needs. */
export const RUN_SCOPE_KEYS = ["tenant_id", "user_id", "thread_id"] as const;

/**
 * The run's scope from `config.configurable` (`tenant_id`, `user_id`, `thread_id`). Any missing
 * key is SCOPE_REQUIRED, with a message naming the missing keys — checked once at the start of the
 * graph, so nothing is read, summarised or answered for an unknown user.
 *
 * @example
 * requireRunScope({ configurable: { thread_id: "t1", tenant_id: "acme", user_id: "alice" } });
 * // → { tenantId: "acme", userId: "alice", threadId: "t1" }
 */
export function requireRunScope(config: RunnableConfig | undefined): RunScope {
  const c = (config?.configurable ?? {}) as Record<string, unknown>;
  // Tenant and user by the one rule of every scope, the thread id by its reader (core/scope.ts).
  const ids: Record<string, string | null> = {
    tenant_id: readScopeId(c.tenant_id, "config.configurable.tenant_id"),
    user_id: readScopeId(c.user_id, "config.configurable.user_id"),
    thread_id: readThreadId(c.thread_id, "config.configurable.thread_id"),
  };
  const missing = RUN_SCOPE_KEYS.filter((k) => ids[k] === null);
  if (missing.length > 0) {
    throw new MemoryError(
      ErrorCodes.SCOPE_REQUIRED,
      `a memory-enabled graph needs config.configurable.${RUN_SCOPE_KEYS.join(", ")} (non-empty strings) on every run; missing: ${missing.join(", ")}` +
        ` — e.g. graph.invoke(input, { configurable: { thread_id: "t1", tenant_id: "acme", user_id: "alice" } })`,
      { details: { missing } },
    );
  }
  return { tenantId: ids.tenant_id!, userId: ids.user_id!, threadId: ids.thread_id! };
}
