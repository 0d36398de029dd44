import type { RunnableConfig } from "@langchain/core/runnables";
import { ErrorCodes, MemoryError } from "../errors.js";
import { readScopeId } from "../core/scope.js";
import { checkIdText } from "../core/well-formed-text.js";

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
  // Tenant and user by the one rule of every scope (core/scope.ts); the thread id is no scope id
  // (it may be longer), but is read the same way: a non-empty string or a finite number.
  const ids: Record<string, string | null> = {
    tenant_id: readScopeId(c.tenant_id, "config.configurable.tenant_id"),
    user_id: readScopeId(c.user_id, "config.configurable.user_id"),
    thread_id: threadIdText(c.thread_id),
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
  // "t\uD800" and "t\uDBFF" would be stored as the same id (UTF-8 has no room for half a character).
  return { tenantId: ids.tenant_id!, userId: ids.user_id!, threadId: checkIdText(ids.thread_id!, "config.configurable.thread_id") };
}

function threadIdText(v: unknown): string | null {
  if (typeof v === "string" && v !== "") return v;
  if (typeof v === "number" && Number.isFinite(v)) return String(v);
  return null;
}
