/** The durable-clause scorer: its trainer fits separable data, and the committed weights fit the feature list. */
import { describe, expect, it } from "@jest/globals";
import { readFileSync } from "node:fs";
import { FEATURE_NAMES, clauseFeatures } from "../../src/extraction/offline/features.js";
import { predict, trainLogisticRegression } from "../../src/extraction/offline/logistic-regression.js";
import { analyseMessage } from "../../src/language/index.js";

describe("logistic regression", () => {
  it("learns a separable rule and is deterministic", () => {
    const xs = [[1, 0], [1, 0.2], [1, 0.8], [1, 1]];
    const ys = [0, 0, 1, 1];
    const a = trainLogisticRegression(xs, ys, { epochs: 500 });
    expect(predict(a, [1, 1])).toBeGreaterThan(0.5);
    expect(predict(a, [1, 0])).toBeLessThan(0.5);
    expect(trainLogisticRegression(xs, ys, { epochs: 500 })).toEqual(a);
  });
});

describe("clause features and committed weights", () => {
  const file = JSON.parse(readFileSync(new URL("../../src/extraction/offline/durable-clause-weights.json", import.meta.url), "utf8"));

  it("has one weight per feature, in the same order, with train and test figures beside them", () => {
    expect(file.features).toEqual([...FEATURE_NAMES]);
    expect(file.weights).toHaveLength(FEATURE_NAMES.length);
    expect(file.figures.locomoTrain.recall).toBeGreaterThan(0);
    expect(file.figures.locomoTest.turns).toBeGreaterThan(0);
  });

  it("scores a first-person statement above a question to the assistant", () => {
    const [statement] = analyseMessage("I adopted a rescue greyhound from the shelter last spring");
    const [question] = analyseMessage("can you tell me a joke?");
    const score = (c: typeof statement) => predict(file.weights, clauseFeatures(c, { clauses: [c] }));
    expect(score(statement)).toBeGreaterThan(score(question));
  });
});
