/** The statements of a user's memory settings (table `memory_settings`; `$1` tenant, `$2` user). */

/** Restore exported settings as they were (`$3` opted out, `$4` opted out at, `$5` created at, `$6` updated at). */
export const IMPORT_SETTINGS_SQL = `INSERT INTO memory_settings (tenant_id, user_id, opted_out, opted_out_at, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (tenant_id, user_id) DO UPDATE SET opted_out = excluded.opted_out, opted_out_at = excluded.opted_out_at,
         created_at = excluded.created_at, updated_at = excluded.updated_at`;

/** Opt back in; a row only when the user was opted out. */
export const CLEAR_OPTED_OUT_SQL =
  "UPDATE memory_settings SET opted_out = false, opted_out_at = NULL, updated_at = now() WHERE tenant_id = $1 AND user_id = $2 AND opted_out";

/** Opt out; returns a row only when the flag changed. */
export const SET_OPTED_OUT_SQL = `INSERT INTO memory_settings AS m (tenant_id, user_id, opted_out, opted_out_at) VALUES ($1, $2, true, now())
     ON CONFLICT (tenant_id, user_id) DO UPDATE SET opted_out = true, opted_out_at = now(), updated_at = now()
     WHERE NOT m.opted_out
     RETURNING true AS changed`;

export const SELECT_SETTINGS_SQL = "SELECT opted_out, opted_out_at, created_at, updated_at FROM memory_settings WHERE tenant_id = $1 AND user_id = $2";
