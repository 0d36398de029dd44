/**
 * `npm run bench:sessions`: past-session memories in two forms side by side, built from the same
 * folded session summaries in one run — the transcript form they had (the newest lines of the
 * session's prose within the cap, `transcript-document.ts`) and the current one (a short summary
 * and its entities, `sessionDocument`). For each form: tokens per memory as the prompt shows it,
 * and whether a later question finds the session that answers it among the user's past sessions
 * (`findPastSessions`: hit@1, hit@3 at the default limit and budget), with the vocabulary bridge
 * off (the default) and on. Two sets: the held-out sessions (held-out-sessions.ts, written before
 * the change; also how many corrected or forgotten values a memory still says), and LoCoMo, each
 * session of a conversation one past session of speaker A (speaker B as the assistant), each
 * answerable question with evidence a hit when an evidence turn's session is retrieved.
 */
import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { openDatabase } from "../../src/db/open.js";
import { formatMemoryLine } from "../../src/context/format-memories.js";
import { ErrorCodes, MemoryError } from "../../src/errors.js";
import { findPastSessions, indexSessionNow, sessionMemoryId } from "../../src/sessions/index.js";
import { dropWithdrawn, storedWithdrawal } from "../../src/sessions/withdrawal.js";
import { MemoryRepository } from "../../src/store/memory-store.js";
import { countTextTokens } from "../../src/tokens/count-text.js";
import { askedQuestions, defaultLocomoPath, loadLocomo, selectConversations, turnMessageText, type LocomoSplit } from "../locomo/dataset.js";
import { HELD_OUT_QUESTIONS, HELD_OUT_SESSIONS } from "./held-out-sessions.js";
import { transcriptDocument } from "./transcript-document.js";

const DAY = 86_400_000;
export const FORMS = ["transcript", "summary"] as const;
export type SessionForm = (typeof FORMS)[number];

/** A user's past sessions to index and the questions asked later, each naming the sessions that answer it. */
interface SessionSet {
  userId: string;
  sessions: Array<{ threadId: string; endedAt: Date; messages: BaseMessage[] }>;
  questions: Array<{ question: string; threadIds: string[]; bridged?: boolean }>;
  /** Values each thread must no longer say. */
  gone?: Record<string, readonly string[]>;
  /** When the questions are asked. */
  askedAt: Date;
}

export interface RetrievalFigures {
  questions: number;
  hit_at_1: number;
  hit_at_3: number;
}

export interface FormFigures {
  memories: number;
  tokens_mean: number;
  tokens_p50: number;
  tokens_max: number;
  bridge_off: RetrievalFigures;
  bridge_on: RetrievalFigures;
  /** Held-out only: corrected or forgotten values still in the shown text, and in text or context. */
  stale_shown?: number;
  stale_anywhere?: number;
}

export interface SessionsBenchResult {
  held_out: Record<SessionForm, FormFigures> & { stale_values: number };
  locomo: (Record<SessionForm, FormFigures> & { conversations: number; split: LocomoSplit }) | null;
  total_ms: number;
}

export interface SessionsBenchOptions {
  dataPath?: string;
  split?: LocomoSplit;
  /** Skip LoCoMo (held-out set only). */
  heldOutOnly?: boolean;
  log?: (message: string) => void;
}

const BRIDGE = { enabled: true, weight: 0.3, maxTerms: 64, termsPerWord: 16 };

/**
 * Both forms of every session of both sets, in one PGlite, and the figures.
 *
 * @example
 * const r = await runSessionsBench({ split: "test" });
 * console.log(r.locomo?.summary.tokens_mean, r.locomo?.transcript.tokens_mean);
 */
export async function runSessionsBench(options: SessionsBenchOptions = {}): Promise<SessionsBenchResult> {
  const started = performance.now();
  const log = options.log ?? (() => undefined);
  const db = await openDatabase("memory://", { schema: `lgm_bench_sessions_${process.pid}` });
  try {
    // LoCoMo names identities and health: stored as an app's own vetted data, as bench locomo does.
    const stores = {
      off: new MemoryRepository(db, { candidateCache: false, allowSensitive: true, retrieval: { vocabularyBridge: { ...BRIDGE, enabled: false } } }),
      on: new MemoryRepository(db, { candidateCache: false, allowSensitive: true, retrieval: { vocabularyBridge: BRIDGE } }),
    };
    const heldOut = heldOutSet();
    const held = await measureSet(stores, [heldOut], log);
    const staleValues = Object.values(heldOut.gone ?? {}).reduce((n, v) => n + v.length, 0);
    let locomo: SessionsBenchResult["locomo"] = null;
    if (!options.heldOutOnly) {
      const split = options.split ?? "all";
      const conversations = selectConversations(loadLocomo(options.dataPath ?? defaultLocomoPath()), split);
      if (conversations.length === 0) throw new MemoryError(ErrorCodes.INVALID_INPUT, `--split ${split}: no conversations`);
      const sets = conversations.map((c): SessionSet => {
        const [user] = c.speakers;
        const last = c.sessions[c.sessions.length - 1].date;
        return {
          userId: `locomo-${c.index}`,
          askedAt: new Date(last.getTime() + DAY),
          sessions: c.sessions.map((s) => ({
            threadId: `locomo-${c.index}-s${s.number}`,
            endedAt: s.date,
            messages: s.turns.map((t) => (t.speaker === user ? new HumanMessage({ id: t.diaId, content: turnMessageText(t) }) : new AIMessage({ id: t.diaId, content: turnMessageText(t) }))),
          })),
          questions: askedQuestions(c).map((q) => ({ question: q.question, threadIds: [...new Set(q.evidence.map((id) => `locomo-${c.index}-s${c.turns.get(id)!.session}`))] })),
        };
      });
      locomo = { ...(await measureSet(stores, sets, log)), conversations: conversations.length, split };
    }
    return { held_out: { ...held, stale_values: staleValues }, locomo, total_ms: Math.round(performance.now() - started) };
  } finally {
    await db.close();
  }
}

function heldOutSet(): SessionSet {
  const askedAt = new Date("2026-06-01T12:00:00Z");
  return {
    userId: "held-out",
    askedAt,
    sessions: HELD_OUT_SESSIONS.map((s) => ({
      threadId: s.threadId,
      endedAt: new Date(askedAt.getTime() - s.daysAgo * DAY),
      messages: s.turns.map(([role, text], i) => (role === "user" ? new HumanMessage({ id: `${s.threadId}-${i}`, content: text }) : new AIMessage({ id: `${s.threadId}-${i}`, content: text }))),
    })),
    questions: HELD_OUT_QUESTIONS.map((q) => ({ question: q.question, threadIds: [q.threadId], bridged: q.bridged })),
    gone: Object.fromEntries(HELD_OUT_SESSIONS.map((s) => [s.threadId, s.gone])),
  };
}

/** Index each set's sessions in both forms (a tenant per form) and ask its questions with the bridge off and on. */
async function measureSet(stores: { off: MemoryRepository; on: MemoryRepository }, sets: readonly SessionSet[], log: (m: string) => void): Promise<Record<SessionForm, FormFigures>> {
  const tokens: Record<SessionForm, number[]> = { transcript: [], summary: [] };
  const hits = { transcript: { off: [0, 0], on: [0, 0] }, summary: { off: [0, 0], on: [0, 0] } };
  const stale = { transcript: [0, 0], summary: [0, 0] };
  let questions = 0;
  for (const set of sets) {
    const scopes = { summary: { tenantId: "summary", userId: set.userId }, transcript: { tenantId: "transcript", userId: set.userId } };
    for (const s of set.sessions) {
      // The current form: the session folded and indexed as an app indexes it.
      const folded = await indexSessionNow({ store: stores.off, scope: scopes.summary, threadId: s.threadId, messages: s.messages, startedAt: s.endedAt, endedAt: s.endedAt, allowSpecialCategory: true, ttlDays: null, now: () => s.endedAt });
      if (!folded.memory || !folded.summary) continue;
      // The transcript form of the same summary, with the same withdrawals applied (as indexSession applied them).
      const old = transcriptDocument(folded.summary, { maxTextChars: stores.off.writePolicy.maxTextChars, allowSpecialCategory: true });
      const w = storedWithdrawal(folded.memory.metadata);
      const text = dropWithdrawn(old.text, w);
      if (!text) continue;
      await stores.off.add(scopes.transcript, {
        id: sessionMemoryId(scopes.transcript, s.threadId),
        kind: "episode",
        text,
        context: old.context === null ? null : dropWithdrawn(old.context, w) || null,
        source: { threadId: s.threadId, messageId: null, origin: "extracted" },
        expiresAt: null,
        metadata: folded.memory.metadata,
        createdAt: s.endedAt,
      });
      const gone = set.gone?.[s.threadId] ?? [];
      for (const form of FORMS) {
        const m = (await stores.off.get(scopes[form], sessionMemoryId(scopes[form], s.threadId)))!;
        tokens[form].push(countTextTokens(formatMemoryLine({ kind: "episode", text: m.text, createdAt: m.createdAt.toISOString() })));
        stale[form][0] += gone.filter((v) => m.text.toLowerCase().includes(v.toLowerCase())).length;
        stale[form][1] += gone.filter((v) => `${m.text}\n${m.context ?? ""}`.toLowerCase().includes(v.toLowerCase())).length;
      }
    }
    for (const q of set.questions) {
      questions++;
      for (const form of FORMS) {
        for (const bridge of ["off", "on"] as const) {
          const { sessions } = await findPastSessions(stores[bridge], scopes[form], q.question, { markUsed: false, now: set.askedAt });
          const ids = sessions.map((p) => p.session.threadId);
          if (ids.length > 0 && q.threadIds.includes(ids[0])) hits[form][bridge][0]++;
          if (ids.some((id) => q.threadIds.includes(id))) hits[form][bridge][1]++;
        }
      }
    }
    log(`${set.userId}: ${set.sessions.length} sessions, ${set.questions.length} questions\n`);
  }
  const figures = (form: SessionForm): FormFigures => {
    const t = [...tokens[form]].sort((a, b) => a - b);
    const r = (b: "off" | "on"): RetrievalFigures => ({ questions, hit_at_1: round(hits[form][b][0] / questions), hit_at_3: round(hits[form][b][1] / questions) });
    return {
      memories: t.length,
      tokens_mean: round(t.reduce((a, b) => a + b, 0) / Math.max(1, t.length), 1),
      tokens_p50: t[Math.floor(t.length / 2)] ?? 0,
      tokens_max: t[t.length - 1] ?? 0,
      bridge_off: r("off"),
      bridge_on: r("on"),
      ...(sets.some((s) => s.gone) ? { stale_shown: stale[form][0], stale_anywhere: stale[form][1] } : {}),
    };
  };
  return { transcript: figures("transcript"), summary: figures("summary") };
}

function round(v: number, digits = 3): number {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}
