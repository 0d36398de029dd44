import { describeValue, invalidInput } from "../errors.js";

/**
 * How two payloads of one group combine when a later enqueue meets a pending job (or a retry
 * absorbs a newer pending job). The merge runs in SQL (`memory_jobs_merge` in
 * migrations/0004_jobs.sql) so it stays inside the enqueue round trip.
 *
 * - `append`: arrays present on both sides are concatenated (older first), every other key takes
 *   the newer value — a burst of turns becomes one job carrying all `messages` and the newest
 *   `lastMessageId`;
 * - `replace`: the newer payload wins whole;
 * - `keep`: the older payload stays (what pg-boss's singleton and debounce policies do).
 */
export const MERGE_STRATEGIES = ["append", "replace", "keep"] as const;

export type MergeStrategy = (typeof MERGE_STRATEGIES)[number];

export function isMergeStrategy(name: unknown): name is MergeStrategy {
  return typeof name === "string" && (MERGE_STRATEGIES as readonly string[]).includes(name);
}

export function requireMergeStrategy(name: unknown): MergeStrategy {
  if (name === undefined) return "append";
  if (!isMergeStrategy(name)) throw invalidInput("merge", `must be one of ${MERGE_STRATEGIES.join(", ")}, got ${describeValue(name)}`);
  return name;
}
