import type { BaseMessage } from "@langchain/core/messages";
import { SystemMessage } from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";
import { z } from "zod";
import type { AgentMiddleware, createMiddleware as CreateMiddleware } from "langchain";
import { isMissingPackage, peerMissing } from "../models/optional-peer.js";
// Named here so the emitted .d.ts says @langchain/core (a required peer) where it can.
import type {} from "@langchain/core/tools";
import type { LangGraphMemory } from "../memory.js";
import type { ActiveRule, MemoryUsage, ProfileDocument, RetrievedMemory, SessionSummary } from "../state/types.js";
import { memoryContext, type MemoryPromptState } from "./memory-prompt.js";
import { memoryToolsFor } from "./memory-tools.js";
import { createMemoryTurnSteps, type MemoryTurnState } from "./turn-steps.js";
import type { PrebuiltMemoryOptions } from "./prebuilt-options.js";

// langchain is an optional peer: loaded with the module when installed (`memoryMiddleware` is
// synchronous, as `createAgent`'s middleware list is), and PEER_MISSING from memoryMiddleware when not.
const langchain: { createMiddleware: typeof CreateMiddleware } | null = await import("langchain").catch((err: unknown) => {
  if (isMissingPackage(err, "langchain")) return null;
  throw err;
});

/**
 * The memory channels without `messages` (the agent has its own), as the zod state a middleware
 * adds: last write wins, as in `MemoryStateSpec`. Any value is accepted here: `beforeAgent`
 * rewrites these channels every invocation and drops a summary it did not seal, so what a client
 * sends in them never reaches the model, and a malformed one does not fail the run either.
 */
export const MemoryMiddlewareState = z.object({
  summary: z.custom<SessionSummary | null>().nullable().default(null),
  profile: z.custom<ProfileDocument | null>().nullable().default(null),
  rules: z.custom<ActiveRule[]>().default([]),
  memories: z.custom<RetrievedMemory[]>().default([]),
  pastSessions: z.custom<RetrievedMemory[]>().default([]),
  memoryUsage: z.custom<MemoryUsage | null>().nullable().default(null),
  extractedThroughMessageId: z.custom<string | null>().default(null),
});

/**
 * Memory for LangChain v1's `createAgent`, as middleware: `beforeAgent` loads the memory context
 * (and rolls the summary) once per invocation, `wrapModelCall` puts the memory block and summary
 * into the system message and trims history within budgets, `afterAgent` queues extraction. It
 * registers `manage_memory` and `search_memory`. Pass the memory's checkpointer to `createAgent`.
 *
 * @example
 * const agent = createAgent({ model, tools: [], middleware: [memoryMiddleware(memory)], checkpointer: memory.checkpointer, systemPrompt: "You are a travel agent." });
 * await agent.invoke({ messages: [{ role: "user", content: "hi" }] }, { configurable: { thread_id: "t1", tenant_id: "acme", user_id: "alice" } });
 */
// The declared type names only the state schema: its other parameters differ across langchain 1.x releases.
export function memoryMiddleware(memory: LangGraphMemory, options: PrebuiltMemoryOptions = {}): AgentMiddleware<typeof MemoryMiddlewareState> {
  if (!langchain) throw peerMissing("langchain", "memoryMiddleware (LangChain's createAgent)");
  const { createMiddleware } = langchain;
  const { system, ...stepOptions } = options;
  const steps = createMemoryTurnSteps({ ...stepOptions, memory });
  const budgets = { ...memory.config.budgets, ...options.budgets };
  const configOf = (runtime: { configurable?: Record<string, unknown> }): RunnableConfig => ({ configurable: { ...(runtime.configurable ?? {}) } });
  return createMiddleware({
    name: "LangGraphMemory",
    stateSchema: MemoryMiddlewareState,
    tools: memoryToolsFor(memory),
    beforeAgent: async (state, runtime) => {
      const config = configOf(runtime);
      const s = state as unknown as MemoryTurnState;
      const loaded = await steps.load(s, config);
      const summarized = await steps.summarize(s, config);
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      return { ...loaded, ...summarized } as any;
    },
    wrapModelCall: async (request, handler) => {
      const own = [system, textOf(request.systemMessage)].filter((t): t is string => !!t && t.trim() !== "").join("\n\n");
      const state = request.state as unknown as MemoryPromptState;
      const { messages } = memoryContext({ ...state, messages: request.messages }, { system: own, budgets });
      const first = messages[0];
      if (first && first.getType() === "system") return handler({ ...request, systemMessage: new SystemMessage(textOf(first)), messages: messages.slice(1) });
      return handler({ ...request, messages });
    },
    afterAgent: async (state, runtime) => {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      return (await steps.finish(state as unknown as MemoryTurnState, configOf(runtime))) as any;
    },
  });
}


function textOf(message: BaseMessage | undefined): string {
  if (!message) return "";
  const c = message.content as unknown;
  if (typeof c === "string") return c;
  if (Array.isArray(c)) return c.map((p) => (typeof p === "string" ? p : typeof p?.text === "string" ? p.text : "")).join("");
  return "";
}
