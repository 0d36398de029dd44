import { describe, expect, it } from "@jest/globals";
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import fc from "fast-check";
import { findSequenceProblems } from "../../src/context/sequence-problems.js";
import { isMemoryError } from "../../src/errors.js";
import { createHistoryStrategy } from "../../src/summarization/history-strategy.js";
import { groupMessages, MISSING_TOOL_RESULT_TEXT, repairToolPairs } from "../../src/summarization/message-groups.js";
import { planTrim, trimHistory } from "../../src/summarization/trim-history.js";
import { countTokens } from "../../src/tokens/count-messages.js";

const human = (id: string, text = `question ${id} about the trip`) => new HumanMessage({ content: text, id });
const ai = (id: string, text = `answer ${id}: pack layers and a rain jacket`) => new AIMessage({ content: text, id });
const call = (id: string, callIds: string[]) =>
  new AIMessage({ content: "", id, tool_calls: callIds.map((c) => ({ id: c, name: "get_weather", args: { city: `city-${c}` } })) });
const result = (callId: string, id = `r-${callId}`) => new ToolMessage({ content: `weather for ${callId}: 12°C and cloudy`, tool_call_id: callId, id, name: "get_weather" });
const ids = (messages: BaseMessage[]) => messages.map((m) => m.id ?? `(${m.type}:${(m as ToolMessage).tool_call_id ?? ""})`);

describe("trimHistory", () => {
  const system = new SystemMessage({ content: "You are a travel assistant.", id: "sys" });
  const history = [
    system,
    human("h1"),
    call("a1", ["c1", "c2", "c3"]),
    result("c1"),
    result("c2"),
    result("c3"),
    ai("a1b"),
    human("h2"),
    ai("a2"),
    human("h3"),
  ];

  it("keeps the system message and the newest messages within budget", () => {
    const tail = [system, human("h2"), ai("a2"), human("h3")];
    const budget = countTokens([history[0], ...history.slice(7)]);
    const kept = trimHistory(history, { maxTokens: budget });
    expect(ids(kept)).toEqual(ids(tail));
    expect(countTokens(kept)).toBeLessThanOrEqual(budget);
  });

  it("keeps an AI message with parallel tool calls together with all its results, or drops them together", () => {
    const full = countTokens(history);
    expect(ids(trimHistory(history, { maxTokens: full }))).toEqual(ids(history));
    // Room for everything newer plus all but one token of the three-call group: the group cannot be split.
    const newer = countTokens([history[0], ...history.slice(6)]);
    const group = countTokens(history.slice(2, 6)) - 3; // without the reply priming
    const kept = trimHistory(history, { maxTokens: newer + group - 1, startOn: "any" });
    expect(ids(kept)).toEqual(ids([history[0], ...history.slice(6)]));
    expect(ids(trimHistory(history, { maxTokens: newer + group, startOn: "any" }))).toEqual(ids([history[0], ...history.slice(2)]));
    expect(kept.some((m) => m.type === "tool")).toBe(false);
    expect(kept.some((m) => m.id === "a1")).toBe(false);
    expect(findSequenceProblems(kept)).toEqual([]);
  });

  it("never starts with a tool result whose call was cut", () => {
    const withoutH1 = history.filter((m) => m.id !== "h1");
    for (let budget = 20; budget <= countTokens(withoutH1); budget += 7) {
      const kept = trimHistory(withoutH1, { maxTokens: budget, startOn: "any" });
      const first = kept.find((m) => m.type !== "system");
      if (first) expect(first.type).not.toBe("tool");
      expect(findSequenceProblems(kept)).toEqual([]);
    }
  });

  it("starts on a user message by default", () => {
    const budget = countTokens([history[0], ...history.slice(6)]); // room for a1b (an AI answer) + the rest
    const kept = trimHistory(history, { maxTokens: budget });
    expect(kept[1].type).toBe("human");
  });

  it("drops tool results whose call is not in the list, and moves late results after their call", () => {
    const messages = [human("h1"), result("ghost"), call("a1", ["c1", "c2"]), result("c1"), human("h2"), result("c2"), ai("a2")];
    const { groups, orphanToolResults } = groupMessages(messages);
    expect(orphanToolResults).toBe(1);
    const flat = repairToolPairs(messages);
    expect(ids(flat)).toEqual(["h1", "a1", "r-c1", "r-c2", "h2", "a2"]);
    expect(findSequenceProblems(flat)).toEqual([]);
    expect(groups.map((g) => g.type)).toEqual(["human", "ai", "human", "ai"]);
  });

  it("repairs an AI tool call left without results at the end (interrupted run)", () => {
    const messages = [human("h1"), ai("a1"), human("h2"), call("a2", ["c7", "c8"]), result("c7")];
    const synthesized = trimHistory(messages, { maxTokens: 10_000 });
    expect(findSequenceProblems(synthesized)).toEqual([]);
    expect(synthesized.map((m) => m.type)).toEqual(["human", "ai", "human", "ai", "tool", "tool"]);
    expect((synthesized[5] as ToolMessage).tool_call_id).toBe("c8");
    expect(synthesized[5].content).toBe(MISSING_TOOL_RESULT_TEXT);

    const dropped = trimHistory(messages, { maxTokens: 10_000, missingToolResults: "drop" });
    expect(findSequenceProblems(dropped)).toEqual([]);
    expect(ids(dropped)).toEqual(["h1", "a1", "h2"]); // the call had no text: nothing of it is left
    expect(messages).toHaveLength(5); // input untouched
  });

  it("keeps the newest unit even when it alone exceeds the budget, and says so", () => {
    const long = human("h9", "word ".repeat(500));
    const plan = planTrim([human("h1"), ai("a1"), long], { maxTokens: 50 });
    expect(ids(plan.messages)).toEqual(["h9"]);
    expect(plan.overBudget).toBe(true);
    expect(trimHistory([human("h1"), long], { maxTokens: 50, keepLatest: false })).toEqual([]);
  });

  it("rejects a bad budget with a typed error", () => {
    try {
      trimHistory(history, { maxTokens: -1 });
      throw new Error("expected an error");
    } catch (err) {
      expect(isMemoryError(err, "INVALID_INPUT")).toBe(true);
      expect((err as Error).message).toMatch(/maxTokens/);
    }
  });

  it("property: any history, any budget → a valid sequence within budget, a suffix of the turns, system kept", () => {
    const turnArb = fc.record({
      rounds: fc.array(
        fc.record({
          calls: fc.integer({ min: 1, max: 3 }),
          missing: fc.boolean(),
          late: fc.boolean(),
          reversed: fc.boolean(),
        }),
        { maxLength: 2 },
      ),
      orphan: fc.boolean(),
      words: fc.integer({ min: 1, max: 40 }),
    });
    fc.assert(
      fc.property(fc.array(turnArb, { minLength: 1, maxLength: 12 }), fc.boolean(), fc.integer({ min: 10, max: 1500 }), fc.constantFrom("human", "any"), (turns, withSystem, budget, startOn) => {
        const messages: BaseMessage[] = withSystem ? [new SystemMessage({ content: "Be brief.", id: "sys" })] : [];
        let late: ToolMessage[] = [];
        turns.forEach((turn, t) => {
          messages.push(human(`h${t}`, `turn ${t} ` + "please help ".repeat(turn.words)));
          messages.push(...late);
          late = [];
          turn.rounds.forEach((round, r) => {
            const callIds = Array.from({ length: round.calls }, (_, k) => `c${t}-${r}-${k}`);
            messages.push(call(`a${t}-${r}`, callIds));
            let results = callIds.map((c) => result(c));
            if (round.missing) results = results.slice(1);
            if (round.reversed) results.reverse();
            if (round.late && results.length > 0) late.push(results.pop() as ToolMessage);
            messages.push(...results);
          });
          if (turn.orphan) messages.push(result(`gone-${t}`));
          messages.push(ai(`f${t}`));
        });
        const plan = planTrim(messages, { maxTokens: budget, startOn: startOn as "human" | "any" });
        expect(findSequenceProblems(plan.messages)).toEqual([]);
        if (!plan.overBudget) expect(countTokens(plan.messages)).toBeLessThanOrEqual(budget);
        expect(plan.tokens).toBe(countTokens(plan.messages));
        if (withSystem) expect(plan.messages[0].id).toBe("sys");
        // Kept user turns are the newest ones, without gaps.
        const allHumans = messages.filter((m) => m.type === "human").map((m) => m.id);
        const keptHumans = plan.messages.filter((m) => m.type === "human").map((m) => m.id);
        expect(keptHumans).toEqual(allHumans.slice(allHumans.length - keptHumans.length));
        // The newest message is always there.
        expect(plan.messages.some((m) => m.id === messages[messages.length - 1].id)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe("history strategies", () => {
  const messages: BaseMessage[] = [];
  for (let t = 1; t <= 6; t++) {
    messages.push(human(`h${t}`));
    if (t % 2 === 0) messages.push(call(`c${t}`, [`x${t}`, `y${t}`]), result(`x${t}`), result(`y${t}`));
    messages.push(ai(`a${t}`));
  }

  it("window: the last N user turns with their tool rounds, capped by the budget", () => {
    const window = createHistoryStrategy({ kind: "window", maxTurns: 2 });
    const picked = window.select(messages, { maxTokens: 10_000 });
    expect(ids(picked.messages)).toEqual(["h5", "a5", "h6", "c6", "r-x6", "r-y6", "a6"]);
    const tight = window.select(messages, { maxTokens: countTokens(messages.slice(-5)) - 3 });
    expect(findSequenceProblems(tight.messages)).toEqual([]);
    expect(tight.messages.length).toBeLessThan(picked.messages.length);
  });

  it("tokens: the newest whole units within the budget", () => {
    const tokens = createHistoryStrategy({ kind: "tokens" });
    const budget = countTokens(messages.slice(-9)) - 3;
    const picked = tokens.select(messages, { maxTokens: budget });
    expect(picked.tokens).toBeLessThanOrEqual(budget);
    expect(findSequenceProblems(picked.messages)).toEqual([]);
    expect(picked.messages[0].type).toBe("human");
  });

  it("summary: selects like tokens and carries the summarisation node", () => {
    const summary = createHistoryStrategy({ kind: "summary", budget: 2000 });
    expect(typeof summary.summarizationNode).toBe("function");
    expect(ids(summary.select(messages, { maxTokens: 10_000 }).messages)).toEqual(ids(messages));
  });

  it("rejects a window without a positive number of turns", () => {
    expect(() => createHistoryStrategy({ kind: "window", maxTurns: 0 })).toThrow(/maxTurns/);
  });
});
