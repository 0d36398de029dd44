/**
 * One message far longer than any reader can use (a pasted document or log of 2 million
 * characters, over the secret filter's MAX_SCAN_CHARS) must not poison its thread: an outside
 * tester saw every later turn fail INVALID_INPUT once the summary step reached it. Summaries,
 * short sessions and extraction read such a message as its start and end; every turn answers,
 * no memory step reports an error, and what the user wrote around the paste is remembered.
 */
import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import type { Database } from "../../src/db/database.js";
import { keepStartAndEnd } from "../../src/core/cut-text.js";
import { createMemory, type LangGraphMemory } from "../../src/index.js";
import { withMemory } from "../../src/graph/index.js";
import { MAX_SCAN_CHARS } from "../../src/sensitive/detect-sensitive.js";
import { boundedForSummary, MAX_SUMMARIZED_MESSAGE_CHARS } from "../../src/summarization/bounded-messages.js";
import { collectExtractionSources, MAX_SOURCE_CHARS } from "../../src/extraction/sources.js";
import { openTestDatabase } from "../helpers/db.js";

const PASTE = "lorem ipsum dolor sit amet ".repeat(80_000);

describe("keepStartAndEnd and the readers' bounds", () => {
  it("keeps a text that fits, and cuts a longer one to its start and end with the count left out", () => {
    expect(keepStartAndEnd("short", 10)).toBe("short");
    const text = `${"a".repeat(30_000)}${"z".repeat(20_000)}`;
    const cut = keepStartAndEnd(text, 20_000);
    expect(cut.startsWith("a".repeat(15_000))).toBe(true);
    expect(cut.endsWith("z".repeat(5_000))).toBe(true);
    expect(cut).toContain("[… 30,000 characters left out …]");
    expect(cut.length).toBeLessThan(20_100);
  });

  it("boundedForSummary copies only the long messages, keeping type, id and tool-call pairs", () => {
    const short = new HumanMessage({ id: "h1", content: "hi" });
    const longAi = new AIMessage({ id: "a1", content: PASTE, tool_calls: [{ id: "c1", name: "lookup", args: { q: "x" }, type: "tool_call" }] });
    const longTool = new ToolMessage({ id: "t1", content: PASTE, tool_call_id: "c1", name: "lookup" });
    const [s, a, t] = boundedForSummary([short, longAi, longTool]);
    expect(s).toBe(short);
    expect(a.getType()).toBe("ai");
    expect(a.id).toBe("a1");
    expect((a as AIMessage).tool_calls?.map((c) => c.id)).toEqual(["c1"]);
    expect(String(a.content).length).toBeLessThanOrEqual(MAX_SUMMARIZED_MESSAGE_CHARS + 100);
    expect(t.getType()).toBe("tool");
    expect((t as ToolMessage).tool_call_id).toBe("c1");
    expect(longAi.content).toBe(PASTE);
  });

  it("an extraction source is the message's start and end", () => {
    const { sources } = collectExtractionSources([new HumanMessage({ id: "m1", content: `I prefer green tea. ${PASTE}` })]);
    expect(sources[0]!.text.startsWith("I prefer green tea.")).toBe(true);
    expect(sources[0]!.text.length).toBeLessThanOrEqual(MAX_SOURCE_CHARS + 100);
  });
});

describe("a thread with a 2-million-character message (pglite)", () => {
  let db: Database;
  let memory: LangGraphMemory;
  beforeAll(async () => {
    db = await openTestDatabase("pglite");
    memory = await createMemory({ db });
  });
  afterAll(async () => {
    await memory.close();
    await db.close();
  });

  it("answers every later turn, summarises, and no memory step fails", async () => {
    const errors: string[] = [];
    const graph = withMemory({
      memory,
      agent: async () => ({ messages: [new AIMessage("ok")] }),
      extraction: "inline",
      onError: (err, stage) => errors.push(`${stage}: ${(err as Error).message}`),
    }).compile({ checkpointer: memory.checkpointer });
    const config = { configurable: { thread_id: "long-1", tenant_id: "acme", user_id: "paster" } };
    const huge = `I prefer green tea. ${PASTE}`;
    expect(huge.length).toBeGreaterThan(MAX_SCAN_CHARS);
    const turns = [huge, "I live in Berlin.", "I have two kids.", "My dog is called Rex."];
    let last: Record<string, unknown> = {};
    for (const text of turns) last = await graph.invoke({ messages: [new HumanMessage(text)] }, config);
    expect(errors).toEqual([]);
    expect((last.messages as unknown[]).length).toBe(turns.length * 2);
    expect(last.summary).toEqual(expect.objectContaining({ text: expect.any(String) }));
    const texts = (await memory.store.list({ tenantId: "acme", userId: "paster" })).map((m) => m.text);
    expect(texts).toEqual(expect.arrayContaining([expect.stringMatching(/green tea/i)]));
  });
});
