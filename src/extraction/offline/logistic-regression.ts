/**
 * Binary logistic regression: the scorer's model, and the batch gradient-descent trainer the
 * training script uses (L2-regularised, deterministic: same data → same weights).
 */

/** Probability that a feature vector is positive under `weights` (same length). */
export function predict(weights: readonly number[], x: readonly number[]): number {
  let z = 0;
  for (let i = 0; i < weights.length; i++) z += weights[i] * x[i];
  return 1 / (1 + Math.exp(-z));
}

export interface TrainOptions {
  /** L2 penalty on every weight but the first (the bias). Default 1e-3. */
  l2?: number;
  /** Full-batch gradient steps. Default 3000. */
  epochs?: number;
  /** Step size. Default 0.5. */
  learningRate?: number;
  /** Weight of each sample (default 1). */
  sampleWeights?: readonly number[];
}

/**
 * Fit weights by full-batch gradient descent on the mean log loss, from zero weights.
 *
 * @example
 * const w = trainLogisticRegression([[1, 0], [1, 1]], [0, 1]);
 * predict(w, [1, 1]) > 0.5 // true
 */
export function trainLogisticRegression(xs: readonly (readonly number[])[], ys: readonly number[], options: TrainOptions = {}): number[] {
  const { l2 = 1e-3, epochs = 3000, learningRate = 0.5 } = options;
  const n = xs.length;
  const d = xs[0]?.length ?? 0;
  const sw = options.sampleWeights ?? xs.map(() => 1);
  const total = sw.reduce((a, b) => a + b, 0) || 1;
  const w = new Array<number>(d).fill(0);
  for (let epoch = 0; epoch < epochs; epoch++) {
    const grad = new Array<number>(d).fill(0);
    for (let k = 0; k < n; k++) {
      const err = (predict(w, xs[k]) - ys[k]) * sw[k];
      const x = xs[k];
      for (let i = 0; i < d; i++) grad[i] += err * x[i];
    }
    for (let i = 0; i < d; i++) w[i] -= learningRate * (grad[i] / total + (i === 0 ? 0 : l2 * w[i]));
  }
  return w;
}
