import { describe, expect, it } from "@jest/globals";
import { AIMessage, HumanMessage, SystemMessage, ToolMessage } from "@langchain/core/messages";
import { countTextTokens, encodingForModel } from "../../src/tokens/count-text.js";
import {
  countMessageTokens,
  countTokens,
  IMAGE_TOKENS,
  MESSAGE_OVERHEAD_TOKENS,
  messageToolCalls,
  NAME_OVERHEAD_TOKENS,
  REPLY_PRIMING_TOKENS,
  TOOL_CALL_OVERHEAD_TOKENS,
} from "../../src/tokens/count-messages.js";

describe("countTokens", () => {
  it("counts string content plus the per-message overhead and the reply priming", () => {
    const text = "What is the weather in Oslo tomorrow?";
    const m = new HumanMessage(text);
    expect(countMessageTokens(m)).toBe(MESSAGE_OVERHEAD_TOKENS + countTextTokens(text));
    expect(countTokens([m])).toBe(REPLY_PRIMING_TOKENS + MESSAGE_OVERHEAD_TOKENS + countTextTokens(text));
    expect(countTokens([])).toBe(0);
  });

  it("counts content-block arrays like the same text as a string", () => {
    const blocks = new HumanMessage({ content: [{ type: "text", text: "Pack for " }, { type: "text", text: "rain." }] });
    expect(countMessageTokens(blocks)).toBe(MESSAGE_OVERHEAD_TOKENS + countTextTokens("Pack for ") + countTextTokens("rain."));
  });

  it("prices images by detail, not by their bytes", () => {
    const big = "data:image/png;base64," + "A".repeat(100_000);
    const high = new HumanMessage({ content: [{ type: "image_url", image_url: { url: big } }] });
    const low = new HumanMessage({ content: [{ type: "image_url", image_url: { url: big, detail: "low" } }] });
    expect(countMessageTokens(high)).toBe(MESSAGE_OVERHEAD_TOKENS + IMAGE_TOKENS.high);
    expect(countMessageTokens(low)).toBe(MESSAGE_OVERHEAD_TOKENS + IMAGE_TOKENS.low);
  });

  it("counts tool calls (name + JSON args) and tool results", () => {
    const args = { city: "Oslo", days: 3 };
    const ai = new AIMessage({ content: "", tool_calls: [{ id: "c1", name: "get_weather", args }] });
    expect(countMessageTokens(ai)).toBe(
      MESSAGE_OVERHEAD_TOKENS + TOOL_CALL_OVERHEAD_TOKENS + countTextTokens("get_weather") + countTextTokens(JSON.stringify(args)),
    );
    const twoCalls = new AIMessage({ content: "", tool_calls: [{ id: "c1", name: "get_weather", args }, { id: "c2", name: "get_weather", args }] });
    expect(countMessageTokens(twoCalls) - MESSAGE_OVERHEAD_TOKENS).toBe(2 * (countMessageTokens(ai) - MESSAGE_OVERHEAD_TOKENS));
    const result = new ToolMessage({ content: "12°C, cloudy", tool_call_id: "c1" });
    expect(countMessageTokens(result)).toBe(MESSAGE_OVERHEAD_TOKENS + countTextTokens("12°C, cloudy"));
  });

  it("reads OpenAI-format tool calls from additional_kwargs and does not count mirrored tool_use blocks twice", () => {
    // Set after construction: the constructor would parse them into tool_calls (and warn).
    const raw = new AIMessage("");
    raw.additional_kwargs = { tool_calls: [{ id: "c9", type: "function", function: { name: "lookup", arguments: '{"q":"x"}' } }] };
    expect(messageToolCalls(raw)).toEqual([{ id: "c9", name: "lookup", args: '{"q":"x"}' }]);
    const plain = new AIMessage({ content: "", tool_calls: [{ id: "t1", name: "lookup", args: { q: "x" } }] });
    const mirrored = new AIMessage({ content: [{ type: "tool_use", id: "t1", name: "lookup", input: { q: "x" } }], tool_calls: [{ id: "t1", name: "lookup", args: { q: "x" } }] });
    expect(countMessageTokens(mirrored)).toBe(countMessageTokens(plain));
  });

  it("counts the name field", () => {
    const named = new HumanMessage({ content: "hello there", name: "priya" });
    expect(countMessageTokens(named)).toBe(MESSAGE_OVERHEAD_TOKENS + NAME_OVERHEAD_TOKENS + countTextTokens("priya") + countTextTokens("hello there"));
  });

  it("chooses the encoding from the model name", () => {
    expect(encodingForModel("gpt-4")).toBe("cl100k_base");
    expect(encodingForModel("openai:gpt-3.5-turbo")).toBe("cl100k_base");
    expect(encodingForModel("gpt-4o-mini")).toBe("o200k_base");
    const text = "Größenordnung – Übersicht der Verkehrsverbindungen nach Trondheim 🚆";
    const msgs = [new SystemMessage("Antworte auf Deutsch."), new HumanMessage(text)];
    expect(countTextTokens(text, "cl100k_base")).not.toBe(countTextTokens(text, "o200k_base"));
    expect(countTokens(msgs, { model: "gpt-4" })).toBe(
      REPLY_PRIMING_TOKENS + 2 * MESSAGE_OVERHEAD_TOKENS + countTextTokens("Antworte auf Deutsch.", "cl100k_base") + countTextTokens(text, "cl100k_base"),
    );
    expect(countTokens(msgs, { model: "gpt-4o" })).toBe(
      REPLY_PRIMING_TOKENS + 2 * MESSAGE_OVERHEAD_TOKENS + countTextTokens("Antworte auf Deutsch.", "o200k_base") + countTextTokens(text, "o200k_base"),
    );
  });

  it("recounts a message whose content was changed in place (the per-object cache checks its inputs)", () => {
    const m = new HumanMessage("short");
    const before = countMessageTokens(m);
    m.content = "a much longer message than before, with many more tokens in it";
    expect(countMessageTokens(m)).toBe(MESSAGE_OVERHEAD_TOKENS + countTextTokens(m.content as string));
    expect(countMessageTokens(m)).toBeGreaterThan(before);
  });

  it("gives fresh copies of a message the same count (as after a checkpoint load)", () => {
    const a = new AIMessage({ content: "Layers and a rain jacket.", tool_calls: [{ id: "c1", name: "get_weather", args: { city: "Oslo" } }] });
    const b = new AIMessage({ content: "Layers and a rain jacket.", tool_calls: [{ id: "c1", name: "get_weather", args: { city: "Oslo" } }] });
    expect(countMessageTokens(b)).toBe(countMessageTokens(a));
  });
});
