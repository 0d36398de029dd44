import type { RunnableConfig } from "@langchain/core/runnables";
import { ErrorCodes, MemoryError } from "../errors.js";
import { checkIdText } from "../store/well-formed-text.js";

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
  const value = (key: string): string | null => {
    const v = c[key];
    if (typeof v === "string" && v !== "") return v;
    if (typeof v === "number" && Number.isFinite(v)) return String(v);
    return null;
  };
  const missing = RUN_SCOPE_KEYS.filter((k) => value(k) === null);
  if (missing.length > 0) {
    throw new MemoryError(
      ErrorCodes.SCOPE_REQUIRED,
      `a memory-enabled graph needs config.configurable.${RUN_SCOPE_KEYS.join(", ")} (non-empty strings) on every run; missing: ${missing.join(", ")}` +
        ` — e.g. graph.invoke(input, { configurable: { thread_id: "t1", tenant_id: "acme", user_id: "alice" } })`,
      { details: { missing } },
    );
  }
  // "t\uD800" and "t\uDBFF" would be stored as the same id (UTF-8 has no room for half a character).
  const [tenantId, userId, threadId] = RUN_SCOPE_KEYS.map((k) => checkIdText(value(k)!, `config.configurable.${k}`));
  return { tenantId, userId, threadId };
}
