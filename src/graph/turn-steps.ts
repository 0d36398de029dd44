import type { BaseMessage, RemoveMessage } from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";
import type { Budgets } from "../config.js";
import { ErrorCodes, invalidInput, isMemoryError } from "../errors.js";
import { createScheduleExtractionNode, type ScheduleExtractionNodeOptions } from "../extraction/node/schedule-extraction-node.js";
import type { WriteReport } from "../extraction/write/write-report.js";
import type { LangGraphMemory } from "../memory.js";
import { createLoadMemoryNode, type LoadMemoryNodeOptions, type LoadMemoryResult } from "./load-memory-node.js";
import type { MemoryLoader } from "../retrieval/memory-loader.js";
import { indexSessionNow } from "../sessions/index-session-now.js";
import type { IndexSessionResult } from "../sessions/index-session.js";
import { createPastSessionsLoader, type PastSessionsLoaderOptions } from "../sessions/past-sessions.js";
import type { SessionSummary } from "../state/types.js";
import { createSummarizationNode, type SummarizationNodeOptions } from "../summarization/summarization-node.js";
import { sealKey } from "../db/seal-keys.js";
import { sealSummary, verifySummary } from "../state/summary-seal.js";
import { requireThreadOwner } from "../threads/thread-owner.js";
import { memoryGetter, type MemoryProvider } from "./memory-source.js";
import { isOfflineAnswer } from "./offline-responder.js";
import { requireRunScope } from "./run-scope.js";
import { checkMessageNesting } from "./message-nesting.js";
import { NoWorkerWarning } from "../jobs/no-worker-warning.js";
import { writeTargetsOf } from "./write-targets.js";

/** What happened after a turn (for transcripts, metrics and tests). Counts and ids only, except the summary. */
export type MemoryTurnEvent =
  | { type: "extraction_queued"; threadId: string }
  | { type: "extracted"; threadId: string; report: WriteReport }
  | { type: "summary_changed"; threadId: string | null; summary: SessionSummary; coveredMessages: number }
  | { type: "session_indexed"; threadId: string; result: IndexSessionResult; via: "summary" | "short_session" };

/** The memory side of a memory-enabled agent: what to load, summarise and extract. */
export interface MemoryStepsOptions {
  /** The memory (`await createMemory()`), or a function opening it on first use (graph modules). */
  memory: MemoryProvider;
  /**
   * How extraction runs after the answer: `"queue"` (default) queues a durable job for a worker
   * (`langgraph-memory worker`, `runWorker`, or `memoryWorker(memory)`) — nothing on the response
   * path; `"inline"` extracts in the run (tests, evals, simple apps); `false`: no extraction.
   */
  extraction?: "queue" | "inline" | false;
  /** Debounce of queued extraction (default 5,000 ms: a burst of turns makes one job). */
  debounceMs?: number;
  /** Section budgets (default `memory.config.budgets`). */
  budgets?: Partial<Budgets>;
  /** Options of the load node (search, taskType, markUsed, extra `loaders`, …). */
  load?: Omit<LoadMemoryNodeOptions, "store" | "budgets">;
  /** Past sessions ("Relevant past interactions") in the prompt (default true). */
  pastSessions?: boolean | Omit<PastSessionsLoaderOptions, "store" | "budgets">;
  /** Options of the rolling summary (default: `memory.model`, else offline); `false` turns it off. */
  summarization?: Omit<SummarizationNodeOptions, "budget" | "onSummaryChanged"> | false;
  /**
   * Index a thread that has no rolling summary yet as a past session after each turn, once it has
   * `minTurns` user turns (default 2) — so short conversations are remembered too. Threads with a
   * rolling summary are indexed after every turn. `false`: only threads with a rolling summary.
   * Either way the session is folded, with the offline summariser, from the user's and the
   * assistant's words only (never from tool results or the rolling summary).
   */
  shortSessions?: { minTurns?: number } | false;
  /** More options of the schedule node (maxWaitMs, maxAttempts, contextMessages, redact, queueName). */
  schedule?: Pick<ScheduleExtractionNodeOptions, "maxWaitMs" | "maxAttempts" | "contextMessages" | "redact" | "queueName">;
  /**
   * With queued extraction: warn once (through `onError`, stage "queue", a NO_WORKER error) when the
   * user's queued work has waited `marginMs` (default 15 s) past its due time and no worker polls
   * its queue — checked after a turn is queued, in the background, at most every `checkEveryMs`
   * (default 10 s). `false` turns it off.
   */
  workerWarning?: { marginMs?: number; checkEveryMs?: number } | false;
  /** What happened after each turn (extraction queued or done, summary changes, sessions indexed). */
  onEvent?: (event: MemoryTurnEvent) => void;
  /**
   * Errors recovered from (queueing, inline extraction, session indexing, summariser fallback) and
   * the no-worker warning (stage "queue"): the answer is kept. Default: `console.warn`. Missing
   * scope always fails the run.
   */
  onError?: (error: unknown, stage: "extraction" | "session" | "summarizer" | "hook" | "queue") => void;
}

/** The channels the memory steps read. */
export interface MemoryTurnState {
  messages: BaseMessage[];
  summary?: SessionSummary | null;
  extractedThroughMessageId?: string | null;
  /** The channels the load step writes: read only to tell whether they still hold what it wrote. */
  profile?: unknown;
  rules?: unknown;
  memories?: unknown;
  pastSessions?: unknown;
  memoryUsage?: unknown;
}

/**
 * What the load step returns: every memory channel it owns, each turn — what the load node found,
 * and empty for sections that are off — so no value a client put into these channels (a graph's
 * input, the LangGraph API's update-state) survives to the prompt.
 */
export type MemoryLoadUpdate = LoadMemoryResult & Required<Pick<LoadMemoryResult, "profile" | "rules" | "pastSessions">>;

/** What the summarize step returns: a new (sealed) summary, or null when the state held one the memory steps did not write. */
export interface MemorySummaryUpdate {
  summary?: SessionSummary | null;
  messages?: RemoveMessage[];
}

/** The three steps around an agent, as graph nodes (what `withMemory`, `reactAgentMemory` and `memoryMiddleware` run). */
export interface MemoryTurnSteps {
  /**
   * Check the scope, the thread's owner and that the messages can be checkpointed, then profile, rules, memories and past sessions for
   * the latest user message; the memory channels are overwritten every turn.
   */
  load(state: MemoryTurnState, config: RunnableConfig): Promise<MemoryLoadUpdate>;
  /**
   * The rolling summary when history passes its trigger (indexed as the thread's past session),
   * sealed for the thread; a summary in the state without a valid seal (planted, malformed,
   * another thread's) is dropped first.
   */
  summarize(state: MemoryTurnState, config: RunnableConfig): Promise<MemorySummaryUpdate>;
  /**
   * For a later model call of the same turn (after tool calls), where load and summarize already
   * ran: nothing when the memory channels still hold the very values this process's load step
   * returned (a client cannot forge object identity), else a fresh load; and the summary dropped
   * when its seal is not valid. No summarisation.
   */
  recheck(state: MemoryTurnState, config: RunnableConfig): Promise<Partial<MemoryLoadUpdate> & MemorySummaryUpdate>;
  /** After the answer: queue (or run) extraction, and index a short session. */
  finish(state: MemoryTurnState, config: RunnableConfig, options?: { watermark?: boolean }): Promise<{ extractedThroughMessageId?: string }>;
  /** The memory, opened on first use. */
  memory(): Promise<LangGraphMemory>;
}

interface Built {
  memory: LangGraphMemory;
  /** Key of the summary seals (the memory database's). */
  sealKey: Uint8Array;
  load: ReturnType<typeof createLoadMemoryNode>;
  summarize: ReturnType<typeof createSummarizationNode> | null;
  schedule: ReturnType<typeof createScheduleExtractionNode> | null;
  workerWatch: NoWorkerWarning | null;
}

/**
 * The memory steps of a turn — load, summarise, finish — built once the memory is open. Use
 * `withMemory` for a graph; this is the lower-level piece for prebuilt agents and custom wiring.
 *
 * @example
 * const steps = createMemoryTurnSteps({ memory });
 * const update = await steps.load(state, config);
 */
export function createMemoryTurnSteps(options: MemoryStepsOptions): MemoryTurnSteps {
  const getMemory = memoryGetter(options.memory);
  const onError =
    options.onError ??
    ((err: unknown, stage: string) =>
      console.warn(isMemoryError(err, ErrorCodes.NO_WORKER) ? `[langgraph-memory] WARNING: ${err.message}` : `[langgraph-memory] ${stage} error (the answer is kept): ${(err as Error)?.message ?? err}`));
  const extraction = options.extraction ?? "queue";
  if (extraction !== "queue" && extraction !== "inline" && extraction !== false) throw invalidInput("extraction", `must be "queue", "inline" or false, got ${JSON.stringify(extraction)}`);
  const shortSessions = options.shortSessions === false ? null : { minTurns: options.shortSessions?.minTurns ?? 2 };
  if (shortSessions && !(Number.isInteger(shortSessions.minTurns) && shortSessions.minTurns >= 1)) throw invalidInput("shortSessions.minTurns", "must be a positive integer");
  const emit = options.onEvent ?? (() => undefined);

  // The updates the load step returned, by their memoryUsage object (see `recheck`).
  const loadedBy = new WeakMap<object, MemoryLoadUpdate>();
  const stillLoaded = (state: MemoryTurnState): boolean => {
    const u = state.memoryUsage !== null && typeof state.memoryUsage === "object" ? loadedBy.get(state.memoryUsage) : undefined;
    return !!u && u.memories === state.memories && u.profile === state.profile && u.rules === state.rules && u.pastSessions === state.pastSessions;
  };
  let built: Promise<Built> | undefined;
  const steps = (): Promise<Built> => {
    built ??= getMemory()
      .then(async (memory) => buildSteps(memory, await sealKey(memory.db, "summary"), options, extraction, emit, onError))
      .catch((err) => {
        built = undefined;
        throw err;
      });
    return built;
  };

  const load = async (state: MemoryTurnState, config: RunnableConfig): Promise<MemoryLoadUpdate> => {
    requireRunScope(config);
    checkMessageNesting(state.messages ?? []);
    const loaded = await (await steps()).load(state, config);
    const update = { profile: null, rules: [], pastSessions: [], ...loaded } as MemoryLoadUpdate;
    loadedBy.set(update.memoryUsage, update);
    return update;
  };

  return {
    memory: getMemory,
    load,
    async recheck(state, config) {
      const scope = requireRunScope(config);
      const { sealKey: key } = await steps();
      const loaded = stillLoaded(state) ? {} : await load(state, config);
      const dropped = state.summary !== undefined && state.summary !== null && verifySummary(state.summary, key, scope) === null;
      return dropped ? { ...loaded, summary: null } : loaded;
    },
    async summarize(state, config) {
      const scope = requireRunScope(config);
      const { memory, summarize, sealKey: key } = await steps();
      // The load step verified the thread in this run (no round trip then); alone, this checks it.
      await requireThreadOwner(memory.db, scope.threadId, scope);
      const current = verifySummary(state.summary, key, scope);
      const dropped = state.summary !== undefined && state.summary !== null && current === null;
      if (!summarize) return dropped ? { summary: null } : {};
      const update = await summarize({ ...state, summary: current, messages: conversationOf(state.messages) }, config);
      if (update.summary) return { ...update, summary: sealSummary(update.summary, key, scope) };
      return dropped ? { ...update, summary: null } : update;
    },
    async finish(state, config, finishOptions = {}) {
      const scope = requireRunScope(config);
      const { memory, schedule, workerWatch } = await steps();
      await requireThreadOwner(memory.db, scope.threadId, scope);
      let update: { extractedThroughMessageId?: string } = {};
      if (schedule) {
        update = await schedule(state, config);
        if (extraction === "queue" && update.extractedThroughMessageId) {
          emit({ type: "extraction_queued", threadId: scope.threadId });
          // In the background, at most every few seconds: is anyone working the queue?
          workerWatch?.noteTurn({ tenantId: scope.tenantId, userId: scope.userId });
        }
      }
      // The thread's past session folds in this turn's words (the user's and the assistant's only:
      // never the rolling summary, which quotes tool results). A thread with a rolling summary is
      // always indexed; a short one once it has `minTurns` user turns.
      if (state.summary || (shortSessions && humanTurns(state.messages) >= shortSessions.minTurns)) {
        try {
          const result = await indexSessionNow({ store: memory.store, messages: conversationOf(state.messages), config });
          emit({ type: "session_indexed", threadId: scope.threadId, result, via: state.summary ? "summary" : "short_session" });
        } catch (err) {
          if (!isMemoryError(err, ErrorCodes.OPTED_OUT)) onError(err, "session");
        }
      }
      // A state without the watermark channel gets no watermark update.
      return finishOptions.watermark === false ? {} : update;
    },
  };
}

function buildSteps(
  memory: LangGraphMemory,
  key: Uint8Array,
  options: MemoryStepsOptions,
  extraction: "queue" | "inline" | false,
  emit: (e: MemoryTurnEvent) => void,
  onError: NonNullable<MemoryStepsOptions["onError"]>,
): Built {
  const budgets = { ...memory.config.budgets, ...options.budgets };
  const store = memory.store;
  const loaders: MemoryLoader[] = [...(options.load?.loaders ?? [])];
  if (options.pastSessions !== false) {
    loaders.unshift(createPastSessionsLoader({ ...(typeof options.pastSessions === "object" ? options.pastSessions : {}), store, budgets }));
  }
  const load = createLoadMemoryNode({ profiles: memory.profiles, rules: memory.rules, settings: memory.settings, reader: memory.contextReader, ...options.load, store, budgets, loaders });
  const summarize =
    options.summarization === false
      ? null
      : createSummarizationNode({
          model: memory.model,
          now: () => memory.store.clock.now(),
          onError: (err, stage) => onError(err, stage),
          ...options.summarization,
          budget: budgets,
          onSummaryChanged: async (summary, context) => {
            emit({ type: "summary_changed", threadId: context.threadId, summary, coveredMessages: context.coveredMessageIds.length });
          },
        });
  const schedule =
    extraction === false
      ? null
      : createScheduleExtractionNode({
          ...options.schedule,
          store,
          queue: memory.jobs,
          model: memory.model,
          targets: writeTargetsOf(memory),
          policy: memory.config.writePolicy,
          inline: extraction === "inline",
          debounceMs: options.debounceMs,
          onReport: (report, ctx) => emit({ type: "extracted", threadId: ctx.threadId, report }),
          onError: (err) => onError(err, "extraction"),
        });
  const workerWatch =
    extraction === "queue" && options.workerWarning !== false
      ? new NoWorkerWarning(memory.db, { ...(options.workerWarning || {}), warn: (warning) => onError(warning, "queue") })
      : null;
  return { memory, sealKey: key, load, summarize, schedule, workerWatch };
}

/**
 * What summaries and session indexing read: the conversation without the offline responder's
 * answers, which only restate the memory context (summarising them would feed memory back into
 * memory). The summary's watermark is still a message of the thread, so prompts stay correct.
 */
function conversationOf(messages: readonly BaseMessage[]): BaseMessage[] {
  return (messages ?? []).filter((m) => !isOfflineAnswer(m));
}

function humanTurns(messages: readonly BaseMessage[]): number {
  let n = 0;
  for (const m of messages ?? []) if (m.getType() === "human") n++;
  return n;
}
