/**
 * The LoCoMo write-path benchmark on the tiny synthetic file, with a scripted extraction model
 * whose answers are known (a memory for the cello, the sourdough and the hiking turns, nothing
 * for the rest): the extraction and question figures must be exactly what that outcome implies,
 * and each memory must be attributed to its turn's dialog id through the real graph, queue,
 * worker and store.
 */
import { describe, expect, it } from "@jest/globals";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { loadLocomo } from "../../evals/locomo/dataset.js";
import { runLocomoWritePath } from "../../evals/locomo/write-path-bench.js";
import { DatabaseTemplate } from "../../evals/runner/database-template.js";
import { mappingModel } from "../helpers/extraction-models.js";
import { PGLITE_TEMPLATE_PATH } from "../helpers/engines.js";

const FIXTURE = join(process.cwd(), "test", "fixtures", "locomo-mini.json");

describe("bench locomo-memory on a known outcome", () => {
  it("scores extraction against the observations and the memory block against the evidence", async () => {
    const model = mappingModel({
      cello: { kind: "fact", text: "Ana plays the cello." },
      sourdough: { kind: "fact", text: "Ben bakes sourdough bread." },
      hiking: { kind: "preference", text: "Ana likes hiking in the mountains." },
    });
    const result = await runLocomoWritePath({
      data: loadLocomo(FIXTURE),
      split: "train",
      conversations: [0],
      model,
      modelLabel: "mapping",
      includeRows: true,
      // The migrated database jest's global setup dumped: no second initdb here.
      template: DatabaseTemplate.fromDump(new Blob([readFileSync(PGLITE_TEMPLATE_PATH)])),
    });

    expect(result).toMatchObject({ pipeline: "llm:mapping", conversations: [0], headline_split: "train", warnings: { count: 0 } });
    expect(Object.keys(result.splits)).toEqual(["train"]);
    const train = result.splits.train!;

    // Attribution: each memory's source message id is the dialog id of its turn.
    const rows = Object.fromEntries(result.extraction_rows!.map((r) => [r.speaker, r]));
    expect(rows.Ana.extracted_turns.sort()).toEqual(["D1:3", "D2:4"]);
    expect(rows.Ben.extracted_turns).toEqual(["D1:4"]);
    expect(rows.Ana.positive_turns.sort()).toEqual(["D1:3", "D2:2"]);
    // Observed D1:3, D2:2 (Ana), D1:4 (Ben); extracted D1:3, D2:4, D1:4: two of three each way.
    expect(train.extraction).toMatchObject({
      users: 2,
      user_turns: 8,
      positive_turns: 3,
      extracted_turns: 3,
      true_positive_turns: 2,
      recall: 0.667,
      precision: 0.667,
      memories_written: 3,
      unattributed_memories: 0,
      positive_without_candidates: 1,
    });

    // Five questions (the adversarial one is skipped); the block holds an evidence memory for
    // the cello (D1:3), the sourdough (D1:4) and "what did Ana say last" (D2:4), not for D2:2 or D1:1/D1:2.
    const q = train.questions;
    expect(q).toMatchObject({ questions: 5, answer_questions: 4, speaker_rules: { named: 4, first_speaker: 1 } });
    expect(q.product.evidence_in_block).toBe(0.6);
    const row = (i: number) => result.question_rows!.find((r) => r.index === i)!;
    expect(row(0)).toMatchObject({ speaker: "Ana", product: { evidence_hit: true, answer_share: 1 } });
    expect(row(1)).toMatchObject({ speaker: "Ben", product: { evidence_hit: true, answer_share: 1 } });
    expect(row(2).product.evidence_hit).toBe(false);
    expect(row(5).product).toMatchObject({ evidence_hit: true, answer_share: null });
    expect(row(0).product.tokens).toBeGreaterThan(0);
    // BM25 needs a shared word: "bread" finds Ben's turn; "instrument … play" shares none with "playing the cello".
    expect(row(1).raw_turns_bm25).toMatchObject({ evidence_hit: true, answer_share: 1 });
    expect(row(0).raw_turns_bm25).toEqual({ evidence_hit: false, answer_share: 0, tokens: 0 });
    expect(train.throughput.user_turns).toBe(8);
    expect(train.throughput.turns_per_second_per_worker).toBeGreaterThan(0);
  }, 60_000);
});
