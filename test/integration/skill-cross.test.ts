// bash <-> TypeScript: scripts/memory.sh and JsonlMemory share one file format and one set of rules. Each
// side writes what the other reads, and for the same file and query both print the same bytes.
import { appendFileSync, copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { isMemoryError } from "../../src/errors.js";
import { JsonlMemory, readJsonlEntries, type CorruptLinesReport } from "../../src/skill/index.js";
import { jqStringify } from "../../src/skill/jq-json.js";
import { hasRg, runBash, runBashAsync, toolPath, type BashCall } from "../skill/bash-harness.js";

const FIXTURES = join(process.cwd(), "test/skill/fixtures");
const hostile = JSON.parse(readFileSync(join(FIXTURES, "hostile.json"), "utf8")) as string[];
const modes = hasRg ? (["grep", "rg"] as const) : (["grep"] as const);
const paths: Record<string, string> = {};
let dir: string;

beforeAll(() => {
  for (const m of modes) paths[m] = toolPath(m);
});
afterAll(() => {
  for (const p of Object.values(paths)) rmSync(p, { recursive: true, force: true });
});
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "skill-cross-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const writeInput = (s: string) => ({ type: "hostile", content: s, ...(Buffer.byteLength(s) < 1000 ? { tags: [s] } : {}) });
const withoutTs = (line: string) => line.replace(/^\{"ts":"[^"]*"/, '{"ts":"T"');

/** Runs the queries through both sides. It returns bash's stdout and stderr, and TypeScript's result printed with jq's formatting. */
async function bothSearch(file: string, queries: unknown[], mode: string) {
  const bash = runBash(queries.map((q) => ({ fn: "memory_search", input: JSON.stringify(q) })), file, paths[mode]);
  const ts = [];
  for (const q of queries) {
    const reports: CorruptLinesReport[] = [];
    const memory = new JsonlMemory({ file, onCorruptLines: (r) => reports.push(r) });
    const result = await memory.search(q as never);
    ts.push({ status: 0, stdout: `${jqStringify(result)}\n`, stderr: reports.map((r) => `${JSON.stringify(r)}\n`).join("") });
  }
  return { bash, ts };
}

describe.each(modes)("bash (%s) and TypeScript", (mode) => {
  test("write the same bytes for every hostile input, and each reads what the other wrote", async () => {
    const bashFile = join(dir, "bash.jsonl");
    const tsFile = join(dir, "ts.jsonl");
    const results = runBash(hostile.map((s) => ({ fn: "memory_write", input: JSON.stringify(writeInput(s)) })), bashFile, paths[mode]);
    expect(results.filter((r) => r.status !== 0)).toEqual([]);
    const memory = new JsonlMemory({ file: tsFile });
    for (const s of hostile) await memory.write(writeInput(s));
    const bashLines = readFileSync(bashFile, "utf8").split("\n");
    const tsLines = readFileSync(tsFile, "utf8").split("\n");
    expect(tsLines.map(withoutTs)).toEqual(bashLines.map(withoutTs));
    // TypeScript reads bash's file, and bash searches TypeScript's file.
    const read: string[] = [];
    for await (const r of readJsonlEntries(bashFile)) if (r.kind === "entry") read.push(r.entry.content);
    expect(read).toEqual(hostile);
    const found = runBash(hostile.map((s) => ({ fn: "memory_search", input: JSON.stringify({ q: s, limit: 100 }) })), tsFile, paths[mode]);
    const lower = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());
    const expected = hostile.map((q) => hostile.filter((h) => lower(h).includes(lower(q))).reverse());
    expect(found.map((r) => (JSON.parse(r.stdout) as { results: Array<{ content: string }> }).results.map((e) => e.content))).toEqual(expected);
    expect(found.map((r) => r.stderr).join("")).toBe("");
  });

  test("search prints the same results, truncated, window and corrupt-line report", async () => {
    const file = join(dir, "memory.jsonl");
    copyFileSync(join(FIXTURES, "corrupt.jsonl"), file);
    const memory = new JsonlMemory({ file });
    for (const s of hostile) await memory.write({ content: s, tags: ["hostile"] });
    appendFileSync(file, '{"ts":"t","type":"note","content":"unterminated alpha');
    const queries: unknown[] = [
      ...hostile.map((q, i) => ({ q, limit: 1 + (i % 4), window_lines: 1 + (i % 9) })),
      {},
      { q: "", limit: 1000 },
      { q: "alpha" },
      { q: "alpha", limit: 1, window_lines: 9 },
      { q: "HOSTILE", limit: 7, window_lines: 3 },
      { q: "\\u" },
      { q: "é", window_lines: 2 },
      { q: "nothing matches this", window_lines: 1 },
    ];
    const { bash, ts } = await bothSearch(file, queries, mode);
    expect(bash).toEqual(ts);
  });

  test("the window rules agree on generated files and queries", async () => {
    const words = ["ab", "AB", "b.c", "x y", 'q"', "é", "\\n", "z"];
    const samples = fc.sample(
      fc.record({
        lines: fc.array(fc.oneof({ weight: 8, arbitrary: fc.subarray(words, { minLength: 1 }) }, { weight: 1, arbitrary: fc.constant(null) }), {
          minLength: 0,
          maxLength: 60,
        }),
        queries: fc.array(
          fc.record({ q: fc.constantFrom(...words, ""), limit: fc.integer({ min: 1, max: 6 }), window_lines: fc.integer({ min: 1, max: 70 }) }),
          { minLength: 6, maxLength: 6 },
        ),
      }),
      { numRuns: 5, seed: 42 },
    );
    for (const [i, sample] of samples.entries()) {
      const file = join(dir, `gen-${i}.jsonl`);
      writeFileSync(
        file,
        sample.lines.map((ws) => (ws ? JSON.stringify({ ts: "t", type: "note", content: ws.join(" ") }) : "garbage ab é")).join("\n") + "\n",
      );
      const { bash, ts } = await bothSearch(file, sample.queries, mode);
      expect(bash).toEqual(ts);
    }
  });

  test("invalid input is refused with the same field and message", async () => {
    const file = join(dir, "memory.jsonl");
    writeFileSync(file, '{"ts":"t","type":"note","content":"keep"}\n');
    const writes: unknown[] = [
      null, [], "s", {}, { content: 1 }, { content: "" }, { content: "x", type: 5 }, { content: "x", type: "" },
      { content: "x", tags: "a" }, { content: "x", tags: [1] }, { content: "x", meta: [] }, { content: "x", ts: "now" },
      { content: "x", zz: 1, a: 2 }, { content: "x".repeat(4100) }, { content: "é".repeat(2040) },
    ];
    const searches: unknown[] = [[], { limit: 0 }, { limit: 2.5 }, { limit: 1001 }, { window_lines: 0 }, { q: 1 }, { q: "q".repeat(4097) }, { query: "x" }];
    const calls: BashCall[] = [
      ...writes.map((w) => ({ fn: "memory_write" as const, input: JSON.stringify(w) })),
      ...searches.map((s) => ({ fn: "memory_search" as const, input: JSON.stringify(s) })),
    ];
    const bash = runBash(calls, file, paths[mode]);
    const memory = new JsonlMemory({ file });
    const ts = [];
    for (const c of calls) {
      const input = JSON.parse(c.input) as never;
      const err = await (c.fn === "memory_write" ? memory.write(input) : memory.search(input)).then(
        () => null,
        (e: unknown) => e,
      );
      ts.push(isMemoryError(err) ? { status: 2, stderr: `${JSON.stringify({ error: err.code, field: err.details?.field, message: err.message })}\n` } : { status: 0, stderr: "" });
    }
    expect(bash.map((r) => ({ status: r.status, stderr: r.stderr }))).toEqual(ts);
    expect(readFileSync(file, "utf8")).toBe('{"ts":"t","type":"note","content":"keep"}\n');
  });

  test("concurrent bash and TypeScript writers never interleave lines", async () => {
    const file = join(dir, "memory.jsonl");
    const pad = (n: number) => "p".repeat((n * 997) % 3800);
    const bashRuns = [1, 2, 3].map((w) =>
      runBashAsync(
        Array.from({ length: 20 }, (_, i) => ({ fn: "memory_write" as const, input: JSON.stringify({ content: `bash ${w} ${i} ${pad(w * 31 + i)}` }) })),
        file,
        paths[mode],
      ),
    );
    const memory = new JsonlMemory({ file });
    const tsRuns = [1, 2].map(async (w) => {
      for (let i = 0; i < 30; i += 1) await memory.write({ content: `ts ${w} ${i} ${pad(w * 17 + i)}` });
    });
    const results = (await Promise.all(bashRuns)).flat();
    await Promise.all(tsRuns);
    expect(results.filter((r) => r.status !== 0)).toEqual([]);
    const lines = readFileSync(file, "utf8").split("\n").filter((l) => l !== "");
    const ids = lines.map((l) => (JSON.parse(l) as { content: string }).content.split(" ").slice(0, 3).join(" "));
    expect(new Set(ids).size).toBe(120);
    expect(lines).toHaveLength(120);
  });
});

test("jqStringify prints any JSON value exactly as jq -c does", () => {
  const values = fc
    .sample(fc.jsonValue({ maxDepth: 3 }), { numRuns: 300, seed: 7 })
    .map((v) => JSON.stringify(v))
    .filter((text) => !/(?<!\\)(?:\\\\)*\\ud[89a-f]/.test(text));
  const input = values.join("\n") + "\n";
  const jq = execFileSync("jq", ["-c", "."], { input, encoding: "utf8" }).split("\n").slice(0, -1);
  expect(values.map((text) => jqStringify(JSON.parse(text)))).toEqual(jq);
});
