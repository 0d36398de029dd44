/**
 * One LoCoMo conversation played through the real write path with one of its speakers as the
 * user: each session a thread of a `withMemory` graph (load_memory → summarize → agent →
 * schedule_extraction, the memory's checkpointer) at the session's date, each of the user's turns
 * a human message whose id is its dialog id, the other speaker's turns the agent's canned replies,
 * the extraction worker drained after every turn, and the retention sweep at each session's clock
 * — as the eval runner plays a scenario (evals/runner/run-scenario.ts). Afterwards questions are
 * asked in fresh threads and the memory block is built for them by the same load step and
 * `memoryContext` the agent uses.
 */
import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { Budgets } from "../../src/config.js";
import { formatMemoryLine } from "../../src/context/format-memories.js";
import { memoryContext, type MemoryPromptState } from "../../src/graph/memory-prompt.js";
import { memoryWorker } from "../../src/graph/memory-worker.js";
import { createMemoryTurnSteps, type MemoryTurnSteps } from "../../src/graph/turn-steps.js";
import { withMemory } from "../../src/graph/with-memory.js";
import { createMemory, type LangGraphMemory } from "../../src/memory.js";
import type { WriteReport } from "../../src/extraction/write/write-report.js";
import type { RetrievedMemory } from "../../src/state/types.js";
import { messageText } from "../../src/summarization/transcript.js";
import type { DatabaseTemplate } from "../runner/database-template.js";
import { ScenarioClock } from "../runner/scenario-clock.js";
import { turnMessageText, type LocomoConversation, type LocomoTurn } from "./dataset.js";

/** One second per turn inside a session, as the eval runner does: order and recency stay strict. */
const TURN_MS = 1000;

/** What the write path did with one of the user's turns (the job of that turn). */
export interface TurnOutcome {
  diaId: string;
  candidates: number;
  added: number;
  superseded: number;
  deduped: number;
  refused: number;
  refusedByReason: Record<string, number>;
}

/** A row the write path wrote, with its attribution (kept even when later superseded or expired). */
export interface WrittenMemory {
  id: string;
  kind: string;
  text: string;
  /** The message it is attributed to (`source.messageId`). */
  messageId: string | null;
  threadId: string | null;
  /** A past-session summary (attributed to a thread, not a turn). */
  session: boolean;
}

/** The injected memory block for one question. */
export interface BlockProbe {
  /** The system text `memoryContext` built (the `<memory>` block). */
  text: string;
  /** Memory tokens injected (profile, rules, memories, past sessions). */
  tokens: number;
  /** Ids of the memories whose line is in the block. */
  memoryIds: string[];
  /** Thread ids of the past sessions in the block. */
  pastSessionThreads: string[];
}

export interface SpeakerReplayOptions {
  template: DatabaseTemplate;
  /** The LLM pipeline's chat model (extractor and summariser); null: the offline pipeline. */
  model: BaseChatModel | null;
  budgets: Budgets;
  /** Run the retention sweep at each session's clock and before the questions (default true). */
  retention?: boolean;
}

/** Thread id of a session: one thread per session, named by the conversation and the user. */
export function sessionThreadId(conversation: LocomoConversation, speaker: string, session: number): string {
  return [conversation.sampleId, speaker, `session_${session}`].map(encodeURIComponent).join("/");
}

/**
 * Play a conversation as `speaker`, then answer {@link SpeakerReplay.ask} calls.
 *
 * @example
 * const replay = await SpeakerReplay.open(conversation, "Caroline", { template, model: null, budgets });
 * await replay.play();
 * const block = await replay.ask("What did Caroline research?");
 * await replay.close();
 */
export class SpeakerReplay {
  /** Outcome per turn of the user, by dialog id. */
  readonly outcomes = new Map<string, TurnOutcome>();
  /** Every row written, by id (collected before each retention sweep, so expired rows are kept). */
  readonly written = new Map<string, WrittenMemory>();
  /** Profile fields and rules written, by the message they are attributed to. */
  readonly otherWrites: Array<{ target: "profile" | "rule"; messageId: string | null }> = [];
  readonly warnings: string[] = [];
  /** Time spent draining the extraction worker (wall clock, and this process's CPU time), and the user turns it processed. */
  extractionMs = 0;
  extractionCpuMs = 0;
  /** Time spent in the graph's turns (load, summarise, canned reply, schedule, session indexing), sweeps and questions. */
  turnMs = 0;
  sweepMs = 0;
  askMs = 0;
  userTurns = 0;
  private probes = 0;
  private questionSteps: MemoryTurnSteps | undefined;
  private readonly scope;

  private constructor(
    private readonly conversation: LocomoConversation,
    readonly speaker: string,
    private readonly memory: LangGraphMemory,
    private readonly clock: ScenarioClock,
    private readonly options: SpeakerReplayOptions,
  ) {
    this.scope = { tenantId: conversation.sampleId, userId: speaker };
  }

  static async open(conversation: LocomoConversation, speaker: string, options: SpeakerReplayOptions): Promise<SpeakerReplay> {
    const clock = new ScenarioClock(conversation.sessions[0].date);
    const db = await options.template.open();
    try {
      const memory = await createMemory({ db, clock, model: options.model, embeddings: "local", budgets: options.budgets });
      return new SpeakerReplay(conversation, speaker, memory, clock, options);
    } catch (err) {
      await db.close().catch(() => undefined);
      throw err;
    }
  }

  /** Play every session in order, the worker drained after each of the user's turns. */
  async play(): Promise<void> {
    const warn = (err: unknown, stage: string) => this.warnings.push(`${stage}: ${(err as Error)?.message ?? String(err)}`);
    let nextReply: LocomoTurn | null = null;
    const agent = async (): Promise<{ messages?: BaseMessage[] }> => {
      const reply = nextReply;
      nextReply = null;
      return reply ? { messages: [new AIMessage({ id: reply.diaId, content: turnMessageText(reply) })] } : {};
    };
    const graph = withMemory({ memory: this.memory, budgets: this.options.budgets, agent, extraction: "queue", debounceMs: 0, onError: warn }).compile({
      checkpointer: this.memory.checkpointer,
    });
    let current: string | null = null;
    const worker = memoryWorker(this.memory, { onReport: (r) => current && this.record(current, r) });
    const sessions = this.conversation.sessions;
    for (const [si, session] of sessions.entries()) {
      this.clock.set(session.date);
      const later = sessions.slice(si + 1).every((s) => s.date >= session.date);
      if ((this.options.retention ?? true) && later) await this.sweep();
      // One checkpoint per turn (`durability: "exit"`), not one per node: what memory reads and
      // writes is the same, and the replay spends a third less time in the checkpointer.
      const config = {
        configurable: { thread_id: sessionThreadId(this.conversation, this.speaker, session.number), tenant_id: this.scope.tenantId, user_id: this.scope.userId },
        durability: "exit" as const,
      };
      // The other speaker's turns before the user's first one open the thread as the assistant's.
      let opening: BaseMessage[] = [];
      const turns = session.turns;
      for (let t = 0; t < turns.length; t++) {
        const turn = turns[t];
        if (turn.speaker !== this.speaker) {
          if (t === 0 || turns[t - 1].speaker !== this.speaker) opening.push(new AIMessage({ id: turn.diaId, content: turnMessageText(turn) }));
          continue;
        }
        const next = turns[t + 1];
        nextReply = next && next.speaker !== this.speaker ? next : null;
        this.clock.set(new Date(session.date.getTime() + t * TURN_MS));
        const i0 = performance.now();
        await graph.invoke({ messages: [...opening, new HumanMessage({ id: turn.diaId, content: turnMessageText(turn) })] }, config);
        this.turnMs += performance.now() - i0;
        opening = [];
        this.userTurns++;
        this.outcomes.set(turn.diaId, emptyOutcome(turn.diaId));
        current = turn.diaId;
        const t0 = performance.now();
        const c0 = process.cpuUsage();
        const drained = await worker.drain();
        this.extractionMs += performance.now() - t0;
        const cpu = process.cpuUsage(c0);
        this.extractionCpuMs += (cpu.user + cpu.system) / 1000;
        current = null;
        if (drained.failed > 0) this.warnings.push(`${drained.failed} extraction job(s) failed after ${turn.diaId}`);
      }
    }
    await this.collectWrites();
  }

  /** The memory block injected for a question asked in a fresh thread at `at` (read only: nothing is marked used). */
  async ask(question: string, at: Date): Promise<BlockProbe> {
    const started = performance.now();
    try {
      return await this.askAt(question, at);
    } finally {
      this.askMs += performance.now() - started;
    }
  }

  private async askAt(question: string, at: Date): Promise<BlockProbe> {
    this.clock.set(at);
    // Questions read only: nothing is marked used, summarised or extracted for them.
    this.questionSteps ??= createMemoryTurnSteps({
      memory: this.memory,
      budgets: this.options.budgets,
      load: { markUsed: false },
      pastSessions: { markUsed: false },
      extraction: false,
      summarization: false,
      shortSessions: false,
      onError: (err, stage) => this.warnings.push(`${stage}: ${(err as Error)?.message ?? String(err)}`),
    });
    const steps = this.questionSteps;
    const thread = [this.scope.tenantId, this.scope.userId, `:question-${++this.probes}`].map(encodeURIComponent).join("/");
    const state = { messages: [new HumanMessage(question)] as BaseMessage[] };
    const loaded = await steps.load(state, { configurable: { thread_id: thread, tenant_id: this.scope.tenantId, user_id: this.scope.userId } });
    const promptState = { ...state, ...loaded, summary: null } as unknown as MemoryPromptState;
    const context = memoryContext(promptState, { budgets: this.options.budgets });
    const text = context.messages
      .filter((m) => m.getType() === "system")
      .map((m) => messageText(m))
      .join("\n\n");
    // A memory is in the block when its rendered line is: the budget may have left some out.
    const inBlock = (m: RetrievedMemory) => text.includes(formatMemoryLine(m));
    const past = (loaded.pastSessions ?? []) as RetrievedMemory[];
    return {
      text,
      tokens: context.usage.total,
      memoryIds: loaded.memories.filter(inBlock).map((m) => m.id),
      pastSessionThreads: past.filter(inBlock).map((p) => (p.metadata?.session as { threadId?: string } | undefined)?.threadId ?? "").filter(Boolean),
    };
  }

  /** The retention sweep at the current clock, after recording what it may delete. */
  async sweep(): Promise<void> {
    const started = performance.now();
    await this.collectWrites();
    await this.memory.store.flushUsage();
    await this.memory.retention.run();
    this.sweepMs += performance.now() - started;
  }

  async close(): Promise<void> {
    await this.memory.store.flushUsage().catch(() => undefined);
    await this.memory.close().catch(() => undefined);
    await this.memory.db.close().catch(() => undefined);
  }

  private record(diaId: string, r: WriteReport): void {
    const o = this.outcomes.get(diaId) ?? emptyOutcome(diaId);
    o.candidates += r.candidates;
    o.added += r.added;
    o.superseded += r.superseded;
    o.deduped += r.deduped;
    o.refused += r.refused;
    for (const [reason, n] of Object.entries(r.refusedByReason)) o.refusedByReason[reason] = (o.refusedByReason[reason] ?? 0) + (n ?? 0);
    this.outcomes.set(diaId, o);
  }

  /** Everything stored for the user (superseded, expired and deactivated rows included), by attribution. */
  private async collectWrites(): Promise<void> {
    const exported = await this.memory.controls.export(this.scope);
    for (const m of exported.memories) {
      const session = m.kind === "episode" && typeof m.metadata?.session === "object" && m.metadata.session !== null;
      this.written.set(m.id, { id: m.id, kind: m.kind, text: m.text, messageId: m.source.messageId ?? null, threadId: m.source.threadId ?? null, session });
    }
    this.otherWrites.length = 0;
    for (const h of exported.profile?.history ?? []) if (h.source.kind === "extraction") this.otherWrites.push({ target: "profile", messageId: h.source.messageId ?? null });
    for (const r of exported.rules) this.otherWrites.push({ target: "rule", messageId: r.origin?.messageId ?? null });
  }
}

function emptyOutcome(diaId: string): TurnOutcome {
  return { diaId, candidates: 0, added: 0, superseded: 0, deduped: 0, refused: 0, refusedByReason: {} };
}
