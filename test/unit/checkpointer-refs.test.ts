import { AIMessage, HumanMessage, RemoveMessage } from "@langchain/core/messages";
import { JsonPlusSerializer } from "@langchain/langgraph-checkpoint";
import { compressRanges, expandRanges, isRef, refSeqs } from "../../src/checkpointer/refs.js";
import { BLOCK_SIZE, Dumper, SOLO_STREAM, ValuePlanner, joinRecord, shapeOf } from "../../src/checkpointer/plan-value.js";
import { ThreadCache } from "../../src/checkpointer/thread-cache.js";
import { splitCheckpoint, joinCheckpoint } from "../../src/checkpointer/checkpoint-row.js";
import { nextChannelVersion } from "../../src/checkpointer/versions.js";

describe("item references", () => {
  it("compress consecutive numbers into inclusive ranges and back, in value order", () => {
    expect(compressRanges([1, 2, 3, 7, 8, 5])).toEqual([1, 3, 7, 8, 5, 5]);
    expect(expandRanges([1, 3, 7, 8, 5, 5])).toEqual([1, 2, 3, 7, 8, 5]);
    expect(compressRanges([])).toEqual([]);
  });

  it("list the items each shape needs, and refuse malformed ones", () => {
    expect(refSeqs([4, 6])).toEqual([4, 5, 6]);
    expect(refSeqs(9)).toEqual([9]);
    expect(refSeqs({ v: null })).toEqual([]);
    expect(refSeqs({ k: [["messages", 2]], i: [3, 4] })).toEqual([3, 4]);
    for (const bad of [[1], [3, 1], "x", null, { k: "messages", i: [] }, { k: [["m", -2]], i: [] }, 1.5]) expect(isRef(bad)).toBe(false);
    for (const good of [[], [1, 1], 3, { v: [1, 2] }, { k: [["m", -1]], i: [2, 2], v: {} }]) expect(isRef(good)).toBe(true);
  });
});

describe("value shapes", () => {
  it("store arrays holding objects element by element, messages as items, inputs as records, the rest whole", () => {
    expect(shapeOf([new HumanMessage("a")]).kind).toBe("array");
    expect(shapeOf([{ page: 1 }, "x"]).kind).toBe("array");
    expect(shapeOf([1, 2, 3]).kind).toBe("blob");
    expect(shapeOf(new AIMessage("b")).kind).toBe("item");
    const input = { messages: [new HumanMessage("hi")], mode: "fast" };
    const shape = shapeOf(input);
    expect(shape).toMatchObject({ kind: "record", keys: [["messages", 1]], rest: { messages: null, mode: "fast" } });
    expect(shapeOf({ lc: 1, type: "constructor", messages: [new HumanMessage("x")] }).kind).toBe("blob");
    expect(shapeOf({ text: "summary" }).kind).toBe("blob");
  });

  it("rebuild a record with its keys in their places", () => {
    const h = new HumanMessage("hi");
    const out = joinRecord({ messages: null, mode: "fast", last: null }, [["messages", 1], ["last", -1]], [h, h]);
    expect(Object.keys(out)).toEqual(["messages", "mode", "last"]);
    expect(out).toEqual({ messages: [h], mode: "fast", last: h });
    expect(() => joinRecord({}, [["messages", 2]], [h])).toThrow(/elements/);
  });
});

describe("ValuePlanner", () => {
  const serde = new JsonPlusSerializer();
  const planner = (thread?: ThreadCache, counter = 0) => new ValuePlanner(thread, "", counter, new Dumper(serde), 32, "messages");

  it("numbers a channel's new elements in its own block, and items nothing will share apart", async () => {
    const p = planner();
    const first = await p.plan([new HumanMessage({ id: "h1", content: "q" }), new AIMessage({ id: "a1", content: "a" })], undefined, "messages");
    expect(first.ref).toEqual([1, 2]);
    // A message without an id, a RemoveMessage and a whole value go to the solo stream's block.
    const write = await p.plan([new HumanMessage("no id"), new RemoveMessage({ id: "h1" })], undefined, "messages");
    expect(write.ref).toEqual([BLOCK_SIZE + 1, BLOCK_SIZE + 2]);
    const summary = await p.plan({ text: "a summary longer than thirty-two bytes of JSON" }, undefined, "summary");
    expect(summary.ref).toBe(BLOCK_SIZE + 3);
    const next = await p.plan([new AIMessage({ id: "a2", content: "b" })], undefined, "messages");
    expect(next.ref).toEqual([3, 3]);
    expect(p.reserved).toBe(2 * BLOCK_SIZE);
    expect([...p.blocks.keys()].sort()).toEqual([SOLO_STREAM, "messages"].sort());
    expect(await p.plan(null, undefined, "branch:to:agent")).toEqual({ ref: { v: null }, seqs: [] });
  });

  it("reuses stored elements by identity, but not once a message's id or an object's bytes changed", async () => {
    const thread = new ThreadCache(1, 10);
    const kept = new HumanMessage({ id: "h1", content: "kept" });
    const edited = new HumanMessage({ id: "h2", content: "before" });
    const doc = { page: 1 };
    thread.addItem(1, kept, 1);
    thread.addItem(2, edited, 1);
    const dumper = new Dumper(serde);
    thread.addItem(3, doc, 0, (await import("../../src/checkpointer/plan-value.js")).digest((await dumper.dump(doc)).bytes));
    const base = { version: "1", source: { kind: "cp" as const, ns: "", id: "c1" }, refText: "[1,3]", seqs: [1, 2, 3] };
    edited.content = "after";
    doc.page = 2;
    const p = new ValuePlanner(thread, "", 10, new Dumper(serde), 32, "messages");
    const { ref } = await p.plan([kept, edited, doc], base, "history");
    expect(ref).toEqual([1, 1, 11, 12]);
    expect([...p.sources.keys()]).toHaveLength(1);
  });
});

describe("checkpoint rows", () => {
  it("keep an ISO ts in a column and anything else in extra, and give the checkpoint back as it was", () => {
    const checkpoint = { v: 4, id: "c1", ts: "2025-01-02T03:04:05.678Z", channel_values: { a: 1 }, channel_versions: { a: 2 }, versions_seen: { n: { a: 1 } } };
    const columns = splitCheckpoint(checkpoint);
    expect(columns).toEqual({ v: 4, ts: "2025-01-02T03:04:05.678Z", channelVersions: '{"a":2}', versionsSeen: '{"n":{"a":1}}', extra: null });
    const odd = { ...checkpoint, ts: "2025-01-02 03:04", v: 1.5, pending_sends: [] } as never;
    const oddColumns = splitCheckpoint(odd);
    expect(oddColumns).toMatchObject({ v: null, ts: null });
    expect(joinCheckpoint("c1", { v: null, ts: null, channelVersions: { a: 2 }, versionsSeen: { n: { a: 1 } }, extra: JSON.parse(oddColumns.extra!) })).toEqual({
      ...(odd as object),
      channel_values: {},
    });
  });

  it("count channel versions up by integers, also after another saver's strings and fractions", () => {
    expect(nextChannelVersion(undefined)).toBe(1);
    expect(nextChannelVersion(41)).toBe(42);
    expect(nextChannelVersion(41.482913201)).toBe(42);
    expect(nextChannelVersion("00000000000000000000000000000002.0.243798")).toBe(3);
  });
});
