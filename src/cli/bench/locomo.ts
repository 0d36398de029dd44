import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Benchmark } from "../commands/bench.js";
import { parseCommandArgs } from "../common-options.js";
import { openDatabase } from "../../db/open.js";
import { packageRoot } from "../../db/package-root.js";
import { resolveConfig } from "../../config.js";
import { createEmbeddings, embedderIdOf } from "../../embeddings/create-embeddings.js";
import { MemoryStore } from "../../store/memory-store.js";
import type { NewMemory } from "../../store/types.js";
import { round, table, writeJson } from "./stats.js";
import { ErrorCodes, MemoryError } from "../../errors.js";

const HELP = `usage: langgraph-memory bench locomo [--data PATH] [--json FILE] [--embeddings SPEC]
       [--lexical-weight W] [--context-turns N] [--database-url URL]

LoCoMo evidence retrieval (Maharana et al., 2024) through the real memory store: every turn of a
sample is ingested as an episodic memory of one user (with N neighbouring turns on each side as
indexing-only context, default 2), each question of categories 1–4 is searched in that user's
scope, and evidence recall@5/@10/@25 is the share of its evidence turns in the top k.
Default data: ../shared/data/locomo/locomo10.json (read in place, never copied). Default database:
an in-memory PGlite. EMBEDDINGS / --embeddings picks the embedder (default: offline local).`;

interface Turn {
  speaker: string;
  dia_id: string;
  text: string;
  blip_caption?: string;
}
interface Sample {
  sample_id?: string;
  conversation: Record<string, unknown>;
  qa: Array<{ question: string; evidence?: string[]; category: number }>;
}

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
  context_turns: number;
  engine: string;
  memories: number;
  ingest_ms: number;
  search_p50_ms: number;
  total_ms: number;
}

export const benchmark: Benchmark = {
  summary: "LoCoMo evidence recall@k of the offline (or configured) retriever",
  async run(argv) {
    const { values } = parseCommandArgs(argv, {
      data: { type: "string" },
      json: { type: "string" },
      embeddings: { type: "string" },
      "lexical-weight": { type: "string" },
      "context-turns": { type: "string" },
    });
    if (values.help) {
      console.log(HELP);
      return 0;
    }
    const result = await runLocomo({
      dataPath: values.data,
      databaseUrl: values["database-url"] ?? "memory://",
      schema: values.schema,
      embeddings: values.embeddings,
      lexicalWeight: values["lexical-weight"] === undefined ? undefined : Number(values["lexical-weight"]),
      contextTurns: values["context-turns"] === undefined ? 2 : Number(values["context-turns"]),
      log: (m) => process.stderr.write(m),
    });
    console.log(
      table(
        ["retriever", "questions", "recall@5", "recall@10", "recall@25", "all@10"],
        [
          ["plain BM25 over turns (reference)", 1536, "", 0.569, "", ""],
          [`${result.embedder}, lexical ${result.lexical_weight}, ±${result.context_turns} turns`, result.questions, result.recall_at_5, result.recall_at_10, result.recall_at_25, result.all_evidence_at_10],
        ],
      ),
    );
    console.log(`ratio recall@10 vs plain BM25: ${round(result.recall_at_10 / 0.569, 2)}×; by category: ${Object.entries(result.by_category).map(([c, v]) => `${c}=${v.recall_at_10}`).join(" ")}`);
    console.log(`${result.memories} memories ingested in ${result.ingest_ms} ms; search p50 ${result.search_p50_ms} ms (${result.engine})`);
    if (!process.env.OPENAI_API_KEY) console.log("OpenAI embeddings: skipped (no OPENAI_API_KEY); run with --embeddings openai:text-embedding-3-small when a key is set");
    if (values.json) writeJson(values.json, result);
    return 0;
  },
};

export interface LocomoOptions {
  dataPath?: string;
  databaseUrl?: string;
  schema?: string;
  embeddings?: string;
  lexicalWeight?: number;
  contextTurns?: number;
  log?: (message: string) => void;
}

/** Default location of the data set: beside the repository, never inside it. */
export function defaultLocomoPath(): string {
  return process.env.LOCOMO_PATH ?? join(packageRoot(), "..", "shared", "data", "locomo", "locomo10.json");
}

export async function runLocomo(options: LocomoOptions = {}): Promise<LocomoResult> {
  const started = performance.now();
  const path = options.dataPath ?? defaultLocomoPath();
  if (!existsSync(path)) throw new MemoryError(ErrorCodes.INVALID_INPUT, `--data: ${path} does not exist; pass the path of locomo10.json`);
  const samples = JSON.parse(readFileSync(path, "utf8")) as Sample[];
  const contextTurns = options.contextTurns ?? 2;
  if (!Number.isInteger(contextTurns) || contextTurns < 0 || contextTurns > 10) throw new MemoryError(ErrorCodes.INVALID_INPUT, "--context-turns: an integer from 0 to 10");
  const config = resolveConfig({ embeddings: options.embeddings });
  const embeddings = await createEmbeddings(config.embeddings);
  const schema = options.schema ?? `lgm_bench_locomo_${process.pid}`;
  const db = await openDatabase(options.databaseUrl ?? "memory://", { schema });
  const store = new MemoryStore(db, {
    embeddings,
    retrieval: options.lexicalWeight === undefined ? {} : { lexicalWeight: options.lexicalWeight },
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
    for (const [si, sample] of samples.entries()) {
      const scope = { tenantId: "locomo", userId: sample.sample_id ?? `sample-${si}` };
      const turns = sessionTurns(sample.conversation);
      const t0 = performance.now();
      const batch: NewMemory[] = turns.map(({ turn, session, index, sessionTurns: list }) => ({
        kind: "episode",
        text: turnText(turn),
        context: contextTurns > 0 ? neighbours(list, index, contextTurns).map(turnText).join("\n") : null,
        createdAt: ingestedAt,
        source: { threadId: `${scope.userId}/session_${session}`, messageId: turn.dia_id, origin: "user_stated" },
        metadata: { dia_id: turn.dia_id, session },
      }));
      const stored = await store.addMany(scope, batch);
      ingestMs += performance.now() - t0;
      memories += stored.length;
      const diaOf = new Map(stored.map((m) => [m.id, String(m.metadata.dia_id)]));
      for (const qa of sample.qa) {
        if (qa.category < 1 || qa.category > 4) continue;
        const evidence = new Set((qa.evidence ?? []).flatMap((e) => e.split(/[;,]\s*/)).map((e) => e.trim()).filter(Boolean));
        if (evidence.size === 0) continue;
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
      log(`\rlocomo: ${si + 1}/${samples.length} samples, ${n} questions, recall@10 so far ${round(sum10 / Math.max(n, 1))}   `);
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
    context_turns: contextTurns,
    engine: db.engine,
    memories,
    ingest_ms: round(ingestMs, 0),
    search_p50_ms: round(searchMs[Math.floor(searchMs.length / 2)] ?? NaN),
    total_ms: round(performance.now() - started, 0),
  };
}

interface PlacedTurn {
  turn: Turn;
  session: number;
  index: number;
  sessionTurns: Turn[];
}

function sessionTurns(conversation: Record<string, unknown>): PlacedTurn[] {
  const out: PlacedTurn[] = [];
  for (let s = 1; Array.isArray(conversation[`session_${s}`]); s++) {
    const list = conversation[`session_${s}`] as Turn[];
    list.forEach((turn, index) => out.push({ turn, session: s, index, sessionTurns: list }));
  }
  return out;
}

/** A turn as memory text: who said it, what they said, and a shared photo's caption. */
function turnText(t: Turn): string {
  return `${t.speaker}: ${t.text}`;
}

function neighbours(list: Turn[], index: number, k: number): Turn[] {
  const out: Turn[] = [];
  for (let d = -k; d <= k; d++) if (d !== 0 && list[index + d]) out.push(list[index + d]);
  return out;
}
