import { ErrorCodes, invalidInput, isMemoryError } from "../errors.js";
import type { JobQueue } from "../jobs/job-queue.js";
import type { JobHandler } from "../jobs/job-worker.js";
import type { SessionSummary } from "../state/types.js";
import type { MemoryStore } from "../store/memory-store.js";
import type { SummaryChangeContext } from "../summarization/summarization-node.js";
import { checkScope, checkThreadId, indexSession, type IndexSessionOptions, type IndexSessionResult } from "./index-session.js";

/** Queue name of deferred session indexing. */
export const SESSION_INDEX_QUEUE = "session-index";

/** Payload of a session-index job: the newest summary of a thread (a burst keeps the newest). */
export interface SessionIndexJobPayload {
  [key: string]: unknown;
  threadId: string;
  summary: SessionSummary;
  /** Messages folded by each merged summary change (`append` merge concatenates them). */
  coveredMessages: number[];
}

export interface SessionIndexerOptions extends IndexSessionOptions {
  store: MemoryStore;
  /**
   * Defer the write: enqueue a job (one round trip) instead of embedding and writing on the
   * response path; run {@link createSessionIndexJobHandler} in the worker. Worth it with a remote
   * embedder; with the offline one the inline write costs about as much as the enqueue.
   */
  queue?: JobQueue;
  /** Delay of the job, so a burst of summary changes makes one write. Default 0. */
  debounceMs?: number;
  /** Called after each inline indexing (metrics, tests). */
  onIndexed?: (result: IndexSessionResult, context: SummaryChangeContext) => void;
}

/** What `onSummaryChanged` receives. */
export type SummaryChangedHook = (summary: SessionSummary, context: SummaryChangeContext) => Promise<void>;

/**
 * The `onSummaryChanged` hook that keeps each thread's past-session memory current: every new
 * rolling summary is indexed (inline, or as a durable job with `queue`) as the user's one `episode`
 * memory for that thread. A run without `thread_id`, `tenant_id` or `user_id` throws (the node
 * reports it through `onError(err, "hook")` and keeps the summary).
 *
 * @example
 * const summarize = createSummarizationNode({
 *   budget: config.budgets,
 *   onSummaryChanged: createSessionIndexer({ store }),
 * });
 */
export function createSessionIndexer(options: SessionIndexerOptions): SummaryChangedHook {
  const { store, queue, debounceMs, onIndexed, ...indexOptions } = options;
  if (!store) throw invalidInput("store", "createSessionIndexer needs { store } (a MemoryStore)");
  return async function indexSummary(summary, context) {
    const scope = checkScope({ tenantId: context.tenantId, userId: context.userId });
    const threadId = checkThreadId(context.threadId);
    const coveredMessages = context.coveredMessageIds.length;
    if (queue) {
      const payload: SessionIndexJobPayload = { threadId, summary, coveredMessages: [coveredMessages] };
      await queue.enqueue({
        queue: SESSION_INDEX_QUEUE,
        scope,
        groupKey: `session:${threadId}`,
        idempotencyKey: `session:${threadId}:${summary.coversThroughMessageId ?? summary.updatedAt ?? ""}`,
        payload,
        debounceMs,
        merge: "append",
      });
      return;
    }
    try {
      const result = await indexSession(store, scope, { threadId, summary, coveredMessages }, indexOptions);
      onIndexed?.(result, context);
    } catch (err) {
      // An opted-out user is not an error: nothing is written for them, as everywhere.
      if (!isMemoryError(err, ErrorCodes.OPTED_OUT)) throw err;
    }
  };
}

/**
 * The worker's handler for {@link SESSION_INDEX_QUEUE} jobs.
 *
 * @example
 * await runWorker({ db, handlers: { [SESSION_INDEX_QUEUE]: createSessionIndexJobHandler({ store }) } });
 */
export function createSessionIndexJobHandler(options: IndexSessionOptions & { store: MemoryStore }): JobHandler<SessionIndexJobPayload> {
  const { store, ...indexOptions } = options;
  return async (job) => {
    const p = job.payload;
    const covered = Array.isArray(p.coveredMessages) ? p.coveredMessages.reduce((n, c) => n + (typeof c === "number" ? c : 0), 0) : 0;
    try {
      await indexSession(store, job.scope, { threadId: p.threadId, summary: p.summary, coveredMessages: covered }, indexOptions);
    } catch (err) {
      // Opted out since the job was queued: complete it without writing (retrying cannot help).
      if (!isMemoryError(err, ErrorCodes.OPTED_OUT)) throw err;
    }
  };
}
