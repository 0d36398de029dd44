import type { RunnableConfig } from "@langchain/core/runnables";
import { ErrorCodes, MemoryError, invalidInput, isMemoryError } from "../../errors.js";
import { JobQueue } from "../../jobs/job-queue.js";
import { scopeFromConfig } from "../../core/scope.js";
import { requireThreadOwner } from "../../threads/thread-owner.js";
import type { MemoryRepository } from "../../store/memory-store.js";
import { EXTRACTION_QUEUE, type ExtractionJobPayload } from "./extraction-payload.js";
import { createMemoryExtractionNode, type ExtractionNodeState, type ExtractionNodeUpdate, type MemoryExtractionNodeOptions } from "./memory-extraction-node.js";
import { runIdFromConfig, threadIdFromConfig } from "./run-config.js";
import { storableText } from "../../core/well-formed-text.js";
import { contextBefore, messageIdOf, newMessagesStart, serializeMessage } from "./serialize-messages.js";

export interface ScheduleExtractionNodeOptions extends Partial<MemoryExtractionNodeOptions> {
  /** The memory store: required with `inline`; otherwise its database hosts the queue when `queue` is not given. */
  store?: MemoryRepository;
  /** The job queue (default: a `JobQueue` on the store's database). */
  queue?: JobQueue;
  /** Run extraction in the node instead of queueing it (tests, evals, simple apps). Default false. */
  inline?: boolean;
  /** Queue name (default `memory-extraction`; the worker's handler must serve it). */
  queueName?: string;
  /**
   * How the turn is queued. `submit`: one insert into the queue's inbox, folded into the thread's
   * job by the worker's next claim (cheapest on the response path). `enqueue`: the merge into the
   * thread's pending job happens in the turn (less work in all). Default: `submit` on PGlite, where
   * the worker shares the process and the turn's latency is what counts; `enqueue` on server
   * Postgres, where the merge costs about 0.5 ms and a busy database does less work with it.
   */
  queueWrite?: "submit" | "enqueue";
  /** A job is due this long after the last turn of a burst (default 5,000 ms). */
  debounceMs?: number;
  /** …but never later than this after the burst's first turn (default max(60 s, debounce)). */
  maxWaitMs?: number;
  /** Attempts before a job fails for good (default 5). */
  maxAttempts?: number;
  /** Earlier user messages sent along as context only (default 3). */
  contextMessages?: number;
  /** Cut secrets out of the queued text (default true). */
  redact?: boolean;
  /**
   * Called instead of failing the run when queueing (or inline extraction) fails — the answer is
   * already in the state. Without it the error fails the run. Missing scope always fails.
   */
  onError?: (error: unknown) => void;
}

/**
 * The `schedule_extraction` node: after the agent answered, queue a durable extraction job for the
 * turn's new messages in one round trip (on PGlite `JobQueue.submit`, one insert whose merge into
 * the thread's pending job happens when a worker folds it; on server Postgres `JobQueue.enqueue`,
 * see `queueWrite`), and return. A worker (`langgraph-memory worker`, `runWorker`, `drain()`)
 * extracts later, so the response never waits for a model. The job is keyed by thread + last message id (a re-sent turn
 * is not queued twice) and debounced (a burst of turns makes one job). The payload carries the new
 * messages — tool results and AI messages only as untrusted context — with secrets redacted, each
 * with its run id. With `inline: true` the node extracts and stores itself instead.
 *
 * With a settings target, an opted-out user's turn is not queued at all (one more round trip).
 *
 * @example
 * const graph = new StateGraph(MemoryAnnotation)
 *   .addNode("load_memory", createLoadMemoryNode({ store }))
 *   .addNode("agent", agent)
 *   .addNode("schedule_extraction", createScheduleExtractionNode({ store }))
 *   .addEdge(START, "load_memory").addEdge("load_memory", "agent")
 *   .addEdge("agent", "schedule_extraction").addEdge("schedule_extraction", END)
 *   .compile({ checkpointer });
 */
export function createScheduleExtractionNode(options: ScheduleExtractionNodeOptions) {
  const onError = options.onError;
  if (options.inline) {
    if (!options.store) throw new MemoryError(ErrorCodes.INVALID_INPUT, "store: createScheduleExtractionNode({ inline: true }) needs the memory store");
    const inline = createMemoryExtractionNode({ ...options, store: options.store });
    return async function scheduleExtraction(state: ExtractionNodeState, config: RunnableConfig = {}): Promise<ExtractionNodeUpdate> {
      try {
        return await inline(state, config);
      } catch (err) {
        if (!onError || isMemoryError(err, ErrorCodes.SCOPE_REQUIRED)) throw err;
        onError(err);
        return {};
      }
    };
  }
  const queue = options.queue ?? (options.store ? new JobQueue(options.store.db) : undefined);
  if (!queue) throw new MemoryError(ErrorCodes.INVALID_INPUT, "createScheduleExtractionNode needs a queue (or a store whose database hosts it)");
  const queueName = options.queueName ?? EXTRACTION_QUEUE;
  const debounceMs = options.debounceMs ?? 5_000;
  const contextCount = options.contextMessages ?? 3;
  const redact = options.redact ?? true;
  const settings = options.targets?.settings;
  const queueWrite = options.queueWrite ?? (queue.db.engine === "pglite" ? "submit" : "enqueue");
  if (queueWrite !== "submit" && queueWrite !== "enqueue") throw invalidInput("queueWrite", `must be "submit" or "enqueue", got ${JSON.stringify(queueWrite)}`);

  return async function scheduleExtraction(state: ExtractionNodeState, config: RunnableConfig = {}): Promise<ExtractionNodeUpdate> {
    const scope = scopeFromConfig(config);
    const threadId = threadIdFromConfig(config);
    const messages = state.messages ?? [];
    const start = newMessagesStart(messages, state.extractedThroughMessageId);
    if (start >= messages.length) return {};
    const lastId = messageIdOf(messages[messages.length - 1]);
    // Another scope's thread is never queued (the worker would refuse the job too). After the load
    // node verified the thread in this run, this costs no round trip.
    await requireThreadOwner(queue.db, threadId, scope);
    try {
      if (settings && (await settings.isOptedOut(scope))) return { extractedThroughMessageId: lastId };
      const runId = runIdFromConfig(config);
      const payload: ExtractionJobPayload = {
        v: 1,
        threadId,
        messages: [
          ...contextBefore(messages, start, contextCount).map((m) => serializeMessage(m, { context: true, redact })),
          ...messages.slice(start).map((m) => serializeMessage(m, { runId, redact })),
        ],
      };
      const job = {
        queue: queueName,
        scope,
        groupKey: threadId,
        idempotencyKey: `${threadId}:${storableText(lastId)}`,
        payload,
        debounceMs,
        maxWaitMs: options.maxWaitMs,
        maxAttempts: options.maxAttempts,
        merge: "append" as const,
      };
      await (queueWrite === "submit" ? queue.submit(job) : queue.enqueue(job));
      return { extractedThroughMessageId: lastId };
    } catch (err) {
      if (!onError) throw err;
      onError(err);
      return {};
    }
  };
}
