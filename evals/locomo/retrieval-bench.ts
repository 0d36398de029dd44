/**
 * The LoCoMo retrieval benchmark (`npm run bench:locomo`): every turn of a conversation
 * stored as an episode of one user, each answerable question searched in that scope, evidence
 * recall@k. The CLI (src/cli/bench/locomo.ts) and `eval --locomo` call {@link runLocomo}.
 */
import { openDatabase } from "../../src/db/open.js";
import { resolveConfig } from "../../src/config.js";
import { createEmbeddings, embedderIdOf } from "../../src/embeddings/create-embeddings.js";
import { MemoryRepository } from "../../src/store/memory-store.js";
import type { NewMemory } from "../../src/store/types.js";
import { ErrorCodes, MemoryError } from "../../src/errors.js";
import { askedQuestions, defaultLocomoPath, loadLocomo, selectConversations, type LocomoSplit, type LocomoTurn } from "./dataset.js";

export { defaultLocomoPath };

/** The JSON result (fields named by the issue; the rest is detail). */
export interface LocomoResult {
  questions: number;
  recall_at_5: number;
  recall_at_10: number;
  recall_at_25: number;
  all_evidence_at_10: number;
  by_category: Record<string, { questions: number; recall_at_10: number }>;
  embedder: string;
  lexical_weight: number;
  /** Weight of WordNet query expansion (0: off). */
  bridge_weight: number;
  context_turns: number;
  engine: string;
  memories: number;
  ingest_ms: number;
  search_p50_ms: number;
  total_ms: number;
  /** The conversations measured (`all` by default; `test` is the headline split). */
  split: LocomoSplit;
}

export interface LocomoOptions {
  dataPath?: string;
  databaseUrl?: string;
  schema?: string;
  embeddings?: string;
  lexicalWeight?: number;
  /** Query expansion through WordNet (`retrieval.vocabularyBridge`): its weight, or 0 for off (default: the config's). */
  bridgeWeight?: number;
  contextTurns?: number;
  /** Conversations 0–4 (`train`), 5–9 (`test`) or all (default). */
  split?: LocomoSplit;
  log?: (message: string) => void;
}

/**
 * Evidence recall@k of the store's retriever on LoCoMo.
 *
 * @example
 * const r = await runLocomo({ split: "test" });
 * console.log(r.recall_at_10);
 */
export async function runLocomo(options: LocomoOptions = {}): Promise<LocomoResult> {
  const started = performance.now();
  const split = options.split ?? "all";
  const conversations = selectConversations(loadLocomo(options.dataPath ?? defaultLocomoPath()), split);
  const contextTurns = options.contextTurns ?? 2;
  if (!Number.isInteger(contextTurns) || contextTurns < 0 || contextTurns > 10) throw new MemoryError(ErrorCodes.INVALID_INPUT, "--context-turns: an integer from 0 to 10");
  const config = resolveConfig({ embeddings: options.embeddings });
  const embeddings = await createEmbeddings(config.embeddings);
  const schema = options.schema ?? `lgm_bench_locomo_${process.pid}`;
  const db = await openDatabase(options.databaseUrl ?? "memory://", { schema });
  const store = new MemoryRepository(db, {
    embeddings,
    // The data set is stored as an app's own vetted data: its conversations name a speaker's
    // identity, which the door refuses by default, and every turn must be searchable.
    allowSensitive: true,
    retrieval: {
      ...(options.lexicalWeight === undefined ? {} : { lexicalWeight: options.lexicalWeight }),
      ...(options.bridgeWeight === undefined ? {} : { vocabularyBridge: { ...config.retrieval.vocabularyBridge, enabled: options.bridgeWeight > 0, weight: options.bridgeWeight } }),
    },
  });
  const log = options.log ?? (() => undefined);
  let n = 0;
  let sum5 = 0;
  let sum10 = 0;
  let sum25 = 0;
  let all10 = 0;
  let memories = 0;
  let ingestMs = 0;
  const searchMs: number[] = [];
  const byCat = new Map<number, { n: number; r10: number }>();
  // All turns are ingested at one instant: recency is equal, so the ranking measures relevance.
  const ingestedAt = new Date();
  try {
    for (const [ci, conversation] of conversations.entries()) {
      const scope = { tenantId: "locomo", userId: conversation.sampleId };
      const t0 = performance.now();
      const batch: NewMemory[] = conversation.sessions.flatMap((session) =>
        session.turns.map((turn) => ({
          kind: "episode" as const,
          text: turnText(turn),
          context: contextTurns > 0 ? neighbours(session.turns, turn.index, contextTurns).map(turnText).join("\n") : null,
          createdAt: ingestedAt,
          source: { threadId: `${scope.userId}/session_${session.number}`, messageId: turn.diaId, origin: "user_stated" as const },
          metadata: { dia_id: turn.diaId, session: session.number },
        })),
      );
      const stored = await store.addMany(scope, batch);
      ingestMs += performance.now() - t0;
      memories += stored.length;
      const diaOf = new Map(stored.map((m) => [m.id, String(m.metadata.dia_id)]));
      for (const qa of askedQuestions(conversation)) {
        const evidence = new Set(qa.evidence);
        const q0 = performance.now();
        const hits = await store.search(scope, qa.question, { limit: 25, minSimilarity: 0, now: ingestedAt });
        searchMs.push(performance.now() - q0);
        const ranked = hits.map((h) => diaOf.get(h.id));
        const recall = (k: number) => ranked.slice(0, k).filter((d) => d !== undefined && evidence.has(d)).length / evidence.size;
        n++;
        sum5 += recall(5);
        sum10 += recall(10);
        sum25 += recall(25);
        if (recall(10) === 1) all10++;
        const c = byCat.get(qa.category) ?? { n: 0, r10: 0 };
        c.n++;
        c.r10 += recall(10);
        byCat.set(qa.category, c);
      }
      log(`\rlocomo: ${ci + 1}/${conversations.length} samples, ${n} questions, recall@10 so far ${round(sum10 / Math.max(n, 1))}   `);
    }
    log("\n");
  } finally {
    await db.query(`DROP SCHEMA IF EXISTS ${db.schemaSql} CASCADE`).catch(() => undefined);
    await db.close();
  }
  searchMs.sort((a, b) => a - b);
  return {
    questions: n,
    recall_at_5: round(sum5 / n),
    recall_at_10: round(sum10 / n),
    recall_at_25: round(sum25 / n),
    all_evidence_at_10: round(all10 / n),
    by_category: Object.fromEntries([...byCat].sort(([a], [b]) => a - b).map(([c, v]) => [String(c), { questions: v.n, recall_at_10: round(v.r10 / v.n) }])),
    embedder: embedderIdOf(embeddings),
    lexical_weight: store.lexicalWeight,
    bridge_weight: store.retrieval.vocabularyBridge.enabled ? store.retrieval.vocabularyBridge.weight : 0,
    context_turns: contextTurns,
    engine: db.engine,
    memories,
    ingest_ms: round(ingestMs, 0),
    search_p50_ms: round(searchMs[Math.floor(searchMs.length / 2)] ?? NaN),
    total_ms: round(performance.now() - started, 0),
    split,
  };
}

/** A turn as memory text: who said it and what they said. */
function turnText(t: LocomoTurn): string {
  return `${t.speaker}: ${t.text}`;
}

function neighbours(list: readonly LocomoTurn[], index: number, k: number): LocomoTurn[] {
  const out: LocomoTurn[] = [];
  for (let d = -k; d <= k; d++) if (d !== 0 && list[index + d]) out.push(list[index + d]);
  return out;
}

function round(v: number, digits = 3): number {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}
