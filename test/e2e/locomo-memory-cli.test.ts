/**
 * `npm run bench:locomo-memory` and `eval` from the command line: with `--model` and no way to build the
 * model (no key, no provider package) both say "not measured: no model configured" and exit 0;
 * offline, `npm run bench:locomo-memory` prints a table per split and writes its JSON, with conversations
 * run in child processes.
 */
import { describe, expect, it } from "@jest/globals";
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const exec = promisify(execFile);
const FIXTURE = join(process.cwd(), "test", "fixtures", "locomo-mini.json");

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, MODEL: "" };
  delete env.OPENAI_API_KEY;
  try {
    const { stdout, stderr } = await exec(process.execPath, ["--import", "tsx", "evals/cli.ts", ...args], { cwd: process.cwd(), env, maxBuffer: 16 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe("LLM measurements without a model", () => {
  const dir = mkdtempSync(join(tmpdir(), "lgm-locomo-cli-"));

  it("locomo-memory --model: not measured, exit 0, and says so in its JSON", async () => {
    const json = join(dir, "nm.json");
    const r = await cli(["locomo-memory", "--model", "openai:gpt-4o-mini", "--data", FIXTURE, "--json", json]);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe("not measured: no model configured");
    expect(r.stderr).toContain("OPENAI_API_KEY");
    expect(JSON.parse(readFileSync(json, "utf8"))).toMatchObject({ pipeline: "llm:openai:gpt-4o-mini", measured: false });
  }, 30_000);

  it("eval --model: not measured, exit 0, also for a provider whose package is missing", async () => {
    const r = await cli(["eval", "--model", "anthropic:claude-3-5-haiku-latest", "--only", "move-berlin-to-lisbon"]);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe("not measured: no model configured");
    expect(r.stderr).toContain("@langchain/anthropic");
  }, 30_000);
});

describe("npm run bench:locomo-memory offline", () => {
  it("prints a table per split and writes the JSON, two conversations in two child processes", async () => {
    const json = join(mkdtempSync(join(tmpdir(), "lgm-locomo-cli-")), "r.json");
    const r = await cli(["locomo-memory", "--data", FIXTURE, "--conversations", "4,5", "--concurrency", "2", "--json", json]);
    expect(r.code).toBe(0);
    for (const split of ["test split (conversations 5) — headline", "train split (conversations 4)", "all split (conversations 4, 5)"]) expect(r.stdout).toContain(split);
    const result = JSON.parse(readFileSync(json, "utf8"));
    expect(result).toMatchObject({ benchmark: "locomo-memory", measured: true, pipeline: "offline", concurrency: 2, conversations: [4, 5], headline_split: "test" });
    expect(result.splits.all.questions.questions).toBe(2);
    expect(result.splits.all.extraction).toMatchObject({ users: 4, user_turns: 4, positive_turns: 2 });
    expect(result.by_conversation.map((c: { sample_id: string }) => c.sample_id)).toEqual(["mini-4", "mini-5"]);
    expect((await cli(["locomo-memory", "--data", FIXTURE, "--split", "dev"])).code).toBe(2);
  }, 180_000); // three CLI processes, two opening PGlite: slow on a loaded machine; not a timing check
});
