/**
 * The trained durable-clause scorer: how likely a clause is worth remembering, from its parse
 * features and the committed weights (durable-clause-weights.json, written by `npm run train:extractor`).
 */
import { readFileSync } from "node:fs";
import type { Clause } from "../../language/index.js";
import { clauseFeatures, FEATURE_NAMES } from "./features.js";
import { predict } from "./logistic-regression.js";

interface WeightsFile {
  features: string[];
  weights: number[];
  threshold: number;
}

function loadWeights(): WeightsFile {
  const file = JSON.parse(readFileSync(new URL("./durable-clause-weights.json", import.meta.url), "utf8")) as WeightsFile;
  if (file.features.join("|") !== FEATURE_NAMES.join("|") || file.weights.length !== FEATURE_NAMES.length) {
    throw new Error("durable-clause-weights.json does not match the feature list: run npm run train:extractor");
  }
  return file;
}

const WEIGHTS = loadWeights();

/** Score at or above which a clause is kept (chosen on the train split by the training script). */
export const DURABLE_THRESHOLD = WEIGHTS.threshold;

/**
 * Probability (0..1) that a clause states something worth remembering about the user's world.
 *
 * @example
 * const clauses = analyseMessage("my son just started judo");
 * durableScore(clauses[0], clauses) // ≈ 0.4
 */
export function durableScore(clause: Clause, message: readonly Clause[]): number {
  return predict(WEIGHTS.weights, clauseFeatures(clause, { clauses: message }));
}
