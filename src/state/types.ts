/**
 * The shapes that travel through graph state. Plain JSON (ISO date strings, no class
 * instances) so any checkpointer — ours, LangGraph Platform's, MemorySaver — stores them as is.
 */

/** Kinds of long-term memory. */
export const MEMORY_KINDS = ["preference", "fact", "entity", "episode", "procedure", "knowledge"] as const;
export type MemoryKind = (typeof MEMORY_KINDS)[number];

/** Whose memory: one user (default), a whole tenant (shared knowledge), or everyone. */
export type MemoryScopeLevel = "user" | "tenant" | "global";

/** A memory retrieved for the current turn, as injected into the prompt. */
export interface RetrievedMemory {
  id: string;
  kind: MemoryKind;
  text: string;
  /** Final score: similarityWeight·similarity + recencyWeight·recency. */
  score: number;
  similarity: number;
  recency: number;
  scope: MemoryScopeLevel;
  /** ISO timestamps. */
  createdAt: string;
  lastUsedAt?: string | null;
  /** Tokens of the rendered line. */
  tokens?: number;
  /** Free-form metadata stored with the memory (e.g. `{ session: { threadId } }`). */
  metadata?: Record<string, unknown>;
}

/**
 * Structured key entities kept beside the prose summary so re-summarising never loses them. The
 * lists added later are optional, so summaries written before them still read.
 */
export interface SummaryEntities {
  people: string[];
  places: string[];
  numbers: string[];
  dates: string[];
  decisions: string[];
  openTasks: string[];
  /** Ids and references: booking codes, order and ticket numbers. */
  references?: string[];
  /** Promises someone made ("I'll send the scan by Friday"). */
  commitments?: string[];
  /** Open tasks the conversation completed or cancelled, kept marked closed. */
  closedTasks?: string[];
}

/**
 * When each key fact was last mentioned: `lastMentioned["people:priya raman"]` is the summary
 * generation (1 for the first summary, 2 for the next, …) whose messages last mentioned it. The
 * entity field evicts the least recently mentioned first when over its budget.
 */
export interface FactRecency {
  generation: number;
  lastMentioned: Record<string, number>;
}

/** The rolling summary of a thread's older turns. */
export interface SessionSummary {
  text: string;
  entities: SummaryEntities;
  /** Id of the last message the summary covers: the watermark that stops double application. */
  coversThroughMessageId: string | null;
  tokens: number;
  /** ISO time of the last update. */
  updatedAt?: string;
  /** When each key fact was last mentioned (absent on summaries written before it existed). */
  factRecency?: FactRecency;
  /**
   * Set by the memory steps (`withMemory`, the prebuilt adapters): binds the summary to its tenant,
   * user and thread, so a summary the plugin did not write is dropped (see `summary-seal.ts`).
   */
  seal?: string;
}

/** A user's profile document (validated by the app's profile schema). */
export type ProfileDocument = Record<string, unknown>;

/** An approved procedural rule, as rendered into "Behavioral rules". */
export interface ActiveRule {
  id: string;
  text: string;
  priority: number;
  scope: "global" | "tenant" | "user" | "task";
  taskType?: string | null;
}

/** Tokens each memory section added to this turn's prompt. */
export interface MemoryUsage {
  profile: number;
  rules: number;
  memories: number;
  summary: number;
  pastSessions: number;
  total: number;
}

export function emptyEntities(): Required<SummaryEntities> {
  return { people: [], places: [], numbers: [], references: [], dates: [], decisions: [], commitments: [], openTasks: [], closedTasks: [] };
}
