import { AIMessage, ChatMessage, HumanMessage, RemoveMessage, SystemMessage, ToolMessage } from "@langchain/core/messages";
import { JsonPlusSerializer } from "@langchain/langgraph-checkpoint";
import { MessageDecoder } from "../../src/checkpointer/message-decoder.js";

const serde = new JsonPlusSerializer();
const decoder = MessageDecoder.for(serde)!;

async function both(value: unknown) {
  const [type, bytes] = await serde.dumpsTyped(value);
  return { fast: decoder.decode(type, bytes), slow: await serde.loadsTyped(type, bytes), type, bytes };
}

describe("MessageDecoder", () => {
  it("builds exactly what LangGraph's serializer revives, for every kind of plain message", async () => {
    const messages = [
      new HumanMessage({ id: "h1", content: "Where is my order?", name: "ann" }),
      new HumanMessage({ content: [{ type: "text", text: "look" }, { type: "image_url", image_url: { url: "data:image/png;base64,AAA" } }] }),
      new AIMessage({
        id: "a1",
        content: "",
        tool_calls: [{ id: "call_1", name: "lookup_order", args: { order_id: 42, items: ["a", "b"] } }],
        additional_kwargs: { reasoning: { effort: "low" } },
        response_metadata: { model_name: "m", finish_reason: "tool_calls" },
        usage_metadata: { input_tokens: 10, output_tokens: 3, total_tokens: 13 },
      }),
      new ToolMessage({ id: "t1", content: "shipped", tool_call_id: "call_1", artifact: { rows: [1, 2] }, status: "success" }),
      new SystemMessage("be brief"),
      new ChatMessage({ content: "hi", role: "critic" }),
      new RemoveMessage({ id: "h1" }),
    ];
    for (const m of messages) {
      const { fast, slow } = await both(m);
      expect(fast).toBeDefined();
      expect(Object.getPrototypeOf(fast)).toBe(Object.getPrototypeOf(slow));
      expect(fast).toEqual(slow);
      expect(JSON.stringify(fast)).toBe(JSON.stringify(slow));
    }
  });

  it("leaves everything else to the serializer", async () => {
    // Nested LangChain objects, lc:2 records (an undefined field), values that are not one message.
    const nested = new AIMessage({ content: "x", additional_kwargs: { quoted: new HumanMessage("inner") } });
    const withUndefined = new AIMessage({ content: "x", additional_kwargs: { gone: undefined, kept: 1 } as Record<string, unknown> });
    const withSet = new HumanMessage({ content: "x", additional_kwargs: { tags: new Set(["a"]) } as Record<string, unknown> });
    for (const value of [nested, withUndefined, { messages: [] }, [new HumanMessage("a")], "text", 42]) {
      const { fast } = await both(value);
      expect(fast).toBeUndefined();
    }
    // A message's own toJSON flattens a Set to plain JSON before the serializer sees it: it must match.
    const { fast, slow } = await both(withSet);
    expect(fast).toBeDefined();
    expect(fast).toEqual(slow);
    expect(decoder.decode("bytes", new Uint8Array([123, 34, 108, 99, 34, 58, 49, 125, 0]))).toBeUndefined();
    expect(decoder.decode("json", new TextEncoder().encode('{"lc":1,"type":"constructor","id":["langchain_core","messages","mapStoredMessageToChatMessage"],"kwargs":{}}'))).toBeUndefined();
    expect(decoder.decode("json", new TextEncoder().encode('{"lc":1,"type":"constructor","id":["langchain_core","messages","HumanMessage"],"kwargs":{"__proto__":{"x":1}}}'))).toBeUndefined();
    expect(decoder.decode("json", new TextEncoder().encode('{"lc":1, broken'))).toBeUndefined();
  });

  it("is used only with LangGraph's default serializer itself", () => {
    class Custom extends JsonPlusSerializer {}
    expect(MessageDecoder.for(new Custom())).toBeUndefined();
    expect(MessageDecoder.for({ dumpsTyped: async () => ["json", new Uint8Array()], loadsTyped: async () => null })).toBeUndefined();
    expect(MessageDecoder.for(new JsonPlusSerializer())).toBe(decoder);
  });
});
