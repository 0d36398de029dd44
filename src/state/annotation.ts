import { Annotation, MessagesAnnotation } from "@langchain/langgraph";
// Named here so the emitted .d.ts says @langchain/core (a required peer), not a re-export of an optional one.
import type {} from "@langchain/core/messages";
import type { ActiveRule, MemoryUsage, ProfileDocument, RetrievedMemory, SessionSummary } from "./types.js";

/** Last write wins; `undefined` (a node that did not touch the channel) keeps the old value. */
function replace<T>(left: T, right: T | undefined): T {
  return right === undefined ? left : right;
}

/**
 * The memory channels, to spread into your own state (`Annotation.Root({ ...MemoryStateSpec, … })`).
 * `messages` uses LangGraph's messages reducer (append, replace by id, RemoveMessage).
 */
export const MemoryStateSpec = {
  ...MessagesAnnotation.spec,
  /** Rolling summary of older turns (its watermark says which message it covers through). */
  summary: Annotation<SessionSummary | null>({ reducer: replace, default: () => null }),
  /** The user's profile document, loaded each turn. */
  profile: Annotation<ProfileDocument | null>({ reducer: replace, default: () => null }),
  /** Approved procedural rules for this user and task. */
  rules: Annotation<ActiveRule[]>({ reducer: replace, default: () => [] }),
  /** Long-term memories retrieved for the latest user message. */
  memories: Annotation<RetrievedMemory[]>({ reducer: replace, default: () => [] }),
  /** Summaries of the user's relevant past sessions. */
  pastSessions: Annotation<RetrievedMemory[]>({ reducer: replace, default: () => [] }),
  /** Tokens each memory section added to this turn's prompt. */
  memoryUsage: Annotation<MemoryUsage | null>({ reducer: replace, default: () => null }),
};

/**
 * Graph state with the memory channels (docs/architecture.md, "The flow through a graph").
 *
 * @example
 * const State = Annotation.Root({ ...MemoryAnnotation.spec, plan: Annotation<string>() });
 * const graph = new StateGraph(State) …
 */
export const MemoryAnnotation = Annotation.Root(MemoryStateSpec);
export type MemoryState = typeof MemoryAnnotation.State;
export type MemoryUpdate = typeof MemoryAnnotation.Update;
