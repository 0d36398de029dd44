/**
 * What `langgraph-memory dev` reads: langgraph.json's graphs and env, `--graph` values, and the
 * `runs.wait` answer taken from a finished event stream.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseGraphOption, readLangGraphJson } from "../../src/studio/graph-specs.js";
import { parseSse, waitResultOf } from "../../src/studio/sse-values.js";

describe("langgraph.json and --graph", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "lgm-specs-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("reads the repository's langgraph.json: graph ids, files resolved against its folder, exports, env", () => {
    const config = readLangGraphJson("langgraph.json");
    expect(config.graphs).toEqual([
      { id: "memory_agent", sourceFile: resolve("graphs/memory_agent.ts"), exportSymbol: "graph" },
      { id: "extract_memories", sourceFile: resolve("graphs/extract_memories.ts"), exportSymbol: "graph" },
    ]);
    expect(config.env).toMatchObject({ LANGGRAPH_MEMORY_EXTRACTION: "worker" });
  });

  it("takes { path } graph entries, an env file, and the default export", () => {
    const file = join(dir, "langgraph.json");
    writeFileSync(file, JSON.stringify({ graphs: { a: { path: "./src/a.ts", description: "A" }, b: "./b.mjs" }, env: ".env" }));
    expect(readLangGraphJson(file)).toEqual({
      graphs: [
        { id: "a", sourceFile: join(dir, "src/a.ts"), exportSymbol: "default" },
        { id: "b", sourceFile: join(dir, "b.mjs"), exportSymbol: "default" },
      ],
      envFile: join(dir, ".env"),
    });
  });

  it("refuses a file without graphs, or that is not JSON, saying what to write", () => {
    const file = join(dir, "bad.json");
    writeFileSync(file, JSON.stringify({ dependencies: ["."] }));
    expect(() => readLangGraphJson(file)).toThrow(/needs "graphs"/);
    writeFileSync(file, "{ graphs: ");
    expect(() => readLangGraphJson(file)).toThrow(/is not JSON/);
    expect(() => readLangGraphJson(join(dir, "missing.json"))).toThrow(/cannot read .*--graph PATH:EXPORT/);
  });

  it("parses --graph [ID=]PATH[:EXPORT]", () => {
    expect(parseGraphOption("./graphs/agent.ts:graph", "/app")).toEqual({ id: "agent", sourceFile: "/app/graphs/agent.ts", exportSymbol: "graph" });
    expect(parseGraphOption("bot=./src/bot.mts", "/app")).toEqual({ id: "bot", sourceFile: "/app/src/bot.mts", exportSymbol: "default" });
    expect(parseGraphOption("/abs/x.js:make", "/app")).toEqual({ id: "x", sourceFile: "/abs/x.js", exportSymbol: "make" });
    expect(() => parseGraphOption("my graph=./a.ts", "/app")).toThrow(/ids: letters, digits/);
  });
});

describe("runs.wait from a finished stream", () => {
  it("answers the last values event, with multi-line data joined", () => {
    const text = 'event: metadata\ndata: {"run_id":"r"}\n\nevent: values\ndata: {"n":1}\n\nevent: values\ndata: {"n":\ndata: 2}\n\n';
    expect(parseSse(text).map((e) => e.event)).toEqual(["metadata", "values", "values"]);
    expect(waitResultOf(parseSse(text))).toEqual({ n: 2 });
  });

  it("answers { __error__ } when the run failed, as the stock server does", () => {
    const text = 'event: values\ndata: {"n":1}\r\n\r\nevent: error\ndata: {"error":"MemoryError","message":"SCOPE_REQUIRED"}\n\n';
    expect(waitResultOf(parseSse(text))).toEqual({ __error__: { error: "MemoryError", message: "SCOPE_REQUIRED" } });
  });
});
