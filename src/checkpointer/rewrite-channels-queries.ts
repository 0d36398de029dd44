/** The statements of `rewriteThreadChannels` (rewrite-channels.ts) on one thread's checkpointer rows (`$1` the thread id). */

/** Lock the thread row first, so no put interleaves with the rewrite; no row: the thread is not stored. */
export const LOCK_THREAD_FOR_REWRITE_SQL = "SELECT 1 FROM threads WHERE thread_id = $1 FOR UPDATE";

/** Every checkpoint of the thread with its channel references (JSON text). */
export const SELECT_CHECKPOINT_VALS_SQL = "SELECT checkpoint_ns AS ns, checkpoint_id AS id, vals::text AS vals FROM checkpoints WHERE thread_id = $1";

/** Every pending-write row of the thread with its writes (JSON text). */
export const SELECT_PENDING_WRITES_SQL = "SELECT checkpoint_ns AS ns, checkpoint_id AS id, task_id AS task, writes::text AS writes FROM checkpoint_writes WHERE thread_id = $1";

/** The thread's items the rewritten references use (`$2` their numbers), fetched once. */
export const SELECT_ITEMS_BY_SEQ_SQL = "SELECT seq, type, blob FROM checkpoint_items WHERE thread_id = $1 AND seq = ANY($2::int8[])";

/** Store one checkpoint's rewritten references (`$2` namespace, `$3` checkpoint id, `$4` the references as JSON). */
export const UPDATE_CHECKPOINT_VALS_SQL = "UPDATE checkpoints SET vals = $4::json WHERE thread_id = $1 AND checkpoint_ns = $2 AND checkpoint_id = $3";

/** Store one task's rewritten writes (`$2` namespace, `$3` checkpoint id, `$4` task id, `$5` the writes as JSON). */
export const UPDATE_PENDING_WRITES_SQL = "UPDATE checkpoint_writes SET writes = $5::json WHERE thread_id = $1 AND checkpoint_ns = $2 AND checkpoint_id = $3 AND task_id = $4";

/** Move the thread to a new epoch, so every process's cache of it (now stale) is dropped at its next read or put. */
export const BUMP_THREAD_EPOCH_SQL = "UPDATE threads SET epoch = nextval('thread_epochs') WHERE thread_id = $1";
