import { fingerprintOf, type Fingerprint } from "./item-fingerprint.js";

/** One stored array element, as this process last saw it. */
export interface CachedItem {
  value: unknown;
  fp: Fingerprint;
  tokens: number;
}

/** The value of an array channel at one version, as item numbers in order. */
export interface ChannelState {
  version: string;
  /** As stored in checkpoint_blobs.items: inclusive [lo, hi] pairs. */
  ranges: number[];
  seqs: number[];
  /** The value's elements, when known: a repeated read of this version copies it instead of rebuilding. */
  values?: unknown[];
}

/**
 * What this process knows about one thread's stored items. Item numbers (`seq`) are never reused
 * within a thread's `epoch`, and stored items never change, so everything here stays true until
 * the thread is deleted (which changes the epoch).
 */
export class ThreadCache {
  readonly items = new Map<number, CachedItem>();
  /** Latest known value per `${ns}\u0000${channel}`: the base the next put diffs against. */
  readonly channels = new Map<string, ChannelState>();
  /** Sorted, disjoint, inclusive [lo, hi] pairs covering `items`' keys. */
  private ranges: number[] = [];

  constructor(
    readonly epoch: number,
    /** The thread's `next_item_seq` as last seen; undefined when unknown. */
    public nextSeq: number | undefined,
  ) {}

  static channelKey(ns: string, channel: string): string {
    return `${ns}\u0000${channel}`;
  }

  addItem(seq: number, value: unknown, tokens: number): void {
    if (!this.items.has(seq)) this.addSeq(seq);
    this.items.set(seq, { value, fp: fingerprintOf(value), tokens });
  }

  /** The cached items as a Postgres int8multirange literal (what a read need not fetch). */
  knownMultirange(): string {
    const parts: string[] = [];
    for (let i = 0; i < this.ranges.length; i += 2) parts.push(`[${this.ranges[i]},${this.ranges[i + 1] + 1})`);
    return `{${parts.join(",")}}`;
  }

  private addSeq(seq: number): void {
    const r = this.ranges;
    const n = r.length;
    // Fast path: items arrive in ascending order.
    if (n === 0 || seq > r[n - 1] + 1) {
      r.push(seq, seq);
      return;
    }
    if (seq === r[n - 1] + 1) {
      r[n - 1] = seq;
      return;
    }
    // General case: insert and merge neighbours (rare: reads of older branches).
    const pairs: Array<[number, number]> = [];
    for (let i = 0; i < n; i += 2) pairs.push([r[i], r[i + 1]]);
    pairs.push([seq, seq]);
    pairs.sort((a, b) => a[0] - b[0]);
    const merged: number[] = [];
    for (const [lo, hi] of pairs) {
      const m = merged.length;
      if (m > 0 && lo <= merged[m - 1] + 1) merged[m - 1] = Math.max(merged[m - 1], hi);
      else merged.push(lo, hi);
    }
    this.ranges = merged;
  }
}

/**
 * Per-checkpointer cache of threads, least recently used first out, bounded by the total number of
 * items held.
 */
export class CheckpointCache {
  private readonly threads = new Map<string, ThreadCache>();

  constructor(private readonly maxItems: number) {}

  /** The thread's cache if it matches `epoch` (any epoch when undefined); refreshes its LRU slot. */
  get(threadId: string, epoch?: number): ThreadCache | undefined {
    const t = this.threads.get(threadId);
    if (!t) return undefined;
    if (epoch !== undefined && t.epoch !== epoch) {
      this.threads.delete(threadId);
      return undefined;
    }
    this.threads.delete(threadId);
    this.threads.set(threadId, t);
    return t;
  }

  /** The thread's cache for `epoch`, created (or replaced, when the epoch changed) as needed. */
  ensure(threadId: string, epoch: number, nextSeq: number | undefined): ThreadCache {
    let t = this.get(threadId, epoch);
    if (!t) {
      t = new ThreadCache(epoch, nextSeq);
      this.threads.set(threadId, t);
    } else if (nextSeq !== undefined) {
      t.nextSeq = nextSeq;
    }
    return t;
  }

  drop(threadId: string): void {
    this.threads.delete(threadId);
  }

  clear(): void {
    this.threads.clear();
  }

  /** Evict least recently used threads until the item budget holds (never the one just used). */
  trim(): void {
    let total = 0;
    for (const t of this.threads.values()) total += t.items.size;
    for (const [id, t] of this.threads) {
      if (total <= this.maxItems || this.threads.size <= 1) break;
      total -= t.items.size;
      this.threads.delete(id);
    }
  }
}
