/**
 * The checkpointer's SQL, one named statement per operation. Tables are unqualified: the driver's
 * search_path points at the configured schema. Every statement runs unchanged on server Postgres
 * and PGlite.
 */

/** Parameters of {@link PUT_SQL}, in order. */
export type PutParams = [
  threadId: string,
  ns: string,
  checkpointId: string,
  parentId: string | null,
  checkpointJson: string,
  metadataJson: string,
  tenantId: string | null,
  userId: string | null,
  newItemCount: number,
  messageCount: number | null,
  messageTokens: number | null,
  /** Known thread epoch (null: numbering unknown, let the database number new items). */
  epoch: number | null,
  /** The thread's next_item_seq this put expects (with `epoch`). */
  expectedSeq: number | null,
  itemTypes: string[],
  itemBlobs: Uint8Array[],
  itemTokens: number[],
  blobChannels: string[],
  blobVersions: string[],
  blobTypes: string[],
  blobBlobs: Array<Uint8Array | null>,
  /** Per blob row: item ranges as an int8[] literal ('{1,40,-1,-2}'), or null. */
  blobRanges: Array<string | null>,
  /** Blob rows whose items this put reuses: they must still exist, unchanged. */
  baseChannels: string[],
  baseVersions: string[],
  baseRanges: string[],
];

export interface PutRow {
  parent_ok: boolean;
  base: number | null;
  epoch: number | null;
  inserted: string[] | null;
}

/**
 * Store one checkpoint in one statement: the thread row (owner, activity, token counts, item
 * numbering), new items, new channel values, and the checkpoint row. Everything is gated on three
 * checks, so a failed check stores nothing: the parent exists, the thread's item numbering is what
 * the caller's cache expects, and the values whose items are reused still exist (locked FOR KEY
 * SHARE so retention cannot remove them before this commits).
 */
export const PUT_SQL = `
WITH parent_ok AS (
  SELECT $4::text IS NULL OR EXISTS (
    SELECT 1 FROM checkpoints WHERE thread_id = $1 AND checkpoint_ns = $2 AND checkpoint_id = $4
  ) AS ok
), known_ok AS (
  SELECT $12::int8 IS NULL OR EXISTS (
    SELECT 1 FROM threads WHERE thread_id = $1 AND epoch = $12::int8 AND next_item_seq = $13::int8
  ) AS ok
), bases AS (
  SELECT count(*) AS n FROM (
    SELECT 1 FROM checkpoint_blobs b
    JOIN unnest($22::text[], $23::text[], $24::text[]) AS x(channel, version, items)
      ON b.thread_id = $1 AND b.checkpoint_ns = $2 AND b.channel = x.channel AND b.version = x.version
     AND b.items = x.items::int8[]
    FOR KEY SHARE OF b
  ) locked
), t AS (
  INSERT INTO threads AS th (thread_id, tenant_id, user_id, next_item_seq, message_count, message_tokens)
  SELECT $1, $7, $8, $9::int8, coalesce($10::int4, 0), coalesce($11::int8, 0)
  WHERE (SELECT ok FROM parent_ok) AND (SELECT ok FROM known_ok)
    AND (SELECT n FROM bases) = coalesce(cardinality($22::text[]), 0)
  ON CONFLICT (thread_id) DO UPDATE SET
    next_item_seq = th.next_item_seq + EXCLUDED.next_item_seq,
    updated_at = now(),
    tenant_id = coalesce(th.tenant_id, EXCLUDED.tenant_id),
    user_id = coalesce(th.user_id, EXCLUDED.user_id),
    message_count = CASE WHEN $10::int4 IS NULL THEN th.message_count ELSE EXCLUDED.message_count END,
    message_tokens = CASE WHEN $11::int8 IS NULL THEN th.message_tokens ELSE EXCLUDED.message_tokens END
  WHERE $12::int8 IS NULL OR (th.epoch = $12::int8 AND th.next_item_seq = $13::int8)
  RETURNING th.next_item_seq - $9::int8 AS base, th.epoch
), ins_items AS (
  INSERT INTO checkpoint_items (thread_id, seq, type, blob, tokens)
  SELECT $1, t.base + u.ord, u.type, u.blob, u.tokens
  FROM t, unnest($14::text[], $15::bytea[], $16::int4[]) WITH ORDINALITY AS u(type, blob, tokens, ord)
), ins_blobs AS (
  INSERT INTO checkpoint_blobs (thread_id, checkpoint_ns, channel, version, type, blob, items)
  SELECT $1, $2, v.channel, v.version, v.type, v.blob,
    CASE WHEN v.ranges IS NULL THEN NULL ELSE ARRAY(
      SELECT CASE WHEN r.x < 0 THEN t.base - r.x ELSE r.x END
      FROM unnest(v.ranges::int8[]) WITH ORDINALITY AS r(x, o) ORDER BY r.o
    ) END
  FROM t, unnest($17::text[], $18::text[], $19::text[], $20::bytea[], $21::text[]) AS v(channel, version, type, blob, ranges)
  ON CONFLICT (thread_id, checkpoint_ns, channel, version) DO NOTHING
  RETURNING channel
), ins_cp AS (
  INSERT INTO checkpoints (thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, checkpoint, metadata)
  SELECT $1, $2, $3, $4, $5::jsonb, $6::jsonb FROM t
  ON CONFLICT (thread_id, checkpoint_ns, checkpoint_id) DO UPDATE SET
    parent_checkpoint_id = EXCLUDED.parent_checkpoint_id,
    checkpoint = EXCLUDED.checkpoint,
    metadata = EXCLUDED.metadata
)
SELECT (SELECT ok FROM parent_ok) AS parent_ok,
       (SELECT base FROM t) AS base,
       (SELECT epoch FROM t) AS epoch,
       ARRAY(SELECT channel FROM ins_blobs) AS inserted`;

/**
 * Store a task's writes in one statement. Regular writes keep the first value stored for a
 * (task, idx); special writes (errors, interrupts: negative idx) replace it, as MemorySaver does.
 */
export const PUT_WRITES_SQL = `
INSERT INTO checkpoint_writes (thread_id, checkpoint_ns, checkpoint_id, task_id, task_path, idx, channel, type, blob)
SELECT $1, $2, $3, $4, $5, w.idx, w.channel, w.type, w.blob
FROM unnest($6::int4[], $7::text[], $8::text[], $9::bytea[]) AS w(idx, channel, type, blob)
ON CONFLICT (thread_id, checkpoint_ns, checkpoint_id, task_id, idx) DO UPDATE SET
  channel = EXCLUDED.channel, type = EXCLUDED.type, blob = EXCLUDED.blob, task_path = EXCLUDED.task_path
WHERE EXCLUDED.idx < 0`;

/** One row of {@link readSql}'s result; `k` says which kind (see the column comments there). */
export interface ReadRow {
  k: number;
  thread_id: string;
  ns: string | null;
  a: string | null;
  b: string | null;
  c: string | null;
  d: string | null;
  e: string | null;
  blob: Uint8Array | null;
  items: Array<number | string> | null;
  n: number | null;
  m: number | null;
}

/**
 * Read checkpoints with everything needed to rebuild them, in one statement and one round trip.
 * `where` filters `checkpoints c` (parameters from $5 on); $1–$3 say which items the caller
 * already holds for one thread ($1 thread, $2 epoch, $3 int8multirange), so a repeated read of a
 * long conversation fetches only what it has not seen; $4 is the limit (null: none). The text
 * depends only on the shape of `where`, so each shape is prepared once per connection. Each channel version and each item is
 * fetched once however many of the checkpoints share it.
 *
 * Row kinds: 0 checkpoint (a id, b parent, c checkpoint json, d metadata json, n epoch, m
 * next_item_seq); 1 channel value (ns, a channel, b version, c type, blob, items); 2 item (c type,
 * blob, n seq, m tokens); 3 pending write (ns, a checkpoint, b task, c channel, d type, e path,
 * blob, n idx); 4 pending send of a pre-v4 checkpoint's parent (same columns as 3).
 */
export function readSql(where: string): string {
  return `
WITH cps AS (
  SELECT c.thread_id, c.checkpoint_ns, c.checkpoint_id, c.parent_checkpoint_id, c.checkpoint, c.metadata
  FROM checkpoints c
  WHERE ${where}
  ORDER BY c.checkpoint_id DESC, c.thread_id DESC, c.checkpoint_ns DESC
  LIMIT $4::int8
), vers AS (
  SELECT DISTINCT c.thread_id, c.checkpoint_ns, v.key AS channel, v.value AS version
  FROM cps c CROSS JOIN LATERAL jsonb_each_text(c.checkpoint -> 'channel_versions') AS v
), bl AS (
  SELECT b.thread_id, b.checkpoint_ns, b.channel, b.version, b.type, b.blob, b.items
  FROM vers v
  JOIN checkpoint_blobs b ON b.thread_id = v.thread_id AND b.checkpoint_ns = v.checkpoint_ns
   AND b.channel = v.channel AND b.version = v.version
), need AS (
  SELECT g.thread_id,
         unnest(g.m - CASE WHEN g.thread_id = $1::text AND th.epoch = $2::int8 THEN $3::int8multirange
                           ELSE '{}'::int8multirange END) AS r
  FROM (
    SELECT bl.thread_id, range_agg(int8range(bl.items[2 * o - 1], bl.items[2 * o], '[]')) AS m
    FROM bl CROSS JOIN LATERAL generate_series(1, cardinality(bl.items) / 2) AS o
    WHERE bl.type = 'items'
    GROUP BY bl.thread_id
  ) g
  LEFT JOIN threads th ON th.thread_id = g.thread_id
), its AS (
  SELECT i.thread_id, i.seq, i.type, i.blob, i.tokens
  FROM need n
  JOIN checkpoint_items i ON i.thread_id = n.thread_id AND i.seq >= lower(n.r) AND i.seq < upper(n.r)
)
SELECT 0 AS k, c.thread_id, c.checkpoint_ns AS ns, c.checkpoint_id AS a, c.parent_checkpoint_id AS b,
       c.checkpoint::text AS c, c.metadata::text AS d, NULL::text AS e, NULL::bytea AS blob,
       NULL::int8[] AS items, th.epoch AS n, th.next_item_seq AS m
FROM cps c LEFT JOIN threads th ON th.thread_id = c.thread_id
UNION ALL
SELECT 1, bl.thread_id, bl.checkpoint_ns, bl.channel, bl.version, bl.type, NULL, NULL, bl.blob, bl.items, NULL, NULL
FROM bl
UNION ALL
SELECT 2, its.thread_id, NULL, NULL, NULL, its.type, NULL, NULL, its.blob, NULL, its.seq, its.tokens::int8
FROM its
UNION ALL
SELECT 3, w.thread_id, w.checkpoint_ns, w.checkpoint_id, w.task_id, w.channel, w.type, w.task_path, w.blob, NULL, w.idx::int8, NULL
FROM cps c
JOIN checkpoint_writes w ON w.thread_id = c.thread_id AND w.checkpoint_ns = c.checkpoint_ns AND w.checkpoint_id = c.checkpoint_id
UNION ALL
SELECT 4, c.thread_id, c.checkpoint_ns, c.checkpoint_id, w.task_id, w.channel, w.type, w.task_path, w.blob, NULL, w.idx::int8, NULL
FROM cps c
JOIN checkpoint_writes w ON w.thread_id = c.thread_id AND w.checkpoint_ns = c.checkpoint_ns
 AND w.checkpoint_id = c.parent_checkpoint_id AND w.channel = '__pregel_tasks'
WHERE (c.checkpoint ->> 'v')::int < 4`;
}

/** Remove every row of one thread, in one statement. */
export const DELETE_THREAD_SQL = `
WITH w AS (DELETE FROM checkpoint_writes WHERE thread_id = $1),
     i AS (DELETE FROM checkpoint_items WHERE thread_id = $1),
     b AS (DELETE FROM checkpoint_blobs WHERE thread_id = $1),
     c AS (DELETE FROM checkpoints WHERE thread_id = $1)
DELETE FROM threads WHERE thread_id = $1`;

/** Remove threads idle for longer than $1 seconds with all their rows; returns their ids. */
export const SWEEP_IDLE_THREADS_SQL = `
WITH dead AS (
  DELETE FROM threads WHERE updated_at < now() - make_interval(secs => $1::float8) RETURNING thread_id
), w AS (DELETE FROM checkpoint_writes x USING dead WHERE x.thread_id = dead.thread_id),
   i AS (DELETE FROM checkpoint_items x USING dead WHERE x.thread_id = dead.thread_id),
   b AS (DELETE FROM checkpoint_blobs x USING dead WHERE x.thread_id = dead.thread_id),
   c AS (DELETE FROM checkpoints x USING dead WHERE x.thread_id = dead.thread_id)
SELECT thread_id FROM dead`;

/** What retention needs to plan: every checkpoint of a thread with its links. */
export const PRUNE_SCAN_SQL = `
SELECT checkpoint_ns AS ns, checkpoint_id AS id, parent_checkpoint_id AS parent,
       checkpoint -> 'channel_versions' AS versions,
       metadata -> 'counters_since_delta_snapshot' AS counters
FROM checkpoints WHERE thread_id = $1`;

/** Channel values of a thread that are stored (not 'empty'), for the channels named in $2. */
export const PRUNE_STORED_VALUES_SQL = `
SELECT checkpoint_ns AS ns, channel, version FROM checkpoint_blobs
WHERE thread_id = $1 AND channel = ANY($2::text[]) AND type <> 'empty'`;

/** Delete the listed checkpoints ($2 namespaces, $3 ids) and their writes. */
export const PRUNE_DELETE_CHECKPOINTS_SQL = `
WITH gone AS (
  DELETE FROM checkpoints c USING unnest($2::text[], $3::text[]) AS x(ns, id)
  WHERE c.thread_id = $1 AND c.checkpoint_ns = x.ns AND c.checkpoint_id = x.id
  RETURNING c.checkpoint_ns, c.checkpoint_id
)
DELETE FROM checkpoint_writes w USING gone
WHERE w.thread_id = $1 AND w.checkpoint_ns = gone.checkpoint_ns AND w.checkpoint_id = gone.checkpoint_id`;

/**
 * Delete channel values no remaining checkpoint of the thread refers to. Runs as its own
 * statement after the checkpoints are gone, so it sees puts that committed meanwhile.
 */
export const PRUNE_VALUES_SQL = `
WITH ref AS (
  SELECT DISTINCT c.checkpoint_ns, v.key AS channel, v.value AS version
  FROM checkpoints c CROSS JOIN LATERAL jsonb_each_text(c.checkpoint -> 'channel_versions') AS v
  WHERE c.thread_id = $1
)
DELETE FROM checkpoint_blobs b
WHERE b.thread_id = $1 AND NOT EXISTS (
  SELECT 1 FROM ref WHERE ref.checkpoint_ns = b.checkpoint_ns AND ref.channel = b.channel AND ref.version = b.version
)`;

/** Delete items no remaining channel value covers. */
export const PRUNE_ITEMS_SQL = `
WITH keep AS (
  SELECT coalesce(range_agg(int8range(b.items[2 * o - 1], b.items[2 * o], '[]')), '{}'::int8multirange) AS m
  FROM checkpoint_blobs b CROSS JOIN LATERAL generate_series(1, cardinality(b.items) / 2) AS o
  WHERE b.thread_id = $1 AND b.type = 'items'
)
DELETE FROM checkpoint_items i WHERE i.thread_id = $1 AND NOT (i.seq <@ (SELECT m FROM keep))`;

/** Empty every checkpointer table (tests and benchmarks only). */
export const TRUNCATE_SQL = "TRUNCATE threads, checkpoints, checkpoint_blobs, checkpoint_items, checkpoint_writes";
