import { BaseMessage } from "@langchain/core/messages";
import { fingerprintOf, type Fingerprint } from "./item-fingerprint.js";

/** One stored item, as this process last saw it. */
export interface CachedItem {
  value: unknown;
  fp: Fingerprint;
  tokens: number;
  /** Digest of the serialized bytes, for objects that are not messages (see `plan-value.ts`). */
  hash?: string;
}

/**
 * A stored row that refers to items: a checkpoint (its `vals`) or a pending write. A put that
 * reuses items locks such a row so retention cannot delete the items before the put commits.
 */
export type ItemSource =
  | { kind: "cp"; ns: string; id: string }
  | { kind: "write"; ns: string; id: string; task: string };

export function sourceKey(s: ItemSource): string {
  return s.kind === "cp" ? `c\u0000${s.ns}\u0000${s.id}` : `w\u0000${s.ns}\u0000${s.id}\u0000${s.task}`;
}

/** An object stored lately, as it was when serialized (the object itself may have changed since). */
export interface RecentItem {
  seq: number;
  source: ItemSource;
  fp: Fingerprint;
  hash?: string;
  tokens: number;
}

/**
 * Whether a decoded or stored value may be kept and handed out again. A message without an id
 * is not: LangGraph's reducer gives it one in place, so the object would no longer match its
 * stored bytes.
 */
export function cacheable(value: unknown): boolean {
  return !(BaseMessage.isInstance(value) && (value.id === undefined || value.id === null));
}

/** A channel's value at one version, as item numbers: the base the next put diffs against. */
export interface ChannelState {
  version: string;
  /** The checkpoint row that holds this reference (locked by a put that reuses its items). */
  source: ItemSource & { kind: "cp" };
  /** The reference as JSON text (a read that finds the same text copies `values`). */
  refText: string;
  /** Item numbers of the reference, in value order. */
  seqs: number[];
  /** For array values: the elements, so a repeated read of this version copies one array. */
  values?: unknown[];
}

const RECENT_MAX = 2048;

/**
 * What this process knows about one thread's stored items. Item numbers (`seq`) are never reused
 * within a thread's `epoch`, and stored items never change, so everything here stays true until
 * the thread is deleted (which changes the epoch) or retention removes items (which tells the
 * cache, see `forgetItems`).
 */
export class ThreadCache {
  readonly items = new Map<number, CachedItem>();
  /** Latest known value per `${ns}\u0000${channel}`. */
  readonly channels = new Map<string, ChannelState>();
  /**
   * Objects stored lately by writes and puts (a node's output messages, the graph's input),
   * so the next put recognises them by identity and only refers to them. Bounded, oldest first out.
   */
  readonly recent = new Map<object, RecentItem>();
  /** Each stream's block of reserved item numbers (see `ValuePlanner`); empty in a new process. */
  blocks = new Map<string, { next: number; end: number }>();
  /** Sorted, disjoint, inclusive [lo, hi] pairs covering `items`' keys. */
  private ranges: number[] = [];

  constructor(
    readonly epoch: number,
    /** The thread's item counter (`next_item_seq`) as last seen; undefined when unknown. */
    public nextSeq: number | undefined,
  ) {}

  static channelKey(ns: string, channel: string): string {
    return `${ns}\u0000${channel}`;
  }

  /** `fp`: the value's fingerprint when its stored bytes were made (default: now). */
  /** Keep an item's value (not when it is not {@link cacheable}: reads then fetch it). */
  addItem(seq: number, value: unknown, tokens: number, hash?: string, fp: Fingerprint = fingerprintOf(value)): void {
    if (!cacheable(value)) return;
    if (!this.items.has(seq)) this.addSeq(seq);
    this.items.set(seq, { value, fp, tokens, hash });
  }

  /** Remember that `value` (an object) was stored as item `seq`, as it was then (`fp`, `hash`). */
  remember(value: unknown, item: RecentItem): void {
    if (value === null || typeof value !== "object") return;
    this.recent.delete(value);
    this.recent.set(value, item);
    if (this.recent.size > RECENT_MAX) this.recent.delete(this.recent.keys().next().value!);
  }

  /** Retention deleted these items (and the checkpoints in `deleted`): forget what refers to them. */
  forget(seqs: readonly number[], deletedCheckpoints: ReadonlySet<string>): void {
    if (seqs.length > 0) {
      const gone = new Set(seqs);
      for (const seq of seqs) this.items.delete(seq);
      this.ranges = [];
      for (const seq of [...this.items.keys()].sort((a, b) => a - b)) this.addSeq(seq);
      for (const [value, r] of this.recent) if (gone.has(r.seq)) this.recent.delete(value);
      for (const [key, state] of this.channels) if (state.seqs.some((s) => gone.has(s))) this.channels.delete(key);
    }
    const isGone = (s: ItemSource) => deletedCheckpoints.has(`${s.ns}\u0000${s.id}`);
    for (const [value, r] of this.recent) if (isGone(r.source)) this.recent.delete(value);
    for (const [key, state] of this.channels) if (isGone(state.source)) this.channels.delete(key);
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
    } else if (nextSeq !== undefined && (t.nextSeq === undefined || nextSeq > t.nextSeq)) {
      // The counter only grows within an epoch: a read that started before our last put commits
      // must not take it back.
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
