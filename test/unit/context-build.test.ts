import { describe, expect, it } from "@jest/globals";
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { buildContext } from "../../src/context/build-context.js";
import { formatMemoryContext } from "../../src/context/format-memories.js";
import { formatProfile, PROFILE_HEADER } from "../../src/context/format-profile.js";
import { formatRules } from "../../src/context/format-rules.js";
import { fitSummary, formatSummary, summaryTokens } from "../../src/summarization/format-summary.js";
import { PAST_SESSIONS_HEADER } from "../../src/context/memory-block.js";
import { findSequenceProblems } from "../../src/context/sequence-problems.js";
import { emptyEntities, type ActiveRule, type RetrievedMemory, type SessionSummary } from "../../src/state/types.js";
import { countTextTokens } from "../../src/tokens/count-text.js";
import { countTokens } from "../../src/tokens/count-messages.js";

const memory = (i: number, text: string): RetrievedMemory => ({
  id: `m${i}`,
  kind: "preference",
  text,
  score: 1 - i / 10,
  similarity: 0.9,
  recency: 0.5,
  scope: "user",
  createdAt: `2026-03-0${i + 1}T10:00:00Z`,
});
const rule = (id: string, text: string, priority: number): ActiveRule => ({ id, text, priority, scope: "user" });

function conversation(turns: number): BaseMessage[] {
  const out: BaseMessage[] = [];
  for (let t = 1; t <= turns; t++) {
    out.push(new HumanMessage({ content: `Turn ${t}: what should I pack for the trip to Oslo?`, id: `h${t}` }));
    if (t % 3 === 0) {
      out.push(new AIMessage({ content: "", id: `c${t}`, tool_calls: [{ id: `w${t}`, name: "get_weather", args: { city: "Oslo" } }, { id: `f${t}`, name: "get_flights", args: { to: "OSL" } }] }));
      out.push(new ToolMessage({ content: "12°C and rain", tool_call_id: `w${t}`, id: `rw${t}` }));
      out.push(new ToolMessage({ content: "3 flights from €180", tool_call_id: `f${t}`, id: `rf${t}` }));
    }
    out.push(new AIMessage({ content: `Turn ${t}: layers, a rain jacket and good shoes.`, id: `a${t}` }));
  }
  return out;
}

describe("formatProfile / formatRules / formatSummary", () => {
  it("renders a profile as quoted values and cuts whole fields only", () => {
    const profile = { name: "Priya Raman", bio: "x ".repeat(300).trim(), timezone: "Europe/Oslo", empty: "", nothing: null };
    const all = formatProfile(profile);
    expect(all.text).toBe([PROFILE_HEADER, '- name: "Priya Raman"', `- bio: ${JSON.stringify(profile.bio)}`, '- timezone: "Europe/Oslo"'].join("\n"));
    const small = formatProfile(profile, { maxTokens: 40 });
    expect(small.text).toBe([PROFILE_HEADER, '- name: "Priya Raman"', '- timezone: "Europe/Oslo"'].join("\n"));
    expect(small.tokens).toBe(countTextTokens(small.text));
    expect(small.tokens).toBeLessThanOrEqual(40);
    expect(small.dropped).toEqual([1]);
    expect(formatProfile(null).text).toBe("");
  });

  it("renders rules by priority and drops the lowest first", () => {
    const rules = [rule("a", "Use metric units.", 1), rule("b", "Answer with diffs, not full files.", 9), rule("c", "Be brief.", 5)];
    expect(formatRules(rules).text.split("\n").slice(1)).toEqual(["- Answer with diffs, not full files.", "- Be brief.", "- Use metric units."]);
    const fitted = formatRules(rules, { maxTokens: countTextTokens(formatRules(rules).text) - 2 });
    expect(fitted.included).toEqual([1, 2]);
    expect(fitted.dropped).toEqual([0]);
  });

  it("renders a summary with its entities and fits it by dropping old prose first, then the least recently mentioned entity items", () => {
    const summary: SessionSummary = {
      text: "User: first line about Oslo.\nUser: second line about Lisbon.\nAssistant: third line.",
      entities: { ...emptyEntities(), people: ["Priya Raman", "Tom"], numbers: ["order 48213"], dates: ["2024-05-17"], openTasks: ["Book the hotel."] },
      coversThroughMessageId: "m9",
      tokens: 0,
      // Tom was last mentioned in the first summary, Priya and the rest in the third.
      factRecency: { generation: 3, lastMentioned: { "people:priya raman": 3, "people:tom": 1, "numbers:order 48213": 3, "dates:2024-05-17": 3, "openTasks:book the hotel": 3 } },
    };
    const text = formatSummary(summary);
    expect(text).toContain("- People: Priya Raman; Tom");
    expect(text).toContain("- Open tasks:\n  - Book the hotel.");
    const full = summaryTokens(summary);
    const fitted = fitSummary(summary, full - 5);
    expect(fitted.tokens).toBeLessThanOrEqual(full - 5);
    expect(fitted.text.startsWith("User: first line")).toBe(false);
    expect(fitted.entities).toEqual(summary.entities);
    const tiny = fitSummary(summary, summaryTokens({ text: "", entities: summary.entities }) - 2);
    expect(tiny.text).toBe("");
    expect(tiny.entities.people).toEqual(["Priya Raman"]);
    expect(tiny.entities.numbers).toEqual(["order 48213"]);
    expect(tiny.factRecency?.lastMentioned).not.toHaveProperty("people:tom");
  });
});

describe("buildContext", () => {
  const memories = [memory(0, "Prefers window seats."), memory(1, "Travels with two children."), memory(2, "Vegetarian.")];
  const pastSessions = [memory(3, "Planned a Lisbon trip in March; chose the riverside hotel.")];

  it("renders system prompt, a labelled memory block, the summary block, then recent messages", () => {
    const messages = conversation(6);
    const summary: SessionSummary = {
      text: "The user is planning a trip to Oslo.",
      entities: { ...emptyEntities(), people: ["Priya Raman"] },
      coversThroughMessageId: "a3",
      tokens: 0,
    };
    const { messages: out, usage } = buildContext({
      system: "You are a travel assistant.",
      profile: { name: "Priya Raman" },
      rules: [rule("r", "Give temperatures in Celsius.", 1)],
      memories,
      pastSessions,
      summary,
      messages,
    });
    expect(out[0].type).toBe("system");
    const sys = out[0].content as string;
    const order = ["You are a travel assistant.", "<memory>", "User profile", "Behavioral rules", "Relevant memories about the user", PAST_SESSIONS_HEADER, "</memory>", "<conversation_summary>", "The user is planning a trip to Oslo.", "</conversation_summary>"];
    const positions = order.map((s) => sys.indexOf(s));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    // Memories rendered by formatMemoryContext, its format unchanged.
    expect(sys).toContain(formatMemoryContext(memories));
    // Messages through the watermark are replaced by the summary.
    expect(out.slice(1).map((m) => m.id)).toEqual(["h4", "a4", "h5", "a5", "h6", "c6", "rw6", "rf6", "a6"]);
    expect(usage.summarizedMessages).toBe(9);
    expect(usage.prompt).toBe(countTokens(out));
    expect(usage.total).toBe(usage.summary + countTextTokens(sys.slice(sys.indexOf("<memory>"), sys.indexOf("</memory>") + "</memory>".length)));
    expect(findSequenceProblems(out)).toEqual([]);
  });

  it("keeps every section within its budget, cutting whole items", () => {
    const many = Array.from({ length: 30 }, (_, i) => memory(i % 9, `Memory number ${i}: prefers quiet hotels near the central station.`));
    const budget = { system: 60, profile: 30, memories: 80, pastSessions: 40, recentMessages: 300 };
    const { messages: out, usage } = buildContext({
      system: "You are a travel assistant.",
      profile: { name: "Priya Raman", home: "Oslo", bio: "long ".repeat(80) },
      rules: Array.from({ length: 10 }, (_, i) => rule(`r${i}`, `Rule ${i}: always mention the weather.`, i)),
      memories: many,
      pastSessions: many,
      messages: conversation(30),
      budget,
    });
    expect(usage.system + usage.rules).toBeLessThanOrEqual(budget.system);
    expect(usage.profile).toBeLessThanOrEqual(budget.profile);
    expect(usage.memories).toBeLessThanOrEqual(budget.memories);
    expect(usage.pastSessions).toBeLessThanOrEqual(budget.pastSessions);
    expect(usage.recentMessages + usage.summary).toBeLessThanOrEqual(budget.recentMessages);
    expect(usage.prompt).toBe(countTokens(out));
    expect(usage.prompt).toBeLessThanOrEqual(usage.promptLimit);
    expect(usage.overBudget).toEqual([]);
    expect(usage.droppedMessages).toBeGreaterThan(0);
    const sys = out[0].content as string;
    expect(sys).toContain("Rule 9"); // highest priority first
    expect(sys).not.toContain("long long"); // the oversized profile value is left out whole
    expect(sys).toContain('- name: "Priya Raman"');
    expect(findSequenceProblems(out)).toEqual([]);
  });

  it("stays within the model's context window less the output reserve", () => {
    const { usage, messages: out } = buildContext({ system: "Be brief.", messages: conversation(40), contextWindow: 700, budget: { outputReserve: 200 } });
    expect(usage.promptLimit).toBe(500);
    expect(countTokens(out)).toBeLessThanOrEqual(500);
  });

  it("repairs an orphaned AI tool call at the end of the history and drops orphan tool results", () => {
    const messages = [
      new ToolMessage({ content: "stale result", tool_call_id: "gone", id: "t0" }),
      ...conversation(2),
      new HumanMessage({ content: "Book it.", id: "h9" }),
      new AIMessage({ content: "", id: "c9", tool_calls: [{ id: "b9", name: "book", args: {} }] }),
    ];
    const { messages: out, usage } = buildContext({ system: "Be brief.", messages });
    expect(findSequenceProblems(out)).toEqual([]);
    expect(out.some((m) => m.id === "t0")).toBe(false);
    expect(out[out.length - 1].type).toBe("tool");
    expect(usage.droppedMessages).toBe(1);
  });

  it("merges history system messages into the system block, or keeps blocks separate on request", () => {
    const messages = [new SystemMessage({ content: "House rules: no emojis.", id: "s" }), ...conversation(2)];
    const single = buildContext({ system: "You are a travel assistant.", memories, messages });
    expect(single.messages.filter((m) => m.type === "system")).toHaveLength(1);
    expect(single.messages[0].content).toContain("House rules: no emojis.");
    const separate = buildContext({ system: "You are a travel assistant.", memories, messages, systemLayout: "separate" });
    expect(separate.messages.filter((m) => m.type === "system")).toHaveLength(2);
    expect(findSequenceProblems(separate.messages)).toEqual([]);
  });

  it("treats a watermark that is not in the history as 'covered messages were removed'", () => {
    const summary: SessionSummary = { text: "Earlier: trip planning.", entities: emptyEntities(), coversThroughMessageId: "removed-id", tokens: 0 };
    const messages = conversation(2);
    const { usage, messages: out } = buildContext({ summary, messages });
    expect(usage.summarizedMessages).toBe(0);
    expect(out.slice(1).map((m) => m.id)).toEqual(messages.map((m) => m.id));
  });

  it("rejects invalid budgets with a typed error naming the field", () => {
    expect(() => buildContext({ messages: [], budget: { recentMessages: -5 } })).toThrow(/budget\.recentMessages/);
    expect(() => buildContext({ messages: [], contextWindow: 100 })).toThrow(/contextWindow/);
  });
});
