import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isMemoryError, type MemoryError } from "../../src/errors.js";
import {
  JsonlMemory,
  createJsonlMemoryTools,
  defaultMemoryFile,
  readJsonlEntries,
  type CorruptLinesReport,
  type JsonlRecord,
} from "../../src/skill/index.js";
import { jqNumber, jqStringify } from "../../src/skill/jq-json.js";
import { queryFragment } from "../../src/skill/jsonl-query.js";

const FIXTURES = join(process.cwd(), "test/skill/fixtures");
let dir: string;
let file: string;
let reports: CorruptLinesReport[];
let memory: JsonlMemory;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "jsonl-memory-"));
  file = join(dir, "memory.jsonl");
  reports = [];
  memory = new JsonlMemory({ file, onCorruptLines: (r) => reports.push(r) });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const lines = () => readFileSync(file, "utf8").split("\n").slice(0, -1);
const contents = (r: { results: Array<{ content: string }> }) => r.results.map((e) => e.content);
async function invalid(p: Promise<unknown>): Promise<MemoryError> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  if (!isMemoryError(err, "INVALID_INPUT")) throw new Error(`expected INVALID_INPUT, got ${String(err)}`);
  return err;
}
function writeLines(...ls: string[]) {
  appendFileSync(file, ls.map((l) => `${l}\n`).join(""));
}

describe("JsonlMemory.write", () => {
  test("appends one line per entry with ts, type, content and optional tags and meta", async () => {
    const now = new Date("2025-03-04T05:06:07.089Z");
    const m = new JsonlMemory({ file, now: () => now });
    const e = await m.write({ type: "note", content: "Prefers terse status updates.", tags: ["preference"] });
    expect(e).toEqual({ ts: "2025-03-04T05:06:07.089Z", type: "note", content: "Prefers terse status updates.", tags: ["preference"] });
    await m.write({ content: "Second.", meta: { source: "user", n: [1, 2.5, null, true] } });
    expect(lines()).toEqual([
      '{"ts":"2025-03-04T05:06:07.089Z","type":"note","content":"Prefers terse status updates.","tags":["preference"]}',
      '{"ts":"2025-03-04T05:06:07.089Z","type":"note","content":"Second.","meta":{"source":"user","n":[1,2.5,null,true]}}',
    ]);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  test("hostile text is stored exactly and one entry stays one line", async () => {
    const hostile = JSON.parse(readFileSync(join(FIXTURES, "hostile.json"), "utf8")) as string[];
    for (const s of hostile) await memory.write({ type: "hostile", content: s });
    const stored = lines().map((l) => JSON.parse(l) as { content: string });
    expect(stored.map((e) => e.content)).toEqual(hostile);
  });

  test.each([
    ["input", null],
    ["input", []],
    ["input", "just a string"],
    ["content", {}],
    ["content", { type: "note" }],
    ["content", { content: 1 }],
    ["content", { content: null }],
    ["content", { content: "" }],
    ["type", { content: "x", type: 5 }],
    ["type", { content: "x", type: null }],
    ["type", { content: "x", type: "" }],
    ["tags", { content: "x", tags: "a" }],
    ["tags", { content: "x", tags: ["a", 1] }],
    ["meta", { content: "x", meta: [] }],
    ["meta", { content: "x", meta: "m" }],
    ["ts", { content: "x", ts: "2020-01-01T00:00:00Z" }],
    ["extra", { content: "x", extra: 1 }],
    ["a", { content: "x", zz: 1, a: 2 }],
    ["input", { content: "x".repeat(4100) }],
    ["input", { content: "lone \ud800 surrogate" }],
  ])("refuses bad input (%s: %j) and leaves the file untouched", async (field, input) => {
    await memory.write({ content: "keep me" });
    const before = readFileSync(file);
    const err = await invalid(memory.write(input as never));
    expect(err.details?.field).toBe(field);
    expect(err.message.startsWith(`${field}: `)).toBe(true);
    expect(readFileSync(file)).toEqual(before);
  });

  test("a refused write does not create the file", async () => {
    await invalid(memory.write({ content: "" }));
    expect(() => statSync(file)).toThrow();
  });

  test("the line limit is 4095 bytes plus the newline", async () => {
    const base = Buffer.byteLength(JSON.stringify(await memory.write({ content: "x" })));
    await memory.write({ content: "y".repeat(4095 - base + 1) });
    expect(Buffer.byteLength(lines()[1])).toBe(4095);
    const err = await invalid(memory.write({ content: "y".repeat(4095 - base + 2) }));
    expect(err.message).toMatch(/4096 bytes/);
  });

  test("ends an unterminated last line before appending, without changing it", async () => {
    writeFileSync(file, '{"ts":"t","type":"note","content":"half');
    await memory.write({ content: "whole" });
    const text = readFileSync(file, "utf8");
    expect(text.startsWith('{"ts":"t","type":"note","content":"half\n')).toBe(true);
    expect(JSON.parse(lines()[1]).content).toBe("whole");
  });

  test("neither creates folders nor writes into a folder", async () => {
    const m = new JsonlMemory({ file: join(dir, "missing", "memory.jsonl") });
    await expect(m.write({ content: "x" })).rejects.toMatchObject({ code: "MEMORY_FILE_UNAVAILABLE" });
    await expect(m.search({})).rejects.toMatchObject({ code: "MEMORY_FILE_UNAVAILABLE" });
    await expect(new JsonlMemory({ file: dir }).write({ content: "x" })).rejects.toMatchObject({ code: "MEMORY_FILE_UNAVAILABLE" });
  });

  test("the default file is $MEMORY_FILE, else ~/.codex/memory.jsonl", () => {
    expect(defaultMemoryFile({ MEMORY_FILE: "/x/m.jsonl" })).toBe("/x/m.jsonl");
    expect(defaultMemoryFile({ MEMORY_FILE: "" })).toMatch(/\.codex\/memory\.jsonl$/);
  });
});

describe("JsonlMemory.search", () => {
  test("q is a literal substring of content, tags or type; ASCII letters ignore case", async () => {
    for (const content of ["a.c", "abc", "[x] marks", "Prefers terse", "École", 'say "hi"', "C:\\temp", "line1\nline2"]) {
      await memory.write({ content });
    }
    await memory.write({ content: "deploy notes", tags: ["Deploy-PROD"] });
    await memory.write({ type: "decision", content: "use pnpm" });
    await memory.write({ content: "plain", meta: { k: "zebra" } });
    expect(contents(await memory.search({ q: "a.c" }))).toEqual(["a.c"]);
    expect(contents(await memory.search({ q: ".*" }))).toEqual([]);
    expect(contents(await memory.search({ q: "[x]" }))).toEqual(["[x] marks"]);
    expect(contents(await memory.search({ q: "PREFERS" }))).toEqual(["Prefers terse"]);
    expect(contents(await memory.search({ q: "ÉCOLE" }))).toEqual(["École"]);
    expect(contents(await memory.search({ q: "école" }))).toEqual([]);
    expect(contents(await memory.search({ q: '"hi"' }))).toEqual(['say "hi"']);
    expect(contents(await memory.search({ q: '\\"hi' }))).toEqual([]);
    expect(contents(await memory.search({ q: "C:\\temp" }))).toEqual(["C:\\temp"]);
    expect(contents(await memory.search({ q: "\\n" }))).toEqual([]);
    expect(contents(await memory.search({ q: "1\nline" }))).toEqual(["line1\nline2"]);
    expect(contents(await memory.search({ q: "content" }))).toEqual([]);
    expect(contents(await memory.search({ q: "prod" }))).toEqual(["deploy notes"]);
    expect(contents(await memory.search({ q: "DECIS" }))).toEqual(["use pnpm"]);
    expect(contents(await memory.search({ q: "zebra" }))).toEqual([]);
  });

  test("lines escaped by other writers are matched on their decoded text", async () => {
    writeLines('{"ts":"t","type":"note","content":"caf\\u00e9 \\u0050refers \\/ a\\/b"}');
    expect(contents(await memory.search({ q: "café" }))).toEqual(["café Prefers / a/b"]);
    expect(contents(await memory.search({ q: "prefers / a/b" }))).toEqual(["café Prefers / a/b"]);
  });

  test("newest first, at most limit; truncated when more matched", async () => {
    for (let i = 1; i <= 5; i += 1) await memory.write({ content: `item ${i}` });
    expect(await memory.search({ q: "item", limit: 3 })).toMatchObject({ truncated: true, used_window_lines: 20000 });
    expect(contents(await memory.search({ q: "item", limit: 3 }))).toEqual(["item 5", "item 4", "item 3"]);
    expect((await memory.search({ q: "item", limit: 5 })).truncated).toBe(false);
    expect(contents(await memory.search())).toEqual(["item 5", "item 4", "item 3", "item 2", "item 1"]);
  });

  test("the window doubles until limit results or the whole file", async () => {
    writeLines(
      ...Array.from({ length: 100 }, (_, i) =>
        JSON.stringify({ ts: "t", type: "note", content: `line ${i + 1}${i < 3 ? " needle" : ""}` }),
      ),
    );
    const s = (q: string, limit: number, window_lines: number) => memory.search({ q, limit, window_lines });
    expect(await s("needle", 3, 10)).toMatchObject({ truncated: false, used_window_lines: 160 });
    expect(contents(await s("needle", 3, 10))).toEqual(["line 3 needle", "line 2 needle", "line 1 needle"]);
    expect(await s("needle", 2, 10)).toMatchObject({ truncated: true, used_window_lines: 160 });
    expect(await s("line", 5, 10)).toMatchObject({ truncated: true, used_window_lines: 10 });
    expect(contents(await s("line", 5, 10))).toEqual(["line 100", "line 99", "line 98", "line 97", "line 96"]);
    expect(await s("needle", 5, 100)).toMatchObject({ truncated: false, used_window_lines: 100 });
    expect(await s("needle", 3, 99)).toMatchObject({ truncated: false, used_window_lines: 198 });
    expect(await s("line 9", 4, 5)).toMatchObject({ truncated: true, used_window_lines: 5 });
    expect(contents(await s("line 9", 4, 5))).toEqual(["line 99", "line 98", "line 97", "line 96"]);
    expect(await s("no such text", 1, 1)).toEqual({ results: [], truncated: false, used_window_lines: 128 });
  });

  test("corrupt lines are skipped and reported by line number, never rewritten", async () => {
    writeFileSync(file, readFileSync(join(FIXTURES, "corrupt.jsonl")));
    const before = readFileSync(file);
    expect(contents(await memory.search({ q: "alpha" }))).toEqual(["alpha two", "alpha one"]);
    expect(reports).toEqual([{ warning: "CORRUPT_LINES", file, count: 6, lines: [2, 3, 4, 6, 10, 13] }]);
    reports.length = 0;
    expect(contents(await memory.search({ q: "gamma" }))).toEqual(["gamma"]);
    expect(reports).toEqual([]);
    const r = await memory.search({ q: "alpha", limit: 1, window_lines: 9 });
    expect(r).toMatchObject({ truncated: true, used_window_lines: 9 });
    expect(reports).toEqual([{ warning: "CORRUPT_LINES", file, count: 3, lines: [6, 10, 13] }]);
    expect(readFileSync(file)).toEqual(before);
  });

  test("an unterminated last line that does not parse is skipped without a report", async () => {
    writeLines('{"ts":"t","type":"note","content":"alpha first"}');
    appendFileSync(file, '{"ts":"t","type":"note","content":"alpha half');
    expect(contents(await memory.search({ q: "alpha" }))).toEqual(["alpha first"]);
    expect(reports).toEqual([]);
    await memory.write({ content: "alpha after" });
    expect(contents(await memory.search({ q: "alpha" }))).toEqual(["alpha after", "alpha first"]);
    expect(reports).toEqual([{ warning: "CORRUPT_LINES", file, count: 1, lines: [2] }]);
  });

  test("creates a missing file; refuses bad queries", async () => {
    expect(await memory.search({ q: "x" })).toEqual({ results: [], truncated: false, used_window_lines: 20000 });
    expect(statSync(file).size).toBe(0);
    const cases: Array<[string, unknown]> = [
      ["input", []],
      ["limit", { limit: 0 }],
      ["limit", { limit: 1.5 }],
      ["limit", { limit: "5" }],
      ["limit", { limit: 1001 }],
      ["window_lines", { window_lines: 0 }],
      ["window_lines", { window_lines: 1e10 }],
      ["q", { q: 5 }],
      ["q", { q: "q".repeat(4097) }],
      ["query", { query: "a" }],
    ];
    for (const [field, query] of cases) {
      expect((await invalid(memory.search(query as never))).details?.field).toBe(field);
    }
  });
});

describe("readJsonlEntries", () => {
  test("yields entries and corrupt lines with line numbers, skipping blank lines", async () => {
    writeFileSync(file, readFileSync(join(FIXTURES, "corrupt.jsonl")));
    appendFileSync(file, '{"ts":"t","type":"note","content":"unterminated');
    const records: JsonlRecord[] = [];
    for await (const r of readJsonlEntries(file)) records.push(r);
    const summary = records.map((r) => (r.kind === "entry" ? [r.line, r.entry.content] : [r.line, r.reason, r.unterminated]));
    expect(summary).toEqual([
      [1, "alpha one"],
      [2, "not valid JSON", false],
      [3, "content is not a string", false],
      [4, "not a JSON object (got array)", false],
      [5, "alpha two"],
      [6, "tags is not an array of strings", false],
      [9, "beta"],
      [10, "not valid JSON", false],
      [11, "café Prefers / slash"],
      [12, "gamma"],
      [13, "meta is not an object", false],
      [14, "not valid JSON", true],
    ]);
    expect(records.at(-1)!.end).toBe(statSync(file).size);
    const e12 = records.find((r) => r.line === 12);
    expect(e12?.kind === "entry" && e12.entry.extra).toEqual({ kept: 1 });
  });

  test("a missing file is an error", async () => {
    await expect(readJsonlEntries(join(dir, "nope.jsonl")).next()).rejects.toMatchObject({ code: "MEMORY_FILE_UNAVAILABLE" });
  });
});

describe("jq-compatible JSON", () => {
  test("numbers and DEL are written as jq 1.6 writes them", () => {
    // biome-ignore lint/correctness/noPrecisionLoss: a number beyond double precision is the case under test
    expect(jqStringify({ a: 1e-7, b: 1e21, c: 123456789012345678901234, d: 0.1, e: -0, s: "x\u007fy\n" })).toBe(
      '{"a":1e-07,"b":1e+21,"c":123456789012345690000000,"d":0.1,"e":-0,"s":"x\\u007fy\\n"}',
    );
    expect([jqNumber(0.0001), jqNumber(1e-5), jqNumber(1e100), jqNumber(Infinity), jqNumber(NaN)]).toEqual([
      "0.0001",
      "1e-05",
      "1e+100",
      "1.7976931348623157e+308",
      "null",
    ]);
  });

  test("the pre-filter fragment is the longest run without quote, backslash, slash or control characters", () => {
    expect(queryFragment('say "hello world" now')).toBe("hello world");
    expect(queryFragment("a/b\\c\nlonger")).toBe("longer");
    expect(queryFragment('"/\\')).toBe("");
    expect(queryFragment("ab|cd")).toBe("ab|cd");
  });
});

describe("LangChain tools", () => {
  test("memory_write and memory_search work on the same file", async () => {
    const [write, search] = createJsonlMemoryTools(memory);
    expect([write.name, search.name]).toEqual(["memory_write", "memory_search"]);
    const stored = JSON.parse(await write.invoke({ content: "Prefers terse status updates.", tags: ["preference"] }));
    expect(stored).toMatchObject({ type: "note", content: "Prefers terse status updates.", tags: ["preference"] });
    const found = JSON.parse(await search.invoke({ q: "prefers", limit: 5 }));
    expect(found).toEqual({ results: [stored], truncated: false, used_window_lines: 20000 });
  });

  test("invalid input comes back as the error JSON, unknown fields are refused by the schema", async () => {
    const [write] = createJsonlMemoryTools(memory);
    const out = JSON.parse(await write.invoke({ content: "x".repeat(5000) }));
    expect(out).toMatchObject({ error: "INVALID_INPUT", field: "input" });
    await expect(write.invoke({ content: "x", ts: "now" } as never)).rejects.toThrow(/ts/);
  });
});
