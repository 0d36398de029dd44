/**
 * A 200-turn conversation with single and parallel tool calls (and two interrupted tool calls)
 * driven through a real StateGraph with a checkpointer: every prompt within budget and a valid
 * OpenAI-style sequence, summaries triggered with a watermark that only moves forward, entities
 * from turn 3 still there at turn 200, exactly one summariser call per trigger, and the
 * summariser's call kept out of `streamMode: "messages"`.
 */
import { afterAll, describe, expect, it } from "@jest/globals";
import type { CallbackManagerForLLMRun } from "@langchain/core/callbacks/manager";
import { BaseChatModel, type BindToolsInput } from "@langchain/core/language_models/chat_models";
import { AIMessage, AIMessageChunk, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import type { RunnableConfig } from "@langchain/core/runnables";
import { tool } from "@langchain/core/tools";
import { END, MemorySaver, START, StateGraph, type BaseCheckpointSaver } from "@langchain/langgraph";
import { ToolNode } from "@langchain/langgraph/prebuilt";
import { z } from "zod";
import { buildContext, type BuildContextResult } from "../../src/context/build-context.js";
import { findSequenceProblems } from "../../src/context/sequence-problems.js";
import { MemoryAnnotation, type MemoryState } from "../../src/state/annotation.js";
import { PostgresCheckpointer } from "../../src/checkpointer/index.js";
import type { Database } from "../../src/db/database.js";
import { openTestDatabase } from "../helpers/db.js";
import type { ActiveRule, RetrievedMemory, SessionSummary } from "../../src/state/types.js";
import { SUMMARIZATION_TAG } from "../../src/summarization/chat-model-summarizer.js";
import { createSummarizationNode, type SummaryChangeContext } from "../../src/summarization/summarization-node.js";
import { countTokens } from "../../src/tokens/count-messages.js";

/**
 * The checkpointer of a run: ours (`PostgresCheckpointer` on embedded PGlite) for the offline keep
 * and remove runs, LangGraph's MemorySaver for the fake-model run (its calls are what it checks).
 */
let pglite: Database | undefined;
async function createCheckpointer(kind: "postgres" | "memory"): Promise<BaseCheckpointSaver> {
  if (kind === "memory") return new MemorySaver();
  pglite ??= await openTestDatabase("pglite");
  return PostgresCheckpointer.fromDatabase(pglite);
}
afterAll(async () => {
  await pglite?.close();
});

// ---------------------------------------------------------------------------------------------
// A chat model that records its calls and answers like a structured-output summariser that only
// reports entities it sees in the new messages (it forgets earlier ones: the worst case for merging).

interface RecordedCall {
  prompt: string;
  /** Tags of the call's config (what the caller asked for). */
  configTags: string[];
  /** Tags the callback system saw for the run (what stream handlers filter on; only with handlers attached). */
  runTags: string[];
}

class RecordingSummaryModel extends BaseChatModel {
  calls: RecordedCall[] = [];

  _llmType(): string {
    return "recording-summary";
  }

  private pendingConfigTags: string[] = [];

  override bindTools(_tools: BindToolsInput[]): this {
    return this;
  }

  override async invoke(input: Parameters<BaseChatModel["invoke"]>[0], options?: Parameters<BaseChatModel["invoke"]>[1]) {
    this.pendingConfigTags = [...(options?.tags ?? [])];
    return super.invoke(input, options);
  }

  async _generate(messages: BaseMessage[], _options: this["ParsedCallOptions"], runManager?: CallbackManagerForLLMRun): Promise<ChatResult> {
    const prompt = messages.map((m) => m.text).join("\n");
    this.calls.push({ prompt, configTags: this.pendingConfigTags, runTags: [...((runManager as unknown as { tags?: string[] } | undefined)?.tags ?? [])] });
    const n = this.calls.length;
    const transcript = prompt.split("New messages to fold into the summary:\n")[1]?.split("\n\nReturn the updated summary")[0] ?? "";
    const args = {
      text: `FAKE-SUMMARY#${n}: ${transcript.split("\n").slice(0, 3).join(" ").slice(0, 120)}`,
      entities: {
        people: [...transcript.matchAll(/name is ([A-Z][a-z]+ [A-Z][a-z]+)/g)].map((m) => m[1]),
        places: [],
        numbers: [...transcript.matchAll(/order number is (\d+)/g)].map((m) => `order ${m[1]}`),
        dates: [...transcript.matchAll(/\b\d{4}-\d{2}-\d{2}\b/g)].map((m) => m[0]),
        decisions: [],
        openTasks: [],
      },
      closedTasks: [],
    };
    // A chunk, as real chat models return from invoke (the base structured-output parser requires one).
    const message = new AIMessageChunk({ content: "", tool_calls: [{ id: `summary_call_${n}`, name: "session_summary", args, type: "tool_call" }] });
    return { generations: [{ text: "", message }] };
  }
}

/** The agent's model in the streaming test: answers with a marker, records calls. */
class RecordingAgentModel extends BaseChatModel {
  calls = 0;
  _llmType(): string {
    return "recording-agent";
  }
  async _generate(): Promise<ChatResult> {
    this.calls++;
    const message = new AIMessage({ content: `AGENT-ANSWER#${this.calls}` });
    return { generations: [{ text: message.text, message }] };
  }
}

// ---------------------------------------------------------------------------------------------
// The conversation.

const SYSTEM = "You are a concise travel assistant. Use the tools for weather and currency; never guess.";
const BUDGET = { system: 300, profile: 80, memories: 200, pastSessions: 100, recentMessages: 1500, documents: 0, outputReserve: 500 };
const PROFILE = { name: "Priya Raman", timezone: "Europe/Oslo", units: "metric" };
const RULES: ActiveRule[] = [{ id: "r1", text: "Give temperatures in Celsius.", priority: 5, scope: "user" }];
const MEMORIES: RetrievedMemory[] = [
  { id: "m1", kind: "preference", text: "Prefers window seats.", score: 0.9, similarity: 0.9, recency: 0.9, scope: "user", createdAt: "2026-03-02T10:00:00Z" },
  { id: "m2", kind: "fact", text: "Travels with two children.", score: 0.8, similarity: 0.8, recency: 0.9, scope: "user", createdAt: "2026-03-05T10:00:00Z" },
];
const CITIES = ["Oslo", "Lisbon", "Kyoto", "Denver", "Nairobi", "Quito", "Tallinn", "Hobart"];
const FACTS_TURN = 3;
const INTERRUPTED_TURNS = new Set([60, 140]);

function userMessage(turn: number): HumanMessage {
  const city = CITIES[turn % CITIES.length];
  const text =
    turn === FACTS_TURN
      ? "My name is Priya Raman, my order number is 48213 and the delivery is due on 2024-05-17."
      : INTERRUPTED_TURNS.has(turn)
        ? `Please book a table in ${city} for ${turn % 5 + 2} people tonight.`
        : `Turn ${turn}: planning a trip to ${city}. What should I pack, and what is the weather like this week?`;
  return new HumanMessage({ content: text, id: `u${turn}` });
}

const getWeather = tool(async ({ city }) => `Weather in ${city}: 14°C, showers in the afternoon, wind 10 km/h.`, {
  name: "get_weather",
  description: "Current weather of a city",
  schema: z.object({ city: z.string() }),
});
const getRate = tool(async ({ currency }) => `1 EUR = ${currency === "NOK" ? "11.6" : "1.08"} ${currency}`, {
  name: "get_rate",
  description: "Exchange rate from EUR",
  schema: z.object({ currency: z.string() }),
});
const bookTable = tool(
  async () => {
    throw new Error("booking backend unavailable");
  },
  { name: "book_table", description: "Book a restaurant table", schema: z.object({ city: z.string(), people: z.number() }) },
);

interface PromptRecord {
  turn: number;
  result: BuildContextResult;
  /** Ids of messages the summary covered when the prompt was built. */
  coveredIds: Set<string>;
}

interface RunResult {
  prompts: PromptRecord[];
  summaries: Array<{ turn: number; summary: SessionSummary; context: SummaryChangeContext }>;
  finalSummary: SessionSummary | null;
  finalMessages: BaseMessage[];
  /** Checks failed at a given turn (empty = all passed). */
  failures: string[];
}

async function runConversation(opts: { turns: number; mode: "keep" | "remove"; model?: RecordingSummaryModel; checkpointer?: "postgres" | "memory" }): Promise<RunResult> {
  const prompts: PromptRecord[] = [];
  const summaries: RunResult["summaries"] = [];
  const failures: string[] = [];
  let turn = 0;
  let currentCovered = new Set<string>();

  const summarize = createSummarizationNode({
    model: opts.model,
    budget: BUDGET,
    mode: opts.mode,
    fallbackToOffline: false,
    onSummaryChanged: (summary, context) => {
      summaries.push({ turn, summary, context });
    },
  });

  const agent = async (state: MemoryState) => {
    const result = buildContext({
      system: SYSTEM,
      profile: PROFILE,
      rules: RULES,
      memories: MEMORIES,
      summary: state.summary,
      messages: state.messages,
      budget: BUDGET,
    });
    prompts.push({ turn, result, coveredIds: currentCovered });
    const last = state.messages[state.messages.length - 1];
    const city = CITIES[turn % CITIES.length];
    const id = (k: string) => `a${turn}-${k}`;
    if (last.type === "tool") return { messages: [new AIMessage({ content: `Here is what I found for ${city}: pack a rain jacket and layers.`, id: id("final") })] };
    if (INTERRUPTED_TURNS.has(turn)) {
      return { messages: [new AIMessage({ content: "", id: id("book"), tool_calls: [{ id: `book_${turn}`, name: "book_table", args: { city, people: 4 } }] })] };
    }
    if (turn % 7 === 0) {
      return {
        messages: [
          new AIMessage({
            content: "",
            id: id("parallel"),
            tool_calls: [
              { id: `w_${turn}`, name: "get_weather", args: { city } },
              { id: `r_${turn}`, name: "get_rate", args: { currency: "NOK" } },
            ],
          }),
        ],
      };
    }
    if (turn % 4 === 0) {
      return { messages: [new AIMessage({ content: "Checking the forecast.", id: id("single"), tool_calls: [{ id: `w_${turn}`, name: "get_weather", args: { city } }] })] };
    }
    return { messages: [new AIMessage({ content: `For ${city}: layers, a rain jacket and comfortable shoes. Anything else?`, id: id("answer") })] };
  };

  const graph = new StateGraph(MemoryAnnotation)
    .addNode("summarize", summarize)
    .addNode("agent", agent)
    .addNode("tools", new ToolNode([getWeather, getRate, bookTable], { handleToolErrors: false }))
    .addEdge(START, "summarize")
    .addEdge("summarize", "agent")
    .addConditionalEdges("agent", (s: MemoryState) => ((s.messages[s.messages.length - 1] as AIMessage).tool_calls?.length ? "tools" : END), ["tools", END])
    .addEdge("tools", "agent")
    .compile({ checkpointer: await createCheckpointer(opts.checkpointer ?? "postgres") });

  const config = { configurable: { thread_id: `thread-${opts.mode}-${opts.model ? "llm" : "offline"}`, tenant_id: "acme", user_id: "priya" } };
  let watermarkIndex = -1;
  let previousSummary: SessionSummary | null = null;
  const allIdsInOrder: string[] = [];
  const positionOf = new Map<string, number>();

  for (turn = 1; turn <= opts.turns; turn++) {
    const callsBefore = opts.model?.calls.length ?? 0;
    const summariesBefore = summaries.length;
    try {
      await graph.invoke({ messages: [userMessage(turn)] }, config);
      if (INTERRUPTED_TURNS.has(turn)) failures.push(`turn ${turn}: the failing tool should have interrupted the run`);
    } catch (err) {
      if (!INTERRUPTED_TURNS.has(turn)) throw err;
    }
    const state = (await graph.getState(config)).values as MemoryState;
    for (const m of state.messages) {
      if (m.id && !positionOf.has(m.id)) {
        positionOf.set(m.id, allIdsInOrder.length);
        allIdsInOrder.push(m.id);
      }
    }
    const summary = state.summary;
    const changed = summaries.length - summariesBefore;
    if (changed > 1) failures.push(`turn ${turn}: ${changed} summaries in one turn`);
    if (opts.model && opts.model.calls.length - callsBefore !== changed) {
      failures.push(`turn ${turn}: ${opts.model.calls.length - callsBefore} model calls for ${changed} summary changes`);
    }
    if (summary) {
      // The watermark only moves forward, in the order messages were first seen.
      const idx = positionOf.get(summary.coversThroughMessageId ?? "") ?? -1;
      if (idx < 0) failures.push(`turn ${turn}: watermark ${summary.coversThroughMessageId} is not a message of the thread`);
      if (idx < watermarkIndex) failures.push(`turn ${turn}: watermark moved back`);
      if (changed === 1 && idx <= watermarkIndex) failures.push(`turn ${turn}: summary changed but the watermark did not move forward`);
      if (changed === 0 && previousSummary && summary.coversThroughMessageId !== previousSummary.coversThroughMessageId) {
        failures.push(`turn ${turn}: watermark changed without a summary change`);
      }
      watermarkIndex = idx;
      currentCovered = new Set(allIdsInOrder.slice(0, idx + 1));
    }
    previousSummary = summary;
  }
  const final = (await graph.getState(config)).values as MemoryState;
  return { prompts, summaries, finalSummary: final.summary, finalMessages: final.messages, failures };
}

function checkPrompts(prompts: PromptRecord[]): string[] {
  const problems: string[] = [];
  for (const { turn, result, coveredIds } of prompts) {
    const where = `turn ${turn}`;
    const sequence = findSequenceProblems(result.messages);
    if (sequence.length > 0) problems.push(`${where}: ${sequence.map((p) => p.message).join("; ")}`);
    const counted = countTokens(result.messages);
    if (counted !== result.usage.prompt) problems.push(`${where}: usage.prompt ${result.usage.prompt} != counted ${counted}`);
    if (counted > result.usage.promptLimit) problems.push(`${where}: prompt ${counted} > limit ${result.usage.promptLimit}`);
    if (result.usage.overBudget.length > 0) problems.push(`${where}: over budget ${result.usage.overBudget.join(",")}`);
    if (result.usage.system + result.usage.rules > BUDGET.system) problems.push(`${where}: system + rules over budget`);
    if (result.usage.profile > BUDGET.profile || result.usage.memories > BUDGET.memories) problems.push(`${where}: profile/memories over budget`);
    if (result.usage.summary + result.usage.recentMessages > BUDGET.recentMessages) problems.push(`${where}: summary + recent over budget`);
    const resent = result.messages.filter((m) => m.id && coveredIds.has(m.id));
    if (resent.length > 0) problems.push(`${where}: ${resent.length} summarised message(s) sent again`);
    if (result.messages[result.messages.length - 1].type === "ai" && (result.messages[result.messages.length - 1] as AIMessage).tool_calls?.length) {
      problems.push(`${where}: prompt ends with an unanswered tool call`);
    }
  }
  return problems;
}

function expectTurn3Entities(summary: SessionSummary | null) {
  expect(summary).not.toBeNull();
  const e = (summary as SessionSummary).entities;
  expect(e.people).toContain("Priya Raman");
  expect([...e.numbers, ...(e.references ?? [])].some((n) => n.includes("48213"))).toBe(true);
  expect(e.dates).toContain("2024-05-17");
}

describe("summarisation through a real StateGraph (200 turns, checkpointer)", () => {
  it("offline summariser, keep mode: every prompt valid and within budget; watermark forward; entities survive", async () => {
    const run = await runConversation({ turns: 200, mode: "keep" });
    expect(run.failures).toEqual([]);
    expect(checkPrompts(run.prompts)).toEqual([]);
    // At least one prompt per turn, and the interrupted turns' orphan calls were repaired, not sent raw.
    expect(new Set(run.prompts.map((p) => p.turn)).size).toBe(200);
    expect(run.summaries.length).toBeGreaterThanOrEqual(11);
    // Turn-3 facts survive every re-summarisation from the first one that covered them.
    const firstCovering = run.summaries.findIndex((s) => s.summary.entities.people.includes("Priya Raman"));
    expect(firstCovering).toBeGreaterThanOrEqual(0);
    expect(run.summaries.length - firstCovering - 1).toBeGreaterThanOrEqual(10);
    for (const s of run.summaries.slice(firstCovering)) expectTurn3Entities(s.summary);
    expectTurn3Entities(run.finalSummary);
    // Keep mode: the full history stays in state.
    expect(run.finalMessages.filter((m) => m.type === "human")).toHaveLength(200);
    // The hook got the scope from config.configurable.
    expect(run.summaries[0].context).toMatchObject({ threadId: "thread-keep-offline", tenantId: "acme", userId: "priya" });
  }, 120_000);

  it("fake chat model, keep mode: one model call per trigger, none under it; merged entities survive a forgetful model", async () => {
    const model = new RecordingSummaryModel({});
    const run = await runConversation({ turns: 200, mode: "keep", model, checkpointer: "memory" });
    expect(run.failures).toEqual([]);
    expect(checkPrompts(run.prompts)).toEqual([]);
    expect(model.calls.length).toBe(run.summaries.length);
    expect(run.summaries.length).toBeGreaterThanOrEqual(11);
    // The model reported the turn-3 facts once; later calls did not repeat them.
    const reporting = model.calls.filter((c) => c.prompt.split("New messages to fold into the summary:")[1]?.includes("48213"));
    expect(reporting).toHaveLength(1);
    const firstCovering = run.summaries.findIndex((s) => s.summary.entities.people.includes("Priya Raman"));
    expect(run.summaries.length - firstCovering - 1).toBeGreaterThanOrEqual(10);
    for (const s of run.summaries.slice(firstCovering)) expectTurn3Entities(s.summary);
    expectTurn3Entities(run.finalSummary);
    expect(run.finalSummary?.text).toMatch(/^FAKE-SUMMARY#\d+/);
    for (const call of model.calls) expect(call.configTags).toEqual(expect.arrayContaining([SUMMARIZATION_TAG, "nostream"]));
  }, 120_000);

  it("remove mode: summarised messages are removed exactly once and prompts stay valid", async () => {
    const run = await runConversation({ turns: 120, mode: "remove" });
    expect(run.failures).toEqual([]);
    expect(checkPrompts(run.prompts)).toEqual([]);
    expect(run.summaries.length).toBeGreaterThanOrEqual(5);
    const seen = new Set<string>();
    for (const { context } of run.summaries) {
      for (const id of context.coveredMessageIds) {
        expect(seen.has(id)).toBe(false);
        seen.add(id);
      }
    }
    const remaining = new Set(run.finalMessages.map((m) => m.id));
    for (const id of seen) expect(remaining.has(id)).toBe(false);
    expect(run.finalMessages.length).toBeLessThan(120);
    expect(findSequenceProblems(run.finalMessages.filter((m) => m.type !== "system"), { requireSystemFirst: false }).filter((p) => p.code === "orphan-tool-result")).toEqual([]);
    expectTurn3Entities(run.finalSummary);
  }, 120_000);
});

describe("the summariser's model call and streamMode: \"messages\"", () => {
  async function streamOneTurn(tags?: readonly string[]) {
    const summaryModel = new RecordingSummaryModel({});
    const agentModel = new RecordingAgentModel({});
    const budget = { recentMessages: 600 };
    const graph = new StateGraph(MemoryAnnotation)
      .addNode("summarize", createSummarizationNode({ model: summaryModel, budget, fallbackToOffline: false, llm: tags ? { tags } : undefined }))
      .addNode("agent", async (state: MemoryState, config: RunnableConfig) => {
        const { messages } = buildContext({ system: SYSTEM, summary: state.summary, messages: state.messages, budget });
        return { messages: [await agentModel.invoke(messages, config)] };
      })
      .addEdge(START, "summarize")
      .addEdge("summarize", "agent")
      .addEdge("agent", END)
      .compile({ checkpointer: await createCheckpointer("memory") });
    const history: BaseMessage[] = [];
    for (let t = 1; t <= 16; t++) {
      history.push(userMessage(t));
      history.push(new AIMessage({ content: `Answer ${t}: pack layers and a rain jacket; it will be mild with showers.`, id: `h${t}` }));
    }
    history.push(new HumanMessage({ content: "And what about shoes?", id: "last" }));
    const streamed: BaseMessage[] = [];
    const stream = await graph.stream({ messages: history }, { configurable: { thread_id: "stream" }, streamMode: "messages" });
    for await (const [message] of stream) streamed.push(message as BaseMessage);
    const state = (await graph.getState({ configurable: { thread_id: "stream" } })).values as MemoryState;
    const fromSummariser = streamed.filter(
      (m) => m.text.includes("FAKE-SUMMARY") || ((m as AIMessage).tool_calls ?? []).some((c) => c.name === "session_summary") || JSON.stringify(m.content).includes("FAKE-SUMMARY"),
    );
    const fromAgent = streamed.filter((m) => m.text.includes("AGENT-ANSWER"));
    return { summaryModel, state, fromSummariser, fromAgent };
  }

  it("the summariser's call carries the tags and never reaches the messages stream", async () => {
    const { summaryModel, state, fromSummariser, fromAgent } = await streamOneTurn();
    expect(summaryModel.calls).toHaveLength(1);
    expect(summaryModel.calls[0].runTags).toEqual(expect.arrayContaining([SUMMARIZATION_TAG, "nostream"]));
    expect(state.summary?.text).toMatch(/^FAKE-SUMMARY#1/);
    expect(fromAgent.length).toBeGreaterThan(0);
    expect(fromSummariser).toEqual([]);
  });

  it("control: without the nostream tags the same call does stream (so the check above can fail)", async () => {
    const { summaryModel, fromSummariser, fromAgent } = await streamOneTurn([SUMMARIZATION_TAG]);
    expect(summaryModel.calls).toHaveLength(1);
    expect(fromAgent.length).toBeGreaterThan(0);
    expect(fromSummariser.length).toBeGreaterThan(0);
  });
});
