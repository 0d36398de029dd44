/**
 * A memory agent graph wired from the library's nodes on one `createMemory()`:
 * load_memory → summarize → agent → schedule_extraction, checkpointed by the memory's checkpointer.
 * The agent is a deterministic fake that builds its prompt with `buildContext` (as an app would)
 * and answers with a text that names the turn, so tests can count what reached the checkpoints.
 */
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";
import { Annotation, END, START, StateGraph } from "@langchain/langgraph";
import { buildContext } from "../../../src/context/build-context.js";
import { ExtractionStateSpec, createScheduleExtractionNode } from "../../../src/extraction/node/index.js";
import type { LangGraphMemory } from "../../../src/memory.js";
import { createLoadMemoryNode } from "../../../src/graph/load-memory-node.js";
import { MemoryStateSpec } from "../../../src/state/annotation.js";
import { createSummarizationNode } from "../../../src/summarization/index.js";

export const ChatState = Annotation.Root({ ...MemoryStateSpec, ...ExtractionStateSpec });
export type ChatStateType = typeof ChatState.State;

export interface ChatGraphOptions {
  /** Debounce of the extraction job (default 0: one job per turn, claimable at once). */
  debounceMs?: number;
  /** Called with every prompt the agent built (tests inspect the quoting of memories). */
  onPrompt?: (messages: BaseMessage[], state: ChatStateType) => void;
}

/** The answer the fake agent gives to a user message: "ack: <text>". */
export const answerFor = (text: string) => `ack: ${text}`;

export function buildChatGraph(memory: LangGraphMemory, options: ChatGraphOptions = {}) {
  const agent = async (state: ChatStateType, _config?: RunnableConfig) => {
    const { messages } = buildContext({
      system: "You are a helpful assistant.",
      profile: state.profile,
      rules: state.rules,
      memories: state.memories,
      summary: state.summary,
      messages: state.messages,
    });
    options.onPrompt?.(messages, state);
    const last = state.messages[state.messages.length - 1];
    return { messages: [new AIMessage({ id: `${String(last.id)}-answer`, content: answerFor(String(last.content)) })] };
  };
  return new StateGraph(ChatState)
    .addNode("load_memory", createLoadMemoryNode({ store: memory.store, profiles: memory.profiles, rules: memory.rules, settings: memory.settings }))
    .addNode("summarize", createSummarizationNode({ onError: () => undefined }))
    .addNode("agent", agent)
    .addNode("schedule_extraction", createScheduleExtractionNode({ store: memory.store, queue: memory.jobs, debounceMs: options.debounceMs ?? 0 }))
    .addEdge(START, "load_memory")
    .addEdge("load_memory", "summarize")
    .addEdge("summarize", "agent")
    .addEdge("agent", "schedule_extraction")
    .addEdge("schedule_extraction", END)
    .compile({ checkpointer: memory.checkpointer });
}

export type ChatGraph = ReturnType<typeof buildChatGraph>;

export const runConfig = (threadId: string, tenantId: string, userId: string) => ({ configurable: { thread_id: threadId, tenant_id: tenantId, user_id: userId } });
