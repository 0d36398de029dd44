/** The statements of the deletion audit (table `memory_deletion_audit`, migration 0005). */

/** One audit row: `$1` operation id, `$2` tenant, `$3` user, `$4` item kind, `$5` count, `$6` via, `$7` actor. */
export const INSERT_DELETION_AUDIT_SQL = `INSERT INTO memory_deletion_audit (operation_id, tenant_id, user_id, item_kind, item_count, via, actor)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`;

/** The audit rows of exactly one scope (NULL tenant or user included), newest first, at most `$3`. */
export const SELECT_DELETION_AUDIT_SQL = `SELECT id, operation_id, tenant_id, user_id, item_kind, item_count, via, actor, created_at FROM memory_deletion_audit
     WHERE tenant_id IS NOT DISTINCT FROM $1::text AND user_id IS NOT DISTINCT FROM $2::text
     ORDER BY id DESC LIMIT $3`;
