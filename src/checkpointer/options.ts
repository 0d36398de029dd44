import type { SerializerProtocol } from "@langchain/langgraph-checkpoint";

/** Retention: both policies are off unless configured. */
export interface RetentionOptions {
  /**
   * Keep the last N checkpoints per thread and namespace (plus the ancestors a LangGraph
   * `DeltaChannel` still needs). Applied every `pruneEvery` puts to a thread, and by
   * `pruneThread()`.
   */
  keepLast?: number;
  /** Puts to a thread between two automatic prunes (default 10). */
  pruneEvery?: number;
  /** Threads with no put for this long are deleted by `sweepIdleThreads()`. */
  idleTtlMs?: number;
  /** Run `sweepIdleThreads()` on this interval (needs `idleTtlMs`; stopped by `close()`). */
  sweepEveryMs?: number;
}

export interface PostgresCheckpointerOptions {
  /** Serializer for channel values and writes (default: LangGraph's JsonPlusSerializer). */
  serde?: SerializerProtocol;
  /** The channel whose messages are counted on the thread row (default "messages"). */
  messagesChannel?: string;
  retention?: RetentionOptions;
  /**
   * Reads skip fetching and decoding items this process already holds (default true): a repeated
   * read of a long conversation costs what changed. The returned message objects are then shared
   * between reads; LangGraph treats them as immutable, and so should callers.
   */
  readCache?: boolean;
  /** Items kept in the in-process cache across all threads (default 50 000). */
  cacheMaxItems?: number;
  /** A stored array value with more ranges than this is written afresh (default 32). */
  maxItemRanges?: number;
  /** Called with errors of background work (the idle-thread sweeper); default: console.warn. */
  onBackgroundError?: (err: unknown) => void;
}

export const DEFAULTS = {
  messagesChannel: "messages",
  pruneEvery: 10,
  cacheMaxItems: 50_000,
  maxItemRanges: 32,
} as const;
