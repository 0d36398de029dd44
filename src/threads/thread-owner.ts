/**
 * Who a conversation thread belongs to: the one definition the checkpointer and the memory nodes
 * share (migration 0008's `thread_owners`). A thread's owner is the tenant and user of the call
 * that first used it, recorded then and never changed; a thread first used without a scope belongs
 * to nobody (both null). A call may use a thread exactly when its own pair equals the owner: a
 * scoped call never adopts an unscoped thread, an unscoped call never reads a scoped one, and a
 * thread nobody has used yet is free. Below the checkpointer and the store (it knows only the
 * database), so neither depends on the other.
 */
import { readScopeId } from "../core/scope.js";
import { ErrorCodes, MemoryError } from "../errors.js";

/** A thread's owner, or a call's scope: both null for nobody (an unscoped call). */
export interface ThreadOwner {
  tenantId: string | null;
  userId: string | null;
}

/**
 * The scope of a call from `config.configurable`: `tenant_id` and `user_id`, each read by the one
 * rule of every scope id (`readScopeId` in core/scope.ts); an absent id is null.
 *
 * @example
 * ownerOfConfigurable({ thread_id: "t1", tenant_id: "acme", user_id: "alice" }); // { tenantId: "acme", userId: "alice" }
 */
export function ownerOfConfigurable(configurable: Record<string, unknown> | undefined): ThreadOwner {
  return {
    tenantId: readScopeId(configurable?.tenant_id, "config.configurable.tenant_id"),
    userId: readScopeId(configurable?.user_id, "config.configurable.user_id"),
  };
}

/**
 * THREAD_SCOPE_MISMATCH: the thread is another scope's. The message never says whose it is, nor
 * whether it exists beyond that.
 */
export function threadScopeMismatch(threadId?: string, cause?: unknown): MemoryError {
  return new MemoryError(
    ErrorCodes.THREAD_SCOPE_MISMATCH,
    `${threadId === undefined ? "the thread" : `thread ${JSON.stringify(threadId)}`} belongs to another tenant or user (or was started without one): nothing of it was read or written — ` +
      "continue only your own threads, with the same config.configurable.tenant_id and user_id that started them, or start a new thread_id",
    { details: threadId === undefined ? {} : { threadId }, cause },
  );
}
