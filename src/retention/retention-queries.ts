/**
 * Named SQL of the retention sweep. Every statement touches at most `$batch` rows it could lock
 * (`FOR UPDATE SKIP LOCKED`): a row an agent is writing right now is skipped and picked up by the
 * next run, so the sweep never waits on, or blocks, a turn. Every predicate takes the sweep's clock
 * as a parameter ($1), so a run is idempotent for a given time.
 *
 * The archive and decay statements test only `superseded_by IS NULL AND deactivated_at IS NULL`,
 * not the whole `memory_is_active` (migration 0015): an expired memory is the expire statement's
 * to delete, whatever its use or confidence; archiving or decaying it first changes nothing a
 * search sees.
 */

const DAY = "interval '1 day'";

/**
 * Delete memories past `expires_at` (any kind: the writer asked for it) and episodes older than
 * the episode TTL that carry no explicit expiry; one audit row per tenant/user per batch.
 * $1 now, $2 episode TTL days, $3 batch, $4 operation id. → n
 */
export const EXPIRE_SQL = `
WITH doomed AS (
  SELECT m.id FROM memories m
  WHERE m.expires_at <= $1::timestamptz
     OR (m.kind = 'episode' AND m.expires_at IS NULL AND m.created_at <= $1::timestamptz - $2::float8 * ${DAY})
  LIMIT $3::int
  FOR UPDATE SKIP LOCKED
), gone AS (
  DELETE FROM memories m USING doomed d WHERE m.id = d.id RETURNING m.tenant_id, m.user_id
), audit AS (
  INSERT INTO memory_deletion_audit (operation_id, tenant_id, user_id, item_kind, item_count, via, actor)
  SELECT $4::uuid, g.tenant_id, g.user_id, 'memory', count(*), 'retention.expire', 'retention'
  FROM gone g GROUP BY g.tenant_id, g.user_id
  RETURNING item_count
)
SELECT coalesce(sum(item_count), 0)::int AS n FROM audit`;

/**
 * Archive what is most likely noise: extracted episodes and inferred memories (never what the user
 * stated, nor extracted facts and preferences, which carry the user's own words) not used in the
 * last `unusedDays` (by last use, or creation when never used). Archived memories are kept,
 * listed, exported and still searched, but retrieved only above the archived relevance floor;
 * using one clears the mark (`markUsed`). Superseded, deactivated and already archived rows are
 * left alone. $1 now, $2 unused days, $3 batch. → n
 */
export const ARCHIVE_UNUSED_SQL = `
WITH c AS (
  SELECT m.id FROM memories m
  WHERE m.archived_at IS NULL AND m.deactivated_at IS NULL AND m.superseded_by IS NULL
    AND coalesce(m.last_used_at, m.created_at) <= $1::timestamptz - $2::float8 * ${DAY}
    AND ((m.origin = 'extracted' AND m.kind = 'episode') OR m.origin = 'inferred')
  LIMIT $3::int
  FOR UPDATE SKIP LOCKED
), u AS (
  UPDATE memories m SET archived_at = $1::timestamptz FROM c WHERE m.id = c.id RETURNING m.id
)
SELECT count(*)::int AS n FROM u`;

/** Confidence ceiling of an inferred memory idle since `idle_since`: 0.5^((idle days − after) / half-life). */
const CEILING = (idleSince: string) =>
  `(power(0.5::float8, greatest(0::float8, extract(epoch FROM ($1::timestamptz - ${idleSince})) / 86400.0 - $2::float8) / $3::float8))::real`;

/**
 * Decay the confidence of inferred memories unused for longer than `decayAfterDays`: confidence
 * becomes min(confidence, ceiling). The ceiling is a function of the clock, not of how often the
 * sweep ran, so repeating a run changes nothing. Below `minConfidence` the memory is deactivated.
 * $1 now, $2 decay-after days, $3 half-life days, $4 min confidence, $5 batch. → n, off
 */
export const DECAY_SQL = `
WITH c AS (
  SELECT m.id, least(m.confidence, ${CEILING("coalesce(m.last_used_at, m.created_at)")}) AS next
  FROM memories m
  WHERE m.origin = 'inferred' AND m.deactivated_at IS NULL AND m.superseded_by IS NULL
    AND coalesce(m.last_used_at, m.created_at) < $1::timestamptz - $2::float8 * ${DAY}
    AND (m.confidence > ${CEILING("coalesce(m.last_used_at, m.created_at)")} OR m.confidence < $4::real)
  LIMIT $5::int
  FOR UPDATE OF m SKIP LOCKED
), u AS (
  UPDATE memories m SET confidence = c.next, deactivated_at = CASE WHEN c.next < $4::real THEN $1::timestamptz END
  FROM c WHERE m.id = c.id
  RETURNING m.deactivated_at IS NOT NULL AS off
)
SELECT count(*)::int AS n, (count(*) FILTER (WHERE off))::int AS off FROM u`;

/**
 * Opted-out users due for a purge: opted out before the cutoff and not purged since — or with
 * memories again (a write that was in flight at the moment of the opt-out). $1 cutoff, $2 limit.
 */
export const PURGE_CANDIDATES_SQL = `
SELECT s.tenant_id, s.user_id FROM memory_settings s
WHERE s.opted_out AND s.opted_out_at <= $1::timestamptz
  AND (s.purged_at IS NULL OR s.purged_at < s.opted_out_at
       OR EXISTS (SELECT 1 FROM memories m WHERE m.tenant_id = s.tenant_id AND m.user_id = s.user_id AND m.scope = 'user'))
ORDER BY s.opted_out_at, s.tenant_id, s.user_id
LIMIT $2::int`;

/** $1 tenant, $2 user, $3 now. */
export const MARK_PURGED_SQL = `UPDATE memory_settings SET purged_at = $3::timestamptz WHERE tenant_id = $1 AND user_id = $2`;

/** Expired delete-all confirmations. $1 now, $2 batch. → n */
export const EXPIRED_CONFIRMATIONS_SQL = `
WITH c AS (
  SELECT token_hash FROM memory_confirmations WHERE expires_at <= $1::timestamptz LIMIT $2::int FOR UPDATE SKIP LOCKED
), d AS (DELETE FROM memory_confirmations x USING c WHERE x.token_hash = c.token_hash RETURNING 1)
SELECT count(*)::int AS n FROM d`;

/** Would row-level security hide other tenants' rows from this role? */
export const RLS_ACTIVE_SQL = `SELECT row_security_active('memories') AS active`;

export const START_RUN_SQL = `INSERT INTO retention_runs (started_at) VALUES ($1::timestamptz) RETURNING id`;

/** $1 id, $2 finished, $3 next due, $4 status, $5 summary (JSON text), $6 error. */
export const FINISH_RUN_SQL = `UPDATE retention_runs SET finished_at = $2::timestamptz, next_due_at = $3::timestamptz, status = $4,
  summary = $5::jsonb, error = $6 WHERE id = $1::bigint`;

export const LAST_RUN_SQL = `SELECT id, started_at, finished_at, next_due_at, status, summary, error FROM retention_runs
WHERE status <> 'running' ORDER BY id DESC LIMIT 1`;
