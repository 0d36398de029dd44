/**
 * Rewrite the stored values of some channels of one thread, in every checkpoint and pending write
 * of it — what forgetting a fact does to the memory channels of graph state (a rolling summary that
 * quotes it, the memories a turn retrieved). Inside the caller's transaction; SQL on this schema's
 * checkpointer tables, so it works whichever process wrote them.
 *
 * A changed value is stored inline in the row's reference (`{"v": json}`, see refs.ts); the items it
 * used are deleted once nothing refers to them (the retention query). Stored items never change in
 * place — every process's cache relies on that — and the thread's `epoch` moves on, so every cache
 * of the thread (this process's and others') is dropped at its next read or put, and a put planned
 * on the old numbering retries. The thread row is locked first, so no put interleaves.
 */
import type { SerializerProtocol } from "@langchain/langgraph-checkpoint";
import type { Queryable } from "../db/database.js";
import { joinRecord } from "./plan-value.js";
import { expandRanges, isInlineRef, isRecordRef, isRef, refSeqs, type Ref } from "./refs.js";
import { PRUNE_ITEMS_SQL } from "./sql.js";
import {
  BUMP_THREAD_EPOCH_SQL,
  LOCK_THREAD_FOR_REWRITE_SQL,
  SELECT_CHECKPOINT_VALS_SQL,
  SELECT_ITEMS_BY_SEQ_SQL,
  SELECT_PENDING_WRITES_SQL,
  UPDATE_CHECKPOINT_VALS_SQL,
  UPDATE_PENDING_WRITES_SQL,
} from "./rewrite-channels-queries.js";

const UTF8_ENCODER = new TextEncoder();
const UTF8_DECODER = new TextDecoder();

export interface RewriteChannelsResult {
  /** Checkpoints and pending-write rows whose references changed. */
  rows: number;
  /** Items no longer referred to, deleted. */
  itemsDeleted: number;
}

/**
 * Apply `rewrite(channel, value)` to the values of `channels` in every checkpoint and pending write
 * of `threadId`; a value `rewrite` returns unchanged (the same object) is left as stored. Values
 * must be plain JSON (the memory channels are): anything the serializer would not write as JSON is
 * left as it was.
 *
 * @example
 * await db.transaction((tx) => rewriteThreadChannels(tx, "t1", ["summary"], (_c, v) => redact(v), new JsonPlusSerializer()));
 */
export async function rewriteThreadChannels(
  tx: Queryable,
  threadId: string,
  channels: readonly string[],
  rewrite: (channel: string, value: unknown) => unknown,
  serde: SerializerProtocol,
): Promise<RewriteChannelsResult> {
  const locked = await tx.query(LOCK_THREAD_FOR_REWRITE_SQL, [threadId]);
  if (locked.rows.length === 0) return { rows: 0, itemsDeleted: 0 };
  const wanted = new Set(channels);
  const checkpoints = (await tx.query<{ ns: string; id: string; vals: string }>(SELECT_CHECKPOINT_VALS_SQL, [threadId])).rows;
  const writes = (await tx.query<{ ns: string; id: string; task: string; writes: string }>(SELECT_PENDING_WRITES_SQL, [threadId])).rows;

  // The references of the wanted channels, and the items they need (fetched once).
  const refs: Ref[] = [];
  const vals = checkpoints.map((c) => JSON.parse(c.vals) as Record<string, unknown>);
  for (const v of vals) for (const [channel, ref] of Object.entries(v)) if (wanted.has(channel) && isRef(ref)) refs.push(ref);
  const writeLists = writes.map((w) => JSON.parse(w.writes) as unknown[][]);
  for (const list of writeLists) for (const e of list) if (Array.isArray(e) && wanted.has(e[1] as string) && isRef(e[2])) refs.push(e[2] as Ref);
  const seqs = [...new Set(refs.flatMap(refSeqs))];
  const items = new Map<number, unknown>();
  if (seqs.length > 0) {
    const { rows } = await tx.query<{ seq: number | string; type: string; blob: Uint8Array }>(SELECT_ITEMS_BY_SEQ_SQL, [threadId, seqs]);
    for (const r of rows) items.set(Number(r.seq), await serde.loadsTyped(r.type, r.blob));
  }

  // Each distinct reference is rewritten once (unchanged channels are shared by many checkpoints).
  const memo = new Map<string, Ref | null>();
  const rewritten = async (channel: string, ref: Ref): Promise<Ref | null> => {
    const key = `${channel}\u0000${JSON.stringify(ref)}`;
    if (memo.has(key)) return memo.get(key)!;
    let out: Ref | null = null;
    const value = await resolve(ref, items, serde);
    if (value !== MISSING) {
      const next = rewrite(channel, value);
      if (next !== value) {
        const [type, bytes] = await serde.dumpsTyped(next);
        if (type === "json") out = { v: JSON.parse(typeof bytes === "string" ? bytes : UTF8_DECODER.decode(bytes)) };
      }
    }
    memo.set(key, out);
    return out;
  };

  let changedRows = 0;
  for (let i = 0; i < checkpoints.length; i++) {
    let changed = false;
    for (const [channel, ref] of Object.entries(vals[i])) {
      if (!wanted.has(channel) || !isRef(ref)) continue;
      const next = await rewritten(channel, ref);
      if (next) {
        vals[i][channel] = next;
        changed = true;
      }
    }
    if (!changed) continue;
    changedRows++;
    await tx.query(UPDATE_CHECKPOINT_VALS_SQL, [threadId, checkpoints[i].ns, checkpoints[i].id, JSON.stringify(vals[i])]);
  }
  for (let i = 0; i < writes.length; i++) {
    let changed = false;
    for (const e of writeLists[i]) {
      if (!Array.isArray(e) || !wanted.has(e[1] as string) || !isRef(e[2])) continue;
      const next = await rewritten(e[1] as string, e[2] as Ref);
      if (next) {
        e[2] = next;
        changed = true;
      }
    }
    if (!changed) continue;
    changedRows++;
    await tx.query(UPDATE_PENDING_WRITES_SQL, [threadId, writes[i].ns, writes[i].id, writes[i].task, JSON.stringify(writeLists[i])]);
  }
  if (changedRows === 0) return { rows: 0, itemsDeleted: 0 };
  const pruned = await tx.query(PRUNE_ITEMS_SQL, [threadId]);
  // Every process's cache of the thread is now stale: a new epoch makes them drop it.
  await tx.query(BUMP_THREAD_EPOCH_SQL, [threadId]);
  return { rows: changedRows, itemsDeleted: pruned.rowCount };
}

const MISSING = Symbol("missing");

/** A value from its reference and the fetched items (MISSING when an item is not there). */
async function resolve(ref: Ref, items: Map<number, unknown>, serde: SerializerProtocol): Promise<unknown> {
  const item = (seq: number) => (items.has(seq) ? items.get(seq) : MISSING);
  if (typeof ref === "number") return item(ref);
  if (Array.isArray(ref)) {
    const list = expandRanges(ref).map(item);
    return list.includes(MISSING) ? MISSING : list;
  }
  if (isInlineRef(ref)) return serde.loadsTyped("json", UTF8_ENCODER.encode(JSON.stringify(ref.v)));
  if (!isRecordRef(ref)) return MISSING;
  const elements = expandRanges(ref.i).map(item);
  if (elements.includes(MISSING)) return MISSING;
  const rest = "v" in ref ? await serde.loadsTyped("json", UTF8_ENCODER.encode(JSON.stringify(ref.v))) : elements.shift();
  return joinRecord(rest, ref.k, elements);
}
