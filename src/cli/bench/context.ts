import { AIMessage, HumanMessage, ToolMessage, trimMessages, type BaseMessage } from "@langchain/core/messages";
import { parseArgs } from "node:util";
import { buildContext } from "../../context/build-context.js";
import type { ActiveRule, ProfileDocument, RetrievedMemory, SessionSummary } from "../../state/types.js";
import { planSummarization } from "../../summarization/plan-summarization.js";
import { summarizeMessages } from "../../summarization/summarize-messages.js";
import { DEFAULT_SUMMARY_SHARE } from "../../summarization/summarization-node.js";
import { countTokens } from "../../tokens/count-messages.js";
import { trimHistory } from "../../summarization/trim-history.js";
import { clearTextTokenCache } from "../../tokens/count-text.js";
import type { Benchmark } from "./benchmark.js";
import { ratio, round, summarize, table, writeJson } from "./stats.js";

const USAGE = `usage: langgraph-memory bench context [--turns N] [--iterations N] [--json FILE]

buildContext on a long thread (p50/p95, ours vs LangChain's trimMessages with the same counter) and
prompt tokens per turn with the rolling summary vs sending the full history.
  --turns N        conversation length (default 200)
  --iterations N   timed buildContext calls on the final thread (default 2000)
  --json FILE      write the result as JSON`;

const TOPICS = ["Oslo", "Lisbon", "Kyoto", "Denver", "Nairobi", "Quito", "Tallinn", "Hobart"];

/**
 * A synthetic support/travel thread: every turn a user message and an answer; every 4th turn a
 * single tool call, every 7th two parallel calls, with ids like a messages reducer would assign.
 */
export function syntheticThread(turns: number): BaseMessage[][] {
  const byTurn: BaseMessage[][] = [];
  let n = 0;
  const id = () => `m${++n}`;
  for (let t = 1; t <= turns; t++) {
    const city = TOPICS[t % TOPICS.length];
    const msgs: BaseMessage[] = [];
    const userText =
      t === 3
        ? "My name is Priya Raman, my order number is 48213 and the delivery is due on 2024-05-17."
        : `Turn ${t}: I am planning a trip to ${city} for ${2 + (t % 5)} people around day ${t}. What should I pack, and how is the weather there this week? Please keep it short.`;
    msgs.push(new HumanMessage({ content: userText, id: id() }));
    if (t % 7 === 0) {
      const a = `call_${t}_a`;
      const b = `call_${t}_b`;
      msgs.push(new AIMessage({ content: "", id: id(), tool_calls: [{ id: a, name: "get_weather", args: { city } }, { id: b, name: "get_flights", args: { to: city, passengers: 2 } }] }));
      msgs.push(new ToolMessage({ content: `Weather in ${city}: ${10 + (t % 15)}°C, light rain in the afternoon, wind 12 km/h.`, tool_call_id: a, name: "get_weather", id: id() }));
      msgs.push(new ToolMessage({ content: `3 flights to ${city}: 07:40 (€${180 + t}), 12:15 (€${210 + t}), 19:05 (€${160 + t}).`, tool_call_id: b, name: "get_flights", id: id() }));
    } else if (t % 4 === 0) {
      const a = `call_${t}_a`;
      msgs.push(new AIMessage({ content: "Let me check the forecast.", id: id(), tool_calls: [{ id: a, name: "get_weather", args: { city } }] }));
      msgs.push(new ToolMessage({ content: `Weather in ${city}: ${8 + (t % 12)}°C and cloudy, rain likely on day ${t + 2}.`, tool_call_id: a, name: "get_weather", id: id() }));
    }
    msgs.push(
      new AIMessage({
        content: `For ${city}, pack layers, a waterproof jacket and comfortable shoes. Expect mild temperatures with some rain; for ${2 + (t % 5)} people, book rooms early. Anything else for turn ${t}?`,
        id: id(),
      }),
    );
    byTurn.push(msgs);
  }
  return byTurn;
}

const SYSTEM = "You are a concise travel assistant. Answer in at most five sentences. Use the tools for weather and flights; never guess prices.";
const PROFILE: ProfileDocument = { name: "Priya Raman", timezone: "Europe/Oslo", units: "metric", plan: "pro", home_airport: "OSL" };
const RULES: ActiveRule[] = [
  { id: "r1", text: "Give temperatures in Celsius.", priority: 5, scope: "user" },
  { id: "r2", text: "Answer with bullet points when listing more than two items.", priority: 3, scope: "user" },
];
const MEMORIES: RetrievedMemory[] = Array.from({ length: 8 }, (_, i) => ({
  id: `mem${i}`,
  kind: "preference" as const,
  text: `Preference ${i}: prefers window seats, vegetarian meals and hotels near the station (${i}).`,
  score: 0.9 - i * 0.05,
  similarity: 0.9,
  recency: 0.8,
  scope: "user" as const,
  createdAt: "2026-03-02T10:00:00Z",
}));

export const benchmark: Benchmark = {
  summary: "buildContext latency on a long thread, and prompt tokens per turn with the summary vs the full history",
  async run(argv) {
    const { values } = parseArgs({ args: argv, options: { turns: { type: "string" }, iterations: { type: "string" }, json: { type: "string" }, help: { type: "boolean", short: "h" } }, strict: true });
    if (values.help) {
      console.log(USAGE);
      return 0;
    }
    const turns = Number(values.turns ?? 200);
    const iterations = Number(values.iterations ?? 2000);
    const budget = { recentMessages: 6000 };
    const thread = syntheticThread(turns);

    // Walk the conversation turn by turn as the graph would: summarise when triggered, then build the prompt.
    const messages: BaseMessage[] = [];
    let summary: SessionSummary | null = null;
    const tokensPerTurn: number[] = [];
    const fullPerTurn: number[] = [];
    let summaries = 0;
    let firstTrigger: number | null = null;
    for (let t = 0; t < thread.length; t++) {
      const turn = thread[t];
      messages.push(turn[0]);
      const plan = planSummarization(messages, summary, { maxTokens: budget.recentMessages });
      if (plan.trigger) {
        summary = await summarizeMessages({ messages: plan.chunk, previous: summary, maxSummaryTokens: Math.floor(budget.recentMessages * DEFAULT_SUMMARY_SHARE) });
        summaries++;
        firstTrigger ??= t + 1;
      }
      const ctx = buildContext({ system: SYSTEM, profile: PROFILE, rules: RULES, memories: MEMORIES, summary, messages, budget });
      tokensPerTurn.push(ctx.usage.prompt);
      const full = buildContext({ system: SYSTEM, profile: PROFILE, rules: RULES, memories: MEMORIES, messages, budget: { recentMessages: 10_000_000 } });
      fullPerTurn.push(full.usage.prompt);
      messages.push(...turn.slice(1));
    }

    const input = { system: SYSTEM, profile: PROFILE, rules: RULES, memories: MEMORIES, summary, messages, budget };
    // Warm: the same message objects every call (within a turn, the agent loop).
    for (let i = 0; i < 200; i++) buildContext(input);
    const warm: number[] = [];
    for (let i = 0; i < iterations; i++) {
      const start = process.hrtime.bigint();
      buildContext(input);
      warm.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
    // Fresh objects: what a checkpoint load hands the agent each turn (per-object cache misses, text cache hits).
    const fresh: number[] = [];
    for (let i = 0; i < Math.min(iterations, 500); i++) {
      const copy = messages.map(cloneMessage);
      const start = process.hrtime.bigint();
      buildContext({ ...input, messages: copy });
      fresh.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
    // Cold: empty caches, every string tokenized again (first call of a process).
    const cold: number[] = [];
    for (let i = 0; i < 50; i++) {
      clearTextTokenCache();
      const copy = messages.map(cloneMessage);
      const start = process.hrtime.bigint();
      buildContext({ ...input, messages: copy });
      cold.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
    // Floor: LangChain's trimMessages over the full history with the same offline counter.
    const trimmed: number[] = [];
    for (let i = 0; i < Math.min(iterations, 500); i++) {
      const start = process.hrtime.bigint();
      await trimMessages(messages, { maxTokens: budget.recentMessages, strategy: "last", tokenCounter: (m) => countTokens(m), startOn: "human", includeSystem: true });
      trimmed.push(Number(process.hrtime.bigint() - start) / 1e6);
    }

    // Ours on the same job: trim the full history (no summary) to the budget.
    const ownTrim: number[] = [];
    for (let i = 0; i < Math.min(iterations, 500); i++) {
      const start = process.hrtime.bigint();
      trimHistory(messages, { maxTokens: budget.recentMessages });
      ownTrim.push(Number(process.hrtime.bigint() - start) / 1e6);
    }

    const w = summarize(warm);
    const ot = summarize(ownTrim);
    const f = summarize(fresh);
    const c = summarize(cold);
    const tm = summarize(trimmed);
    const after = firstTrigger ? tokensPerTurn.slice(firstTrigger - 1) : [];
    const result = {
      benchmark: "context",
      turns,
      messages: messages.length,
      budget_recent_messages: budget.recentMessages,
      summaries,
      first_trigger_turn: firstTrigger,
      p50_ms: w.p50_ms,
      p95_ms: w.p95_ms,
      fresh_objects: { p50_ms: f.p50_ms, p95_ms: f.p95_ms },
      cold_cache: { p50_ms: c.p50_ms, p95_ms: c.p95_ms },
      trim_history_full: { p50_ms: ot.p50_ms, p95_ms: ot.p95_ms },
      langchain_trim_messages: { p50_ms: tm.p50_ms, p95_ms: tm.p95_ms },
      // Arrays: index i = prompt tokens at turn i + 1 (after the user's message arrived).
      tokens_per_turn: tokensPerTurn,
      full_history_tokens_per_turn: fullPerTurn,
      tokens_after_trigger: after.length ? { min: Math.min(...after), max: Math.max(...after), mean: round(after.reduce((a, b) => a + b, 0) / after.length, 1) } : null,
      final_turn: { with_summary: tokensPerTurn.at(-1), full_history: fullPerTurn.at(-1), ratio: ratio(fullPerTurn.at(-1) ?? 0, tokensPerTurn.at(-1) ?? 0) },
    };
    console.log(
      table(
        ["buildContext, " + turns + "-turn thread", "p50 ms", "p95 ms"],
        [
          ["same message objects (warm)", w.p50_ms, w.p95_ms],
          ["fresh message objects (after a checkpoint load)", f.p50_ms, f.p95_ms],
          ["cold caches", c.p50_ms, c.p95_ms],
          ["trimHistory, full history (no summary)", ot.p50_ms, ot.p95_ms],
          ["LangChain trimMessages, full history, same counter", tm.p50_ms, tm.p95_ms],
        ],
      ),
    );
    console.log(`\ntrimHistory vs LangChain trimMessages on the same full history: ${ratio(tm.p50_ms, ot.p50_ms)}× faster at p50`);
    console.log(`buildContext p50 ${w.p50_ms} ms (target < 1 ms): ${w.p50_ms < 1 ? "met" : "NOT met"}`);
    const sample = [1, 10, 25, 50, 75, 100, 125, 150, 175, turns].filter((t, i, a) => t <= turns && a.indexOf(t) === i);
    console.log(
      "\n" +
        table(
          ["turn", "prompt tokens (summary)", "prompt tokens (full history)", "full / summary"],
          sample.map((t) => [t, tokensPerTurn[t - 1], fullPerTurn[t - 1], ratio(fullPerTurn[t - 1], tokensPerTurn[t - 1])]),
        ),
    );
    console.log(
      result.tokens_after_trigger
        ? `\n${summaries} summaries, first at turn ${firstTrigger}; after it prompt tokens stay in [${result.tokens_after_trigger.min}, ${result.tokens_after_trigger.max}]`
        : `\nno summary: the thread never passed the trigger (use more --turns)`,
    );
    if (values.json) writeJson(values.json, result);
    return 0;
  },
};

function cloneMessage(m: BaseMessage): BaseMessage {
  if (m.type === "human") return new HumanMessage({ content: m.content as string, id: m.id });
  if (m.type === "tool") { const t = m as ToolMessage; return new ToolMessage({ content: t.content as string, tool_call_id: t.tool_call_id, name: t.name, id: t.id }); }
  const a = m as AIMessage;
  return new AIMessage({ content: a.content as string, id: a.id, tool_calls: a.tool_calls });
}
