/**
 * The eval scenario format (issue 8, docs/evals.md): one JSON file per scenario, a list of
 * sessions (who talks, in which thread, at what time, what they say, which memory controls run
 * afterwards) and probes (what memory context must and must not be injected for a question).
 *
 * The shape is a contract shared with suites written elsewhere, so field names are exactly the
 * issue's; unknown fields are rejected because a misspelt `forbid` would otherwise turn a probe
 * into one that can never fail.
 */
import { readdir, readFile, stat } from "node:fs/promises";
import { basename, join } from "node:path";
import { z } from "zod";
import { ErrorCodes, MemoryError } from "../src/errors.js";

/** Tenant used when a session or probe names none. */
export const DEFAULT_TENANT = "default";
/** Clock of a first session that has no `at` (later sessions without `at` keep the previous clock). */
export const DEFAULT_SCENARIO_START = "2026-01-01T00:00:00.000Z";

/**
 * Categories the public set is written to cover (optional `tags` of a scenario). Tags are free
 * strings in the format; these are the ones the public set uses and reports count.
 */
export const SCENARIO_CATEGORIES = [
  "preference",
  "profile",
  "correction",
  "job-plan-change",
  "remember",
  "forget",
  "one-off",
  "secret",
  "episode",
  "procedural",
  "injection",
  "isolation-users",
  "isolation-tenants",
  "deletion",
  "opt-out",
  "ttl",
  "long-gap",
  "long-thread",
] as const;
export type ScenarioCategory = (typeof SCENARIO_CATEGORIES)[number];

const ISO_HINT = 'use an ISO 8601 date-time with a timezone, e.g. "2026-03-02T10:00:00Z"';

const nonEmptyText = (what: string) =>
  z
    .string({ error: (i) => (i.input === undefined ? `required: ${what}` : `must be a string: ${what}`) })
    .refine((s) => s.trim().length > 0, { error: `must not be empty: ${what}` });

const nameField = (what: string) =>
  z
    .string({ error: `must be a string: ${what}` })
    .refine((s) => s.trim().length > 0, { error: `must not be empty: ${what}` });

const isoInstant = z.iso.datetime({ offset: true, error: `not a valid date-time: ${ISO_HINT}` });

const TurnInput = z
  .strictObject({
    user: z.string({ error: "must be a string: what the user says" }).optional(),
    assistant: z.string({ error: "must be a string: the canned assistant reply" }).optional(),
    tool: z.string({ error: "must be a string: the tool result text (JSON-encode objects into a string)" }).optional(),
  }, { error: 'each turn must be an object: {"user": "...", "assistant": "..."} or {"tool": "..."}' })
  .superRefine((turn, ctx) => {
    const hasUser = turn.user !== undefined;
    const hasTool = turn.tool !== undefined;
    if (hasUser === hasTool) {
      ctx.addIssue({
        code: "custom",
        message: hasUser
          ? 'a turn is either a user turn {"user", "assistant"?} or a tool turn {"tool"}, not both: split it into two turns'
          : 'a turn needs "user" (what the user says) or "tool" (a tool result)',
      });
    }
    if (hasTool && turn.assistant !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["assistant"],
        message: 'a tool turn carries no "assistant" reply: put the reply on the user turn before it',
      });
    }
    if (hasUser && turn.user!.trim().length === 0) {
      ctx.addIssue({ code: "custom", path: ["user"], message: "must not be empty: what the user says" });
    }
  });

const ActionInput = z
  .strictObject({
    type: z.enum(["forget", "opt_out", "opt_in"], { error: 'must be one of "forget", "opt_out", "opt_in"' }),
    match: z.string({ error: "must be a string: the text a memory must contain to be forgotten" }).optional(),
  }, { error: 'each action must be an object, e.g. {"type": "forget", "match": "metric"}' })
  .superRefine((action, ctx) => {
    if (action.type === "forget" && (action.match === undefined || action.match.trim().length === 0)) {
      ctx.addIssue({
        code: "custom",
        path: ["match"],
        message: 'required for "forget": the text (case-insensitive) a memory must contain to be deleted',
      });
    }
    if (action.type !== "forget" && action.match !== undefined) {
      ctx.addIssue({ code: "custom", path: ["match"], message: `"match" only applies to "forget", not "${action.type}"` });
    }
  });

const SessionInput = z
  .strictObject({
    tenant: nameField("the tenant id").optional(),
    user: nameField("the user id"),
    thread: nameField("the thread id of this session").optional(),
    at: isoInstant.optional(),
    turns: z.array(TurnInput, { error: "must be an array of turns" }).optional(),
    actions: z.array(ActionInput, { error: "must be an array of actions" }).optional(),
  }, { error: 'each session must be an object with at least "user" and "turns"' })
  .superRefine((session, ctx) => {
    const turns = session.turns ?? [];
    if (turns.length === 0 && (session.actions ?? []).length === 0) {
      ctx.addIssue({ code: "custom", message: 'a session needs at least one turn or one action' });
    }
    if (turns[0]?.tool !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["turns", 0],
        message: "a tool turn belongs to the assistant turn before it: start the session with a user turn",
      });
    }
  });

const ProbeInput = z
  .strictObject({
    after_session: z
      .number({ error: "required: the number of sessions (1-based) after which the probe runs" })
      .int({ error: "must be a whole number of sessions" })
      .min(1, { error: "must be at least 1 (sessions are counted from 1)" }),
    tenant: nameField("the tenant id").optional(),
    user: nameField("the user id whose memory is probed"),
    at: isoInstant.optional(),
    query: nonEmptyText("the question the memory context is built for"),
    expect: z
      .array(
        z
          .array(nonEmptyText("a string expected in the memory context"), {
            error: 'each expect group must be an array of strings, e.g. ["metric", "km"]',
          })
          .min(1, { error: "an expect group needs at least one string" }),
        { error: 'must be an array of groups, e.g. [["metric", "km"], ["celsius"]]' },
      )
      .optional(),
    forbid: z.array(nonEmptyText("a string that must not appear"), { error: 'must be an array of strings, e.g. ["miles"]' }).optional(),
  }, { error: 'each probe must be an object with "after_session", "user", "query" and "expect" or "forbid"' })
  .superRefine((probe, ctx) => {
    if ((probe.expect ?? []).length === 0 && (probe.forbid ?? []).length === 0) {
      ctx.addIssue({ code: "custom", message: 'a probe checks nothing: add "expect" groups or "forbid" strings' });
    }
  });

const ScenarioInput = z
  .strictObject({
    id: z
      .string({ error: "required: the scenario id (lowercase letters, digits, '-', '_' or '.')" })
      .regex(/^[a-z0-9][a-z0-9._-]*$/, { error: "must use lowercase letters, digits, '-', '_' or '.', e.g. \"units-preference\"" }),
    description: nonEmptyText("what this scenario checks"),
    tags: z.array(nameField("a category tag"), { error: 'must be an array of strings, e.g. ["preference"]' }).optional(),
    sessions: z
      .array(SessionInput, { error: "required: an array of sessions" })
      .min(1, { error: "a scenario needs at least one session" }),
    probes: z.array(ProbeInput, { error: "required: an array of probes" }).min(1, { error: "a scenario needs at least one probe" }),
  }, { error: 'a scenario must be a JSON object with "id", "description", "sessions" and "probes"' })
  .superRefine((s, ctx) => {
    let previous: number | undefined;
    s.sessions.forEach((session, i) => {
      if (session.at === undefined) return;
      const t = Date.parse(session.at);
      if (previous !== undefined && t < previous) {
        ctx.addIssue({
          code: "custom",
          path: ["sessions", i, "at"],
          message: "is earlier than a previous session: sessions run in file order, so their clocks must not go back",
        });
      }
      previous = t;
    });
    s.probes.forEach((probe, i) => {
      if (probe.after_session > s.sessions.length) {
        ctx.addIssue({
          code: "custom",
          path: ["probes", i, "after_session"],
          message: `must be between 1 and ${s.sessions.length} (the number of sessions); got ${probe.after_session}`,
        });
        return;
      }
      const sessionAt = resolvedSessionAt(s.sessions, probe.after_session - 1);
      if (probe.at !== undefined && Date.parse(probe.at) < Date.parse(sessionAt)) {
        ctx.addIssue({
          code: "custom",
          path: ["probes", i, "at"],
          message: `is earlier than session ${probe.after_session} (${sessionAt}) it runs after: move it later or lower "after_session"`,
        });
      }
    });
  });

type SessionInputT = z.infer<typeof SessionInput>;

function resolvedSessionAt(sessions: SessionInputT[], index: number): string {
  for (let i = index; i >= 0; i--) {
    const at = sessions[i].at;
    if (at !== undefined) return at;
  }
  return DEFAULT_SCENARIO_START;
}

/** Same instant in one canonical spelling, so runners can compare and sort clocks as strings. */
const canonical = (iso: string) => new Date(iso).toISOString();

/** A user turn, optionally with the canned assistant reply (otherwise the responder answers). */
export interface ScenarioUserTurn {
  user: string;
  assistant?: string;
}
/** A tool result (untrusted content) attributed to the assistant turn before it. */
export interface ScenarioToolTurn {
  tool: string;
}
export type ScenarioTurn = ScenarioUserTurn | ScenarioToolTurn;

/** A memory control run after the session's turns. */
export type ScenarioAction = { type: "forget"; match: string } | { type: "opt_out" } | { type: "opt_in" };

export interface ScenarioSession {
  tenant: string;
  user: string;
  thread: string;
  /** Canonical ISO instant (UTC, milliseconds). */
  at: string;
  turns: ScenarioTurn[];
  actions: ScenarioAction[];
}

export interface ScenarioProbe {
  /** 1-based: the probe runs after this many sessions. */
  after_session: number;
  tenant: string;
  user: string;
  /** Canonical ISO instant (UTC, milliseconds). */
  at: string;
  query: string;
  /** Groups of alternatives; a group passes when any alternative appears (case-insensitive). */
  expect: string[][];
  /** Any of these appearing (case-insensitive) makes the probe stale/wrong. */
  forbid: string[];
}

/** A validated scenario with every default applied. */
export interface Scenario {
  id: string;
  description: string;
  tags: string[];
  sessions: ScenarioSession[];
  probes: ScenarioProbe[];
}

/** A scenario and the file it came from. */
export interface LoadedScenario extends Scenario {
  file: string;
}

/** One problem found in a scenario: where (a JSON path like `$.probes[0].after_session`) and what to fix. */
export interface ScenarioIssue {
  path: string;
  message: string;
}

/**
 * Validate one scenario value and apply the defaults: tenant `"default"`, thread `session-N`,
 * `at` carried over from the previous session (a probe's from its session), empty turns,
 * actions, expect, forbid and tags. Throws `MemoryError` INVALID_INPUT naming `source`, each
 * JSON path and what to fix.
 *
 * @example
 * const s = parseScenario(JSON.parse(text), "my-suite/units.json");
 * s.sessions[0].tenant; // "default" when the file names none
 */
export function parseScenario(value: unknown, source = "<scenario>"): Scenario {
  const result = checkScenario(value);
  if (!result.ok) throw scenarioError([{ file: source, issues: result.issues }]);
  return result.scenario;
}

/**
 * Read and validate every `*.json` file of `dir` (sorted by name). All problems of all files are
 * reported in one `MemoryError` INVALID_INPUT; duplicate ids across files are an error too.
 *
 * @example
 * const scenarios = await loadScenarios("evals/scenarios");
 * for (const s of scenarios) console.log(s.id, s.probes.length);
 */
export async function loadScenarios(dir: string): Promise<LoadedScenario[]> {
  let names: string[];
  try {
    if (!(await stat(dir)).isDirectory()) throw new Error("not a directory");
    names = (await readdir(dir)).filter((n) => n.endsWith(".json")).sort();
  } catch (cause) {
    throw new MemoryError(ErrorCodes.INVALID_INPUT, `scenarios: "${dir}" is not a readable directory: pass the folder holding the scenario .json files`, {
      details: { field: "scenarios", dir },
      cause,
    });
  }
  if (names.length === 0) {
    throw new MemoryError(ErrorCodes.INVALID_INPUT, `scenarios: "${dir}" holds no .json files: add one scenario per file`, {
      details: { field: "scenarios", dir },
    });
  }

  const loaded: LoadedScenario[] = [];
  const failures: { file: string; issues: ScenarioIssue[] }[] = [];
  const firstFileOfId = new Map<string, string>();
  for (const name of names) {
    const file = join(dir, name);
    // Editors on Windows may save a byte-order mark, which JSON.parse refuses.
    const text = (await readFile(file, "utf8")).replace(/^\uFEFF/, "");
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      failures.push({ file, issues: [{ path: "$", message: jsonSyntaxMessage(text, err) }] });
      continue;
    }
    const result = checkScenario(value);
    if (!result.ok) {
      failures.push({ file, issues: result.issues });
      continue;
    }
    const earlier = firstFileOfId.get(result.scenario.id);
    if (earlier !== undefined) {
      failures.push({ file, issues: [{ path: "$.id", message: `duplicates the id of ${basename(earlier)}: ids must be unique in a suite` }] });
      continue;
    }
    firstFileOfId.set(result.scenario.id, file);
    loaded.push({ ...result.scenario, file });
  }
  if (failures.length > 0) throw scenarioError(failures);
  return loaded;
}

type CheckResult = { ok: true; scenario: Scenario } | { ok: false; issues: ScenarioIssue[] };

function checkScenario(value: unknown): CheckResult {
  const parsed = ScenarioInput.safeParse(value);
  if (!parsed.success) return { ok: false, issues: parsed.error.issues.map(toScenarioIssue) };
  return { ok: true, scenario: applyDefaults(parsed.data) };
}

function applyDefaults(input: z.infer<typeof ScenarioInput>): Scenario {
  const sessions: ScenarioSession[] = input.sessions.map((s, i) => ({
    tenant: s.tenant ?? DEFAULT_TENANT,
    user: s.user,
    thread: s.thread ?? `session-${i + 1}`,
    at: canonical(resolvedSessionAt(input.sessions, i)),
    turns: (s.turns ?? []).map((t): ScenarioTurn => {
      if (t.tool !== undefined) return { tool: t.tool };
      return t.assistant === undefined ? { user: t.user! } : { user: t.user!, assistant: t.assistant };
    }),
    actions: (s.actions ?? []).map((a): ScenarioAction => (a.type === "forget" ? { type: "forget", match: a.match! } : { type: a.type })),
  }));
  const probes: ScenarioProbe[] = input.probes.map((p) => ({
    after_session: p.after_session,
    tenant: p.tenant ?? DEFAULT_TENANT,
    user: p.user,
    at: p.at === undefined ? sessions[p.after_session - 1].at : canonical(p.at),
    query: p.query,
    expect: p.expect ?? [],
    forbid: p.forbid ?? [],
  }));
  return { id: input.id, description: input.description, tags: input.tags ?? [], sessions, probes };
}

const ALLOWED_FIELDS = {
  scenario: ["id", "description", "tags", "sessions", "probes"],
  session: ["tenant", "user", "thread", "at", "turns", "actions"],
  turn: ["user", "assistant", "tool"],
  action: ["type", "match"],
  probe: ["after_session", "tenant", "user", "at", "query", "expect", "forbid"],
} as const;

function objectKindAt(path: readonly PropertyKey[]): keyof typeof ALLOWED_FIELDS {
  const last = path[path.length - 2];
  if (path.length === 0) return "scenario";
  if (last === "turns") return "turn";
  if (last === "actions") return "action";
  if (last === "probes") return "probe";
  return "session";
}

function toScenarioIssue(issue: z.core.$ZodIssue): ScenarioIssue {
  const path = jsonPath(issue.path);
  if (issue.code === "unrecognized_keys") {
    const allowed = ALLOWED_FIELDS[objectKindAt(issue.path)];
    const keys = issue.keys.map((k) => `"${k}"`).join(", ");
    return {
      path,
      message: `unknown field${issue.keys.length > 1 ? "s" : ""} ${keys}: allowed fields here are ${allowed.join(", ")} (check the spelling)`,
    };
  }
  return { path, message: issue.message };
}

/** `["probes", 0, "after_session"]` → `$.probes[0].after_session`. */
function jsonPath(path: readonly PropertyKey[]): string {
  let out = "$";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else if (typeof part === "string" && /^[A-Za-z_][A-Za-z0-9_]*$/.test(part)) out += `.${part}`;
    else out += `[${JSON.stringify(String(part))}]`;
  }
  return out;
}

function jsonSyntaxMessage(text: string, err: unknown): string {
  const raw = err instanceof Error ? err.message : String(err);
  const position = /at position (\d+)/.exec(raw);
  if (position === null) return `not valid JSON (${raw}): fix the syntax`;
  const offset = Number(position[1]);
  const before = text.slice(0, offset).split("\n");
  const line = before.length;
  const column = before[before.length - 1].length + 1;
  return `not valid JSON at line ${line}, column ${column} (${raw.replace(/ in JSON at position \d+.*$/, "")}): fix the syntax`;
}

function scenarioError(failures: { file: string; issues: ScenarioIssue[] }[]): MemoryError {
  const lines = failures.flatMap((f) => f.issues.map((i) => `${f.file}: ${i.path}: ${i.message}`));
  const head = failures.length === 1 ? `invalid scenario ${failures[0].file}` : `${failures.length} invalid scenario files`;
  return new MemoryError(ErrorCodes.INVALID_INPUT, `${head}\n  ${lines.join("\n  ")}`, {
    details: { field: "scenarios", files: failures.map((f) => ({ file: f.file, issues: f.issues })) },
  });
}
