import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  DEFAULT_SCENARIO_START,
  SCENARIO_CATEGORIES,
  loadScenarios,
  parseScenario,
  type LoadedScenario,
  type Scenario,
  type ScenarioProbe,
} from "../../evals/scenario-schema.js";
import { type MemoryError, isMemoryError } from "../../src/errors.js";

const EVALS_DIR = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "evals");
const SCENARIO_DIR = join(EVALS_DIR, "scenarios");
const BLIND_DIR = join(EVALS_DIR, "scenarios-blind");
/**
 * Suites kept outside the repository (hold-out sets) are checked with the same authoring rules
 * when named here, separated like PATH: `EVAL_EXTRA_SCENARIO_DIRS=/path/a:/path/b npx jest …`.
 */
const EXTRA_DIRS = (process.env.EVAL_EXTRA_SCENARIO_DIRS ?? "").split(delimiter).filter((d) => d.trim() !== "");
const DAY_MS = 86_400_000;
const EPISODE_TTL_DAYS = 180;

const lower = (s: string) => s.toLowerCase();
const squash = (s: string) => s.toLowerCase().replace(/\s+/g, "");
const sameScope = (a: { tenant: string; user: string }, b: { tenant: string; user: string }) =>
  a.tenant === b.tenant && a.user === b.user;

/** Sessions that ran before the probe. */
const sessionsBefore = (s: Scenario, p: ScenarioProbe) => s.sessions.slice(0, p.after_session);

/** What the probed user said before the probe (user turns only). */
function userWords(s: Scenario, p: ScenarioProbe): string {
  return sessionsBefore(s, p)
    .filter((x) => sameScope(x, p))
    .flatMap((x) => x.turns.map((t) => ("user" in t ? t.user : "")))
    .join("\n")
    .toLowerCase();
}

/** Everything any session said before the probe (user, assistant and tool text, any scope). */
function allText(sessions: Scenario["sessions"]): string {
  return sessions
    .flatMap((x) => x.turns.map((t) => ("tool" in t ? t.tool : `${t.user}\n${t.assistant ?? ""}`)))
    .join("\n");
}

const actionTypes = (s: Scenario) => s.sessions.flatMap((x) => x.actions.map((a) => a.type));

/** How many scenarios carry each tag. */
function tagCounts(scenarios: Scenario[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const s of scenarios) for (const t of s.tags) counts.set(t, (counts.get(t) ?? 0) + 1);
  return counts;
}

/** The mechanical rules of "Writing scenarios" in docs/evals.md, for any suite in the format. */
function describeAuthoringRules(name: string, dir: string): void {
  describe(`authoring rules (docs/evals.md): ${name}`, () => {
    let scenarios: LoadedScenario[];
    beforeAll(async () => {
      scenarios = await loadScenarios(dir);
    });
    const probes = () => scenarios.flatMap((s) => s.probes.map((p) => ({ s, p })));

    it("validates every file, one scenario per file named after its id", () => {
      for (const s of scenarios) expect(basename(s.file)).toBe(`${s.id}.json`);
      expect(new Set(scenarios.map((s) => s.id)).size).toBe(scenarios.length);
    });

    it("tags every scenario with known categories", () => {
      for (const s of scenarios) {
        expect([s.id, s.tags.length > 0]).toEqual([s.id, true]);
        for (const t of s.tags) expect(SCENARIO_CATEGORIES).toContain(t);
      }
    });

    it("gives every scenario at least one expect group, so a memory that stores nothing fails it", () => {
      for (const s of scenarios) expect([s.id, s.probes.some((p) => p.expect.length > 0)]).toEqual([s.id, true]);
    });

    it("probes only users who spoke before, or deliberately fresh users that can only be checked with forbid", () => {
      for (const { s, p } of probes()) {
        const spoke = sessionsBefore(s, p).some((x) => sameScope(x, p));
        if (!spoke) {
          expect([s.id, p.user, p.expect.length]).toEqual([s.id, p.user, 0]);
          expect(p.forbid.length).toBeGreaterThan(0);
        }
      }
    });

    it("runs each probe after its session in time, with canonical ISO dates", () => {
      for (const { s, p } of probes()) {
        expect(p.after_session).toBeGreaterThanOrEqual(1);
        expect(p.after_session).toBeLessThanOrEqual(s.sessions.length);
        expect(new Date(p.at).toISOString()).toBe(p.at);
        expect(Date.parse(p.at)).toBeGreaterThanOrEqual(Date.parse(s.sessions[p.after_session - 1].at));
      }
      for (const s of scenarios) for (const x of s.sessions) expect(new Date(x.at).toISOString()).toBe(x.at);
    });

    it("expects words the user actually said, never words of the probe's own query", () => {
      for (const { s, p } of probes()) {
        const said = userWords(s, p);
        for (const group of p.expect) {
          expect([s.id, group, group.some((alt) => said.includes(lower(alt)))]).toEqual([s.id, group, true]);
          for (const alt of group) expect([s.id, alt, lower(p.query).includes(lower(alt))]).toEqual([s.id, alt, false]);
        }
      }
    });

    it("checks no string the probed ids already contain (a context may name its tenant and user)", () => {
      for (const { s, p } of probes()) {
        const ids = lower(`${p.tenant} ${p.user}`);
        for (const str of [...p.expect.flat(), ...p.forbid]) expect([s.id, str, ids.includes(lower(str))]).toEqual([s.id, str, false]);
      }
    });

    it("forbids only strings that were really said before the probe and that no expected string contains", () => {
      for (const { s, p } of probes()) {
        const said = squash(allText(sessionsBefore(s, p)));
        for (const f of p.forbid) {
          expect([s.id, f, said.includes(squash(f))]).toEqual([s.id, f, true]);
          for (const alt of p.expect.flat()) expect([s.id, f, lower(alt).includes(lower(f))]).toEqual([s.id, f, false]);
        }
      }
    });

    it("puts the injected instruction of injection scenarios inside a tool turn and forbids it", () => {
      for (const s of scenarios.filter((x) => x.tags.includes("injection"))) {
        const toolText = s.sessions.flatMap((x) => x.turns.flatMap((t) => ("tool" in t ? [lower(t.tool)] : []))).join("\n");
        const forbids = s.probes.flatMap((p) => p.forbid);
        expect([s.id, forbids.some((f) => toolText.includes(lower(f)))]).toEqual([s.id, true]);
      }
    });

    it("makes isolation probes forbid what another user or tenant said", () => {
      for (const s of scenarios.filter((x) => x.tags.some((t) => t.startsWith("isolation")))) {
        const scopes = new Set(s.sessions.map((x) => `${x.tenant}/${x.user}`));
        expect([s.id, scopes.size >= 2]).toEqual([s.id, true]);
        for (const p of s.probes) {
          const others = lower(allText(sessionsBefore(s, p).filter((x) => !sameScope(x, p))));
          expect([s.id, p.user, p.forbid.some((f) => others.includes(lower(f)))]).toEqual([s.id, p.user, true]);
        }
      }
    });

    it("drives deletion with a forget action and opt-out with an opt_out action", () => {
      for (const s of scenarios.filter((x) => x.tags.includes("deletion"))) expect([s.id, actionTypes(s)]).toEqual([s.id, expect.arrayContaining(["forget"])]);
      for (const s of scenarios.filter((x) => x.tags.includes("opt-out"))) expect([s.id, actionTypes(s)]).toEqual([s.id, expect.arrayContaining(["opt_out"])]);
    });

    it("probes TTL scenarios more than 180 days after a session and long-gap ones after at least 10 sessions", () => {
      for (const s of scenarios.filter((x) => x.tags.includes("ttl"))) {
        const first = Date.parse(s.sessions[0].at);
        const latest = Math.max(...s.probes.map((p) => Date.parse(p.at)));
        expect([s.id, (latest - first) / DAY_MS > EPISODE_TTL_DAYS]).toEqual([s.id, true]);
      }
      for (const s of scenarios.filter((x) => x.tags.includes("long-gap"))) {
        expect([s.id, Math.max(...s.probes.map((p) => p.after_session)) >= 11]).toEqual([s.id, true]);
      }
    });
  });
}

/** Set-level coverage: each category is there, opt-out is undone once, a forget is only said. */
function expectCoverage(scenarios: Scenario[], categories: readonly string[]): void {
  const counts = tagCounts(scenarios);
  for (const c of categories) expect([c, (counts.get(c) ?? 0) >= (c === "long-thread" ? 1 : 2)]).toEqual([c, true]);
  expect(scenarios.some((s) => actionTypes(s).includes("opt_out") && actionTypes(s).includes("opt_in"))).toBe(true);
  // Forget said in conversation only, with no action to lean on.
  expect(scenarios.some((s) => s.tags.includes("forget") && !actionTypes(s).includes("forget"))).toBe(true);
}

describeAuthoringRules("public set (evals/scenarios)", SCENARIO_DIR);
describeAuthoringRules("blind set (evals/scenarios-blind)", BLIND_DIR);
for (const dir of EXTRA_DIRS) describeAuthoringRules(dir, dir);

describe("public scenario set (evals/scenarios)", () => {
  let scenarios: LoadedScenario[];
  beforeAll(async () => {
    scenarios = await loadScenarios(SCENARIO_DIR);
  });

  it("holds enough scenarios and covers each category", () => {
    expect(scenarios.length).toBeGreaterThanOrEqual(36);
    expectCoverage(scenarios, SCENARIO_CATEGORIES);
  });

  it("matches the per-category counts and the total written in docs/evals.md", async () => {
    const doc = await readFile(join(EVALS_DIR, "..", "docs", "evals.md"), "utf8");
    for (const c of SCENARIO_CATEGORIES) {
      const row = new RegExp(`^\\| \`${c}\`[^|]*\\| (\\d+) \\|`, "m").exec(doc);
      expect([c, row?.[1]]).toEqual([c, String(scenarios.filter((s) => s.tags.includes(c)).length)]);
    }
    expect(doc).toContain(`${scenarios.length} scenarios, ${scenarios.reduce((n, s) => n + s.sessions.length, 0)} sessions`);
  });

  it("has a thread of 200 turns", () => {
    const longest = Math.max(...scenarios.flatMap((s) => s.sessions.map((x) => x.turns.length)));
    expect(longest).toBeGreaterThanOrEqual(200);
  });
});

describe("blind scenario set (evals/scenarios-blind)", () => {
  let scenarios: LoadedScenario[];
  beforeAll(async () => {
    scenarios = await loadScenarios(BLIND_DIR);
  });

  it("holds at least 44 scenarios, all named blind-…, covering every category but the 200-turn thread", () => {
    expect(scenarios.length).toBeGreaterThanOrEqual(44);
    for (const s of scenarios) expect(s.id).toMatch(/^blind-/);
    expectCoverage(scenarios, SCENARIO_CATEGORIES.filter((c) => c !== "long-thread"));
  });
});

describe("loadScenarios: defaults and errors", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "scenarios-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const write = (name: string, content: unknown) =>
    writeFile(join(dir, name), typeof content === "string" ? content : JSON.stringify(content, null, 2));

  async function loadError(): Promise<MemoryError> {
    try {
      await loadScenarios(dir);
    } catch (err) {
      expect(isMemoryError(err, "INVALID_INPUT")).toBe(true);
      return err as MemoryError;
    }
    throw new Error("loadScenarios accepted an invalid suite");
  }

  /** A valid scenario to break one field at a time. */
  const base = (): Record<string, any> => ({
    id: "units",
    description: "metric preference is remembered",
    sessions: [
      { user: "alice", thread: "s1", at: "2026-03-02T10:00:00Z", turns: [{ user: "Please use metric units.", assistant: "Noted." }] },
    ],
    probes: [{ after_session: 1, user: "alice", query: "How far is Lyon?", expect: [["metric", "km"]] }],
  });

  it("accepts the issue's example verbatim", async () => {
    await write("units-preference.json", {
      id: "units-preference",
      description: "what this checks",
      sessions: [
        {
          tenant: "acme", user: "alice", thread: "s1", at: "2026-03-02T10:00:00Z",
          turns: [{ user: "Please use metric units from now on.", assistant: "Noted." }, { tool: '{"weather": "..."}' }],
          actions: [{ type: "forget", match: "metric" }, { type: "opt_out" }, { type: "opt_in" }],
        },
      ],
      probes: [
        {
          after_session: 1, tenant: "acme", user: "alice", at: "2026-03-20T09:00:00Z",
          query: "How far is it from Paris to Lyon?", expect: [["metric", "kilometre", "kilometer", "km"]], forbid: ["miles"],
        },
      ],
    });
    const [s] = await loadScenarios(dir);
    expect(s.file).toBe(join(dir, "units-preference.json"));
    expect(s.sessions[0].actions).toEqual([{ type: "forget", match: "metric" }, { type: "opt_out" }, { type: "opt_in" }]);
    expect(s.sessions[0].turns[1]).toEqual({ tool: '{"weather": "..."}' });
    expect(s.probes[0]).toMatchObject({ tenant: "acme", at: "2026-03-20T09:00:00.000Z", forbid: ["miles"] });
  });

  it("applies the defaults: tenant, thread, clocks, empty lists", () => {
    const s = parseScenario({
      id: "defaults",
      description: "d",
      sessions: [
        { user: "alice", turns: [{ user: "hi" }] },
        { user: "alice", at: "2026-05-01T12:00:00+02:00", turns: [{ user: "I use metric" }] },
        { user: "bob", actions: [{ type: "opt_out" }] },
      ],
      probes: [{ after_session: 3, user: "alice", query: "q", forbid: ["x"] }],
    });
    expect(s.tags).toEqual([]);
    expect(s.sessions.map((x) => [x.tenant, x.thread, x.at])).toEqual([
      ["default", "session-1", DEFAULT_SCENARIO_START],
      ["default", "session-2", "2026-05-01T10:00:00.000Z"],
      ["default", "session-3", "2026-05-01T10:00:00.000Z"],
    ]);
    expect(s.sessions[0].turns).toEqual([{ user: "hi" }]);
    expect(s.sessions[0].actions).toEqual([]);
    expect(s.sessions[2].turns).toEqual([]);
    expect(s.probes[0]).toEqual({
      after_session: 3, tenant: "default", user: "alice", at: "2026-05-01T10:00:00.000Z", query: "q", expect: [], forbid: ["x"],
    });
  });

  it("names the file and position of a JSON syntax error", async () => {
    await write("broken.json", '{\n  "id": "x",\n}\n');
    const err = await loadError();
    expect(err.message).toContain(join(dir, "broken.json"));
    expect(err.message).toMatch(/not valid JSON at line 3, column 1/);
  });

  it("names the file, the JSON path and the fix for an after_session out of range", async () => {
    const s = base();
    s.probes[0].after_session = 4;
    await write("units.json", s);
    const err = await loadError();
    expect(err.message).toContain(`${join(dir, "units.json")}: $.probes[0].after_session: must be between 1 and 1`);
    expect(err.details).toMatchObject({ files: [{ file: join(dir, "units.json"), issues: [{ path: "$.probes[0].after_session" }] }] });
  });

  it("rejects a misspelt field instead of silently ignoring it, listing the allowed ones", async () => {
    const s = base();
    s.probes[0].forbidd = ["miles"];
    s.sessions[0].turns[0].assitant = "typo";
    await write("units.json", s);
    const err = await loadError();
    expect(err.message).toContain('$.probes[0]: unknown field "forbidd": allowed fields here are after_session, tenant, user, at, query, expect, forbid');
    expect(err.message).toContain('$.sessions[0].turns[0]: unknown field "assitant": allowed fields here are user, assistant, tool');
  });

  it("requires ISO date-times with a timezone and real calendar dates", async () => {
    for (const [i, at] of ["2026-03-02", "2026-03-02T10:00:00", "2026-02-30T10:00:00Z", "next tuesday"].entries()) {
      const s = base();
      s.id = `d${i}`;
      s.sessions[0].at = at;
      await write(`d${i}.json`, s);
    }
    const err = await loadError();
    expect(err.message.match(/\$\.sessions\[0\]\.at: not a valid date-time: use an ISO 8601 date-time with a timezone/g)).toHaveLength(4);
  });

  it("rejects clocks that go back: sessions out of order, a probe before its session", async () => {
    const s = base();
    s.sessions.push({ user: "alice", at: "2026-03-01T10:00:00Z", turns: [{ user: "later?" }] });
    s.probes[0].at = "2026-03-01T09:00:00Z";
    await write("units.json", s);
    const err = await loadError();
    expect(err.message).toContain("$.sessions[1].at: is earlier than a previous session");
    expect(err.message).toContain('$.probes[0].at: is earlier than session 1 (2026-03-02T10:00:00Z) it runs after');
  });

  it("explains broken turns and actions", async () => {
    const s = base();
    s.sessions[0].turns = [{ tool: "{}" }, { user: "hi", tool: "{}" }, {}, { tool: "{}", assistant: "x" }];
    s.sessions[0].actions = [{ type: "forget" }, { type: "wipe" }, { type: "opt_in", match: "x" }];
    await write("units.json", s);
    const err = await loadError();
    for (const line of [
      "$.sessions[0].turns[1]: a turn is either a user turn",
      '$.sessions[0].turns[2]: a turn needs "user" (what the user says) or "tool" (a tool result)',
      '$.sessions[0].turns[3].assistant: a tool turn carries no "assistant" reply',
      '$.sessions[0].actions[0].match: required for "forget"',
      '$.sessions[0].actions[1].type: must be one of "forget", "opt_out", "opt_in"',
      '$.sessions[0].actions[2].match: "match" only applies to "forget", not "opt_in"',
    ]) {
      expect(err.message).toContain(line);
    }
    const fixed = base();
    fixed.sessions[0].turns = [{ tool: "{}" }, { user: "hi" }];
    await write("units.json", fixed);
    expect((await loadError()).message).toContain("$.sessions[0].turns[0]: a tool turn belongs to the assistant turn before it");
  });

  it("rejects probes that check nothing, empty expect groups and missing required fields", async () => {
    const s = base();
    s.probes = [
      { after_session: 1, user: "alice", query: "q" },
      { after_session: 1, user: "alice", query: "q", expect: [[]] },
      { after_session: 1, user: "alice", expect: [["x"]] },
    ];
    delete s.description;
    await write("units.json", s);
    const err = await loadError();
    expect(err.message).toContain('$.probes[0]: a probe checks nothing: add "expect" groups or "forbid" strings');
    expect(err.message).toContain("$.probes[1].expect[0]: an expect group needs at least one string");
    expect(err.message).toContain("$.probes[2].query: required: the question the memory context is built for");
    expect(err.message).toContain("$.description: required: what this scenario checks");
  });

  it("never echoes the offending value (it may be a secret from the scenario)", async () => {
    const s = base();
    s.probes[0].forbid = "sk-live-9f8e7d6c5b4a";
    await write("units.json", s);
    const err = await loadError();
    expect(err.message).toContain('$.probes[0].forbid: must be an array of strings, e.g. ["miles"]');
    expect(JSON.stringify(err.toJSON())).not.toContain("sk-live-9f8e7d6c5b4a");
  });

  it("reports every bad file at once and refuses duplicate ids", async () => {
    await write("a.json", base());
    await write("b.json", base());
    await write("c.json", { ...base(), id: "Not An Id" });
    const err = await loadError();
    expect(err.message).toMatch(/^2 invalid scenario files/);
    expect(err.message).toContain(`${join(dir, "b.json")}: $.id: duplicates the id of a.json`);
    expect(err.message).toContain(`${join(dir, "c.json")}: $.id: must use lowercase letters`);
  });

  it("refuses a missing or empty directory with a message saying what to pass", async () => {
    await expect(loadScenarios(join(dir, "nope"))).rejects.toThrow(/is not a readable directory: pass the folder/);
    await expect(loadScenarios(dir)).rejects.toThrow(/holds no \.json files/);
  });
});
