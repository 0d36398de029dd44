import { createHash } from "node:crypto";
import { BaseMessage, RemoveMessage } from "@langchain/core/messages";
import type { SerializerProtocol } from "@langchain/langgraph-checkpoint";
import { fingerprintOf, sameFingerprint, type Fingerprint } from "./item-fingerprint.js";
import { itemTokens } from "./item-tokens.js";
import { compressRanges, type Ref } from "./refs.js";
import { invalidInput } from "../errors.js";
import { sourceKey, type ChannelState, type ItemSource, type ThreadCache } from "./thread-cache.js";

// One each per module: constructing a TextDecoder costs more than decoding a checkpoint's metadata.
const UTF8_DECODER = new TextDecoder();
const UTF8_ENCODER = new TextEncoder();

/** Serialized values up to this size (JSON only) are inlined in the reference instead of stored as items. */
export const INLINE_MAX_BYTES = 32;

/** An item a statement will insert (its number is given by `ValuePlanner`). */
export interface NewItem {
  value: unknown;
  type: string;
  blob: Uint8Array;
  tokens: number;
  /** The fingerprint the value had when it was serialized (see `Dumper`). */
  fp: Fingerprint;
  hash?: string;
}

/** A value serialized, with the fingerprint it had at that moment. */
export interface Dumped {
  type: string;
  bytes: Uint8Array;
  fp: Fingerprint;
}

/**
 * Serializes each value at most once per operation. `dump` starts the serializer at once (it is
 * synchronous inside LangGraph's serializer), so calling it before any `await` captures a value
 * exactly as it was when handed over — LangGraph's reducer later assigns ids to messages in place.
 * The fingerprint is taken at the same moment, so the cache never believes an item holds an id
 * (or content) that its stored bytes lack.
 */
export class Dumper {
  private readonly memo = new Map<unknown, Promise<Dumped>>();
  private readonly fps = new Map<unknown, Fingerprint>();
  private readonly shapes = new Map<unknown, Shape>();

  constructor(private readonly serde: SerializerProtocol) {}

  /** The value's shape, worked out once (a record's `rest` stays the same object). */
  shape(value: unknown): Shape {
    let s = this.shapes.get(value);
    if (!s) {
      s = shapeOf(value);
      this.shapes.set(value, s);
    }
    return s;
  }

  dump(value: unknown): Promise<Dumped> {
    let p = this.memo.get(value);
    if (!p) {
      const fp = fingerprintOf(value);
      this.fps.set(value, fp);
      p = this.serde.dumpsTyped(value).then(([type, bytes]) => ({ type, bytes: toBytes(bytes), fp }), rethrowUnserializable);
      this.memo.set(value, p);
    }
    return p;
  }

  /** The value's fingerprint as it was serialized (or as it is now, when it was not yet). */
  fingerprint(value: unknown): Fingerprint {
    return this.fps.get(value) ?? fingerprintOf(value);
  }

  /**
   * Serialize now everything `ValuePlanner.plan` may need for `value`. A failure surfaces when
   * the plan awaits that value (not as an unhandled rejection when it never does).
   */
  prime(value: unknown): void {
    const shape = this.shape(value);
    const start = (v: unknown) => void this.dump(v).catch(() => undefined);
    if (shape.kind === "array") for (const el of value as unknown[]) start(el);
    else if (shape.kind === "record") {
      for (const el of shape.elements) start(el);
      start(shape.rest);
    } else start(value);
  }
}

/** Item numbers a stream reserves at a time (see `ValuePlanner.alloc`). */
export const BLOCK_SIZE = 1024;

/** The stream of items that no channel value is expected to share (record rests, whole values, messages without an id). */
export const SOLO_STREAM = "\u0000";

/** A stream's current block of reserved item numbers: `next` is the last one used, `end` the last one reserved. */
export interface Block {
  next: number;
  end: number;
}

/**
 * Plans how one statement stores values: which elements are already stored items (reused by
 * number), which are new and what numbers they get, and which stored rows the reused items come
 * from (the statement locks and checks them).
 *
 * Numbering: a channel's value is a list of item ranges, so it stays small only while the
 * channel's items are numbered consecutively. Each channel therefore numbers its items in its own
 * stream, from a block of `BLOCK_SIZE` numbers reserved from the thread's counter; items nothing
 * will share (a graph input's other keys, whole values, a message without an id — LangGraph gives
 * it one in place later, so the channel stores it again) go to a stream of their own. A new
 * block is reserved in the statement that needs it (the counter is checked and advanced there).
 */
export class ValuePlanner {
  readonly items: Array<NewItem & { seq: number }> = [];
  readonly sources = new Map<string, ItemSource>();
  /** Numbers this statement adds to the thread's counter (new blocks). */
  reserved = 0;
  readonly blocks: Map<string, Block>;
  /** Stored items this plan reuses, with the element that matched each (the cache adopts them after commit). */
  readonly matched = new Map<number, Match & { value: unknown }>();
  private readonly bySeq = new Map<number, NewItem>();

  constructor(
    private readonly thread: ThreadCache | undefined,
    /** The statement's namespace: only items whose rows are in it are reused (the statement locks those rows). */
    private readonly ns: string,
    /** The thread's item counter this plan assumes (0 for a thread not stored yet). */
    readonly counter: number,
    private readonly dumper: Dumper,
    private readonly maxRanges: number,
    /** The channel LangGraph's messages reducer runs on (see `streamOf`). */
    private readonly messagesChannel: string,
  ) {
    this.blocks = new Map([...(thread?.blocks ?? [])].map(([k, b]) => [k, { ...b }]));
  }

  /** Tokens of a planned item number (new or cached). */
  tokensOf(seq: number): number {
    return this.bySeq.get(seq)?.tokens ?? this.matched.get(seq)?.tokens ?? this.thread?.items.get(seq)?.tokens ?? 0;
  }

  /**
   * The reference for `value` and its item numbers. `base` is the channel's previous value (its
   * elements are matched by identity), as are objects stored lately by writes and puts; `stream`
   * numbers the new elements (the channel's name).
   */
  async plan(value: unknown, base: ChannelState | undefined, stream: string): Promise<{ ref: Ref; seqs: number[] }> {
    const shape = this.dumper.shape(value);
    const index = this.baseIndex(base);
    if (shape.kind === "array") {
      const elements = value as unknown[];
      const found: Array<Match | undefined> = [];
      for (const el of elements) {
        const m = this.match(el, index, base);
        found.push(m instanceof Promise ? await m : m);
      }
      const mark = this.mark();
      const seqs: number[] = [];
      for (let i = 0; i < elements.length; i += 1) seqs.push(found[i]?.seq ?? (await this.add(elements[i], stream)));
      if (compressRanges(seqs).length / 2 <= this.maxRanges) {
        for (const f of found) if (f) this.sources.set(sourceKey(f.source), f.source);
        return { ref: compressRanges(seqs), seqs };
      }
      // Too fragmented (many removals or edits in the middle): store the value afresh as one run.
      this.rollback(mark);
      const fresh: number[] = [];
      for (const el of elements) fresh.push(await this.add(el, stream));
      return { ref: compressRanges(fresh), seqs: fresh };
    }
    if (shape.kind === "record") {
      const seqs: number[] = [];
      const restDump = await this.dumper.dump(shape.rest);
      const inline = inlineJson(restDump.type, restDump.bytes);
      if (inline === undefined) seqs.push(await this.add(shape.rest, SOLO_STREAM));
      let at = 0;
      for (const [key, count] of shape.keys) {
        for (const el of shape.elements.slice(at, at + Math.max(count, 1))) seqs.push(await this.reuseOrAdd(el, index, base, key));
        at += Math.max(count, 1);
      }
      const ref: Ref = inline === undefined ? { k: shape.keys, i: compressRanges(seqs) } : { k: shape.keys, i: compressRanges(seqs), v: inline.v };
      return { ref, seqs };
    }
    if (shape.kind === "item") {
      const seq = await this.reuseOrAdd(value, index, base, stream);
      return { ref: seq, seqs: [seq] };
    }
    const whole = await this.dumper.dump(value);
    const inline = inlineJson(whole.type, whole.bytes);
    if (inline !== undefined) return { ref: inline, seqs: [] };
    const seq = await this.reuseOrAdd(value, index, base, SOLO_STREAM);
    return { ref: seq, seqs: [seq] };
  }

  private async reuseOrAdd(el: unknown, index: Map<unknown, number> | undefined, base: ChannelState | undefined, stream: string): Promise<number> {
    const f = await this.match(el, index, base);
    if (f) {
      this.sources.set(sourceKey(f.source), f.source);
      return f.seq;
    }
    return this.add(el, stream);
  }

  private async add(el: unknown, stream: string): Promise<number> {
    const { type, bytes, fp } = await this.dumper.dump(el);
    const seq = this.alloc(this.streamOf(el, fp, stream));
    const item = { value: el, type, blob: bytes, tokens: itemTokens(el), fp, hash: needsHash(el) ? digest(bytes) : undefined, seq };
    this.items.push(item);
    this.bySeq.set(seq, item);
    return seq;
  }

  /**
   * Where a new element is numbered: in its channel's stream when the channel's next value is
   * expected to hold this very element, else apart. A message without an id gets one from
   * LangGraph's reducer (in place, after this), so the channel stores it again with its id; a
   * RemoveMessage never enters a value; and the messages reducer turns anything that is not a
   * message (a `{ role, content }` object) into a new message. A wrong guess costs only a gap in
   * the channel's numbering.
   */
  private streamOf(el: unknown, fp: Fingerprint, stream: string): string {
    if (isMessage(el)) return RemoveMessage.isInstance(el) || fp[0] === undefined || fp[0] === null ? SOLO_STREAM : stream;
    return stream === this.messagesChannel ? SOLO_STREAM : stream;
  }

  /** The next number of the stream's block, reserving a new block (in this statement) when it is used up. */
  private alloc(stream: string): number {
    let block = this.blocks.get(stream);
    if (!block || block.next >= block.end) {
      const start = this.counter + this.reserved;
      this.reserved += BLOCK_SIZE;
      block = { next: start, end: start + BLOCK_SIZE };
      this.blocks.set(stream, block);
    }
    block.next += 1;
    return block.next;
  }

  private mark(): { items: number; reserved: number; blocks: Map<string, Block> } {
    return { items: this.items.length, reserved: this.reserved, blocks: new Map([...this.blocks].map(([k, b]) => [k, { ...b }])) };
  }

  private rollback(mark: { items: number; reserved: number; blocks: Map<string, Block> }): void {
    for (const item of this.items.splice(mark.items)) this.bySeq.delete(item.seq);
    this.reserved = mark.reserved;
    this.blocks.clear();
    for (const [k, b] of mark.blocks) this.blocks.set(k, b);
  }

  private baseIndex(base: ChannelState | undefined): Map<unknown, number> | undefined {
    if (!this.thread || !base) return undefined;
    const memo = BASE_INDEXES.get(base);
    if (memo && memo.thread === this.thread) return memo.index;
    const index = new Map<unknown, number>();
    for (let i = base.seqs.length - 1; i >= 0; i -= 1) {
      const cached = this.thread.items.get(base.seqs[i]);
      if (cached) index.set(cached.value, base.seqs[i]);
    }
    BASE_INDEXES.set(base, { thread: this.thread, index });
    return index;
  }

  /**
   * A stored item holding exactly `el`: the same object (messages: with the same id and content
   * as when the item was serialized; other objects: with the same serialized bytes, since code
   * may edit them in place), or for primitives an equal value, found in the channel's previous
   * value or among objects stored lately.
   */
  private match(el: unknown, index: Map<unknown, number> | undefined, base: ChannelState | undefined): Match | undefined | Promise<Match | undefined> {
    const thread = this.thread;
    if (!thread) return undefined;
    let found: Match | undefined;
    let recent = false;
    const seq = index?.get(el);
    if (seq !== undefined) {
      const cached = thread.items.get(seq);
      if (cached && cached.value === el) found = { seq, source: base!.source, fp: cached.fp, hash: cached.hash, tokens: cached.tokens };
    }
    if (!found && el !== null && typeof el === "object") {
      found = thread.recent.get(el);
      recent = found !== undefined;
    }
    if (!found || found.source.ns !== this.ns) return undefined;
    const accept = (m: Match): Match => {
      // Found among recent writes: the cache adopts it with the value it is now part of.
      if (recent) this.matched.set(m.seq, { ...m, value: el });
      return m;
    };
    if (el === null || typeof el !== "object") return accept(found);
    if (isMessage(el)) return sameFingerprint(found.fp, this.dumper.fingerprint(el)) ? accept(found) : undefined;
    const hash = found.hash;
    if (hash === undefined) return undefined;
    // Other objects: compare the serialized bytes (the only await, and only for them).
    return this.dumper.dump(el).then(({ bytes }) => (digest(bytes) === hash ? accept(found) : undefined));
  }
}

/**
 * Each channel state's elements by identity, built once per state (a state is replaced, not
 * changed, when the channel gets a new version): every putWrites of a step plans against the same
 * base, which holds the whole conversation. An entry only proposes a number — `match` checks that
 * the thread still holds that item with that value — so items the cache forgets later cost
 * nothing but a lookup.
 */
const BASE_INDEXES = new WeakMap<ChannelState, { thread: ThreadCache; index: Map<unknown, number> }>();

/** A stored item an element was found to be. */
interface Match {
  seq: number;
  source: ItemSource;
  fp: Fingerprint;
  hash?: string;
  tokens: number;
}

export type Shape =
  | { kind: "array" }
  | { kind: "item" }
  | { kind: "record"; keys: Array<[string, number]>; elements: unknown[]; rest: Record<string, unknown> }
  | { kind: "blob" };

/**
 * How a value is stored: arrays holding objects (a messages channel, a list of documents) as one
 * item per element; a message as one item; a plain object whose properties hold messages (a
 * graph's input `{ messages: [...] }`) as a record of items; anything else whole (inlined when
 * small).
 */
export function shapeOf(value: unknown): Shape {
  if (Array.isArray(value)) return value.some(isObject) ? { kind: "array" } : { kind: "blob" };
  if (isMessage(value)) return { kind: "item" };
  if (isPlainObject(value) && !("lc" in value)) {
    const keys: Array<[string, number]> = [];
    const elements: unknown[] = [];
    let rest: Record<string, unknown> | undefined;
    for (const key of Object.keys(value)) {
      const v = value[key];
      if (Array.isArray(v) && v.length > 0 && v.some(isObject)) {
        keys.push([key, v.length]);
        elements.push(...v);
      } else if (isMessage(v)) {
        keys.push([key, -1]);
        elements.push(v);
      } else continue;
      rest ??= { ...value };
      rest[key] = null;
    }
    if (rest) return { kind: "record", keys, elements, rest };
  }
  return { kind: "blob" };
}

/** Rebuild a record value from its other keys and its elements (in reference order). */
export function joinRecord(rest: unknown, keys: ReadonlyArray<[string, number]>, elements: readonly unknown[]): Record<string, unknown> {
  const out: Record<string, unknown> = { ...(rest as Record<string, unknown>) };
  let at = 0;
  for (const [key, count] of keys) {
    if (count === -1) out[key] = elements[at++];
    else {
      out[key] = elements.slice(at, at + count);
      at += count;
    }
  }
  if (at !== elements.length) throw new Error(`the record lists ${at} elements but refers to ${elements.length} items`);
  return out;
}

/** `{ v }` when the serialized value is JSON small enough to inline, else undefined. */
function inlineJson(type: string, bytes: Uint8Array): { v: unknown } | undefined {
  if (type !== "json" || bytes.byteLength > INLINE_MAX_BYTES) return undefined;
  try {
    return { v: JSON.parse(UTF8_DECODER.decode(bytes)) };
  } catch {
    return undefined;
  }
}

/** Objects other than messages are compared by their serialized bytes (identity is not enough). */
export function needsHash(value: unknown): boolean {
  return isObject(value) && !isMessage(value);
}

/** The hash of serialized bytes; a string is hashed as its UTF-8 bytes (an item read as text: the same hash). */
export function digest(bytes: Uint8Array | string): string {
  return createHash("sha1").update(bytes).digest("base64");
}

function isMessage(x: unknown): x is BaseMessage {
  return BaseMessage.isInstance(x);
}

function isObject(x: unknown): x is object {
  return x !== null && typeof x === "object";
}

function isPlainObject(x: unknown): x is Record<string, unknown> {
  if (!isObject(x) || Array.isArray(x)) return false;
  const proto = Object.getPrototypeOf(x);
  return proto === Object.prototype || proto === null;
}

/**
 * The serializer's stack overflow (a value nested deeper than it can walk, such as a message's
 * `additional_kwargs` 20,000 levels deep) or type error (a BigInt, a circular value) as a typed
 * INVALID_INPUT that says what to change; nothing was stored. Other errors pass unchanged.
 */
export function rethrowUnserializable(err: unknown): never {
  if (err instanceof RangeError || err instanceof TypeError) {
    throw invalidInput(
      "state",
      `a value of the graph's state cannot be saved to the checkpoint (${err.constructor.name}: ${err.message.slice(0, 120)}): send plain JSON — nested at most a few hundred levels deep (e.g. flatten a message's additional_kwargs), without BigInt or circular references`,
    );
  }
  throw err;
}

export function toBytes(bytes: Uint8Array | string): Uint8Array {
  const b = typeof bytes === "string" ? UTF8_ENCODER.encode(bytes) : bytes;
  // pg encodes Buffers (not plain Uint8Arrays) as bytea, also inside arrays.
  return Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength);
}
