/**
 * Database roles for row-level security on server Postgres (docs/operations.md):
 *
 * - the **owner** runs migrations and owns the schema and tables; RLS is enabled but not forced,
 *   so the owner sees every row — it is the role for cross-tenant maintenance (retention sweep,
 *   reembed);
 * - the **app** role (NOBYPASSRLS, not the owner) serves users: every row it reads or writes
 *   must match the tenant/user the library sets for the transaction;
 * - a **worker** role is an app role that is also a member of `langgraph_memory_worker`: it can
 *   claim jobs of every tenant; the memories it writes are still checked against the job's scope.
 */
import type { Database } from "../db/database.js";
import { quoteIdent } from "../db/identifier.js";
import { ErrorCodes, MemoryError, invalidInput } from "../errors.js";
import { SqlState, sqlStateOf } from "../db/sqlstate.js";
import { WORKER_MEMBERSHIP_SQL, roleGrantsSql, workerMembershipSql } from "./database-roles-queries.js";

/** The group role whose members claim jobs across tenants (migration 0006 checks membership by this name). */
export const WORKER_GROUP_ROLE = "langgraph_memory_worker";

export interface RoleGrants {
  /** Roles that serve users (subject to every policy). */
  app?: readonly string[];
  /** Roles that run job workers (app grants + membership of `langgraph_memory_worker`). */
  worker?: readonly string[];
}

/**
 * The statements the **owner** runs so that existing roles can use the schema: usage, table
 * privileges (the deletion audit append-only, the migrations table read-only), sequences and
 * functions. Membership of `langgraph_memory_worker` is not among them: granting a role needs a
 * superuser, a role with CREATEROLE or ADMIN OPTION on it, which the owner has not — see
 * {@link workerMembershipStatements}. The roles themselves are the operator's: create them
 * `LOGIN NOBYPASSRLS`, never superuser, never the owner.
 *
 * @example
 * console.log(roleGrantStatements("langgraph_memory", { app: ["lgm_app"], worker: ["lgm_worker"] }).join(";\n"));
 */
export function roleGrantStatements(schema: string, grants: RoleGrants): string[] {
  const s = quoteIdent(schema);
  const roles = grantedRoles(grants).map(quoteIdent).join(", ");
  return roleGrantsSql(s, roles);
}

/**
 * The statements that make worker roles members of `langgraph_memory_worker` (creating it when
 * missing), for a superuser or a role with CREATEROLE to run once — the owner cannot.
 *
 * @example
 * console.log(workerMembershipStatements(["lgm_worker"]).join(";\n"));
 */
export function workerMembershipStatements(workers: readonly string[]): string[] {
  if (workers.length === 0) return [];
  grantedRoles({ worker: workers });
  return workerMembershipSql(WORKER_GROUP_ROLE, workers.map(quoteIdent).join(", "));
}

/**
 * Run {@link roleGrantStatements} on this database's schema, as the owner (docs/operations.md).
 * Worker roles must also be members of `langgraph_memory_worker`: roles that already are members are left
 * alone; a missing membership is granted when the connected role may (a superuser, CREATEROLE),
 * else this throws MAINTENANCE_ROLE_REQUIRED with the statements to run as such a role — after
 * the owner's grants, which do not depend on it. Re-run after a migration that adds tables, or
 * set default privileges.
 *
 * @example
 * await grantMemoryRoles(ownerDb, { app: ["lgm_app"], worker: ["lgm_worker"] });
 */
export async function grantMemoryRoles(db: Database, grants: RoleGrants): Promise<void> {
  for (const sql of roleGrantStatements(db.schema, grants)) await db.exec(sql);
  const workers = grants.worker ?? [];
  if (workers.length === 0) return;
  const { rows } = await db.query<{ role: string; member: boolean }>(WORKER_MEMBERSHIP_SQL, [workers, WORKER_GROUP_ROLE]);
  const missing = rows.filter((r) => !r.member).map((r) => r.role);
  if (missing.length === 0) return;
  try {
    for (const sql of workerMembershipStatements(missing)) await db.exec(sql);
  } catch (err) {
    if (sqlStateOf(err) !== SqlState.INSUFFICIENT_PRIVILEGE) throw err;
    throw new MemoryError(
      ErrorCodes.MAINTENANCE_ROLE_REQUIRED,
      `${missing.join(", ")} must be members of ${WORKER_GROUP_ROLE} to claim jobs, and this role may not grant that; run as a superuser or a role with CREATEROLE: ${workerMembershipStatements(missing).join("; ")}`,
      { cause: err, details: { missing } },
    );
  }
}

function grantedRoles(grants: RoleGrants): string[] {
  const all = [...(grants.app ?? []), ...(grants.worker ?? [])];
  if (all.length === 0) throw invalidInput("grants", "name at least one app or worker role");
  all.forEach((r, i) => {
    if (typeof r !== "string" || r.length === 0 || r.length > 63 || r.includes("\0")) throw invalidInput(`grants[${i}]`, "must be a role name (1–63 characters)");
  });
  return all;
}
