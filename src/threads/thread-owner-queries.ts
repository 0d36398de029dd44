/**
 * The SQL of thread ownership (migration 0008), for the statements that check it: named
 * statements for callers that have nothing to fold the check into, and fragments for the
 * checkpointer's statements, which check it in the same round trip as their own work.
 */

/** Record the owner of a thread not seen yet; `ok`: the caller ($2 tenant, $3 user) is its owner. */
export const CLAIM_THREAD_SQL = "SELECT memory_thread_claim($1::text, $2::text, $3::text) AS ok";

/** Forget the owner records of deleted threads ($1 text[]) of one user ($2 tenant, $3 user): the ids are free again. */
export const DELETE_USER_THREAD_OWNERS_SQL = "DELETE FROM thread_owners WHERE thread_id = ANY ($1::text[]) AND tenant_id = $2 AND user_id = $3";

/**
 * True when the owner row `o` (a LEFT JOIN: all NULL when the thread has none) is the caller's
 * scope given by the two parameters: a thread without a row counts as nobody's.
 */
export function ownerMatchesSql(o: string, tenantParam: string, userParam: string): string {
  return `(${o}.tenant_id IS NOT DISTINCT FROM ${tenantParam}::text AND ${o}.user_id IS NOT DISTINCT FROM ${userParam}::text)`;
}

/** The recorded owner of a thread ($1), without claiming it: no row for a thread nobody has used. */
export const THREAD_OWNER_SQL = "SELECT tenant_id, user_id FROM thread_owners WHERE thread_id = $1";
