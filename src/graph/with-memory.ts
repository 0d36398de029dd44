import type { BaseMessage } from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";
import { Annotation, END, START, StateGraph, type LangGraphRunnableConfig } from "@langchain/langgraph";
import { ToolNode } from "@langchain/langgraph/prebuilt";
import { invalidInput } from "../errors.js";
import { ExtractionStateSpec } from "../extraction/node/extraction-state.js";
import { MemoryStateSpec } from "../state/annotation.js";
import { createMemoryTurnSteps, type MemoryStepsOptions, type MemoryTurnState } from "./turn-steps.js";
import { MemoryGraphInputSchema, MemoryGraphOutputSchema, MemoryRunConfigSchema } from "./graph-schemas.js";

/** The node names `withMemory` adds (`agent` and `tools` only when it adds those for you). */
export const MEMORY_NODES = {
  load: "load_memory",
  summarize: "summarize",
  agent: "agent",
  tools: "tools",
  schedule: "schedule_extraction",
} as const;

/**
 * The state of a graph built by `withMemory({ … })`: the memory channels and the extraction
 * watermark. For extra channels, spread `MemoryStateSpec` (and `ExtractionStateSpec`) into your
 * own state and use the builder form.
 */
export const MemoryGraphAnnotation = Annotation.Root({ ...MemoryStateSpec, ...ExtractionStateSpec });
export type MemoryGraphState = typeof MemoryGraphAnnotation.State;
export type MemoryGraphUpdate = typeof MemoryGraphAnnotation.Update;

/** Your agent: reads the state (build the prompt with `memoryPrompt(state)`) and returns its answer. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type MemoryAgentNode<S = any, U = any> = (state: S, config: LangGraphRunnableConfig) => Promise<Partial<U>> | Partial<U>;

/** Tools of the agent ↔ tools loop: a list, a `ToolNode`, or the name of a tools node already in the builder. */
export type MemoryAgentTools = ConstructorParameters<typeof ToolNode>[0] | ToolNode | string;

export interface WithMemoryOptions extends MemoryStepsOptions {
  /** Your agent node (added as `agent`), or the name of a node already in the builder. */
  agent: MemoryAgentNode | string;
  /**
   * Tools the agent calls: the graph loops agent ↔ tools while the agent's last message has tool
   * calls and leaves through `schedule_extraction` once it answers. A list is run by a `ToolNode`
   * added as `tools`.
   */
  tools?: MemoryAgentTools;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyStateGraph = StateGraph<any, any, any, any, any, any, any, any, any, any>;

const MEMORY_CHANNELS = ["messages", "summary", "profile", "rules", "memories", "pastSessions", "memoryUsage"] as const;

/**
 * Add memory to a LangGraph agent: `load_memory → summarize → agent (↔ tools) →
 * schedule_extraction`. The load node fills the profile, approved rules, relevant memories and past
 * sessions; the summary node keeps a rolling summary (indexed as the thread's past session); your
 * agent builds its prompt with `memoryPrompt(state)`; the last node queues extraction off the
 * response path (and indexes short sessions). Scope comes from `config.configurable`
 * (`tenant_id`, `user_id`, `thread_id`): a run without them fails with SCOPE_REQUIRED before
 * anything is read.
 *
 * Two forms: `withMemory({ memory, agent, tools })` builds a new graph on `MemoryGraphAnnotation`
 * whose input is `messages` only and whose configuration schema (`tenant_id`, `user_id`,
 * `task_type`) the LangGraph API shows in Studio; `withMemory(builder, { memory, agent: "agent" })`
 * wires an existing `StateGraph` whose state spreads `MemoryStateSpec` (your agent node, and tools
 * node if any, must have no edges yet). Either way the memory channels are the memory steps' own:
 * the load step overwrites them every turn and a summary the steps did not seal is dropped, so a
 * value a client puts there never reaches the prompt. Compile as usual, with the memory's
 * checkpointer or any other; a thread belongs to the tenant and user that started it.
 *
 * @example
 * const memory = await createMemory();
 * const graph = withMemory({
 *   memory,
 *   agent: async (state) => ({ messages: [await model.invoke(memoryPrompt(state, { system: "You are a travel agent." }))] }),
 * }).compile({ checkpointer: memory.checkpointer });
 * await graph.invoke({ messages: [new HumanMessage("Book me a hotel in Porto")] },
 *   { configurable: { thread_id: "t1", tenant_id: "acme", user_id: "alice" } });
 */
export function withMemory(options: WithMemoryOptions): StateGraph<typeof MemoryGraphAnnotation.spec, MemoryGraphState, MemoryGraphUpdate, string>;
export function withMemory<G extends AnyStateGraph>(builder: G, options: WithMemoryOptions): G;
export function withMemory(builderOrOptions: AnyStateGraph | WithMemoryOptions, maybeOptions?: WithMemoryOptions): AnyStateGraph {
  const isBuilder = builderOrOptions instanceof StateGraph;
  const options = (isBuilder ? maybeOptions : builderOrOptions) as WithMemoryOptions | undefined;
  if (!options || typeof options !== "object") throw invalidInput("options", "withMemory(builder, { memory, agent }) or withMemory({ memory, agent })");
  // A new graph takes messages only: the memory channels are not part of its input (see graph-schemas.ts).
  const builder: AnyStateGraph = isBuilder
    ? (builderOrOptions as AnyStateGraph)
    : (new StateGraph(MemoryGraphAnnotation, { input: MemoryGraphInputSchema, output: MemoryGraphOutputSchema, context: MemoryRunConfigSchema }) as unknown as AnyStateGraph);
  for (const channel of MEMORY_CHANNELS) {
    if (!(channel in builder.channels)) throw invalidInput("builder", `the graph's state has no "${channel}" channel: spread MemoryStateSpec into it (Annotation.Root({ ...MemoryStateSpec, … }))`);
  }

  const agentName = typeof options.agent === "string" ? options.agent : MEMORY_NODES.agent;
  if (typeof options.agent === "string") {
    if (!(options.agent in builder.nodes)) throw invalidInput("agent", `no node named "${options.agent}" in the builder; add it first or pass the node function`);
  } else if (typeof options.agent !== "function") {
    throw invalidInput("agent", "pass your agent node (a function of state and config) or the name of a node in the builder");
  }
  let toolsName: string | null = null;
  if (typeof options.tools === "string") {
    if (!(options.tools in builder.nodes)) throw invalidInput("tools", `no node named "${options.tools}" in the builder`);
    toolsName = options.tools;
  } else if (options.tools !== undefined) {
    if (!(options.tools instanceof ToolNode) && !Array.isArray(options.tools)) throw invalidInput("tools", "a list of tools, a ToolNode, or the name of a node in the builder");
    toolsName = MEMORY_NODES.tools;
  }
  const steps = createMemoryTurnSteps(options);
  const watermark = "extractedThroughMessageId" in builder.channels;

  builder.addNode(MEMORY_NODES.load, steps.load);
  builder.addNode(MEMORY_NODES.summarize, steps.summarize);
  if (typeof options.agent === "function") builder.addNode(agentName, options.agent);
  if (toolsName && typeof options.tools !== "string") builder.addNode(toolsName, options.tools instanceof ToolNode ? options.tools : new ToolNode(options.tools as ConstructorParameters<typeof ToolNode>[0]));
  builder.addNode(MEMORY_NODES.schedule, (state: MemoryTurnState, config: RunnableConfig) => steps.finish(state, config, { watermark }));

  builder.addEdge(START, MEMORY_NODES.load);
  builder.addEdge(MEMORY_NODES.load, MEMORY_NODES.summarize);
  builder.addEdge(MEMORY_NODES.summarize, agentName);
  if (toolsName) {
    const tools = toolsName;
    builder.addConditionalEdges(agentName, (state: { messages: BaseMessage[] }) => (hasToolCalls(state.messages) ? tools : MEMORY_NODES.schedule), [tools, MEMORY_NODES.schedule]);
    builder.addEdge(tools, agentName);
  } else {
    builder.addEdge(agentName, MEMORY_NODES.schedule);
  }
  builder.addEdge(MEMORY_NODES.schedule, END);
  return builder;
}

/** The last message is an AI message asking for tools. */
export function hasToolCalls(messages: readonly BaseMessage[]): boolean {
  const last = messages[messages.length - 1] as (BaseMessage & { tool_calls?: unknown[] }) | undefined;
  return !!last && last.getType() === "ai" && Array.isArray(last.tool_calls) && last.tool_calls.length > 0;
}
