/**
 * Named SQL of the profile store. Every statement filters by tenant and user ($1, $2).
 */
import { notOptedOutAt } from "../store/opt-out.js";

const READ_GATE = notOptedOutAt("$1", "$2");

export const PROFILE_COLUMNS = "p.tenant_id, p.user_id, p.document, p.sources, p.created_at, p.updated_at";

/** The profile, unless the user opted out. $1 tenant, $2 user. */
export const SELECT_PROFILE_SQL = `SELECT ${PROFILE_COLUMNS} FROM profiles p WHERE p.tenant_id = $1 AND p.user_id = $2 AND ${READ_GATE}`;

/** Make sure the row exists, so the next statement can lock it (two first patches never race). */
export const ENSURE_PROFILE_SQL = `INSERT INTO profiles (tenant_id, user_id) VALUES ($1, $2) ON CONFLICT (tenant_id, user_id) DO NOTHING RETURNING tenant_id`;

export const LOCK_PROFILE_SQL = `SELECT ${PROFILE_COLUMNS} FROM profiles p WHERE p.tenant_id = $1 AND p.user_id = $2 FOR UPDATE`;

/** $3 document (JSON text), $4 sources (JSON text). */
export const WRITE_PROFILE_SQL = `UPDATE profiles p SET document = $3::jsonb, sources = $4::jsonb, updated_at = now()
WHERE p.tenant_id = $1 AND p.user_id = $2 RETURNING ${PROFILE_COLUMNS}`;

/** Changes of several fields in one statement. $3 fields, $4 old values, $5 new values (JSON text or null), $6–$9 source. */
export const INSERT_HISTORY_SQL = `
INSERT INTO profile_history (tenant_id, user_id, field, old_value, new_value, source_kind, source_thread_id, source_message_id, source_run_id)
SELECT $1, $2, u.field, u.old_value::jsonb, u.new_value::jsonb, $6, $7, $8, $9
FROM unnest($3::text[], $4::text[], $5::text[]) AS u(field, old_value, new_value)`;

export const HISTORY_COLUMNS = "h.id, h.field, h.old_value, h.new_value, h.source_kind, h.source_thread_id, h.source_message_id, h.source_run_id, h.created_at";

/** Newest first, unless the user opted out. $3 field (null = all), $4 limit. */
export const SELECT_HISTORY_SQL = `SELECT ${HISTORY_COLUMNS} FROM profile_history h
WHERE h.tenant_id = $1 AND h.user_id = $2 AND ($3::text IS NULL OR h.field = $3::text) AND ${READ_GATE}
ORDER BY h.created_at DESC, h.id DESC LIMIT $4`;

/** Everything, oldest first (export; the caller checked opt-out). */
export const EXPORT_HISTORY_SQL = `SELECT ${HISTORY_COLUMNS} FROM profile_history h
WHERE h.tenant_id = $1 AND h.user_id = $2 ORDER BY h.created_at, h.id`;

export const EXPORT_PROFILE_SQL = `SELECT ${PROFILE_COLUMNS} FROM profiles p WHERE p.tenant_id = $1 AND p.user_id = $2`;

/** Restore a profile as exported (replacing any). $3 document, $4 sources, $5 created, $6 updated. */
export const IMPORT_PROFILE_SQL = `INSERT INTO profiles (tenant_id, user_id, document, sources, created_at, updated_at)
VALUES ($1, $2, $3::jsonb, $4::jsonb, $5::timestamptz, $6::timestamptz)
ON CONFLICT (tenant_id, user_id) DO UPDATE SET document = excluded.document, sources = excluded.sources,
  created_at = excluded.created_at, updated_at = excluded.updated_at`;

/** Restore history rows with their ids and dates; existing ids are skipped. */
export const IMPORT_HISTORY_SQL = `
INSERT INTO profile_history (id, tenant_id, user_id, field, old_value, new_value, source_kind, source_thread_id, source_message_id, source_run_id, created_at)
SELECT u.id, $1, $2, u.field, u.old_value::jsonb, u.new_value::jsonb, u.kind, u.thread_id, u.message_id, u.run_id, u.created_at
FROM unnest($3::uuid[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::timestamptz[])
  AS u(id, field, old_value, new_value, kind, thread_id, message_id, run_id, created_at)
ON CONFLICT (id) DO NOTHING`;

export const DELETE_PROFILE_SQL = `DELETE FROM profiles WHERE tenant_id = $1 AND user_id = $2`;
export const DELETE_HISTORY_SQL = `DELETE FROM profile_history WHERE tenant_id = $1 AND user_id = $2`;

export interface ProfileRow {
  tenant_id: string;
  user_id: string;
  document: Record<string, unknown> | string;
  sources: Record<string, unknown> | string;
  created_at: Date | string;
  updated_at: Date | string;
}

export interface HistoryRow {
  id: string;
  field: string;
  old_value: unknown;
  new_value: unknown;
  source_kind: string;
  source_thread_id: string | null;
  source_message_id: string | null;
  source_run_id: string | null;
  created_at: Date | string;
}
