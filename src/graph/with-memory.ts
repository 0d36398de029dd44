import type { BaseMessage } from "@langchain/core/messages";
import { RunnableLambda, type Runnable, type RunnableConfig } from "@langchain/core/runnables";
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
 * Add memory to a LangGraph agent: `load_memory → summarize → (your graph) → schedule_extraction`.
 * The load node fills the profile, approved rules, relevant memories and past sessions; the
 * summary node keeps a rolling summary (indexed as the thread's past session); your agent builds
 * its prompt with `memoryPrompt(state)`; the last node queues extraction off the response path
 * (and indexes short sessions). Scope comes from `config.configurable` (`tenant_id`, `user_id`,
 * `thread_id`): a run without them fails with SCOPE_REQUIRED before anything is read.
 *
 * Two forms:
 * - `withMemory({ memory, agent, tools })` builds a new graph on `MemoryGraphAnnotation` whose
 *   input is `messages` only and whose configuration schema (`tenant_id`, `user_id`, `task_type`)
 *   the LangGraph API shows in Studio.
 * - `withMemory(builder, { memory })` puts memory around a `StateGraph` you built (Annotation,
 *   zod or `StateSchema` state that holds the memory channels: `MemoryStateSpec`,
 *   `MemoryStateFields`). Your topology stays: the edges (and conditions) leaving START now leave
 *   `summarize`, and every edge or condition that went to END goes to `schedule_extraction`,
 *   which goes to END. An unwired builder works too: name its agent node (`agent: "agent"`, and
 *   `tools: "tools"`) and the agent ↔ tools loop is wired for you.
 *
 * Either way the memory channels are the memory steps' own: the load step overwrites them every
 * turn and a summary the steps did not seal is dropped, so a value a client puts there never
 * reaches the prompt. Compile as usual, with the memory's checkpointer or any other; a thread
 * belongs to the tenant and user that started it. A node that ends the run with
 * `Command({ goto: END })` skips `schedule_extraction`: route to END with an edge or a condition.
 *
 * @example
 * const memory = await createMemory();
 * const graph = withMemory({
 *   memory,
 *   agent: async (state) => ({ messages: [await model.invoke(memoryPrompt(state, { system: "You are a travel agent." }))] }),
 * }).compile({ checkpointer: memory.checkpointer });
 * await graph.invoke({ messages: [new HumanMessage("Book me a hotel in Porto")] },
 *   { configurable: { thread_id: "t1", tenant_id: "acme", user_id: "alice" } });
 *
 * @example
 * // Your wired ReAct loop, memory around it:
 * const builder = new StateGraph(Annotation.Root({ ...MemoryStateSpec, ...ExtractionStateSpec }))
 *   .addNode("agent", agent).addNode("tools", new ToolNode(tools))
 *   .addEdge(START, "agent").addConditionalEdges("agent", toolsCondition).addEdge("tools", "agent");
 * const graph = withMemory(builder, { memory }).compile({ checkpointer: memory.checkpointer });
 */
export function withMemory(options: WithMemoryOptions): StateGraph<typeof MemoryGraphAnnotation.spec, MemoryGraphState, MemoryGraphUpdate, string>;
export function withMemory<G extends AnyStateGraph>(builder: G, options: WithMemoryBuilderOptions): G;
export function withMemory(builderOrOptions: AnyStateGraph | WithMemoryOptions, maybeOptions?: WithMemoryBuilderOptions): AnyStateGraph {
  const isBuilder = isStateGraphBuilder(builderOrOptions);
  if (!isBuilder) rejectOtherGraphs(builderOrOptions);
  const options = (isBuilder ? maybeOptions : builderOrOptions) as WithMemoryBuilderOptions | undefined;
  if (!options || typeof options !== "object") throw invalidInput("options", "withMemory(builder, { memory }) or withMemory({ memory, agent })");
  if (!isBuilder && options.agent === undefined) throw invalidInput("agent", "withMemory({ memory, agent }) needs your agent node (a function of state and config)");
  // A new graph takes messages only: the memory channels are not part of its input (see graph-schemas.ts).
  const builder: AnyStateGraph = isBuilder
    ? (builderOrOptions as AnyStateGraph)
    : (new StateGraph(MemoryGraphAnnotation, { input: MemoryGraphInputSchema, output: MemoryGraphOutputSchema, context: MemoryRunConfigSchema }) as unknown as AnyStateGraph);
  for (const channel of MEMORY_CHANNELS) {
    if (!(channel in builder.channels)) {
      throw invalidInput(
        "builder",
        `the graph's state has no "${channel}" channel: spread the memory channels into it (Annotation.Root({ ...MemoryStateSpec, … }) or new StateSchema({ ...MemoryStateFields, … }))`,
      );
    }
  }
  for (const name of Object.values(MEMORY_NODES)) {
    if (name !== MEMORY_NODES.agent && name !== MEMORY_NODES.tools && name in builder.nodes) throw invalidInput("builder", `the graph already has a node named "${name}": withMemory adds it (add memory once, or rename your node)`);
  }

  const agentName = options.agent === undefined ? null : typeof options.agent === "string" ? options.agent : MEMORY_NODES.agent;
  if (typeof options.agent === "string") {
    if (!(options.agent in builder.nodes)) throw invalidInput("agent", `no node named "${options.agent}" in the builder; add it first or pass the node function`);
  } else if (options.agent !== undefined && typeof options.agent !== "function") {
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
  if (toolsName && !agentName) throw invalidInput("tools", "tools loop with an agent: pass agent too (or wire the loop yourself and pass neither)");
  const steps = createMemoryTurnSteps(options);
  const watermark = "extractedThroughMessageId" in builder.channels;

  // The user's way out of the graph now passes schedule_extraction (before our own edges exist).
  const exits = routeEndThrough(builder, MEMORY_NODES.schedule);
  const entries = takeEntry(builder);

  builder.addNode(MEMORY_NODES.load, steps.load);
  builder.addNode(MEMORY_NODES.summarize, steps.summarize);
  if (typeof options.agent === "function") builder.addNode(agentName!, options.agent);
  if (toolsName && typeof options.tools !== "string") builder.addNode(toolsName, options.tools instanceof ToolNode ? options.tools : new ToolNode(options.tools as ConstructorParameters<typeof ToolNode>[0]));
  builder.addNode(MEMORY_NODES.schedule, (state: MemoryTurnState, config: RunnableConfig) => steps.finish(state, config, { watermark }));

  builder.addEdge(START, MEMORY_NODES.load);
  builder.addEdge(MEMORY_NODES.load, MEMORY_NODES.summarize);
  if (entries.edges.length === 0 && entries.branches.length === 0) {
    if (!agentName) throw invalidInput("builder", "the graph has no edge from START: wire it (addEdge(START, \"agent\")) or name its agent node (withMemory(builder, { memory, agent: \"agent\" }))");
    builder.addEdge(MEMORY_NODES.summarize, agentName);
  }
  for (const target of entries.edges) builder.addEdge(MEMORY_NODES.summarize, target);
  if (entries.branches.length > 0) (builder.branches as Record<string, unknown>)[MEMORY_NODES.summarize] = Object.fromEntries(entries.branches);

  // An agent (and tools node) without edges of its own gets the loop; a wired one keeps its own.
  let ends = exits;
  if (agentName && !hasWayOut(builder, agentName)) {
    if (toolsName) {
      const tools = toolsName;
      builder.addConditionalEdges(agentName, (state: { messages: BaseMessage[] }) => (hasToolCalls(state.messages) ? tools : MEMORY_NODES.schedule), [tools, MEMORY_NODES.schedule]);
      if (!hasWayOut(builder, tools)) builder.addEdge(tools, agentName);
    } else {
      builder.addEdge(agentName, MEMORY_NODES.schedule);
    }
    ends++;
  }
  if (ends === 0) {
    throw invalidInput("builder", "no edge or condition of the graph leads to END: schedule_extraction runs on the way out, so end the graph with addEdge(node, END) or a condition that returns END");
  }
  builder.addEdge(MEMORY_NODES.schedule, END);
  return builder;
}

/** Options of `withMemory(builder, …)`: `agent` only to have the agent (↔ tools) loop wired for you. */
export type WithMemoryBuilderOptions = Omit<WithMemoryOptions, "agent"> & { agent?: WithMemoryOptions["agent"] };

/**
 * A StateGraph builder, by shape rather than class: an app whose `@langchain/langgraph` is another
 * copy than ours (another version, nested) builds graphs that are not `instanceof` our StateGraph
 * but work the same.
 */
function isStateGraphBuilder(value: unknown): value is AnyStateGraph {
  if (value instanceof StateGraph) return true;
  const g = value as Record<string, unknown> | null;
  return (
    !!g &&
    typeof g === "object" &&
    ["addNode", "addEdge", "addConditionalEdges", "compile"].every((m) => typeof g[m] === "function") &&
    g.edges instanceof Set &&
    typeof g.nodes === "object" &&
    typeof g.channels === "object" &&
    typeof g.branches === "object"
  );
}

/** A compiled graph or a plain Graph is not what withMemory takes: say which. */
function rejectOtherGraphs(value: unknown): void {
  const g = value as Record<string, unknown> | null;
  if (!g || typeof g !== "object") return;
  if (typeof g.invoke === "function" && typeof g.getGraph === "function") {
    throw invalidInput("builder", "withMemory takes the StateGraph builder, before compile(): withMemory(builder, { memory }).compile({ checkpointer })");
  }
  if (typeof g.addNode === "function" && typeof g.compile === "function") {
    throw invalidInput("builder", "withMemory takes a StateGraph (a graph with state channels); this builder has no state channels (a Graph, not a StateGraph), or comes from an @langchain/langgraph outside the supported range (^1.3.0)");
  }
}

/** Moves the edges and conditions leaving START out of the builder, to leave `summarize` instead. */
function takeEntry(builder: AnyStateGraph): { edges: string[]; branches: Array<[string, unknown]> } {
  const edges: string[] = [];
  for (const edge of [...builder.edges] as Array<[string, string]>) {
    if (edge[0] !== START) continue;
    builder.edges.delete(edge);
    edges.push(edge[1]);
  }
  const fromStart = (builder.branches as Record<string, Record<string, unknown>>)[START] ?? {};
  delete (builder.branches as Record<string, unknown>)[START];
  return { edges, branches: Object.entries(fromStart) };
}

interface BranchLike {
  path: Runnable;
  ends?: Record<string, string>;
}

/**
 * Every way to END now goes to `target`: edges, waiting edges (`addEdge([a, b], END)`) and
 * conditions — their path map, or (without one) what their path returns. Returns how many.
 */
function routeEndThrough(builder: AnyStateGraph, target: string): number {
  let n = 0;
  for (const edge of [...builder.edges] as Array<[string, string]>) {
    if (edge[1] !== END) continue;
    builder.edges.delete(edge);
    builder.edges.add([edge[0], target]);
    n++;
  }
  const waiting = (builder as unknown as { waitingEdges?: Set<[string[], string]> }).waitingEdges;
  for (const edge of waiting ? [...waiting] : []) {
    if (edge[1] !== END) continue;
    waiting!.delete(edge);
    waiting!.add([edge[0], target]);
    n++;
  }
  for (const branches of Object.values(builder.branches as Record<string, Record<string, BranchLike>>)) {
    for (const branch of Object.values(branches)) {
      if (branch.ends) {
        for (const [key, to] of Object.entries(branch.ends)) {
          if (to !== END) continue;
          branch.ends[key] = target;
          n++;
        }
      } else {
        const path = branch.path;
        const swap = (to: unknown) => (to === END ? target : to);
        branch.path = RunnableLambda.from(async (input: unknown, config?: RunnableConfig) => {
          const to = await path.invoke(input, config);
          return Array.isArray(to) ? to.map(swap) : swap(to);
        }).withConfig({ runName: path.getName() });
        n++;
      }
    }
  }
  return n;
}

/** The node has an edge or a condition leaving it. */
function hasWayOut(builder: AnyStateGraph, node: string): boolean {
  const waiting = (builder as unknown as { waitingEdges?: Set<[string[], string]> }).waitingEdges;
  return (
    [...(builder.edges as Set<[string, string]>)].some(([from]) => from === node) ||
    !!(builder.branches as Record<string, unknown>)[node] ||
    [...(waiting ?? [])].some(([from]) => from.includes(node))
  );
}

/** The last message is an AI message asking for tools. */
export function hasToolCalls(messages: readonly BaseMessage[]): boolean {
  const last = messages[messages.length - 1] as (BaseMessage & { tool_calls?: unknown[] }) | undefined;
  return !!last && last.getType() === "ai" && Array.isArray(last.tool_calls) && last.tool_calls.length > 0;
}
