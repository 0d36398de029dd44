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
import type { PostgresCheckpointer } from "../checkpointer/postgres-checkpointer.js";

/**
 * The checkpointer the LangGraph API routes use: our `PostgresCheckpointer`, with one addition
 * for the API's own state routes (get state, history, update state / fork), which carry only a
 * `thread_id`: those act as the thread's recorded owner, as the stock dev server's operator view
 * does. Runs are untouched — a run's config (it always has a `run_id`) is checked against the
 * owner as everywhere else, so another user's run on a thread still gets THREAD_SCOPE_MISMATCH.
 */
export class OwnerScopedCheckpointer extends BaseCheckpointSaver {
  constructor(readonly inner: PostgresCheckpointer) {
    super(inner.serde);
  }

  private async scoped(config: RunnableConfig): Promise<RunnableConfig> {
    const c = config.configurable ?? {};
    const unscoped = c.tenant_id === undefined && c.user_id === undefined;
    if (!unscoped || c.run_id !== undefined || c.thread_id === undefined || c.thread_id === null || c.thread_id === "") return config;
    const thread = await this.inner.getThread(String(c.thread_id));
    if (!thread || (thread.tenantId === null && thread.userId === null)) return config;
    return { ...config, configurable: { ...c, tenant_id: thread.tenantId ?? undefined, user_id: thread.userId ?? undefined } };
  }

  async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    return this.inner.getTuple(await this.scoped(config));
  }

  async *list(config: RunnableConfig, options?: CheckpointListOptions): AsyncGenerator<CheckpointTuple> {
    yield* this.inner.list(await this.scoped(config), options);
  }

  async put(config: RunnableConfig, checkpoint: Checkpoint, metadata: CheckpointMetadata, newVersions: ChannelVersions): Promise<RunnableConfig> {
    return this.inner.put(await this.scoped(config), checkpoint, metadata, newVersions);
  }

  async putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string, taskPath?: string): Promise<void> {
    return this.inner.putWrites(await this.scoped(config), writes, taskId, taskPath);
  }

  async deleteThread(threadId: string): Promise<void> {
    return this.inner.deleteThread(threadId);
  }

  override getNextVersion(current: number | undefined): number {
    return this.inner.getNextVersion(current);
  }
}
