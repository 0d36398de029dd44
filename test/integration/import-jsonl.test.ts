/**
 * `importJsonlFile` and `langgraph-memory import-jsonl`: a memory-skill file into the long-term
 * store through the write policy (secrets refused, duplicates collapsed, corrupt lines counted),
 * on both engines and from the CLI.
 */
import { jest } from "@jest/globals";
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { main } from "../../src/cli/main.js";
import type { Database } from "../../src/db/database.js";
import { openDatabase } from "../../src/db/open.js";
import { importJsonlFile } from "../../src/extraction/write/index.js";
import { JsonlMemory } from "../../src/skill/jsonl-memory.js";
import { RuleStore } from "../../src/procedural/rule-store.js";
import { MemoryRepository } from "../../src/store/memory-store.js";
import { openTestDatabase, testEngines } from "../helpers/db.js";
import { InMemoryRuleTarget, InMemorySettingsTarget } from "../helpers/ports.js";

const TOKEN = "ghp_9fK2mQ7xL4vN8cR1tY6wZ3bH5jD0sA2eU7iO";
const dir = mkdtempSync(join(tmpdir(), "lgm-import-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A skill file as agents leave them: entries from JsonlMemory, a repeat, a secret, special data, corrupt lines. */
async function skillFile(name: string): Promise<string> {
  const file = join(dir, name);
  let t = Date.parse("2025-01-31T09:30:00.000Z");
  // Written as the bash skill (or an older version) leaves them: without memory_write's filter.
  const memory = new JsonlMemory({ file, now: () => new Date((t += 60_000)), onCorruptLines: () => undefined, allowSensitive: true });
  await memory.write({ type: "note", content: "Prefers terse status updates.", tags: ["preference"] }); // line 1
  await memory.write({ content: "Uses pnpm, not npm, in every repository." }); // 2
  await memory.write({ type: "note", content: "Prefers terse status updates.", tags: ["preference"] }); // 3: a repeat
  await memory.write({ content: `My GitHub token is ${TOKEN}` }); // 4: a secret
  appendFileSync(file, "{not json at all\n"); // 5
  await memory.write({ type: "procedure", content: "Run the linter before every commit." }); // 6
  await memory.write({ content: "Deploys go out on Tuesdays after the standup.", tags: ["episode"] }); // 7
  await memory.write({ content: "Has type 1 diabetes and carries insulin." }); // 8: special category
  appendFileSync(file, '{"ts":"2025-02-01T00:00:00.000Z","type":"note","content":"x","tags":"oops"}\n'); // 9
  appendFileSync(file, '{"ts":"2025-02-01T00:00:00.000Z","type":"note","content":"half a li'); // 10: unterminated
  return file;
}

describe.each(testEngines())("importJsonlFile on %s", (engine) => {
  let db: Database;
  let store: MemoryRepository;
  const user = { tenantId: "acme", userId: `import-${engine}` };

  beforeAll(async () => {
    db = await openTestDatabase(engine);
    store = new MemoryRepository(db);
  });
  afterAll(async () => {
    await db.close();
  });

  it("imports entries through the write policy, keeps their time, and counts duplicates, refusals and corrupt lines", async () => {
    const file = await skillFile(`skill-${engine}.jsonl`);
    const progress: Array<[number, number]> = [];
    const result = await importJsonlFile(file, { store, scope: user, onProgress: (done, total) => progress.push([done, total]) });
    expect(result).toMatchObject({
      entries: 7,
      imported: 4,
      duplicates: 1,
      refused: 2,
      refusedByReason: { sensitive: 2 },
      refusedByCategory: { api_key: 1, health: 1 },
      corruptLines: 3,
      corrupt: [
        { line: 5, reason: "not valid JSON" },
        { line: 9, reason: "tags is not an array of strings" },
        { line: 10, reason: "not valid JSON (unterminated last line)" },
      ],
    });
    const size = readFileSync(file).length;
    expect(progress.at(-1)).toEqual([size, size]);

    const rows = await store.export(user);
    expect(rows.map((m) => [m.kind, m.text]).sort()).toEqual([
      ["episode", "Deploys go out on Tuesdays after the standup."],
      ["fact", "Uses pnpm, not npm, in every repository."],
      ["preference", "Prefers terse status updates."],
      ["procedure", "Run the linter before every commit."],
    ]);
    const terse = rows.find((m) => m.text === "Prefers terse status updates.")!;
    expect(terse).toMatchObject({ createdAt: "2025-01-31T09:31:00.000Z", source: { threadId: null, messageId: "jsonl:1", origin: "user_stated" } });
    expect(terse.metadata).toMatchObject({ writer: "import", seenCount: 2 });
    expect(rows.find((m) => m.kind === "episode")!.expiresAt).not.toBeNull();
    expect(JSON.stringify(rows)).not.toContain(TOKEN);
    expect(JSON.stringify(result)).not.toMatch(/ghp_|diabetes|terse/);

    // Importing the same file again adds nothing.
    const again = await importJsonlFile(file, { store, scope: user });
    expect(again).toMatchObject({ entries: 7, imported: 0, duplicates: 5, refused: 2, corruptLines: 3 });
    expect(await store.export(user)).toHaveLength(4);
  });

  it("procedures become proposed rules with a rule target; an opted-out user gets an OPTED_OUT error and nothing", async () => {
    const file = await skillFile(`skill-rules-${engine}.jsonl`);
    const other = { tenantId: "acme", userId: `import-rules-${engine}` };
    const rules = new InMemoryRuleTarget();
    const result = await importJsonlFile(file, { store, scope: other, targets: { rules } });
    expect(result.imported).toBe(4);
    expect(rules.rules.map((r) => [r.text, r.state, r.source, r.origin.kind])).toEqual([["Run the linter before every commit.", "proposed", "feedback", "import"]]);
    expect((await store.export(other)).map((m) => m.kind).sort()).toEqual(["episode", "fact", "preference"]);

    const settings = new InMemorySettingsTarget();
    const optedOut = { tenantId: "acme", userId: `import-optout-${engine}` };
    settings.optOut(optedOut);
    await expect(importJsonlFile(file, { store, scope: optedOut, targets: { settings } })).rejects.toMatchObject({ code: "OPTED_OUT" });
    expect(await store.export(optedOut)).toEqual([]);
  });
});

describe("langgraph-memory import-jsonl", () => {
  let out: string[];
  let err: string[];
  beforeEach(() => {
    out = [];
    err = [];
    jest.spyOn(console, "log").mockImplementation((...a: unknown[]) => void out.push(a.join(" ")));
    jest.spyOn(console, "error").mockImplementation((...a: unknown[]) => void err.push(a.join(" ")));
    jest.spyOn(process.stderr, "write").mockImplementation(((chunk: unknown) => (err.push(String(chunk)), true)) as typeof process.stderr.write);
  });
  afterEach(() => jest.restoreAllMocks());

  it("imports into an embedded database folder with a progress bar and a summary; a second run finds duplicates", async () => {
    const file = await skillFile("cli.jsonl");
    const url = `pglite:${join(dir, "db")}`;
    expect(await main(["import-jsonl", file, "--tenant", "acme", "--user", "cli-user", "--database-url", url])).toBe(0);
    expect(out.join("\n")).toContain(`imported 4, duplicates 1, refused 2, corrupt lines 3 (7 entries in ${file})`);
    expect(out.join("\n")).toContain("refused by category: api_key 1, health 1");
    expect(out.join("\n")).toContain("line 5: not valid JSON");
    // The CLI writes through the database-backed targets: the procedure became a proposed rule.
    expect(out.join("\n")).toContain("profile fields 0, rules proposed 1");
    expect(err.join("")).toMatch(/importing \(bytes\) \[#+\] \d+\/\d+ 100%/);
    expect([...out, ...err].join("\n")).not.toMatch(/ghp_|diabetes/);

    out = [];
    expect(await main(["import-jsonl", file, "--tenant", "acme", "--user", "cli-user", "--database-url", url, "--json"])).toBe(0);
    expect(JSON.parse(out[0])).toMatchObject({ entries: 7, imported: 0, duplicates: 5, refused: 2, corruptLines: 3 });

    const db = await openDatabase(url);
    try {
      const cliUser = { tenantId: "acme", userId: "cli-user" };
      expect((await new MemoryRepository(db).list(cliUser)).map((m) => m.text).sort()).toEqual([
        "Deploys go out on Tuesdays after the standup.",
        "Prefers terse status updates.",
        "Uses pnpm, not npm, in every repository.",
      ]);
      expect((await new RuleStore(db).list(cliUser)).map((r) => [r.text, r.state])).toEqual([["Run the linter before every commit.", "proposed"]]);
    } finally {
      await db.close();
    }
  });

  it("needs --user (the tenant defaults as in every command), and a readable file", async () => {
    const file = await skillFile("cli-errors.jsonl");
    expect(await main(["import-jsonl", file, "--tenant", "acme"])).toBe(1);
    expect(err.join("\n")).toContain("error SCOPE_REQUIRED: --user U is required: whose memories the entries become");
    expect(await main(["import-jsonl", join(dir, "missing.jsonl"), "--tenant", "acme", "--user", "u", "--database-url", "memory://"])).toBe(1);
    expect(err.join("\n")).toContain("error MEMORY_FILE_UNAVAILABLE");
  });
});
