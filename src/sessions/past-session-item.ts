import type { RetrievedMemory } from "../state/types.js";
import type { Memory } from "../store/types.js";
import { formatMemoryLine } from "../context/format-memories.js";
import { countTextTokens, type TokenEncoding } from "../tokens/count-text.js";
import { sessionInfoOf, type SessionInfo } from "./session-metadata.js";

/** A past session as it travels in graph state (`pastSessions`): a retrieved memory with its session record. */
export interface PastSession extends RetrievedMemory {
  kind: "episode";
  session: SessionInfo;
}

/** A stored session memory as a `pastSessions` item (plain JSON); null when it is not one. */
export function toPastSession(
  memory: Memory,
  scores: { score: number; similarity: number; recency: number },
  encoding: TokenEncoding = "o200k_base",
): PastSession | null {
  const session = sessionInfoOf(memory.metadata);
  if (memory.kind !== "episode" || !session) return null;
  const createdAt = memory.createdAt.toISOString();
  return {
    id: memory.id,
    kind: "episode",
    text: memory.text,
    score: scores.score,
    similarity: scores.similarity,
    recency: scores.recency,
    scope: memory.scope,
    createdAt,
    lastUsedAt: memory.lastUsedAt?.toISOString() ?? null,
    tokens: countTextTokens(formatMemoryLine({ kind: "episode", text: memory.text, createdAt }), encoding),
    metadata: memory.metadata,
    session,
  };
}

/** exp(−age / decay) of a session's last activity: an old thread revisited yesterday is recent. */
export function sessionRecency(session: SessionInfo, now: Date, decayDays: number): number {
  const age = Math.max(0, now.getTime() - Date.parse(session.lastAt)) / 86_400_000;
  return Number.isFinite(age) ? Math.exp(-age / decayDays) : 0;
}
