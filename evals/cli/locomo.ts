import type { Benchmark } from "../../src/cli/bench/benchmark.js";
import { parseCommandArgs } from "../../src/cli/common-options.js";
import { round, table, writeJson } from "../../src/cli/bench/stats.js";
import { runLocomo } from "../locomo/retrieval-bench.js";
import type { LocomoSplit } from "../locomo/dataset.js";

const HELP = `usage: langgraph-memory bench locomo [--data PATH] [--json FILE] [--embeddings SPEC]
       [--lexical-weight W] [--bridge-weight W] [--context-turns N] [--split train|test|all] [--database-url URL]

LoCoMo evidence retrieval (Maharana et al., 2024) through the real memory store: every turn of a
sample is ingested as an episodic memory of one user (with N neighbouring turns on each side as
indexing-only context, default 2), each question of categories 1–4 is searched in that user's
scope, and evidence recall@5/@10/@25 is the share of its evidence turns in the top k.
--split: conversations 0–4 (train), 5–9 (test) or all (default). --bridge-weight: the weight of
WordNet query expansion (retrieval.vocabularyBridge.weight; 0 turns it off).
Default data: ../shared/data/locomo/locomo10.json (read in place, never copied). Default database:
an in-memory PGlite. EMBEDDINGS / --embeddings picks the embedder (default: offline local).`;

export const benchmark: Benchmark = {
  summary: "LoCoMo evidence recall@k of the offline (or configured) retriever",
  async run(argv) {
    const { values } = parseCommandArgs(argv, {
      data: { type: "string" },
      json: { type: "string" },
      embeddings: { type: "string" },
      "lexical-weight": { type: "string" },
      "bridge-weight": { type: "string" },
      "context-turns": { type: "string" },
      split: { type: "string" },
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
      bridgeWeight: values["bridge-weight"] === undefined ? undefined : Number(values["bridge-weight"]),
      contextTurns: values["context-turns"] === undefined ? 2 : Number(values["context-turns"]),
      split: (values.split ?? "all") as LocomoSplit,
      log: (m) => process.stderr.write(m),
    });
    console.log(
      table(
        ["retriever", "questions", "recall@5", "recall@10", "recall@25", "all@10"],
        [
          ["plain BM25 over turns (reference, all)", 1536, "", 0.569, "", ""],
          [`${result.embedder}, lexical ${result.lexical_weight}, bridge ${result.bridge_weight}, ±${result.context_turns} turns (${result.split})`, result.questions, result.recall_at_5, result.recall_at_10, result.recall_at_25, result.all_evidence_at_10],
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
