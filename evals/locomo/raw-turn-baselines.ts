/**
 * The two baselines of the write-path benchmark, at the same token budget as the memory block:
 * every turn stored raw as a memory of its speaker and found by the store's own retriever, and
 * plain BM25 over the speaker's raw turns. Both render their lines exactly as the memory block
 * renders memories (`fitMemories`: dated, quoted, whole lines while they fit).
 */
import { fitMemories } from "../../src/context/memory-block.js";
import type { Database } from "../../src/db/database.js";
import { MemoryRepository } from "../../src/store/memory-store.js";
import { createEmbeddings } from "../../src/embeddings/create-embeddings.js";
import type { RetrievedMemory } from "../../src/state/types.js";
import type { DatabaseTemplate } from "../runner/database-template.js";
import { Bm25Index } from "./bm25.js";
import { turnMessageText, type LocomoConversation, type LocomoTurn } from "./dataset.js";

/** What a baseline put in its block for one question. */
export interface BaselineBlock {
  /** The rendered lines (with their header). */
  text: string;
  tokens: number;
  /** Dialog ids of the turns in the block. */
  diaIds: string[];
}

/** Candidates the store returns before fitting; more than any budget here holds. */
const SEARCH_LIMIT = 60;

/** When a turn was said: its session's date plus a second per turn (as the replay's clock). */
export function turnTime(conversation: LocomoConversation, turn: LocomoTurn): Date {
  const session = conversation.sessions.find((s) => s.number === turn.session)!;
  return new Date(session.date.getTime() + turn.index * 1000);
}

/** Turns as block lines within `maxTokens`, in the given order. */
function fitTurns(conversation: LocomoConversation, turns: readonly LocomoTurn[], maxTokens: number): BaselineBlock {
  const items: RetrievedMemory[] = turns.map((t) => ({
    id: t.diaId,
    kind: "episode",
    text: turnMessageText(t),
    score: 0,
    similarity: 0,
    recency: 0,
    scope: "user",
    createdAt: turnTime(conversation, t).toISOString(),
  }));
  const fitted = fitMemories(items, { maxTokens });
  return { text: fitted.text, tokens: fitted.tokens, diaIds: fitted.included.map((i) => turns[i].diaId) };
}

/**
 * Every turn of a conversation stored raw (its text, no context) as an episode of its speaker,
 * created at the time it was said, in the real store; a question is searched in the asking
 * speaker's scope with the store's defaults (hybrid ranking, relevance floor, recency at the
 * question's time).
 */
export class RawTurnStoreBaseline {
  private constructor(
    private readonly conversation: LocomoConversation,
    private readonly db: Database,
    private readonly store: MemoryRepository,
  ) {}

  static async open(conversation: LocomoConversation, template: DatabaseTemplate): Promise<RawTurnStoreBaseline> {
    const db = await template.open();
    const store = new MemoryRepository(db, { embeddings: await createEmbeddings("local") });
    for (const speaker of conversation.speakers) {
      const turns = [...conversation.turns.values()].filter((t) => t.speaker === speaker);
      await store.addMany(
        { tenantId: conversation.sampleId, userId: speaker },
        turns.map((t) => ({
          kind: "episode" as const,
          text: turnMessageText(t),
          createdAt: turnTime(conversation, t),
          source: { threadId: `session_${t.session}`, messageId: t.diaId, origin: "user_stated" as const },
        })),
      );
    }
    return new RawTurnStoreBaseline(conversation, db, store);
  }

  async ask(speaker: string, question: string, at: Date, maxTokens: number): Promise<BaselineBlock> {
    const hits = await this.store.search({ tenantId: this.conversation.sampleId, userId: speaker }, question, { limit: SEARCH_LIMIT, now: at });
    const turns = hits.map((h) => this.conversation.turns.get(h.source.messageId ?? "")).filter((t): t is LocomoTurn => t !== undefined);
    return fitTurns(this.conversation, turns, maxTokens);
  }

  async close(): Promise<void> {
    await this.db.close().catch(() => undefined);
  }
}

/** Plain BM25 over each speaker's raw turns, the best lines up to the budget. */
export class RawTurnBm25Baseline {
  private readonly bySpeaker = new Map<string, { turns: LocomoTurn[]; index: Bm25Index }>();

  constructor(private readonly conversation: LocomoConversation) {
    for (const speaker of conversation.speakers) {
      const turns = [...conversation.turns.values()].filter((t) => t.speaker === speaker);
      this.bySpeaker.set(speaker, { turns, index: new Bm25Index(turns.map(turnMessageText)) });
    }
  }

  ask(speaker: string, question: string, maxTokens: number): BaselineBlock {
    const { turns, index } = this.bySpeaker.get(speaker)!;
    const ranked = index.rank(question).slice(0, SEARCH_LIMIT).map((r) => turns[r.doc]);
    return fitTurns(this.conversation, ranked, maxTokens);
  }
}
