import { describe, expect, it } from "@jest/globals";
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, HumanMessage, RemoveMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import { FakeListChatModel } from "@langchain/core/utils/testing";
import { summaryTokens } from "../../src/summarization/format-summary.js";
import { isMemoryError } from "../../src/errors.js";
import { emptyEntities, type SessionSummary } from "../../src/state/types.js";
import { chatModelSummarizer, parseJsonReply } from "../../src/summarization/chat-model-summarizer.js";
import { DEFAULT_ENTITY_LIMITS, mergeEntities, mergeFacts, recencyKey } from "../../src/summarization/entities.js";
import { extractEntities } from "../../src/summarization/extract-entities.js";
import { summarizeOffline } from "../../src/summarization/offline-summarizer.js";
import { planSummarization, shouldSummarize } from "../../src/summarization/plan-summarization.js";
import { SUMMARY_UPDATE_PROMPT } from "../../src/summarization/prompts.js";
import { createSummarizationNode } from "../../src/summarization/summarization-node.js";
import { summarizeMessages } from "../../src/summarization/summarize-messages.js";
import type { Summarizer, SummarizerInput } from "../../src/summarization/summarizer.js";
import { groupTokens } from "../../src/summarization/trim-history.js";
import { groupMessages } from "../../src/summarization/message-groups.js";

function thread(turns: number, from = 1): BaseMessage[] {
  const out: BaseMessage[] = [];
  for (let t = from; t < from + turns; t++) {
    out.push(
      new HumanMessage({
        content: t === 3 ? "My name is Priya Raman, my order number is 48213 and the delivery is due on 2024-05-17." : `Turn ${t}: what should I pack for Oslo this week?`,
        id: `h${t}`,
      }),
    );
    if (t % 2 === 0) {
      out.push(new AIMessage({ content: "", id: `c${t}`, tool_calls: [{ id: `w${t}`, name: "get_weather", args: { city: "Oslo" } }, { id: `f${t}`, name: "get_flights", args: { to: "OSL" } }] }));
      out.push(new ToolMessage({ content: "12°C and rain", tool_call_id: `w${t}`, id: `rw${t}`, name: "get_weather" }));
      out.push(new ToolMessage({ content: "3 flights from €180", tool_call_id: `f${t}`, id: `rf${t}`, name: "get_flights" }));
    }
    out.push(new AIMessage({ content: `Turn ${t}: layers, a rain jacket and good shoes.`, id: `a${t}` }));
  }
  return out;
}

const tokensOf = (messages: BaseMessage[]) => groupMessages(messages).groups.reduce((n, g) => n + groupTokens(g), 0);

/** A summariser that records its calls (for asserting when the model is and is not called). */
function recordingSummarizer(fail = false): Summarizer & { calls: SummarizerInput[] } {
  const calls: SummarizerInput[] = [];
  return {
    name: "recording",
    calls,
    async summarize(input) {
      calls.push(input);
      if (fail) throw new Error("provider down");
      return { text: `summary #${calls.length}`, entities: { people: calls.length === 1 ? ["Priya Raman"] : [] } };
    },
  };
}

describe("planSummarization", () => {
  it("does not trigger under the threshold", () => {
    const messages = thread(3);
    const total = tokensOf(messages);
    expect(shouldSummarize(messages, null, { maxTokens: Math.ceil(total / 0.7) + 1 })).toBe(false);
    expect(shouldSummarize(messages, null, { maxTokens: Math.floor(total / 0.7) - 1 })).toBe(true);
  });

  it("folds the oldest whole units, keeps the newest, stops at a user turn and names the watermark", () => {
    const messages = thread(12);
    const maxTokens = Math.floor(tokensOf(messages) / 0.8);
    const plan = planSummarization(messages, null, { maxTokens });
    expect(plan.trigger).toBe(true);
    expect(plan.coversThroughMessageId).toBe(plan.chunk[plan.chunk.length - 1].id);
    const rest = messages.slice(plan.chunk.length);
    expect(rest[0].type).toBe("human");
    // No tool pair is split: every call in the chunk has its results in the chunk.
    const callIds = plan.chunk.flatMap((m) => ((m as AIMessage).tool_calls ?? []).map((c) => c.id));
    const resultIds = plan.chunk.filter((m) => m.type === "tool").map((m) => (m as ToolMessage).tool_call_id);
    expect(resultIds.sort()).toEqual(callIds.sort());
    expect(tokensOf(rest)).toBeLessThanOrEqual(0.7 * maxTokens);
    // After applying, the same history is under the threshold: nothing is summarised twice.
    const summary: SessionSummary = { text: "x", entities: emptyEntities(), coversThroughMessageId: plan.coversThroughMessageId, tokens: 1 };
    expect(planSummarization(messages, summary, { maxTokens }).trigger).toBe(false);
  });

  it("respects maxChunkTokens: a backlog is folded over several runs", () => {
    const messages = thread(30);
    const plan = planSummarization(messages, null, { maxTokens: 400, maxChunkTokens: 200 });
    expect(plan.trigger).toBe(true);
    expect(tokensOf(plan.chunk)).toBeLessThanOrEqual(200 + 60);
    expect(plan.chunk.length).toBeLessThan(messages.length / 3);
  });

  it("needs message ids for the watermark", () => {
    const noIds = thread(8).map((m) => {
      if (m.type === "human") return new HumanMessage(m.content as string);
      if (m.type === "tool") return new ToolMessage({ content: m.content as string, tool_call_id: (m as ToolMessage).tool_call_id });
      return new AIMessage({ content: m.content as string, tool_calls: (m as AIMessage).tool_calls });
    });
    try {
      planSummarization(noIds, null, { maxTokens: 100 });
      throw new Error("expected an error");
    } catch (err) {
      expect(isMemoryError(err, "INVALID_INPUT")).toBe(true);
      expect((err as Error).message).toMatch(/messages reducer/);
    }
  });
});

describe("entities", () => {
  it("extracts names, places, numbers, dates, decisions and open tasks with rules", () => {
    const e = extractEntities(
      "My name is Priya Raman and my order number is 48213; delivery is due on 2024-05-17. I'm flying to Oslo next Monday with my manager Tom Becker. Budget is $4,500. We decided to go with the riverside hotel. Please remind me to call Dr. Lee on March 3rd.",
    );
    expect(e.people).toEqual(expect.arrayContaining(["Priya Raman", "Tom Becker", "Dr. Lee"]));
    expect(e.places).toContain("Oslo");
    expect(e.numbers).toEqual(expect.arrayContaining(["$4,500"]));
    expect(e.references.some((n) => n.includes("48213"))).toBe(true);
    expect(e.dates).toEqual(expect.arrayContaining(["2024-05-17", "next Monday", "March 3rd"]));
    expect(e.decisions).toEqual(["We decided to go with the riverside hotel."]);
    expect(e.openTasks).toContain("Please remind me to call Dr. Lee on March 3rd.");
    expect(extractEntities("Thanks! It said hello.").people).toEqual([]);
  });

  it("merges deterministically: previous first, case-insensitive dedupe, a full list drops its least recently mentioned, closed tasks marked closed", () => {
    const previous = { ...emptyEntities(), people: ["Priya Raman"], openTasks: ["Book the hotel.", "Send the invoice."] };
    const merged = mergeEntities(previous, { people: ["priya raman", "Tom"], openTasks: ["Call Dr. Lee."] }, { closedTasks: ["book the hotel"] });
    expect(merged.people).toEqual(["Priya Raman", "Tom"]);
    expect(merged.openTasks).toEqual(["Send the invoice.", "Call Dr. Lee."]);
    expect(merged.closedTasks).toEqual(["Book the hotel."]);
    const many = Array.from({ length: DEFAULT_ENTITY_LIMITS.people }, (_, i) => `person ${i}`);
    const capped = mergeEntities({ people: ["First Person"] }, { people: many });
    expect(capped.people).toHaveLength(DEFAULT_ENTITY_LIMITS.people);
    expect(capped.people).not.toContain("First Person");
    // Mentioned again in the new messages, an old item is as recent as the new ones: the other old one goes.
    const recency = { generation: 1, lastMentioned: { "people:ana": 1, "people:ben": 1 } };
    const kept = mergeFacts({ people: ["Ana", "Ben"] }, { people: ["Cleo"] }, { recency, limits: { people: 2 }, mentioned: new Set([recencyKey("people", "Ben")]) });
    expect(kept.entities.people).toEqual(["Ben", "Cleo"]);
    expect(kept.recency).toEqual({ generation: 2, lastMentioned: { "people:ben": 2, "people:cleo": 2 } });
    expect(mergeEntities(previous, { people: ["Tom"] })).toEqual(mergeEntities(previous, { people: ["Tom"] }));
  });
});

describe("offline summariser", () => {
  it("is deterministic, extractive and keeps user-stated entities first", () => {
    const chunk = thread(4);
    const a = summarizeOffline({ messages: chunk, previous: null });
    const b = summarizeOffline({ messages: chunk, previous: null });
    expect(a).toEqual(b);
    expect(a.text).toContain("User: My name is Priya Raman");
    expect(a.text).toContain("Assistant called get_weather");
    expect(a.entities.people).toEqual(["Priya Raman"]);
    expect(a.entities.dates?.[0]).toBe("2024-05-17");
  });

  it("folds into a summary that fits its budget, keeps entities and sets the watermark", async () => {
    const chunk = thread(10);
    const previous: SessionSummary = {
      text: "User: an older line that will be dropped first.",
      entities: { ...emptyEntities(), places: ["Lisbon"] },
      coversThroughMessageId: "older",
      tokens: 0,
    };
    const summary = await summarizeMessages({ messages: chunk, previous, maxSummaryTokens: 150, now: () => new Date("2026-01-01T00:00:00Z") });
    expect(summary.tokens).toBe(summaryTokens(summary));
    expect(summary.tokens).toBeLessThanOrEqual(150);
    expect(summary.coversThroughMessageId).toBe("a10");
    expect(summary.updatedAt).toBe("2026-01-01T00:00:00.000Z");
    expect(summary.entities.places[0]).toBe("Lisbon");
    expect(summary.entities.people).toContain("Priya Raman");
    expect(summary.text).not.toContain("older line");
  });
});

describe("createSummarizationNode", () => {
  const maxTokens = 500;

  it("returns no update and calls no model under the threshold", async () => {
    const summarizer = recordingSummarizer();
    const node = createSummarizationNode({ summarizer, budget: maxTokens });
    expect(await node({ messages: thread(2), summary: null })).toEqual({});
    expect(summarizer.calls).toHaveLength(0);
  });

  it("makes exactly one summariser call per trigger and never re-applies a summary", async () => {
    const summarizer = recordingSummarizer();
    const node = createSummarizationNode({ summarizer, budget: maxTokens });
    const messages = thread(12);
    const first = await node({ messages, summary: null });
    expect(summarizer.calls).toHaveLength(1);
    expect(first.summary?.text).toBe("summary #1");
    expect(first.messages).toBeUndefined(); // keep mode
    // Same history with the new summary: under the threshold again, no call.
    expect(await node({ messages, summary: first.summary })).toEqual({});
    expect(summarizer.calls).toHaveLength(1);
    // More turns: one more call, folding only messages after the first watermark.
    const longer = [...messages, ...thread(8, 13)];
    const second = await node({ messages: longer, summary: first.summary });
    expect(summarizer.calls).toHaveLength(2);
    const firstIds = new Set(summarizer.calls[0].messages.map((m) => m.id));
    expect(summarizer.calls[1].messages.some((m) => firstIds.has(m.id))).toBe(false);
    expect(summarizer.calls[1].messages[0].id).toBe(longer[longer.findIndex((m) => m.id === first.summary?.coversThroughMessageId) + 1].id);
    expect(second.summary?.entities.people).toEqual(["Priya Raman"]); // kept although the 2nd call forgot it
  });

  it("remove mode returns RemoveMessage for exactly the folded messages", async () => {
    const summarizer = recordingSummarizer();
    const node = createSummarizationNode({ summarizer, budget: maxTokens, mode: "remove" });
    const update = await node({ messages: thread(12), summary: null });
    const folded = summarizer.calls[0].messages.map((m) => m.id);
    expect(update.messages?.every((m) => m instanceof RemoveMessage)).toBe(true);
    expect(update.messages?.map((m) => m.id)).toEqual(folded);
  });

  it("calls onSummaryChanged with the scope; a failing hook never loses the summary", async () => {
    const seen: unknown[] = [];
    const errors: string[] = [];
    const node = createSummarizationNode({
      summarizer: recordingSummarizer(),
      budget: maxTokens,
      onSummaryChanged: (summary, context) => {
        // The folded messages themselves travel too (past sessions read the user's words from them).
        expect(context.coveredMessages?.map((m) => m.id)).toEqual(context.coveredMessageIds);
        seen.push({ covers: summary.coversThroughMessageId, ...context, previous: context.previous, coveredMessageIds: context.coveredMessageIds.length, coveredMessages: context.coveredMessages?.length });
        throw new Error("index down");
      },
      onError: (err, stage) => errors.push(`${stage}: ${(err as Error).message}`),
    });
    const update = await node({ messages: thread(12), summary: null }, { configurable: { thread_id: "t1", tenant_id: "acme", user_id: "u7" } });
    expect(update.summary).toBeDefined();
    expect(seen).toEqual([{ covers: update.summary?.coversThroughMessageId, threadId: "t1", tenantId: "acme", userId: "u7", previous: null, coveredMessageIds: expect.any(Number), coveredMessages: expect.any(Number) }]);
    expect(errors).toEqual(["hook: index down"]);
  });

  it("falls back to the offline summariser when the model fails (unless told not to)", async () => {
    const errors: string[] = [];
    const failing = recordingSummarizer(true);
    const node = createSummarizationNode({ summarizer: failing, budget: maxTokens, maxSummaryTokens: 300, onError: (_e, stage) => errors.push(stage) });
    const update = await node({ messages: thread(12), summary: null });
    expect(failing.calls).toHaveLength(1);
    expect(errors).toEqual(["summarizer"]);
    expect(update.summary?.text).toContain("User:");
    const strict = createSummarizationNode({ summarizer: recordingSummarizer(true), budget: maxTokens, fallbackToOffline: false });
    await expect(strict({ messages: thread(12), summary: null })).rejects.toThrow("provider down");
  });

  it("rejects bad options with typed errors", () => {
    for (const bad of [{ triggerRatio: 0 }, { triggerRatio: 1.5 }, { retainRatio: 0.8 }, { budget: 0 }, { mode: "drop" as "keep" }, { maxSummaryTokens: -1 }]) {
      try {
        createSummarizationNode(bad);
        throw new Error(`expected an error for ${JSON.stringify(bad)}`);
      } catch (err) {
        expect(isMemoryError(err, "INVALID_INPUT")).toBe(true);
      }
    }
  });
});

describe("chat-model summariser", () => {
  class RecordingJsonModel extends BaseChatModel {
    prompts: string[] = [];
    constructor(private readonly reply: string) {
      super({});
    }
    _llmType() {
      return "recording-json";
    }
    async _generate(messages: BaseMessage[]): Promise<ChatResult> {
      this.prompts.push(messages.map((m) => m.text).join("\n"));
      const message = new AIMessage(this.reply);
      return { generations: [{ text: this.reply, message }] };
    }
  }

  it("in JSON mode, parses a fenced JSON reply; entities merge with the previous ones", async () => {
    const model = new FakeListChatModel({
      responses: ['```json\n{"text": "Priya is planning Oslo.", "entities": {"people": ["Priya Raman"], "numbers": ["order 48213"]}, "closedTasks": []}\n```'],
    });
    const previous: SessionSummary = { text: "Earlier.", entities: { ...emptyEntities(), dates: ["2024-05-17"] }, coversThroughMessageId: "x", tokens: 0 };
    const summary = await summarizeMessages({ messages: thread(4), previous, summarizer: chatModelSummarizer(model, { output: "json" }), maxSummaryTokens: 300 });
    expect(summary.text).toBe("Priya is planning Oslo.");
    expect(summary.entities.people).toEqual(["Priya Raman"]);
    expect(summary.entities.numbers).toEqual(["order 48213"]);
    expect(summary.entities.dates).toEqual(["2024-05-17"]);
  });

  it("uses overridden prompts and renders tool calls as transcript text", async () => {
    const model = new RecordingJsonModel("not json at all");
    const summarizer = chatModelSummarizer(model, { systemPrompt: "CUSTOM SYSTEM", updatePrompt: "CUSTOM {transcript} / {max_words}" });
    const out = await summarizer.summarize({ messages: thread(2), previous: null, maxTokens: 200, encoding: "o200k_base" });
    expect(out.text).toBe("not json at all");
    expect(model.prompts[0]).toContain("CUSTOM SYSTEM");
    expect(model.prompts[0]).toContain("Assistant called get_weather");
    expect(model.prompts[0]).toContain("Tool get_weather: 12°C and rain");
    expect(model.prompts[0]).toContain("/ 90");
    expect(SUMMARY_UPDATE_PROMPT).toContain("{transcript}");
  });

  it("parses JSON replies leniently", () => {
    expect(parseJsonReply('Sure! {"text": "t", "entities": {"people": ["A", 3]}}')).toEqual({
      text: "t",
      entities: { people: ["A"], places: [], numbers: [], references: [], dates: [], decisions: [], commitments: [], openTasks: [], closedTasks: [] },
      closedTasks: [],
    });
    expect(parseJsonReply("{broken").text).toBe("{broken");
  });
});
