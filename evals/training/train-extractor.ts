/**
 * Trains the offline extractor's durable-clause scorer (`npm run train:extractor`), reproducibly:
 * same data → same weights. Training data: every turn of LoCoMo's train split (conversations
 * 0–4), labelled positive when the data set's observations cite it for its speaker, and the user
 * turns of the public scenarios (`evals/scenarios/`), a clause labelled positive when it holds a
 * string a probe expects. Each clause is a sample; a turn's label goes to its statement clauses
 * (a turn counts as kept when any of its clauses is). The test split (conversations 5–9) is
 * scored once with the final weights and reported beside them; nothing is chosen on it.
 *
 * Only clauses that may become a memory at all (`isStatementOfFact`) are samples.
 *
 * Writes src/extraction/offline/durable-clause-weights.json.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { analyseMessage, type Clause } from "../../src/language/index.js";
import { isStatementOfFact } from "../../src/extraction/offline/eligible-clause.js";
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

/** Clause analyses by text, kept on disk between runs when TRAIN_EXTRACTOR_CACHE names a file (parsing dominates the run). */
const cachePath = process.env.TRAIN_EXTRACTOR_CACHE;
const cache: Record<string, Clause[]> = cachePath && existsSync(cachePath) ? (JSON.parse(readFileSync(cachePath, "utf8")) as Record<string, Clause[]>) : {};
function analyse(text: string): Clause[] {
  return (cache[text] ??= analyseMessage(text));
}

function locomoTurns(split: "train" | "test"): Turn[] {
  const out: Turn[] = [];
  for (const conversation of selectConversations(loadLocomo(), split)) {
    const observed = new Map(conversation.speakers.map((s) => [s, observedTurns(conversation, s)]));
    const observationWords = new Map<string, Set<string>>();
    for (const o of conversation.observations) {
      for (const id of o.evidence) {
        const key = `${o.speaker}|${id}`;
        observationWords.set(key, new Set([...(observationWords.get(key) ?? []), ...contentWords(o.text)]));
      }
    }
    for (const session of conversation.sessions) {
      for (const turn of session.turns) {
        const clauses = analyse(turnMessageText(turn));
        const label = observed.get(turn.speaker)?.has(turn.diaId) ? 1 : 0;
        // Within an observed turn, the clauses the observation restates are the positives.
        const said = observationWords.get(`${turn.speaker}|${turn.diaId}`) ?? new Set<string>();
        const clauseLabels = clauses.map((c) => {
          const mine = contentWords(c.text);
          const shared = [...mine].filter((w) => said.has(w)).length;
          return label && shared >= 2 && shared / Math.max(1, mine.size) >= 0.25 ? 1 : 0;
        });
        out.push({ clauses, label, clauseLabels });
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
        const clauses = analyse(turn.user);
        const clauseLabels = clauses.map((c) => (expected.some((e) => c.text.toLowerCase().includes(e)) ? 1 : 0));
        out.push({ clauses, label: Math.max(0, ...clauseLabels), clauseLabels });
      }
    }
  }
  return out;
}

/** Lower-case words of four letters or more, a crude content filter (stems cut to five letters so "painted" meets "painting"). */
function contentWords(text: string): Set<string> {
  return new Set((text.toLowerCase().match(/\p{L}{4,}/gu) ?? []).map((w) => w.slice(0, 5)));
}

function samples(turns: readonly Turn[]): { xs: number[][]; ys: number[] } {
  const xs: number[][] = [];
  const ys: number[] = [];
  for (const t of turns) {
    t.clauses.forEach((c, i) => {
      if (!isStatementOfFact(c)) return;
      xs.push(clauseFeatures(c, { clauses: t.clauses }));
      ys.push(t.clauseLabels[i]);
    });
  }
  return { xs, ys };
}

/** A turn's score: its best clause's. */
const turnScore = (w: readonly number[], t: Turn) => Math.max(0, ...t.clauses.filter(isStatementOfFact).map((c) => predict(w, clauseFeatures(c, { clauses: t.clauses }))));

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

/**
 * The highest threshold that keeps at least `recall` of the train split's observed turns that
 * have a clause able to become a memory at all (chosen on train only).
 */
function thresholdFor(w: readonly number[], turns: readonly Turn[], recall: number): number {
  const scores = turns.filter((t) => t.label === 1 && t.clauses.some(isStatementOfFact)).map((t) => turnScore(w, t)).sort((a, b) => b - a);
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
    thresholdRule: `highest score keeping >= ${TARGET_TRAIN_RECALL} of the LoCoMo train split's observed turns that have an eligible clause`,
    figures: {
      locomoTrain: turnFigures(weights, locomoTrain, threshold),
      locomoTest: turnFigures(weights, test, threshold),
    },
    features: [...FEATURE_NAMES],
    weights: weights.map((w) => Math.round(w * 1e6) / 1e6),
  };
  const out = join(packageRoot(), "src", "extraction", "offline", "durable-clause-weights.json");
  writeFileSync(out, `${JSON.stringify(file, null, 2)}\n`);
  if (cachePath) writeFileSync(cachePath, JSON.stringify(cache));
  console.log(JSON.stringify({ threshold, figures: file.figures }, null, 2));
}

/** Turn recall the threshold aims for on the train split. */
const TARGET_TRAIN_RECALL = 0.9;

await main();
