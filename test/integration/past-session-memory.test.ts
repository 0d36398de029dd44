/**
 * A past session is a memory, not a transcript (issue 21 item 3), on both engines: each thread of
 * the held-out set (evals/sessions/held-out-sessions.ts) is folded with the offline summariser and
 * its memory shows a short summary and the session's entities (the rolling summary's entity
 * field), without the values the user corrected or asked to forget in the thread, nor those
 * deleted or superseded later; later questions in new threads find the session that answers them,
 * and a question that shares no word with its session finds it only through the vocabulary bridge.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { HELD_OUT_QUESTIONS, HELD_OUT_SESSIONS, type HeldOutSession } from "../../evals/sessions/held-out-sessions.js";
import { formatMemoryContext } from "../../src/context/format-memories.js";
import { PAST_SESSIONS_HEADER } from "../../src/context/memory-block.js";
import { resolveConfig } from "../../src/config.js";
import type { Database } from "../../src/db/database.js";
import { forgetEverywhere, withdrawalOf } from "../../src/forgetting/index.js";
import { ENTITY_LABELS } from "../../src/summarization/format-summary.js";
import { DEFAULT_SESSION_TEXT_TOKENS, findPastSessions, indexSessionNow, sessionMemoryId, sessionSummaryOf } from "../../src/sessions/index.js";
import { GIST_SENTENCES } from "../../src/sessions/session-gist.js";
import { MemoryRepository } from "../../src/store/memory-store.js";
import type { Memory } from "../../src/store/types.js";
import { countTextTokens } from "../../src/tokens/count-text.js";
import { openTestDatabase, testEngines } from "../helpers/db.js";

const DAY = 86_400_000;
const BRIDGE_ON = { enabled: true, weight: 0.3, maxTerms: 64, termsPerWord: 16 };
const BRIDGE_OFF = { ...BRIDGE_ON, enabled: false };
const LABELS = Object.values(ENTITY_LABELS);

function messagesOf(session: HeldOutSession, from = 0): BaseMessage[] {
  return session.turns.map(([role, text], i) => {
    const id = `${session.threadId}-${i + from}`;
    return role === "user" ? new HumanMessage({ id, content: text }) : new AIMessage({ id, content: text });
  });
}

const shown = (m: Memory) => m.text.toLowerCase();
const everything = (m: Memory) => `${m.text}\n${m.context ?? ""}`.toLowerCase();

describe.each(testEngines())("past sessions as memory on %s", (engine) => {
  let db: Database;
  let store: MemoryRepository;
  const maya = { tenantId: "acme", userId: "maya" };
  const now = new Date(Math.floor(Date.now() / 1000) * 1000);

  beforeAll(async () => {
    db = await openTestDatabase(engine);
    store = new MemoryRepository(db, { candidateCache: false, retrieval: { vocabularyBridge: BRIDGE_ON } });
    for (const s of HELD_OUT_SESSIONS) {
      const endedAt = new Date(now.getTime() - s.daysAgo * DAY);
      await indexSessionNow({ store, scope: maya, threadId: s.threadId, messages: messagesOf(s), startedAt: endedAt, endedAt });
    }
  });
  afterAll(async () => {
    await db.close();
  });

  const memoryOf = async (threadId: string) => (await store.get(maya, sessionMemoryId(maya, threadId)))!;

  it("shows a short summary line and the session's entities, not the user's lines joined", async () => {
    for (const s of HELD_OUT_SESSIONS) {
      const m = await memoryOf(s.threadId);
      const lines = m.text.split("\n");
      // A summary first, then the entity field as labelled lines.
      expect({ thread: s.threadId, first: LABELS.some((l) => lines[0].startsWith(`${l}: `)) }).toEqual({ thread: s.threadId, first: false });
      // Every entity of the session's summary is shown: in its labelled line, or said by the gist
      // (a decision or task the gist quotes is not repeated).
      const { entities } = sessionSummaryOf(m);
      for (const item of Object.values(entities).flat()) expect({ thread: s.threadId, item, shown: shown(m).includes(item.toLowerCase()) }).toEqual({ thread: s.threadId, item, shown: true });
      const short = [...entities.people, ...entities.places, ...entities.numbers, ...entities.dates];
      if (short.length > 0) expect({ thread: s.threadId, entityLines: lines.slice(1).filter((l) => LABELS.some((label) => l.startsWith(`${label}: `))).length > 0 }).toEqual({ thread: s.threadId, entityLines: true });
      for (const value of s.kept) expect({ thread: s.threadId, value, kept: shown(m).includes(value.toLowerCase()) }).toEqual({ thread: s.threadId, value, kept: true });
      // Not a transcript: no line per message, and most of the user's messages are not quoted whole.
      const userMessages = s.turns.filter(([role]) => role === "user");
      const quotedWhole = userMessages.filter(([, text]) => text.length > 30 && m.text.includes(text));
      // (A gist of a few sentences may quote a session of as few messages whole.)
      if (userMessages.length > GIST_SENTENCES) expect({ thread: s.threadId, mostNotQuoted: quotedWhole.length <= userMessages.length / 2 }).toEqual({ thread: s.threadId, mostNotQuoted: true });
      expect(lines.filter((l) => /^(User|Assistant): /.test(l)).length).toBeLessThanOrEqual(1);
      // Within the session's cap (as prompts quote it), so three fit the default past-sessions budget.
      expect(countTextTokens(JSON.stringify(m.text))).toBeLessThanOrEqual(DEFAULT_SESSION_TEXT_TOKENS);
      const three = formatMemoryContext(Array(3).fill({ kind: "episode", text: m.text, createdAt: m.createdAt.toISOString() }), PAST_SESSIONS_HEADER);
      expect(countTextTokens(three)).toBeLessThanOrEqual(resolveConfig({}, {}).budgets.pastSessions);
    }
    // An aside is not what the session was about.
    expect(shown(await memoryOf("lisbon-trip"))).not.toContain("keyboard");
  });

  it("a value corrected later in the thread, or forgotten there, is in neither the text nor the context", async () => {
    for (const s of HELD_OUT_SESSIONS) {
      const m = await memoryOf(s.threadId);
      for (const value of s.gone) expect({ thread: s.threadId, value, present: everything(m).includes(value.toLowerCase()) }).toEqual({ thread: s.threadId, value, present: false });
    }
    expect(shown(await memoryOf("lisbon-trip"))).toMatch(/may 14/i);
  });

  it("later questions find the session that answers them among the user's past sessions", async () => {
    for (const q of HELD_OUT_QUESTIONS.filter((q) => !q.bridged)) {
      const { sessions } = await findPastSessions(store, maya, q.question, { markUsed: false, now, minSimilarity: 0 });
      expect({ question: q.question, found: sessions.map((p) => p.session.threadId).includes(q.threadId) }).toEqual({ question: q.question, found: true });
    }
  });

  it("a question with no word in common finds its session through the vocabulary bridge, and only through it", async () => {
    const plain = new MemoryRepository(db, { candidateCache: false, retrieval: { vocabularyBridge: BRIDGE_OFF } });
    for (const q of HELD_OUT_QUESTIONS.filter((q) => q.bridged)) {
      const id = sessionMemoryId(maya, q.threadId);
      const bridged = (await store.search(maya, q.question, { kinds: ["episode"], minSimilarity: 0, now })).find((m) => m.id === id);
      const unbridged = (await plain.search(maya, q.question, { kinds: ["episode"], minSimilarity: 0, now })).find((m) => m.id === id);
      expect({ question: q.question, bridged: (bridged?.lexicalScore ?? 0) > 0, unbridged: unbridged?.lexicalScore ?? 0 }).toEqual({ question: q.question, bridged: true, unbridged: 0 });
      const { sessions } = await findPastSessions(store, maya, q.question, { markUsed: false, now, minSimilarity: 0 });
      expect({ question: q.question, top: sessions[0]?.session.threadId }).toEqual({ question: q.question, top: q.threadId });
    }
  });

  it("a memory deleted or superseded later leaves the session, and stays out when the thread goes on", async () => {
    // The user deletes "accountant is Priya Nair"; the interview moved from June 3 to June 5.
    await forgetEverywhere({ db, store }, maya, withdrawalOf([{ text: "User's accountant is Priya Nair." }]), { via: "test.delete", threads: false });
    await forgetEverywhere({ db, store }, maya, withdrawalOf([{ text: "User has an interview at Northwind Labs on June 3.", replacedBy: "User has an interview at Northwind Labs on June 5." }]), {
      via: "test.supersede",
      threads: false,
    });
    const tax = await memoryOf("tax-return");
    expect(everything(tax)).not.toMatch(/priya/);
    const interview = await memoryOf("interview");
    expect(everything(interview)).not.toMatch(/june 3\b/);
    expect(shown(interview)).toContain("system design");

    // Both threads go on: the next fold reads the session back and must not bring the values back.
    const tax2 = HELD_OUT_SESSIONS.find((s) => s.threadId === "tax-return")!;
    const more: BaseMessage[] = [...messagesOf(tax2), new HumanMessage({ id: "tax-return-next", content: "sent the receipts folder today, 3 months were missing though" })];
    const folded = await indexSessionNow({ store, scope: maya, threadId: "tax-return", messages: more, endedAt: now });
    expect(folded.outcome).toBe("updated");
    const after = await memoryOf("tax-return");
    expect(everything(after)).not.toMatch(/priya|greg|900 euros/);
    expect(everything(after)).toContain("receipts");
  });
});
