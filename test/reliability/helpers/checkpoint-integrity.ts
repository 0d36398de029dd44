/**
 * SQL checks that no checkpoint is half-written: every parent a checkpoint names is stored, every
 * item a channel value or a pending write refers to is stored, and no item lies beyond its
 * thread's allocation counter. Run against the checkpointer's tables directly (not through the
 * checkpointer, whose cache could hide a missing row).
 */
import type { Queryable } from "../../../src/db/database.js";
import { refPairsSql } from "../../../src/checkpointer/refs.js";

export interface CheckpointIntegrity {
  threads: number;
  checkpoints: number;
  items: number;
  writes: number;
  /** Checkpoints whose parent row is missing. */
  orphanCheckpoints: number;
  /** Item numbers referenced by a checkpoint's channel values but not stored. */
  missingValueItems: number;
  /** Item numbers referenced by pending writes but not stored. */
  missingWriteItems: number;
  /** Checkpoints or writes of a thread that has no `threads` row. */
  rowsWithoutThread: number;
  /** Items numbered at or beyond their thread's `next_item_seq`. */
  itemsBeyondCounter: number;
}

export async function checkpointIntegrity(db: Queryable): Promise<CheckpointIntegrity> {
  const one = async (sql: string) => Number((await db.query<{ n: number }>(sql)).rows[0].n);
  return {
    threads: await one("SELECT count(*)::int AS n FROM threads"),
    checkpoints: await one("SELECT count(*)::int AS n FROM checkpoints"),
    items: await one("SELECT count(*)::int AS n FROM checkpoint_items"),
    writes: await one("SELECT count(*)::int AS n FROM checkpoint_writes"),
    orphanCheckpoints: await one(
      `SELECT count(*)::int AS n FROM checkpoints c
       WHERE c.parent_checkpoint_id IS NOT NULL AND NOT EXISTS (
         SELECT 1 FROM checkpoints p WHERE p.thread_id = c.thread_id AND p.checkpoint_ns = c.checkpoint_ns AND p.checkpoint_id = c.parent_checkpoint_id)`,
    ),
    missingValueItems: await one(
      `SELECT count(*)::int AS n FROM checkpoints c
       CROSS JOIN LATERAL json_each(c.vals) AS v
       CROSS JOIN LATERAL ${refPairsSql("v.value")} AS r
       CROSS JOIN LATERAL generate_series(r.lo, r.hi) AS s(seq)
       WHERE NOT EXISTS (SELECT 1 FROM checkpoint_items i WHERE i.thread_id = c.thread_id AND i.seq = s.seq)`,
    ),
    missingWriteItems: await one(
      `SELECT count(*)::int AS n FROM checkpoint_writes w
       CROSS JOIN LATERAL json_array_elements(w.writes) AS e
       CROSS JOIN LATERAL ${refPairsSql("(e.value -> 2)")} AS r
       CROSS JOIN LATERAL generate_series(r.lo, r.hi) AS s(seq)
       WHERE NOT EXISTS (SELECT 1 FROM checkpoint_items i WHERE i.thread_id = w.thread_id AND i.seq = s.seq)`,
    ),
    rowsWithoutThread: await one(
      `SELECT (SELECT count(*) FROM checkpoints c WHERE NOT EXISTS (SELECT 1 FROM threads t WHERE t.thread_id = c.thread_id))
            + (SELECT count(*) FROM checkpoint_writes w WHERE NOT EXISTS (SELECT 1 FROM threads t WHERE t.thread_id = w.thread_id)) AS n`,
    ),
    itemsBeyondCounter: await one(
      `SELECT count(*)::int AS n FROM checkpoint_items i JOIN threads t USING (thread_id) WHERE i.seq >= t.next_item_seq`,
    ),
  };
}
