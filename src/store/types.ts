import type { MemoryKind, MemoryScopeLevel } from "../state/types.js";

/** Who wrote a memory and how sure we are. */
export type MemoryOrigin = "user_stated" | "extracted" | "inferred";
export const MEMORY_ORIGINS: readonly MemoryOrigin[] = ["user_stated", "extracted", "inferred"];

/** Where a memory came from. */
export interface MemorySource {
  threadId?: string | null;
  messageId?: string | null;
  runId?: string | null;
  /** Default `user_stated`. */
  origin?: MemoryOrigin;
}

/** A long-term memory as stored. Dates are `Date` objects. */
export interface Memory {
  id: string;
  scope: MemoryScopeLevel;
  tenantId: string | null;
  userId: string | null;
  kind: MemoryKind;
  text: string;
  /** Indexing-only text (searched with a lower weight, never rendered). */
  context: string | null;
  source: Required<MemorySource>;
  confidence: number;
  createdAt: Date;
  updatedAt: Date;
  lastUsedAt: Date | null;
  accessCount: number;
  expiresAt: Date | null;
  supersededBy: string | null;
  /** Set by the retention sweep (or `update({ deactivated: true })`): never retrieved, still listed and exported. */
  deactivatedAt: Date | null;
  /**
   * Set by the retention sweep when the memory went unused (or `update({ archived: true })`):
   * retrieved only above `retrieval.archivedRelevanceFloor`; cleared when it is used again.
   */
  archivedAt: Date | null;
  metadata: Record<string, unknown>;
}

/** What `add` takes. */
export interface NewMemory {
  kind: MemoryKind;
  text: string;
  /** Text that helps find the memory but is not shown (e.g. the surrounding turns). */
  context?: string | null;
  source?: MemorySource;
  /** 0–1, default 1. */
  confidence?: number;
  expiresAt?: Date | string | null;
  metadata?: Record<string, unknown>;
  /** Caller-chosen id (uuid); default a random uuid. */
  id?: string;
  /** Creation time (imports, benchmarks); default now. */
  createdAt?: Date | string;
  /** A precomputed embedding of `text` (+ context); default: the store's embedder computes it. */
  embedding?: number[];
}

/** What `update` can change. Changing text or context re-embeds. */
export interface MemoryPatch {
  text?: string;
  context?: string | null;
  kind?: MemoryKind;
  confidence?: number;
  expiresAt?: Date | string | null;
  metadata?: Record<string, unknown>;
  /** Who stated it (a user's edit makes a memory `user_stated`). */
  origin?: MemoryOrigin;
  /** true deactivates (never retrieved, kept), false reactivates. */
  deactivated?: boolean;
  /** true archives (retrieved only when strongly relevant), false brings it back. */
  archived?: boolean;
}

/** A memory found by search, with the parts of its score. */
export interface ScoredMemory extends Memory {
  /** similarityWeight·similarity + recencyWeight·recency. */
  score: number;
  /** Relevance in [0, 1]: lexical (BM25) and vector similarity fused. */
  similarity: number;
  /** Cosine similarity of the embeddings (−1…1). */
  vectorSimilarity: number;
  /** Saturated BM25 of the full-text match, in [0, 1). */
  lexicalScore: number;
  /** exp(−age/decay) of last use (or creation), in (0, 1]. */
  recency: number;
}

export interface MemorySearchOptions {
  /** Top k (default `retrieval.topK`). */
  limit?: number;
  /** Only these kinds. */
  kinds?: readonly MemoryKind[];
  /** For a user scope: also search the tenant's and/or global knowledge. Never other users'. */
  include?: ReadonlyArray<"tenant" | "global">;
  /** Relevance floor override (default `retrieval.relevanceFloor`). */
  minSimilarity?: number;
  /** A precomputed query embedding (benchmarks, batch jobs). */
  queryEmbedding?: number[];
  /**
   * Standing memories: also return the `limit` most recently used (or created) memories of these
   * kinds that are not archived, whatever their relevance (they are ranked with the rest; the floor
   * does not apply to these kinds). The load node asks for the user's durable facts and preferences
   * this way (`retrieval.standingKinds`, `retrieval.standingLimit`).
   */
  standing?: { kinds: readonly MemoryKind[]; limit: number };
  /** Time used for recency (default now). */
  now?: Date;
}

export interface MemoryListOptions {
  kinds?: readonly MemoryKind[];
  /** Include superseded, expired and deactivated memories (default false). */
  includeInactive?: boolean;
  limit?: number;
  offset?: number;
}

/** A memory's nearest neighbour in the same kind and scope (for dedupe/supersede on write). */
export interface NearestMemory {
  memory: Memory;
  /** Cosine similarity of the embeddings. */
  similarity: number;
}

/** Memory as exported (JSON-friendly, ISO dates, no embedding). */
export interface ExportedMemory {
  id: string;
  scope: MemoryScopeLevel;
  tenantId: string | null;
  userId: string | null;
  kind: MemoryKind;
  text: string;
  context: string | null;
  source: Required<MemorySource>;
  confidence: number;
  createdAt: string;
  updatedAt: string;
  lastUsedAt: string | null;
  accessCount: number;
  expiresAt: string | null;
  supersededBy: string | null;
  deactivatedAt: string | null;
  archivedAt: string | null;
  metadata: Record<string, unknown>;
}
