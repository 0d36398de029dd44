/** The statements of the database-role checks (the GRANT builders stay public in database-roles.ts: they are shown to operators). */

/** Each role of $1 and whether it is a member of $2 (through inheritance, as the policies check). */
export const WORKER_MEMBERSHIP_SQL = `
SELECT r AS role, EXISTS (SELECT 1 FROM pg_roles g WHERE g.rolname = $2::text AND pg_has_role(r, g.oid, 'USAGE')) AS member
FROM unnest($1::text[]) AS r`;
