/**
 * The memory state as a LangGraph `StateSchema` (zod fields), beside the Annotation form in
 * annotation.ts: the same channels, the same last-write-wins reducers, the same defaults.
 */
import { z } from "zod";
import { MessagesValue, ReducedValue, StateSchema } from "@langchain/langgraph";
// Named here so the emitted .d.ts says @langchain/core (a required peer), not a re-export of an optional one.
import type {} from "@langchain/core/messages";
import type { ActiveRule, MemoryUsage, ProfileDocument, RetrievedMemory, SessionSummary } from "./types.js";

/** Last write wins; `undefined` (a node that did not touch the channel) keeps the old value. */
function replace<T>(left: T, right: T | undefined): T {
  return right === undefined ? left : right;
}

/**
 * A channel the memory steps own. Any value is accepted at the door: the load step rewrites these
 * channels every turn and the summarize step drops a summary it did not seal, so what a client
 * sends in them never reaches the prompt, and a malformed one does not fail the run.
 */
function owned<T>(fallback: () => T, description: string) {
  // zod types `default` as never undefined; these fallbacks are null or [] (never undefined).
  return new ReducedValue(z.custom<T>().default(fallback as () => never).describe(description), { reducer: replace<T> });
}

/**
 * The memory channels as StateSchema fields, to spread into your own
 * (`new StateSchema({ ...MemoryStateFields, plan: z.string().default("") })`). `messages` is
 * LangGraph's `MessagesValue` (append, replace by id, RemoveMessage).
 */
export const MemoryStateFields = {
  messages: MessagesValue,
  summary: owned<SessionSummary | null>(() => null, "Rolling summary of older turns, sealed by the memory steps."),
  profile: owned<ProfileDocument | null>(() => null, "The user's profile document, loaded each turn."),
  rules: owned<ActiveRule[]>(() => [], "Approved procedural rules for this user and task."),
  memories: owned<RetrievedMemory[]>(() => [], "Long-term memories retrieved for the latest user message."),
  pastSessions: owned<RetrievedMemory[]>(() => [], "Summaries of the user's relevant past sessions."),
  memoryUsage: owned<MemoryUsage | null>(() => null, "Tokens each memory section added to this turn's prompt."),
};

/** The extraction watermark as a StateSchema field (see `ExtractionStateSpec`). */
export const ExtractionStateFields = {
  extractedThroughMessageId: owned<string | null>(() => null, "Id of the last message queued for memory extraction."),
};

/**
 * Graph state with the memory channels and the extraction watermark, as a `StateSchema`: the zod
 * form of `MemoryGraphAnnotation`, for `new StateGraph(…)` and `withMemory(builder, …)`.
 *
 * @example
 * const State = new StateSchema({ ...MemoryStateFields, ...ExtractionStateFields, plan: z.string().default("") });
 * const graph = withMemory(new StateGraph(State).addNode("agent", agent).addEdge(START, "agent").addEdge("agent", END), { memory });
 */
export const MemoryStateSchema = new StateSchema({ ...MemoryStateFields, ...ExtractionStateFields });
export type MemoryStateSchemaState = typeof MemoryStateSchema.State;
