/** How a probe's memory context is judged (docs/evals.md): pure string checks, case-insensitive. */

export interface ExpectGroupResult {
  /** The group's alternatives, as written. */
  alternatives: string[];
  /** The first alternative found in the context, or null when the group failed. */
  hit: string | null;
}

export interface ProbeCheck {
  expect: ExpectGroupResult[];
  /** Forbidden strings found in the context (the probe is stale/wrong when any is). */
  forbidHits: string[];
  passedGroups: number;
  stale: boolean;
  /** Every group passed and nothing forbidden appeared. */
  passed: boolean;
}

/**
 * Check a context: each `expect` group passes when any of its strings occurs (case-insensitive
 * substring); the probe is stale/wrong when any `forbid` string occurs.
 *
 * @example
 * checkProbe("User prefers metric units.", [["metric", "km"]], ["miles"]);
 * // { expect: [{ alternatives: ["metric", "km"], hit: "metric" }], forbidHits: [], passedGroups: 1, stale: false, passed: true }
 */
export function checkProbe(context: string, expect: readonly (readonly string[])[], forbid: readonly string[]): ProbeCheck {
  const haystack = context.toLowerCase();
  const groups = expect.map((alternatives) => ({
    alternatives: [...alternatives],
    hit: alternatives.find((a) => haystack.includes(a.toLowerCase())) ?? null,
  }));
  const forbidHits = forbid.filter((f) => haystack.includes(f.toLowerCase()));
  const passedGroups = groups.filter((g) => g.hit !== null).length;
  const stale = forbidHits.length > 0;
  return { expect: groups, forbidHits, passedGroups, stale, passed: !stale && passedGroups === groups.length };
}

/** Character ranges of every occurrence of `needles` in `text` (case-insensitive), merged, for highlighting. */
export function findRanges(text: string, needles: readonly string[]): Array<{ start: number; end: number }> {
  const lower = text.toLowerCase();
  const ranges: Array<{ start: number; end: number }> = [];
  for (const n of needles) {
    const needle = n.toLowerCase();
    if (needle === "") continue;
    for (let at = lower.indexOf(needle); at >= 0; at = lower.indexOf(needle, at + 1)) ranges.push({ start: at, end: at + needle.length });
  }
  ranges.sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: Array<{ start: number; end: number }> = [];
  for (const r of ranges) {
    const last = merged[merged.length - 1];
    if (last && r.start <= last.end) last.end = Math.max(last.end, r.end);
    else merged.push({ ...r });
  }
  return merged;
}
