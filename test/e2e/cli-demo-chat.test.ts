/**
 * The main job and the REPL as a user runs them: `langgraph-memory demo` (the scripted
 * multi-session transcript) and `langgraph-memory chat` with its input piped, each in its own
 * process on a fresh embedded database folder.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const TIMEOUT = 120_000;

function cli(args: string[], options: { input?: string; env?: Record<string, string> } = {}) {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !/^(MODEL|EMBEDDINGS|OPENAI_API_KEY|DATABASE_URL|LANGGRAPH_MEMORY_.*|NODE_OPTIONS)$/.test(k)) env[k] = v;
  }
  const result = spawnSync(process.execPath, ["--import", "tsx", "src/cli/run.ts", ...args], {
    cwd: process.cwd(),
    env: { ...env, ...options.env },
    input: options.input,
    encoding: "utf8",
    timeout: TIMEOUT - 10_000,
  });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

describe("langgraph-memory demo and chat", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "lgm-cli-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it(
    "demo: a transcript of what was written, superseded, refused, summarised, retrieved, injected and deleted",
    () => {
      const { code, out, err } = cli(["demo", "--data-dir", join(dir, "demo")]);
      expect({ code, err: err.trim() }).toEqual({ code: 0, err: "" });
      const section = (n: number) => out.slice(out.indexOf(`━━ Session ${n} `), out.indexOf(`━━ Session ${n + 1} `) > 0 ? out.indexOf(`━━ Session ${n + 1} `) : undefined);
      expect(out).toContain(`embedded PGlite in ${join(dir, "demo")}/ (fresh)`);
      // 1: a preference and who the user is go to the profile.
      expect(section(1)).toMatch(/profile {4}units: ∅ → "metric"/);
      expect(section(1)).toContain('profile    location: ∅ → "Berlin"');
      expect(section(1)).toContain('profile    employer: ∅ → "Acme"');
      // 2: the correction replaces the field (its history keeps the old value); the next turn injects it.
      expect(section(2)).toContain('profile    location: "Berlin" → "Lisbon"');
      expect(section(2).split("How far is Porto")[1]).toContain('location "Lisbon"');
      // 3: a task outcome is kept; the secret is refused and appears nowhere after the user's own line.
      expect(section(3)).toContain('written    [episode] "Clearing the build cache fixed the problem');
      expect(section(3)).toContain("refused    1 candidate: api_key");
      const token = "ghp_16C7e42F292c6912E7710c838347Ae178B4a";
      expect(out.split(token).length - 1).toBe(1);
      // 4: the long session is summarised and indexed as a past session.
      expect(section(4)).toMatch(/summarize {5}history passed 70% of the recent-messages budget: the oldest turns folded into a \d+-token rolling summary/);
      expect(section(4)).toMatch(/older messages replaced by the summary/);
      expect(section(4)).toContain('session    thread "kyoto-trip" indexed as a past session (long thread, offline summary of its conversation)');
      // 5: past sessions and memories injected with token counts; a memory deleted on request.
      expect(section(5)).toMatch(/load_memory {3}\d+ tokens injected \(profile \d+ · rules \d+ · memories \d+ · past sessions [1-9]\d*\)/);
      expect(section(5)).toMatch(/past session "[^"]*(Kyoto|Arashiyama|Nara|Fushimi|Gion)/);
      expect(section(5)).toMatch(/retrieved {2}\[episode\] "Clearing the build cache fixed the problem[^\n]*score 0\.\d\d\)/);
      expect(section(5)).toContain('profile    employer: "Acme" → ∅');
      expect(section(5)).toMatch(/agent {9}prompt \d+ tokens = system \d+ \+ memory \d+ \+ summary \d+ \+ recent messages \d+/);
      // Every answer is labelled offline.
      const answers = out.split("\n").filter((l) => l.startsWith("assistant › "));
      expect(answers.length).toBe(16);
      expect(answers.every((a) => a.startsWith("assistant › [offline responder] "))).toBe(true);
      // The final state: the corrected profile, the episode, the deleted employer gone everywhere.
      const final = out.slice(out.indexOf("━━ What memory holds"));
      expect(final).toContain('profile     name "Alice", units "metric", location "Lisbon", occupation "data engineer"');
      expect(final).toContain('active      [episode] "Clearing the build cache fixed the problem');
      expect(final).not.toContain("Acme");
      expect(final).toMatch(/done in \d+\.\d s/);
    },
    TIMEOUT,
  );

  it(
    "chat: piped input through the same pipeline, with /memories, /forget, /summary and /exit",
    () => {
      const url = `pglite:${join(dir, "chat")}`;
      const first = cli(["chat", "--user", "bob", "--tenant", "acme", "--thread", "t1", "--database-url", url], {
        input: ["Please always use metric units.", "The nightly export failed with a disk full error; pruning old snapshots fixed it.", "/memories", "/summary", "/exit", "this line is never read"].join("\n") + "\n",
      });
      expect(first.code).toBe(0);
      expect(first.out).toContain("langgraph-memory chat · acme/bob · thread t1 · pglite");
      expect(first.out).toMatch(/profile {4}units: ∅ → "metric"/);
      expect(first.out).toContain('written    [episode] "Pruning old snapshots fixed the problem');
      const id = /^ {2}([0-9a-f-]{36}) {2}\[episode\] Pruning old snapshots fixed the problem/m.exec(first.out)?.[1];
      expect(id).toBeDefined();
      expect(first.out).toContain('profile: units "metric"');
      expect(first.out).toContain("no summary yet");
      expect(first.out).not.toContain("never read");
      expect(first.out).toContain("continue later with: npx langgraph-memory chat --user bob --tenant acme --thread t1");

      // A new process, a new thread: memory persisted; then forget it by id.
      const second = cli(["chat", "--user", "bob", "--tenant", "acme", "--database-url", url], {
        input: ["The nightly export failed again, what fixed it last time?", `/forget ${id}`, "/memories", "/forget not-an-id"].join("\n") + "\n",
      });
      expect(second.code).toBe(0);
      expect(second.out).toMatch(/assistant › \[offline responder\] From memory: "Pruning old snapshots fixed the problem/);
      expect(second.out).toContain("deleted 1 memory");
      const afterForget = second.out.slice(second.out.indexOf("deleted 1 memory"));
      expect(afterForget).toMatch(/\d+ active memor(y|ies):/);
      expect(afterForget).not.toContain("Pruning old snapshots");
      expect(second.out).toMatch(/error (NOT_FOUND|INVALID_INPUT)/);

      const noUser = cli(["chat"], { input: "" });
      expect(noUser.code).toBe(2);
      expect(noUser.err).toContain("--user ID is required");
    },
    TIMEOUT,
  );
});
