/**
 * The checkpointer's SQL, one named statement per operation. Tables are unqualified: the driver's
 * search_path points at the configured schema. Every statement runs unchanged on server Postgres
 * and PGlite. Values are references to numbered items (see `refs.ts`).
 */
import { ownerMatchesSql } from "../threads/thread-owner-queries.js";
import { refPairsSql } from "./refs.js";
import { tsSql } from "./checkpoint-row.js";
import { ROW_KIND } from "./read-rows.js";

/**
 * Rows of the statement's namespace that its reused items come from; each is locked FOR KEY SHARE
 * and must exist. Checkpoints by id; task rows by checkpoint id and task id, and by both joined
 * with U+0001 (the exact pairs).
 */
export type SourceParams = [cpIds: string[], wCpIds: string[], wTasks: string[], wKeys: string[]];

/** Parameters of {@link PUT_SQL}, in order. */
export type PutParams = [
  threadId: string,
  ns: string,
  checkpointId: string,
  parentId: string | null,
  /** See `checkpoint-row.ts`. */
  v: number | null,
  ts: string | null,
  channelVersions: string,
  versionsSeen: string,
  extra: string | null,
  metadataJson: string,
  tenantId: string | null,
  userId: string | null,
  /** Item numbers this put reserves (new blocks): the thread's counter must then be `counter`. */
  reserve: number,
  messageCount: number | null,
  messageTokens: number | null,
  /** The thread's epoch this put assumes; null: the thread is not stored yet. */
  epoch: number | null,
  /** The thread's item counter (next_item_seq) this put assumes, checked when it reserves. */
  counter: number,
  itemSeqs: number[],
  itemTypes: string[],
  itemBlobs: Uint8Array[],
  itemTokens: number[],
  /** Channels with a new version and a value, and their references (JSON text). */
  valChannels: string[],
  valRefs: string[],
  /** Channels whose version did not change: their reference is copied from the parent. */
  carriedChannels: string[],
  carriedVersions: string[],
  ...SourceParams,
];

/** What a put or putWrites statement reports. */
export interface StoreRow {
  /** The caller's scope is the thread's owner (recorded now for a thread not stored yet); false: nothing was stored. */
  scope_ok: boolean;
  /** Put: the parent exists. */
  parent_ok?: boolean;
  /** Put: the parent holds every unchanged channel at the checkpoint's version. */
  carry_ok?: boolean;
  /** PutWrites: the writes were stored. */
  ok?: boolean;
  sources_ok: boolean;
  /** The thread's epoch after storing new items; null when nothing was stored (put) or no item was new (putWrites). */
  epoch: number | null;
  /**
   * The thread as the statement found it (for a retry with the right numbering). PutWrites reads
   * it only when it stored nothing (null after a stored write: nothing to retry).
   */
  cur_epoch: number | null;
  cur_next: number | null;
}

// Index lookups by ANY(array) rather than a join with unnest(): the plan does not depend on how
// many sources there are, so the statement keeps one generic plan instead of being planned again
// at every execution.
const SOURCES_OK_EXPR = (base: number) => `(SELECT count(*) FROM (
            SELECT 1 FROM checkpoints c
            WHERE c.thread_id = $1 AND c.checkpoint_ns = $2 AND c.checkpoint_id = ANY ($${base}::text[])
            FOR KEY SHARE) l) = coalesce(cardinality($${base}::text[]), 0)
     AND (SELECT count(*) FROM (
            SELECT 1 FROM checkpoint_writes w
            WHERE w.thread_id = $1 AND w.checkpoint_ns = $2 AND w.checkpoint_id = ANY ($${base + 1}::text[])
              AND w.task_id = ANY ($${base + 2}::text[]) AND w.checkpoint_id || chr(1) || w.task_id = ANY ($${base + 3}::text[])
            FOR KEY SHARE) l) = coalesce(cardinality($${base + 3}::text[]), 0)`;

const SOURCES_OK = (base: number) => `
  SELECT ${SOURCES_OK_EXPR(base)} AS ok`;

/**
 * {@link SOURCES_OK} that runs its lookups only when there are sources. Under a generic plan the
 * lookups scan every checkpoint and write row of the thread (the planner expects one row per
 * thread and namespace and filters the ids rather than seeking them), so the cost grows with the
 * thread; a task's writes usually reuse nothing, and the CASE then never runs the subqueries
 * (their InitPlans are evaluated only when the branch is taken).
 */
const SOURCES_OK_UNLESS_NONE = (base: number) => `
  SELECT CASE WHEN coalesce(cardinality($${base}::text[]), 0) = 0 AND coalesce(cardinality($${base + 3}::text[]), 0) = 0 THEN TRUE
              ELSE ${SOURCES_OK_EXPR(base)} END AS ok`;

const CURRENT_THREAD = `FROM (SELECT 1) one LEFT JOIN threads th ON th.thread_id = $1`;

/**
 * The caller ($tenant, $user) owns thread $1 (migration 0008): recorded now when the thread is new.
 * A thread row without an owner row (none should exist after 0008's backfill) counts as nobody's,
 * so a scoped caller never adopts it.
 */
const SCOPE_OK = (tenant: number, user: number) => `
  SELECT CASE WHEN o.thread_id IS NOT NULL THEN ${ownerMatchesSql("o", `$${tenant}`, `$${user}`)}
              WHEN EXISTS (SELECT 1 FROM threads x WHERE x.thread_id = $1) THEN $${tenant}::text IS NULL AND $${user}::text IS NULL
              ELSE memory_thread_claim($1::text, $${tenant}::text, $${user}::text) END AS ok
  FROM (SELECT 1) one LEFT JOIN thread_owners o ON o.thread_id = $1`;

/**
 * Store one checkpoint in one statement: the thread row (owner, activity, token counts, item
 * numbering), the new items, and the checkpoint row with the references of its channel values —
 * new ones from the caller, unchanged ones copied from the parent. Everything is gated on checks,
 * so a failed check stores nothing: the caller's scope owns the thread (`scope_ok`; its owner is
 * recorded by the first put, see migration 0008), the parent exists, the thread's epoch (and, when the put
 * reserves item numbers, its counter) is what the caller assumed, the rows whose items are reused
 * still exist (locked FOR KEY SHARE so retention cannot remove them before this commits), and the
 * parent holds every unchanged channel at the version the checkpoint names (else `carry_ok` is
 * false: {@link PUT_FROM_ANCESTORS_SQL} stores it).
 */
export const PUT_SQL = putSql(false);

/**
 * {@link PUT_SQL} for a checkpoint whose parent does not hold an unchanged channel at the version
 * the checkpoint names (a caller that skips checkpoints): the nearest ancestor that does provides
 * the reference. Kept apart so the hot statement stays small enough to be planned once.
 */
export const PUT_FROM_ANCESTORS_SQL = putSql(true);

function putSql(ancestors: boolean): string {
  const carried = ancestors
    ? `
  SELECT u.channel, CASE WHEN p.channel_versions ->> u.channel = u.version THEN p.vals -> u.channel ELSE (
           WITH RECURSIVE anc AS (
             SELECT a.parent_checkpoint_id AS up, a.channel_versions ->> u.channel AS version, a.vals -> u.channel AS ref, 1 AS depth
             FROM checkpoints a WHERE a.thread_id = $1 AND a.checkpoint_ns = $2 AND a.checkpoint_id = $4
             UNION ALL
             SELECT a.parent_checkpoint_id, a.channel_versions ->> u.channel, a.vals -> u.channel, anc.depth + 1
             FROM anc JOIN checkpoints a ON a.thread_id = $1 AND a.checkpoint_ns = $2 AND a.checkpoint_id = anc.up
             WHERE NOT (anc.version = u.version AND anc.ref IS NOT NULL) AND anc.depth < 1000000
           )
           SELECT anc.ref FROM anc WHERE anc.version = u.version AND anc.ref IS NOT NULL LIMIT 1) END AS ref
  FROM unnest($24::text[], $25::text[]) AS u(channel, version)
  LEFT JOIN parent p ON true`
    : `
  SELECT u.channel, p.vals -> u.channel AS ref
  FROM unnest($24::text[], $25::text[]) AS u(channel, version)
  LEFT JOIN parent p ON true`;
  const carryOk = ancestors
    ? "TRUE"
    : `NOT EXISTS (
    SELECT 1 FROM unnest($24::text[], $25::text[]) AS u(channel, version) LEFT JOIN parent p ON true
    WHERE (p.channel_versions ->> u.channel) IS DISTINCT FROM u.version
  )`;
  return `
WITH parent AS (
  SELECT p.channel_versions, p.vals FROM checkpoints p WHERE p.thread_id = $1 AND p.checkpoint_ns = $2 AND p.checkpoint_id = $4
), parent_ok AS (
  SELECT $4::text IS NULL OR EXISTS (SELECT 1 FROM parent) AS ok
), carry_ok AS (
  SELECT ${carryOk} AS ok
), sources_ok AS (${SOURCES_OK(26)}
), scope_ok AS (${SCOPE_OK(11, 12)}
), t AS (
  INSERT INTO threads AS th (thread_id, tenant_id, user_id, next_item_seq, message_count, message_tokens)
  SELECT $1, $11, $12, $17::int8 + $13::int8, coalesce($14::int4, 0), coalesce($15::int8, 0)
  WHERE (SELECT ok FROM scope_ok) AND (SELECT ok FROM parent_ok) AND (SELECT ok FROM carry_ok) AND (SELECT ok FROM sources_ok)
  ON CONFLICT (thread_id) DO UPDATE SET
    next_item_seq = th.next_item_seq + $13::int8,
    updated_at = now(),
    message_count = CASE WHEN $14::int4 IS NULL THEN th.message_count ELSE EXCLUDED.message_count END,
    message_tokens = CASE WHEN $15::int8 IS NULL THEN th.message_tokens ELSE EXCLUDED.message_tokens END
  WHERE th.epoch = $16::int8 AND ($13::int8 = 0 OR th.next_item_seq = $17::int8)
  RETURNING th.epoch
), carried AS MATERIALIZED (${carried}
), vals AS (
  SELECT coalesce('{' || string_agg(to_json(v.channel)::text || ':' || v.ref, ',') || '}', '{}') AS v
  FROM (SELECT n.channel, n.ref FROM unnest($22::text[], $23::text[]) AS n(channel, ref)
        UNION ALL
        SELECT channel, ref::text FROM carried WHERE ref IS NOT NULL) v
), ins_items AS (
  INSERT INTO checkpoint_items (thread_id, seq, type, blob, tokens)
  SELECT $1, u.seq, u.type, u.blob, u.tokens
  FROM t, unnest($18::int8[], $19::text[], $20::bytea[], $21::int4[]) AS u(seq, type, blob, tokens)
), ins_cp AS (
  INSERT INTO checkpoints (thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, v, ts, channel_versions, versions_seen, extra, metadata, vals)
  SELECT $1, $2, $3, $4, $5::int2, $6::timestamptz, $7::json, $8::json, $9::json, $10::jsonb, vals.v::json FROM t, vals
  ON CONFLICT (thread_id, checkpoint_ns, checkpoint_id) DO UPDATE SET
    parent_checkpoint_id = EXCLUDED.parent_checkpoint_id,
    v = EXCLUDED.v,
    ts = EXCLUDED.ts,
    channel_versions = EXCLUDED.channel_versions,
    versions_seen = EXCLUDED.versions_seen,
    extra = EXCLUDED.extra,
    metadata = EXCLUDED.metadata,
    vals = EXCLUDED.vals
)
SELECT (SELECT ok FROM scope_ok) AS scope_ok, (SELECT ok FROM parent_ok) AS parent_ok, (SELECT ok FROM carry_ok) AS carry_ok,
       (SELECT ok FROM sources_ok) AS sources_ok, (SELECT epoch FROM t) AS epoch, th.epoch AS cur_epoch, th.next_item_seq AS cur_next
${CURRENT_THREAD}`;
}

/** The merge of a task's writes written again (see {@link PUT_WRITES_SQL}). */
const MERGE_WRITES = `
  ON CONFLICT (thread_id, checkpoint_ns, checkpoint_id, task_id) DO UPDATE SET
    writes = (
      SELECT json_agg(m.w ORDER BY m.idx) FROM (
        SELECT DISTINCT ON (u.idx) u.idx, u.w FROM (
          SELECT (e ->> 0)::int AS idx, e AS w, 0 AS newer FROM json_array_elements(cw.writes) AS e
          UNION ALL
          SELECT (e ->> 0)::int, e, 1 FROM json_array_elements(EXCLUDED.writes) AS e
        ) u
        ORDER BY u.idx, CASE WHEN u.idx < 0 THEN -u.newer ELSE u.newer END
      ) m
    ),
    task_path = CASE WHEN cw.task_path = '' THEN EXCLUDED.task_path ELSE cw.task_path END`;

/** Parameters of {@link PUT_WRITES_SQL}, in order. */
export type PutWritesParams = [
  threadId: string,
  ns: string,
  checkpointId: string,
  taskId: string,
  taskPath: string,
  /** As in {@link PutParams}. */
  reserve: number,
  epoch: number | null,
  counter: number,
  newItemCount: number,
  itemSeqs: number[],
  itemTypes: string[],
  itemBlobs: Uint8Array[],
  itemTokens: number[],
  /** The task's writes as JSON: [[idx, channel, reference], …]. */
  writes: string,
  ...SourceParams,
  /** The caller's scope (null, null: none): must be the thread's owner. */
  tenantId: string | null,
  userId: string | null,
];

/**
 * Store a task's writes in one statement, when the caller's scope owns the thread (as in
 * {@link PUT_SQL}): their new items and the task's row, which holds the references of all its
 * writes. The thread row is written only when the items need a new block of numbers (counter
 * checked and advanced as in {@link PUT_SQL}); items numbered from a block this process already
 * holds only check the epoch and lock the row FOR KEY SHARE, so a concurrent deleteThread waits
 * for this statement (or this one finds the thread gone and stores nothing) without a new row
 * version of the thread per write. Writing a task's writes again merges them: a regular write keeps
 * the first value stored for its idx, a special write (error, interrupt: negative idx) replaces
 * it, as MemorySaver does.
 *
 * One round trip and no lookup that grows with the thread: the sources check runs only when the
 * writes reuse items (see `SOURCES_OK_UNLESS_NONE`), and the thread row is read back for a retry
 * only when nothing was stored. The common case takes {@link PUT_WRITES_IN_BLOCK_SQL} instead.
 */
export const PUT_WRITES_SQL = `
WITH sources_ok AS (${SOURCES_OK_UNLESS_NONE(15)}
), scope_ok AS (${SCOPE_OK(19, 20)}
), reserving AS (
  INSERT INTO threads AS th (thread_id, tenant_id, user_id, next_item_seq)
  SELECT $1, $19, $20, $8::int8 + $6::int8 WHERE $9::int4 > 0 AND $6::int8 > 0 AND (SELECT ok FROM scope_ok) AND (SELECT ok FROM sources_ok)
  ON CONFLICT (thread_id) DO UPDATE SET next_item_seq = th.next_item_seq + $6::int8, updated_at = now()
  WHERE th.epoch = $7::int8 AND th.next_item_seq = $8::int8
  RETURNING th.epoch
), in_block AS (
  SELECT th.epoch FROM threads th
  WHERE th.thread_id = $1 AND th.epoch = $7::int8 AND $9::int4 > 0 AND $6::int8 = 0 AND (SELECT ok FROM scope_ok) AND (SELECT ok FROM sources_ok)
  FOR KEY SHARE
), t AS (
  SELECT epoch FROM reserving UNION ALL SELECT epoch FROM in_block
), ok AS (
  SELECT (SELECT ok FROM scope_ok) AND CASE WHEN $9::int4 > 0 THEN EXISTS (SELECT 1 FROM t) ELSE (SELECT ok FROM sources_ok) END AS ok
), ins_items AS (
  INSERT INTO checkpoint_items (thread_id, seq, type, blob, tokens)
  SELECT $1, u.seq, u.type, u.blob, u.tokens
  FROM t, unnest($10::int8[], $11::text[], $12::bytea[], $13::int4[]) AS u(seq, type, blob, tokens)
), ins_writes AS (
  INSERT INTO checkpoint_writes AS cw (thread_id, checkpoint_ns, checkpoint_id, task_id, task_path, writes)
  SELECT $1, $2, $3, $4, $5, $14::json WHERE (SELECT ok FROM ok)${MERGE_WRITES}
)
SELECT (SELECT ok FROM scope_ok) AS scope_ok, (SELECT ok FROM ok) AS ok, (SELECT ok FROM sources_ok) AS sources_ok,
       (SELECT epoch FROM t) AS epoch, th.epoch AS cur_epoch, th.next_item_seq AS cur_next
FROM (SELECT 1) one LEFT JOIN threads th ON th.thread_id = $1 AND NOT (SELECT ok FROM ok)`;

/** Parameters of {@link PUT_WRITES_IN_BLOCK_SQL}, in order. */
export type PutWritesInBlockParams = [
  threadId: string,
  ns: string,
  checkpointId: string,
  taskId: string,
  taskPath: string,
  /** The thread's epoch the caller's cache holds (its items are numbered from a block this process holds). */
  epoch: number,
  itemSeqs: number[],
  itemTypes: string[],
  itemBlobs: Uint8Array[],
  itemTokens: number[],
  /** As in {@link PutWritesParams}. */
  writes: string,
  tenantId: string | null,
  userId: string | null,
];

/** The caller's scope owns the thread of {@link PUT_WRITES_IN_BLOCK_SQL} (`o` its owner row; none: an unscoped caller). */
const IN_BLOCK_SCOPE_OK = `CASE WHEN o.thread_id IS NOT NULL THEN ${ownerMatchesSql("o", "$12", "$13")} ELSE $12::text IS NULL AND $13::text IS NULL END`;

/**
 * {@link PUT_WRITES_SQL} for the common case, as a statement of its own so that its plan stays
 * small (no sources check, no block reservation, no owner claim to initialise at each execution):
 * a thread this process has stored, writes that reuse no stored item, and new items (if any)
 * numbered from a block this process already holds. One lookup of the thread row, locked FOR KEY
 * SHARE as there and joined with its owner, gives both checks — the caller's scope owns the
 * thread, the thread's epoch is the cached one — and gates the inserts of the items and of the
 * task's row (merged as there). A thread that is gone reports `ok` false with `cur_epoch` null
 * (and `scope_ok` true: nobody owns it now), and the caller retries with {@link PUT_WRITES_SQL},
 * which records the owner and reserves a block.
 */
export const PUT_WRITES_IN_BLOCK_SQL = `
WITH th AS (
  SELECT th.epoch, th.next_item_seq, th.epoch = $6::int8 AND ${IN_BLOCK_SCOPE_OK} AS ok, ${IN_BLOCK_SCOPE_OK} AS scope_ok
  FROM threads th LEFT JOIN thread_owners o ON o.thread_id = th.thread_id
  WHERE th.thread_id = $1
  FOR KEY SHARE OF th
), ins_items AS (
  INSERT INTO checkpoint_items (thread_id, seq, type, blob, tokens)
  SELECT $1, u.seq, u.type, u.blob, u.tokens
  FROM th, unnest($7::int8[], $8::text[], $9::bytea[], $10::int4[]) AS u(seq, type, blob, tokens)
  WHERE th.ok
), ins_writes AS (
  INSERT INTO checkpoint_writes AS cw (thread_id, checkpoint_ns, checkpoint_id, task_id, task_path, writes)
  SELECT $1, $2, $3, $4, $5, $11::json FROM th WHERE th.ok${MERGE_WRITES}
)
SELECT coalesce(th.scope_ok, TRUE) AS scope_ok, coalesce(th.ok, FALSE) AS ok, TRUE AS sources_ok,
       CASE WHEN th.ok AND cardinality($7::int8[]) > 0 THEN th.epoch END AS epoch,
       CASE WHEN NOT th.ok THEN th.epoch END AS cur_epoch, CASE WHEN NOT th.ok THEN th.next_item_seq END AS cur_next
FROM (SELECT 1) one LEFT JOIN th ON TRUE`;

/**
 * Which items {@link readSql} sends as text: JSON (nearly all of a chat thread's items), unless it
 * starts with a byte-order mark (which a driver's UTF-8 decoding may drop). bytea travels as hex,
 * twice its size, and the driver decodes the hex and then the UTF-8; as text it is sent and decoded
 * once. convert_from fails on bytes that are not UTF-8 (or not representable in the database's
 * encoding): the caller then reads again with `itemsAsText` false, every item as bytea.
 */
const ITEM_AS_TEXT = `its.type = 'json' AND substring(its.blob FROM 1 FOR 3) <> decode('efbbbf', 'hex')`;

/**
 * Read checkpoints with everything needed to rebuild them, in one statement and one round trip.
 * `where` filters `checkpoints c` (parameters from $8 on); $1–$3 say which items the caller
 * already holds for one thread ($1 thread, $2 epoch, $3 int8multirange), so a repeated read of a
 * long conversation fetches only what it has not seen; $4 is the limit (null: none). Only threads
 * the caller's scope ($5 tenant, $6 user; NULLs: none) owns are read (migration 0008); with $7, the
 * one thread the read is about, a row of kind 5 says that thread is another scope's (nothing else
 * is returned for it). The text
 * depends only on the shape of `where`, so each shape is prepared once per connection. Each item
 * is fetched once however many of the checkpoints and writes refer to it.
 *
 * The rows are of the kinds in read-rows.ts (`ROW_KIND`), all in one shape of columns
 * (`ReadWireRow`); `readRowOf` there names each kind's columns and must change with this text.
 * Items go as text when they are UTF-8 JSON (see {@link ITEM_AS_TEXT}); `itemsAsText` false sends
 * every item as bytea (the read to fall back on when that conversion fails: SQLSTATE 22021 or
 * 22P05).
 */
export function readSql(where: string, itemsAsText = true): string {
  const asText = itemsAsText ? ITEM_AS_TEXT : "FALSE";
  return `
WITH cps AS (
  SELECT c.thread_id, c.checkpoint_ns, c.checkpoint_id, c.parent_checkpoint_id, c.v, c.ts, c.channel_versions,
         c.versions_seen, c.extra, c.metadata, c.vals
  FROM checkpoints c LEFT JOIN thread_owners o ON o.thread_id = c.thread_id
  WHERE ${where} AND ${ownerMatchesSql("o", "$5", "$6")}
  ORDER BY c.checkpoint_id DESC, c.thread_id DESC, c.checkpoint_ns DESC
  LIMIT $4::int8
), ws AS (
  SELECT ${ROW_KIND.writes} AS k, w.thread_id, w.checkpoint_ns, w.checkpoint_id, w.task_id, w.task_path, w.writes
  FROM cps c
  JOIN checkpoint_writes w ON w.thread_id = c.thread_id AND w.checkpoint_ns = c.checkpoint_ns AND w.checkpoint_id = c.checkpoint_id
  UNION ALL
  SELECT ${ROW_KIND.parentSends}, w.thread_id, w.checkpoint_ns, c.checkpoint_id, w.task_id, w.task_path, w.writes
  FROM cps c
  JOIN checkpoint_writes w ON w.thread_id = c.thread_id AND w.checkpoint_ns = c.checkpoint_ns
   AND w.checkpoint_id = c.parent_checkpoint_id
  WHERE (c.v < 4 OR (c.v IS NULL AND (c.extra ->> 'v')::numeric < 4))
    AND EXISTS (SELECT 1 FROM json_array_elements(w.writes) AS e WHERE e ->> 1 = '__pregel_tasks')
), refs AS (
  SELECT c.thread_id, v.value AS r FROM cps c CROSS JOIN LATERAL json_each(c.vals) AS v
  UNION ALL
  SELECT ws.thread_id, e -> 2 FROM ws CROSS JOIN LATERAL json_array_elements(ws.writes) AS e
  WHERE ws.k = ${ROW_KIND.writes} OR e ->> 1 = '__pregel_tasks'
), need AS (
  SELECT g.thread_id,
         unnest(g.m - CASE WHEN g.thread_id = $1::text AND th.epoch = $2::int8 THEN $3::int8multirange
                           ELSE '{}'::int8multirange END) AS r
  FROM (
    SELECT refs.thread_id, range_agg(int8range(p.lo, p.hi, '[]')) AS m
    FROM refs CROSS JOIN LATERAL ${refPairsSql("refs.r")} AS p
    GROUP BY refs.thread_id
  ) g
  LEFT JOIN threads th ON th.thread_id = g.thread_id
), its AS (
  SELECT i.thread_id, i.seq, i.type, i.blob, i.tokens
  FROM need n
  JOIN checkpoint_items i ON i.thread_id = n.thread_id AND i.seq >= lower(n.r) AND i.seq < upper(n.r)
)
SELECT ${ROW_KIND.checkpoint} AS k, c.thread_id, c.checkpoint_ns AS ns, c.checkpoint_id AS a, c.parent_checkpoint_id AS b,
       c.channel_versions::text AS c, c.metadata::text AS d, c.vals::text AS e, c.versions_seen::text AS f, c.extra::text AS g,
       ${tsSql("c.ts")} AS h, c.v::int4 AS v, NULL::bytea AS blob, th.epoch AS n, th.next_item_seq AS m
FROM cps c LEFT JOIN threads th ON th.thread_id = c.thread_id
UNION ALL
SELECT ${ROW_KIND.item}, its.thread_id, NULL, NULL, NULL, its.type, CASE WHEN ${asText} THEN convert_from(its.blob, 'UTF8') END,
       NULL, NULL, NULL, NULL, NULL, CASE WHEN ${asText} THEN NULL ELSE its.blob END, its.seq, its.tokens::int8
FROM its
UNION ALL
SELECT ws.k, ws.thread_id, ws.checkpoint_ns, ws.checkpoint_id, ws.task_id, NULL, ws.writes::text, ws.task_path, NULL, NULL, NULL, NULL, NULL, NULL, NULL
FROM ws
UNION ALL
SELECT ${ROW_KIND.foreignThread}, $7::text, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL
FROM (SELECT 1) one LEFT JOIN thread_owners o ON o.thread_id = $7::text
WHERE $7::text IS NOT NULL AND NOT ${ownerMatchesSql("o", "$5", "$6")}
  AND (o.thread_id IS NOT NULL OR EXISTS (SELECT 1 FROM threads x WHERE x.thread_id = $7::text))`;
}

/** Remove every row of one thread, in one statement, and its owner (the id is free again). */
export const DELETE_THREAD_SQL = `
WITH w AS (DELETE FROM checkpoint_writes WHERE thread_id = $1),
     i AS (DELETE FROM checkpoint_items WHERE thread_id = $1),
     c AS (DELETE FROM checkpoints WHERE thread_id = $1),
     o AS (DELETE FROM thread_owners WHERE thread_id = $1),
     a AS (DELETE FROM api_threads WHERE thread_id = $1)
DELETE FROM threads WHERE thread_id = $1`;

/** One thread's row with its owner's tenant and user (`$1` the thread id; no row: the thread has no checkpoint). */
export const THREAD_WITH_OWNER_SQL = `SELECT t.thread_id, o.tenant_id, o.user_id, t.created_at, t.updated_at, t.message_count, t.message_tokens
       FROM threads t LEFT JOIN thread_owners o ON o.thread_id = t.thread_id WHERE t.thread_id = $1`;

/** Remove threads idle for longer than $1 seconds with all their rows and owners; returns their ids. */
export const SWEEP_IDLE_THREADS_SQL = `
WITH dead AS (
  DELETE FROM threads WHERE updated_at < now() - make_interval(secs => $1::float8) RETURNING thread_id
), w AS (DELETE FROM checkpoint_writes x USING dead WHERE x.thread_id = dead.thread_id),
   i AS (DELETE FROM checkpoint_items x USING dead WHERE x.thread_id = dead.thread_id),
   c AS (DELETE FROM checkpoints x USING dead WHERE x.thread_id = dead.thread_id),
   o AS (DELETE FROM thread_owners x USING dead WHERE x.thread_id = dead.thread_id),
   a AS (DELETE FROM api_threads x USING dead WHERE x.thread_id = dead.thread_id)
SELECT thread_id FROM dead`;

/** What retention needs to plan: every checkpoint of a thread with its links and stored channels. */
export const PRUNE_SCAN_SQL = `
SELECT checkpoint_ns AS ns, checkpoint_id AS id, parent_checkpoint_id AS parent,
       metadata -> 'counters_since_delta_snapshot' AS counters,
       ARRAY(SELECT json_object_keys(vals)) AS stored
FROM checkpoints WHERE thread_id = $1`;

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
 * Delete items no remaining checkpoint or write of the thread refers to; returns their numbers.
 * Runs as its own statement after the checkpoints are gone, so it sees puts that committed
 * meanwhile (a put that reuses items locks the rows it takes them from).
 */
export const PRUNE_ITEMS_SQL = `
WITH refs AS (
  SELECT v.value AS r FROM checkpoints c CROSS JOIN LATERAL json_each(c.vals) AS v WHERE c.thread_id = $1
  UNION ALL
  SELECT e -> 2 FROM checkpoint_writes w CROSS JOIN LATERAL json_array_elements(w.writes) AS e WHERE w.thread_id = $1
), keep AS (
  SELECT coalesce(range_agg(int8range(p.lo, p.hi, '[]')), '{}'::int8multirange) AS m
  FROM refs CROSS JOIN LATERAL ${refPairsSql("refs.r")} AS p
)
DELETE FROM checkpoint_items i WHERE i.thread_id = $1 AND NOT (i.seq <@ (SELECT m FROM keep))
RETURNING i.seq`;

/** Empty every checkpointer table and the thread owners (tests and benchmarks only). */
export const TRUNCATE_SQL = "TRUNCATE threads, checkpoints, checkpoint_items, checkpoint_writes, thread_owners";
