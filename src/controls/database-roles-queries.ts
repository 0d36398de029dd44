/** The statements of the database roles: the grants shown to operators (database-roles.ts builds them from checked names) and the membership check. */

/** Each role of $1 and whether it is a member of $2 (through inheritance, as the policies check). */
export const WORKER_MEMBERSHIP_SQL = `
SELECT r AS role, EXISTS (SELECT 1 FROM pg_roles g WHERE g.rolname = $2::text AND pg_has_role(r, g.oid, 'USAGE')) AS member
FROM unnest($1::text[]) AS r`;

/**
 * The owner's grants to `roles` on schema `s` (both already quoted): usage, table privileges,
 * sequences and functions.
 */
export function roleGrantsSql(s: string, roles: string): string[] {
  return [
    `GRANT USAGE ON SCHEMA ${s} TO ${roles}`,
    `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${s} TO ${roles}`,
    // The audit is append-only and the migration record belongs to the owner.
    `REVOKE UPDATE, DELETE ON ${s}.memory_deletion_audit FROM ${roles}`,
    `REVOKE INSERT, UPDATE, DELETE ON ${s}.migrations FROM ${roles}`,
    `GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA ${s} TO ${roles}`,
    `GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA ${s} TO ${roles}`,
  ];
}

/** Create group role `groupRole` when missing and make `workers` (already quoted, comma-separated) its members. */
export function workerMembershipSql(groupRole: string, workers: string): string[] {
  return [
    `DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${groupRole}') THEN CREATE ROLE ${groupRole} NOLOGIN; END IF; END $$`,
    `GRANT ${groupRole} TO ${workers}`,
  ];
}
