import { ErrorCodes, MemoryError, invalidInput } from "../errors.js";
import { cliCommand } from "../core/cli-name.js";

/**
 * Longest vector the store keeps. Vectors are stored inline (never TOASTed) for fast scope scans,
 * so a row must fit a Postgres page; pgvector's indexes stop at 2,000 dimensions anyway. Models
 * with larger outputs can be shortened (OpenAI `dimensions`).
 */
export const MAX_EMBEDDING_DIMS = 1536;

/**
 * Check a vector from a caller or an embedder: an array of finite numbers of the expected length.
 * NaN or Infinity would poison every similarity it takes part in, so it is refused.
 */
export function validateVector(vector: unknown, field: string, expectedDims?: number): number[] {
  if (!Array.isArray(vector) && !(vector instanceof Float32Array) && !(vector instanceof Float64Array)) {
    throw invalidInput(field, "must be an array of numbers");
  }
  const arr = Array.from(vector as ArrayLike<unknown>);
  if (arr.length === 0) throw invalidInput(field, "must not be empty");
  if (arr.length > MAX_EMBEDDING_DIMS) {
    throw invalidInput(field, `has ${arr.length} dimensions; at most ${MAX_EMBEDDING_DIMS} are stored (choose a smaller model or its \`dimensions\` option)`);
  }
  for (let i = 0; i < arr.length; i++) {
    const v = arr[i];
    if (typeof v !== "number" || !Number.isFinite(v)) {
      throw invalidInput(field, `element ${i} is ${String(v)}; every element must be a finite number (no NaN or Infinity)`);
    }
  }
  if (expectedDims !== undefined && arr.length !== expectedDims) throw dimensionMismatch(arr.length, expectedDims);
  return arr as number[];
}

export function dimensionMismatch(got: number, recorded: number, embedder?: string): MemoryError {
  return new MemoryError(
    ErrorCodes.EMBEDDING_DIMENSION_MISMATCH,
    `embedding has ${got} dimensions but the database records ${recorded}${embedder ? ` (embedder ${embedder})` : ""}; ` +
      `use the embedder the memories were written with, or run \`${cliCommand("reembed")}\` to re-embed them with the configured one`,
    { details: { got, recorded } },
  );
}

/** Scale to unit length so that a dot product is the cosine similarity (a zero vector stays zero). */
export function normalize(vector: readonly number[]): number[] {
  let sum = 0;
  for (const v of vector) sum += v * v;
  const norm = Math.sqrt(sum);
  if (norm === 0) return Array.from(vector);
  return vector.map((v) => v / norm);
}

/** Dot product of two vectors of equal length. */
export function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}
