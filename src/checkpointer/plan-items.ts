import { fingerprintOf, sameFingerprint } from "./item-fingerprint.js";
import type { ChannelState, ThreadCache } from "./thread-cache.js";

/**
 * How to store a new version of an array channel: `ranges` are inclusive [lo, hi] pairs of item
 * numbers in value order. Positive numbers are items already stored; negative numbers -k stand
 * for the k-th new item of this put, numbered by the database (`base + k`) when the thread's next
 * item number is not known here. When it is known (`nextSeq`), new items get real numbers and
 * adjacent runs merge, so an append-only conversation stays one range however long it grows.
 */
export interface ItemsPlan {
  ranges: number[];
  newItems: unknown[];
  /** Item numbers in value order when all are known (positive), for the cache after commit. */
  seqs: number[] | undefined;
  /** True when some items were reused from `base` (the put must check the base still exists). */
  reusesBase: boolean;
}

export function planItems(
  value: readonly unknown[],
  thread: ThreadCache | undefined,
  base: ChannelState | undefined,
  maxRanges: number,
  /** New items already planned by this put for other channels (they share the numbering). */
  offset = 0,
): ItemsPlan {
  const nextSeq = thread?.nextSeq;
  const index = new Map<unknown, number>();
  // Reuse needs the thread's numbering known: the put then checks it did not move underneath.
  if (thread && base && nextSeq !== undefined) {
    for (let i = base.seqs.length - 1; i >= 0; i -= 1) {
      const cached = thread.items.get(base.seqs[i]);
      if (cached) index.set(cached.value, i);
    }
  }
  const newItems: unknown[] = [];
  const seqs: number[] = [];
  const ranges: number[] = [];
  let reusesBase = false;
  for (const item of value) {
    let seq: number;
    const i = index.get(item);
    const cached = i === undefined ? undefined : thread!.items.get(base!.seqs[i]);
    if (cached && sameFingerprint(cached.fp, fingerprintOf(item))) {
      seq = base!.seqs[i!];
      reusesBase = true;
    } else {
      newItems.push(item);
      const ordinal = offset + newItems.length;
      seq = nextSeq === undefined ? -ordinal : nextSeq + ordinal;
    }
    seqs.push(seq);
    const last = ranges.length - 1;
    if (last > 0 && sameSign(ranges[last], seq) && seq === ranges[last] + Math.sign(seq)) ranges[last] = seq;
    else ranges.push(seq, seq);
  }
  if (ranges.length / 2 > maxRanges) {
    // Too fragmented (many removals or edits in the middle): store the value afresh as one run.
    const n = value.length;
    const first = nextSeq === undefined ? -(offset + 1) : nextSeq + offset + 1;
    const last = nextSeq === undefined ? -(offset + n) : nextSeq + offset + n;
    return {
      ranges: n === 0 ? [] : [first, last],
      newItems: [...value],
      seqs: nextSeq === undefined ? undefined : value.map((_, k) => nextSeq + offset + k + 1),
      reusesBase: false,
    };
  }
  return { ranges, newItems, seqs: nextSeq === undefined ? undefined : seqs, reusesBase };
}

function sameSign(a: number, b: number): boolean {
  return (a > 0 && b > 0) || (a < 0 && b < 0);
}
