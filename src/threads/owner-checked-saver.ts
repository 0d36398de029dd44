import type { RunnableConfig } from "@langchain/core/runnables";
import {
  BaseCheckpointSaver,
  type ChannelVersions,
  type Checkpoint,
  type CheckpointListOptions,
  type CheckpointMetadata,
  type CheckpointTuple,
  type PendingWrite,
} from "@langchain/langgraph-checkpoint";
import { readThreadId } from "../core/scope.js";
import type { Queryable } from "../db/database.js";
import { ownerOfConfigurable, requireThreadOwner, threadScopeMismatch, type ThreadOwner } from "./thread-owner.js";
import { THREAD_OWNER_SQL } from "./thread-owner-queries.js";

/**
 * Another checkpointer (`MemorySaver`, a saver of your own) with the thread-owner check our
 * `PostgresCheckpointer` makes in its own statements. The memory nodes refuse another scope's run
 * on a thread before they read anything, but LangGraph stores the run's input before the first
 * node runs: under a saver that knows no owners, another tenant's message would be in the thread
 * for its owner's next turn. This saver refuses that put, and every read, with
 * THREAD_SCOPE_MISMATCH, by the owners recorded in the memory's database (`thread_owners`): a
 * scoped call may use a thread nobody has used yet (it becomes the call's) or its own; an unscoped
 * call may not use a scoped thread; a listing across threads yields only the caller's.
 *
 * @example
 * const graph = withMemory({ memory, agent }).compile({ checkpointer: checkThreadOwners(new MemorySaver(), memory) });
 */
export class ThreadOwnerCheckedSaver extends BaseCheckpointSaver {
  constructor(
    readonly inner: BaseCheckpointSaver,
    private readonly db: Queryable,
  ) {
    super(inner.serde);
  }

  /** Throw THREAD_SCOPE_MISMATCH unless the call's scope may use `threadId`. */
  private async check(threadId: string, owner: ThreadOwner): Promise<void> {
    if (owner.tenantId !== null || owner.userId !== null) return requireThreadOwner(this.db, threadId, owner);
    // Unscoped: never claims a thread (a read of a fresh thread must not make it nobody's for good).
    const recorded = await this.recordedOwner(threadId);
    if (recorded && (recorded.tenantId !== null || recorded.userId !== null)) throw threadScopeMismatch(threadId);
  }

  private async recordedOwner(threadId: string): Promise<ThreadOwner | null> {
    const { rows } = await this.db.query<{ tenant_id: string | null; user_id: string | null }>(THREAD_OWNER_SQL, [threadId]);
    return rows[0] ? { tenantId: rows[0].tenant_id, userId: rows[0].user_id } : null;
  }

  private async checked(config: RunnableConfig): Promise<void> {
    const c = config.configurable as Record<string, unknown> | undefined;
    const threadId = readThreadId(c?.thread_id, "config.configurable.thread_id");
    if (threadId !== null) await this.check(threadId, ownerOfConfigurable(c));
  }

  async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    await this.checked(config);
    return this.inner.getTuple(config);
  }

  async *list(config: RunnableConfig, options?: CheckpointListOptions): AsyncGenerator<CheckpointTuple> {
    const c = config.configurable as Record<string, unknown> | undefined;
    const threadId = readThreadId(c?.thread_id, "config.configurable.thread_id");
    const caller = ownerOfConfigurable(c);
    if (threadId !== null) {
      await this.check(threadId, caller);
      yield* this.inner.list(config, options);
      return;
    }
    // Across threads: only those the caller's scope owns (a thread nobody recorded is nobody's).
    const mine = new Map<string, boolean>();
    for await (const tuple of this.inner.list(config, options)) {
      const threadId = String(tuple.config.configurable?.thread_id ?? "");
      if (!mine.has(threadId)) {
        const owner = (await this.recordedOwner(threadId)) ?? { tenantId: null, userId: null };
        mine.set(threadId, owner.tenantId === caller.tenantId && owner.userId === caller.userId);
      }
      if (mine.get(threadId)) yield tuple;
    }
  }

  async put(config: RunnableConfig, checkpoint: Checkpoint, metadata: CheckpointMetadata, newVersions: ChannelVersions): Promise<RunnableConfig> {
    await this.checked(config);
    return this.inner.put(config, checkpoint, metadata, newVersions);
  }

  async putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string, taskPath?: string): Promise<void> {
    await this.checked(config);
    return this.inner.putWrites(config, writes, taskId, taskPath);
  }

  /** Deletes the thread's checkpoints; its owner record stays, so the id stays its first owner's. */
  async deleteThread(threadId: string): Promise<void> {
    return this.inner.deleteThread(threadId);
  }

  override getNextVersion(current: number | undefined): number {
    return this.inner.getNextVersion(current);
  }
}

/**
 * Wrap a checkpointer that is not the memory's own with the memory's thread-owner check (see
 * {@link ThreadOwnerCheckedSaver}); a saver already wrapped is returned as it is. Our
 * `PostgresCheckpointer` (`memory.checkpointer`) checks owners in its own statements and needs no wrapper.
 *
 * @example
 * .compile({ checkpointer: checkThreadOwners(new MemorySaver(), memory) })
 */
export function checkThreadOwners(saver: BaseCheckpointSaver, memory: { db: Queryable }): BaseCheckpointSaver {
  if (saver instanceof ThreadOwnerCheckedSaver) return saver;
  return new ThreadOwnerCheckedSaver(saver, memory.db);
}
