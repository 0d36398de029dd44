/**
 * What a past-session memory records about its thread, under `metadata.session`. Plain JSON (ISO
 * dates) so it travels in graph state with the retrieved item.
 */

/** The key of the session record inside a memory's `metadata`. */
export const SESSION_METADATA_KEY = "session";

export interface SessionInfo {
  threadId: string;
  /** When the session was first indexed (its first summary), or the start the caller gave. ISO. */
  firstAt: string;
  /** The newest activity indexed: the summary's `updatedAt`, or the end the caller gave. ISO. */
  lastAt: string;
  /** User turns, when the messages were seen (`indexSessionNow`); null when only summaries were. */
  turns: number | null;
  /** Messages the indexed summary covers (accumulated from each summary change). */
  messages: number;
  /** Summary versions indexed into this one memory. */
  versions: number;
  /** Watermark of the indexed summary: the same summary is never indexed twice. */
  coversThroughMessageId: string | null;
  /** `updatedAt` of the indexed summary: an older summary never overwrites a newer one. */
  summaryUpdatedAt: string | null;
  /** Sensitive categories redacted from the summary before storing (never the values). */
  redacted: string[];
}

/** The session record of a memory's metadata, or null when it is not a past-session memory. */
export function sessionInfoOf(metadata: Record<string, unknown> | null | undefined): SessionInfo | null {
  const value = metadata?.[SESSION_METADATA_KEY];
  if (!value || typeof value !== "object" || Array.isArray(value)) return null;
  const s = value as Partial<SessionInfo>;
  if (typeof s.threadId !== "string" || typeof s.lastAt !== "string") return null;
  return {
    threadId: s.threadId,
    firstAt: typeof s.firstAt === "string" ? s.firstAt : s.lastAt,
    lastAt: s.lastAt,
    turns: typeof s.turns === "number" ? s.turns : null,
    messages: typeof s.messages === "number" ? s.messages : 0,
    versions: typeof s.versions === "number" ? s.versions : 0,
    coversThroughMessageId: typeof s.coversThroughMessageId === "string" ? s.coversThroughMessageId : null,
    summaryUpdatedAt: typeof s.summaryUpdatedAt === "string" ? s.summaryUpdatedAt : null,
    redacted: Array.isArray(s.redacted) ? s.redacted.filter((c): c is string => typeof c === "string") : [],
  };
}

/**
 * True for a past-session memory (an `episode` carrying `metadata.session`). The load-memory node
 * keeps these out of `memories`: they have their own section, `pastSessions`.
 */
export function isSessionMemory(memory: { kind: string; metadata?: Record<string, unknown> | null }): boolean {
  return memory.kind === "episode" && sessionInfoOf(memory.metadata) !== null;
}
