/** The statements of the opt-out write gate (table `memory_settings`; `$1` tenant, `$2` user). */

/** The write gate's read: FOR SHARE, so an opt-out waits for writes already past the check. */
export const SELECT_OPTED_OUT_FOR_SHARE_SQL = "SELECT opted_out FROM memory_settings WHERE tenant_id = $1 AND user_id = $2 FOR SHARE";

/** A plain read of the flag. */
export const SELECT_OPTED_OUT_SQL = "SELECT opted_out FROM memory_settings WHERE tenant_id = $1 AND user_id = $2";
