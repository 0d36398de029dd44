import { HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { Budgets, ConfigInput } from "../../src/config.js";
import { memoryContext, type MemoryPromptState } from "../../src/graph/memory-prompt.js";
import { memoryWorker } from "../../src/graph/memory-worker.js";
import { createMemoryTurnSteps, type MemoryTurnEvent } from "../../src/graph/turn-steps.js";
import { MEMORY_NODES, withMemory } from "../../src/graph/with-memory.js";
import { createMemory, type LangGraphMemory } from "../../src/memory.js";
import type { WriteReport } from "../../src/extraction/write/write-report.js";
import { messageText } from "../../src/summarization/transcript.js";
import type { LoadedScenario, Scenario, ScenarioProbe, ScenarioSession } from "../scenario-schema.js";
import type { FinalUserState, ProbeResult, ScenarioResult, WriteTotals } from "../types.js";
import { checkProbe } from "./check-probe.js";
import type { DatabaseTemplate } from "./database-template.js";
import { contextExcerpt } from "./context-excerpt.js";
import { forgetMatching } from "./forget-matching.js";
import { SCENARIO_TOOL_NAME, createScenarioAgent } from "./scenario-agent.js";
import { ScenarioClock } from "./scenario-clock.js";

/** Configuration a run may override (the rest is the scenario's: database, clock, model, embeddings). */
export type EvalConfigOverrides = Pick<ConfigInput, "retrieval" | "writePolicy" | "retention">;

/** How one scenario is run. */
export interface ScenarioRunOptions {
  template: DatabaseTemplate;
  /** The chat model of the LLM pipeline (extractor, summariser, responder); null → offline. */
  model: BaseChatModel | string | null;
  /** Run the retention sweep at each session's and probe's clock, as a scheduled `gc` would (default true). */
  retention?: boolean;
  /** Section budgets (default the memory's). */
  budgets?: Partial<Budgets>;
  /** Characters of a probe's context kept in the result (default 4,000). */
  maxContextChars?: number;
  /** Add what memory holds for each user at the end (`final_state`). */
  includeFinalState?: boolean;
  /** Configuration overrides (default none: the product's defaults). */
  config?: EvalConfigOverrides;
}

/** A step of a scenario in the order it runs: a session, or a probe after its session. */
type Step = { kind: "session"; index: number; at: string } | { kind: "probe"; index: number; at: string };

/** One second per turn inside a session: creation order and recency stay strict without moving the calendar. */
const TURN_MS = 1000;
const THREAD_SEPARATOR = "/";

/**
 * Run one scenario through the real pipeline on a fresh embedded database: each session's turns
 * through a `withMemory` graph (load_memory → summarize → agent → schedule_extraction, with the
 * memory's checkpointer), the extraction worker drained after every turn, the session's actions
 * through the controls API, and each probe's memory context built for its query in a fresh thread
 * by the same load step and `memoryContext` the agent uses. The scenario's clock drives the store,
 * the write path, summaries, past sessions, controls and the retention sweep.
 */
export async function runScenario(scenario: LoadedScenario | Scenario, options: ScenarioRunOptions): Promise<ScenarioResult> {
  const started = performance.now();
  const result = emptyResult(scenario);
  const clock = new ScenarioClock(scenario.sessions[0].at);
  const db = await options.template.open();
  let memory: LangGraphMemory | undefined;
  let run: ScenarioRun | undefined;
  try {
    memory = await createMemory({ ...options.config, db, clock, model: options.model, embeddings: "local", budgets: options.budgets });
    run = new ScenarioRun(memory, clock, scenario, result, options);
    await run.play();
    if (options.includeFinalState) result.final_state = await finalState(memory, scenario);
  } catch (err) {
    result.error = describe(err);
  } finally {
    run?.totals();
    if (memory) {
      await memory.store.flushUsage().catch(() => undefined);
      await memory.close().catch(() => undefined);
    }
    await db.close().catch(() => undefined);
  }
  finish(result, scenario);
  result.runtime_ms = Math.round(performance.now() - started);
  return result;
}

class ScenarioRun {
  private readonly budgets: Budgets;
  private readonly agent;
  private readonly graph;
  private readonly worker;
  private readonly probeSteps;
  private readonly reports: WriteReport[] = [];
  private readonly turnTokens: number[] = [];

  constructor(
    private readonly memory: LangGraphMemory,
    private readonly clock: ScenarioClock,
    private readonly scenario: Scenario,
    private readonly result: ScenarioResult,
    private readonly options: ScenarioRunOptions,
  ) {
    this.budgets = { ...memory.config.budgets, ...options.budgets };
    const warn = (err: unknown, stage: string) => result.warnings.push(`${stage}: ${describe(err)}`);
    this.agent = createScenarioAgent(memory, this.budgets);
    this.graph = withMemory({
      memory,
      budgets: this.budgets,
      agent: this.agent.agent,
      extraction: "queue",
      debounceMs: 0,
      onEvent: (e) => this.onEvent(e),
      onError: warn,
    }).compile({ checkpointer: memory.checkpointer });
    this.worker = memoryWorker(memory, { onReport: (r) => this.reports.push(r) });
    // Probes read only: nothing is marked used, summarised or extracted for the probe's question.
    this.probeSteps = createMemoryTurnSteps({
      memory,
      budgets: this.budgets,
      load: { markUsed: false },
      pastSessions: { markUsed: false },
      extraction: false,
      summarization: false,
      shortSessions: false,
      onError: warn,
    });
  }

  async play(): Promise<void> {
    const steps = stepsOf(this.scenario);
    for (const [i, step] of steps.entries()) {
      // The sweep deletes and archives for good: it runs only at a clock no later step goes back before.
      const sweep = (this.options.retention ?? true) && steps.slice(i + 1).every((later) => later.at >= step.at);
      if (step.kind === "session") await this.session(step.index, sweep);
      else await this.probe(step.index, sweep);
    }
  }

  private async session(index: number, sweep: boolean): Promise<void> {
    const session = this.scenario.sessions[index];
    this.clock.set(session.at);
    if (sweep) await this.sweep();
    const config = { configurable: { thread_id: threadIdOf(session), tenant_id: session.tenant, user_id: session.user } };
    let pendingTools: ToolMessage[] = [];
    const turns = session.turns;
    for (let t = 0; t < turns.length; t++) {
      const turn = turns[t];
      if (!("user" in turn)) continue; // a tool turn: sent after the reply before it
      const toolTexts: string[] = [];
      for (let k = t + 1; k < turns.length; k++) {
        const next = turns[k];
        if (!("tool" in next)) break;
        toolTexts.push(next.tool);
      }
      const callIds = toolTexts.map((_, i) => `call_${index + 1}_${t + 1}_${i + 1}`);
      this.clock.set(new Date(Date.parse(session.at) + t * TURN_MS));
      this.agent.setNext({ text: turn.assistant, toolCallIds: callIds });
      const input: BaseMessage[] = [...pendingTools, new HumanMessage(turn.user)];
      await this.graph.invoke({ messages: input }, config);
      const usage = this.agent.takeUsage();
      if (usage) {
        this.turnTokens.push(usage.total);
        this.result.max_prompt_tokens = Math.max(this.result.max_prompt_tokens, usage.prompt);
        this.result.prompt_limit = Math.max(this.result.prompt_limit, usage.promptLimit);
        if (usage.prompt > usage.promptLimit) this.result.over_budget_turns++;
      }
      pendingTools = toolTexts.map((text, i) => new ToolMessage({ content: text, tool_call_id: callIds[i], name: SCENARIO_TOOL_NAME }));
      await this.drain();
    }
    // Tool results that end the session still belong to the thread (and pair with their call).
    if (pendingTools.length > 0) await this.graph.updateState(config, { messages: pendingTools }, MEMORY_NODES.schedule);
    const scope = { tenantId: session.tenant, userId: session.user };
    for (const action of session.actions) {
      if (action.type === "forget") await forgetMatching(this.memory.controls, scope, action.match);
      else if (action.type === "opt_out") await this.memory.controls.optOut(scope);
      else await this.memory.controls.optIn(scope);
    }
  }

  private async probe(index: number, sweep: boolean): Promise<void> {
    const probe = this.scenario.probes[index];
    this.clock.set(probe.at);
    if (sweep) await this.sweep();
    const config = { configurable: { thread_id: probeThreadIdOf(probe, index), tenant_id: probe.tenant, user_id: probe.user } };
    const state = { messages: [new HumanMessage(probe.query)] as BaseMessage[] };
    const loaded = await this.probeSteps.load(state, config);
    // What the agent's prompt would get: the same memoryContext, without an app system prompt so only memory is checked.
    const promptState = { ...state, ...loaded, summary: null } as unknown as MemoryPromptState;
    const context = memoryContext(promptState, { budgets: this.budgets });
    const text = context.messages
      .filter((m) => m.getType() === "system")
      .map((m) => messageText(m))
      .join("\n\n");
    const check = checkProbe(text, probe.expect, probe.forbid);
    const u = context.usage;
    const row: ProbeResult = {
      index,
      after_session: probe.after_session,
      tenant: probe.tenant,
      user: probe.user,
      at: probe.at,
      query: probe.query,
      expect: check.expect,
      forbid: probe.forbid,
      forbid_hits: check.forbidHits,
      passed: check.passed,
      stale: check.stale,
      tokens: u.total,
      sections: { profile: u.profile, rules: u.rules, memories: u.memories, past_sessions: u.pastSessions, summary: u.summary },
      context: contextExcerpt(text, [...check.forbidHits, ...check.expect.flatMap((g) => (g.hit ? [g.hit] : []))], this.options.maxContextChars ?? 4000),
      context_chars: text.length,
      retention_swept: sweep,
    };
    this.result.probes.push(row);
  }

  private async drain(): Promise<void> {
    const drained = await this.worker.drain();
    if (drained.failed > 0) this.result.warnings.push(`${drained.failed} background job(s) failed`);
  }

  private async sweep(): Promise<void> {
    await this.memory.store.flushUsage();
    const summary = await this.memory.retention.run();
    this.result.retention.runs++;
    this.result.retention.expired += summary.expired;
    this.result.retention.archived += summary.archivedUnused;
    this.result.retention.deactivated += summary.deactivatedLowConfidence;
  }

  private onEvent(e: MemoryTurnEvent): void {
    if (e.type === "summary_changed") this.result.summaries++;
    else if (e.type === "session_indexed") this.result.sessions_indexed++;
  }

  /** Sums of the write reports and the per-turn token figures, once the scenario ran. */
  totals(): void {
    const w = this.result.writes;
    for (const r of this.reports) {
      w.added += r.added;
      w.deduped += r.deduped;
      w.superseded += r.superseded;
      w.deleted += r.deleted;
      w.refused += r.refused;
      w.profile_fields_changed += r.profileFieldsChanged;
      w.rules_proposed += r.rulesProposed;
      w.forget_unmatched += r.forgetUnmatched;
    }
    this.result.tokens_per_turn_mean = this.turnTokens.length === 0 ? 0 : round(this.turnTokens.reduce((a, b) => a + b, 0) / this.turnTokens.length, 1);
    this.result.tokens_per_turn_max = this.turnTokens.reduce((a, b) => Math.max(a, b), 0);
  }
}

async function finalState(memory: LangGraphMemory, scenario: Scenario): Promise<FinalUserState[]> {
  const users = new Map<string, { tenant: string; user: string }>();
  for (const s of [...scenario.sessions, ...scenario.probes]) users.set(`${s.tenant}\u0000${s.user}`, { tenant: s.tenant, user: s.user });
  const out: FinalUserState[] = [];
  for (const { tenant, user } of users.values()) {
    const seen = await memory.controls.inspect({ tenantId: tenant, userId: user });
    out.push({
      tenant,
      user,
      opted_out: seen.optedOut,
      memories: seen.memories.map((m) => `[${m.kind}/${m.status}] ${m.text}`),
      profile: seen.profile?.document ?? null,
      rules: seen.rules.map((r) => `[${r.state}] ${r.text}`),
    });
  }
  return out;
}

/** Sessions in file order, each followed by the probes that run after it (in file order). */
function stepsOf(scenario: Scenario): Step[] {
  const steps: Step[] = [];
  scenario.sessions.forEach((s, i) => {
    steps.push({ kind: "session", index: i, at: s.at });
    scenario.probes.forEach((p, j) => {
      if (p.after_session === i + 1) steps.push({ kind: "probe", index: j, at: p.at });
    });
  });
  return steps;
}

/** Thread names are scoped to tenant and user: two users may both have a thread "intro". */
export function threadIdOf(session: Pick<ScenarioSession, "tenant" | "user" | "thread">): string {
  return [session.tenant, session.user, session.thread].map(encodeURIComponent).join(THREAD_SEPARATOR);
}

/** A probe's fresh thread: ":" is escaped in scenario names, so it never collides with one. */
function probeThreadIdOf(probe: ScenarioProbe, index: number): string {
  return [encodeURIComponent(probe.tenant), encodeURIComponent(probe.user), `:probe-${index + 1}`].join(THREAD_SEPARATOR);
}

function emptyResult(s: Scenario | LoadedScenario): ScenarioResult {
  const turns = s.sessions.flatMap((x) => x.turns);
  return {
    id: s.id,
    description: s.description,
    file: "file" in s ? s.file : "",
    tags: s.tags,
    passed: false,
    error: null,
    warnings: [],
    sessions: s.sessions.length,
    turns: turns.filter((t) => "user" in t).length,
    tool_turns: turns.filter((t) => "tool" in t).length,
    actions: s.sessions.reduce((n, x) => n + x.actions.length, 0),
    probe_count: s.probes.length,
    expect_groups: s.probes.reduce((n, p) => n + p.expect.length, 0),
    expect_passed: 0,
    recall: 0,
    stale_probes: 0,
    tokens_per_turn_mean: 0,
    tokens_per_turn_max: 0,
    max_prompt_tokens: 0,
    prompt_limit: 0,
    over_budget_turns: 0,
    summaries: 0,
    sessions_indexed: 0,
    writes: { added: 0, deduped: 0, superseded: 0, deleted: 0, refused: 0, profile_fields_changed: 0, rules_proposed: 0, forget_unmatched: 0 } satisfies WriteTotals,
    retention: { runs: 0, expired: 0, archived: 0, deactivated: 0 },
    runtime_ms: 0,
    probes: [],
  };
}

/** Scenario figures from its probes; probes that never ran (an error) count as failed. */
function finish(result: ScenarioResult, _scenario: Scenario): void {
  result.expect_passed = result.probes.reduce((n, p) => n + p.expect.filter((g) => g.hit !== null).length, 0);
  result.stale_probes = result.probes.filter((p) => p.stale).length;
  result.recall = result.expect_groups === 0 ? 1 : round(result.expect_passed / result.expect_groups, 4);
  result.passed = result.error === null && result.probes.length === _scenario.probes.length && result.probes.every((p) => p.passed);
}

function describe(err: unknown): string {
  if (err instanceof Error) return `${(err as { code?: string }).code ? `${(err as { code?: string }).code}: ` : ""}${err.message}`;
  return String(err);
}

function round(v: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}
