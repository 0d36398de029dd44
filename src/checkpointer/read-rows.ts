/**
 * The rows of the checkpointer's read statement (`readSql` in sql.ts), as a discriminated union.
 *
 * The statement returns every kind of row in one result, so on the wire they share one set of
 * columns (a UNION needs one shape, and a column per field of every kind would send a dozen NULLs
 * with each of a long thread's thousands of item rows). {@link ReadWireRow} is that shape and
 * {@link readRowOf} the one place that knows which wire column holds which field of which kind;
 * everything else works with {@link ReadRow}.
 */

/** The `k` column: which kind of row this is. */
export const ROW_KIND = {
  checkpoint: 0,
  item: 2,
  writes: 3,
  parentSends: 4,
  foreignThread: 5,
} as const;

/** A checkpoint row: the checkpoint without its values, and the thread's numbering. */
export interface CheckpointReadRow {
  kind: "checkpoint";
  threadId: string;
  ns: string;
  id: string;
  parentId: string | null;
  /** JSON texts of the row's columns (see checkpoint-row.ts). */
  channelVersions: string;
  versionsSeen: string;
  extra: string | null;
  metadata: string;
  /** Channel → reference to its value (refs.ts). */
  vals: string;
  /** ISO text (as `tsSql` formats it), or null when the checkpoint keeps it in `extra`. */
  ts: string | null;
  v: number | null;
  /** The thread's epoch and item counter; null when the thread row is missing. */
  epoch: number | null;
  nextItemSeq: number | null;
}

/** A stored item (a message, an input, a large value) a value or write of the result refers to. */
export interface ItemReadRow {
  kind: "item";
  threadId: string;
  seq: number;
  /** The serializer's type and bytes, or their text when they are UTF-8 JSON (readSql sends those as text). */
  type: string;
  data: Uint8Array | string;
  tokens: number;
}

/**
 * A task's pending writes on a checkpoint of the result (`writes`), or on the parent of a pre-v4
 * checkpoint, whose pending sends it needs (`parentSends`: `checkpointId` is then the child's id).
 */
export interface WritesReadRow {
  kind: "writes" | "parentSends";
  threadId: string;
  ns: string;
  checkpointId: string;
  taskId: string;
  taskPath: string;
  /** JSON text: [[idx, channel, reference], …]. */
  writes: string;
}

/** The thread the read is about belongs to another scope (nothing else is returned for it). */
export interface ForeignThreadReadRow {
  kind: "foreignThread";
  threadId: string;
}

export type ReadRow = CheckpointReadRow | ItemReadRow | WritesReadRow | ForeignThreadReadRow;

/** A row as the statement sends it: `k` says the kind, and the kind says what `a`–`h`, `v`, `n`, `m` hold. */
export interface ReadWireRow {
  k: number;
  thread_id: string;
  ns: string | null;
  a: string | null;
  b: string | null;
  c: string | null;
  d: string | null;
  e: string | null;
  f: string | null;
  g: string | null;
  h: string | null;
  v: number | null;
  blob: Uint8Array | null;
  n: number | string | null;
  m: number | string | null;
}

/**
 * The named row of a wire row. Wire layout by kind (keep in step with `readSql`):
 * checkpoint: ns, a id, b parent, c channel_versions, d metadata, e vals, f versions_seen,
 * g extra, h ts, v, n epoch, m next_item_seq; item: c type, d text or blob bytes, n seq, m tokens; writes and
 * parentSends: ns, a checkpoint, b task, d writes, e task path; foreignThread: thread_id only.
 */
export function readRowOf(w: ReadWireRow): ReadRow | undefined {
  switch (w.k) {
    case ROW_KIND.checkpoint:
      return {
        kind: "checkpoint",
        threadId: w.thread_id,
        ns: w.ns ?? "",
        id: w.a!,
        parentId: w.b,
        channelVersions: w.c ?? "{}",
        metadata: w.d ?? "{}",
        vals: w.e ?? "{}",
        versionsSeen: w.f ?? "{}",
        extra: w.g,
        ts: w.h,
        v: w.v === null ? null : Number(w.v),
        epoch: w.n === null ? null : Number(w.n),
        nextItemSeq: w.m === null ? null : Number(w.m),
      };
    case ROW_KIND.item:
      return { kind: "item", threadId: w.thread_id, seq: Number(w.n), type: w.c!, data: w.d ?? w.blob!, tokens: Number(w.m) };
    case ROW_KIND.writes:
    case ROW_KIND.parentSends:
      return {
        kind: w.k === ROW_KIND.writes ? "writes" : "parentSends",
        threadId: w.thread_id,
        ns: w.ns ?? "",
        checkpointId: w.a!,
        taskId: w.b!,
        taskPath: w.e ?? "",
        writes: w.d!,
      };
    case ROW_KIND.foreignThread:
      return { kind: "foreignThread", threadId: w.thread_id };
    default:
      return undefined;
  }
}
