/**
 * `bench summary` at a small size: the planted-facts part offline (product vs trim-only vs full
 * history), the LoCoMo part on the tiny fixture, the model path with LangChain's fake chat model
 * (which records calls) beside LangChain's summarizationMiddleware, and "not measured" without a model.
 */
import { describe, expect, it, jest } from "@jest/globals";
import { AIMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { join } from "node:path";
import { benchmark } from "../../evals/cli/summary.js";
import { NOT_MEASURED } from "../../src/cli/model-to-measure.js";
import { plantedThread } from "../../evals/summary/planted-thread.js";
import { runSummaryBench } from "../../evals/summary/summary-bench.js";

const FIXTURE = join(process.cwd(), "test", "fixtures", "locomo-mini.json");

describe("bench summary", () => {
  it("plants every kind of fact at known turns, the same for the same seed", () => {
    const a = plantedThread({ turns: 60, seed: 3 });
    expect(plantedThread({ turns: 60, seed: 3 }).facts).toEqual(a.facts);
    expect(new Set(a.facts.map((f) => f.kind)).size).toBe(7);
    for (const f of a.facts) expect(a.turns[f.turn - 1][0].text).toContain(f.needles[0]);
  });

  it("offline: the rolling summary keeps more planted facts than trim-only in fewer tokens; the full history is the ceiling", async () => {
    const r = await runSummaryBench({ parts: ["planted"], turns: 120, seed: 3 });
    const [product, trim, full] = r.planted!.strategies;
    expect(product.summaries).toBeGreaterThan(0);
    expect(product.visible_share).toBeGreaterThan(trim.visible_share);
    expect(product.prompt_tokens).toBeLessThanOrEqual(trim.prompt_tokens);
    expect(full.visible_share).toBe(1);
    expect(full.prompt_tokens).toBeGreaterThan(product.prompt_tokens);
    expect(product.closed_tasks).toBeDefined();
  });

  it("LoCoMo: scores every answerable question of each conversation against each strategy's final prompt", async () => {
    const r = await runSummaryBench({ parts: ["locomo"], dataPath: FIXTURE });
    const rows = [...(r.locomo?.train ?? []), ...(r.locomo?.test ?? [])];
    expect(rows.length).toBeGreaterThan(0);
    const full = rows.find((s) => s.strategy.startsWith("full"))!;
    expect(full.questions).toBeGreaterThan(0);
    expect(full.evidence_in_prompt).toBe(full.questions); // a short thread: all of it is in the prompt
  });

  it("with a model: the chat-model summariser and LangChain's summarizationMiddleware on the same model", async () => {
    const model = fakeModel().structuredResponse({
      text: "MODEL SUMMARY of the trip.",
      entities: { people: [], places: [], numbers: [], references: [], dates: [], decisions: [], commitments: [], openTasks: [] },
      closedTasks: [],
    });
    for (let i = 0; i < 10; i++) model.respond(new AIMessage(`LANGCHAIN SUMMARY ${i}`));
    const r = await runSummaryBench({ parts: ["planted"], turns: 120, seed: 3, model, modelSpec: "fake:model" });
    expect(r.pipeline).toBe("llm:fake:model");
    const names = r.planted!.strategies.map((s) => s.strategy);
    expect(names).toEqual(["rolling summary (chat model)", "LangChain summarizationMiddleware", "trim only (same budget)", "full history (ceiling)"]);
    const [product, langchain] = r.planted!.strategies;
    expect(product.summaries).toBeGreaterThan(0);
    expect(product.fallbacks).toBe(0);
    // The middleware called the model once per summary, with the conversation in its prompt.
    expect(langchain.summaries).toBeGreaterThan(0);
    expect(model.calls).toHaveLength(langchain.summaries);
    expect(JSON.stringify(model.calls[0].messages)).toContain("Human:");
  });

  it('prints "not measured: no model configured" and exits 0 without a model', async () => {
    const key = process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_API_KEY;
    const log = jest.spyOn(console, "log").mockImplementation(() => {});
    const err = jest.spyOn(console, "error").mockImplementation(() => {});
    try {
      expect(await benchmark.run(["--model", "openai:gpt-4o-mini", "--parts", "planted"])).toBe(0);
      expect(log.mock.calls.map((c) => c[0])).toContain(NOT_MEASURED);
    } finally {
      log.mockRestore();
      err.mockRestore();
      if (key !== undefined) process.env.OPENAI_API_KEY = key;
    }
  });
});
