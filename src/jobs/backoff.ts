import { invalidInput } from "../errors.js";

/** Retry delays: exponential from `baseMs`, capped at `maxMs`, shortened by up to `jitter` of itself. */
export interface BackoffOptions {
  baseMs: number;
  factor: number;
  maxMs: number;
  /** 0 … 0.5: a delay is multiplied by a random value in (1 - jitter, 1]. Above 0.5 delays could stop increasing. */
  jitter: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 1_000, factor: 2, maxMs: 10 * 60_000, jitter: 0.25 };

export function resolveBackoff(options: Partial<BackoffOptions> = {}): BackoffOptions {
  const b = { ...DEFAULT_BACKOFF, ...options };
  if (!(Number.isFinite(b.baseMs) && b.baseMs >= 0)) throw invalidInput("backoff.baseMs", "must be a finite number ≥ 0");
  if (!(Number.isFinite(b.factor) && b.factor >= 1)) throw invalidInput("backoff.factor", "must be a finite number ≥ 1");
  if (!(Number.isFinite(b.maxMs) && b.maxMs >= b.baseMs)) throw invalidInput("backoff.maxMs", "must be a finite number ≥ baseMs");
  if (!(b.jitter >= 0 && b.jitter <= 0.5)) throw invalidInput("backoff.jitter", "must be between 0 and 0.5");
  return b;
}

/**
 * Delay before the next attempt after `attempt` failed attempts (1 = the first failure).
 * Jitter spreads retries of jobs that failed together (a database blip) so they do not return in
 * lockstep; with jitter ≤ 0.5 and factor 2 the schedule still never decreases.
 *
 * @example
 * backoffDelayMs(3, DEFAULT_BACKOFF, () => 0) // 4000: 1 s · 2²
 */
export function backoffDelayMs(attempt: number, options: BackoffOptions, random: () => number = Math.random): number {
  const exponent = Math.max(0, attempt - 1);
  const raw = Math.min(options.maxMs, options.baseMs * options.factor ** exponent);
  return Math.round(raw * (1 - options.jitter * random()));
}
