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
import { invalidInput } from "../errors.js";

/** The group role whose members claim jobs across tenants (migration 0006 checks membership by this name). */
export const WORKER_GROUP_ROLE = "langgraph_memory_worker";

export interface RoleGrants {
  /** Roles that serve users (subject to every policy). */
  app?: readonly string[];
  /** Roles that run job workers (app grants + membership of `langgraph_memory_worker`). */
  worker?: readonly string[];
}

/**
 * The statements that let existing roles use the schema: usage, table privileges (the deletion
 * audit append-only, the migrations table read-only), sequences and functions — and, for workers,
 * membership of `langgraph_memory_worker` (created NOLOGIN when missing). Run as the owner (and,
 * for the group role, a role with CREATEROLE). The roles themselves are the operator's: create them
 * `LOGIN NOBYPASSRLS`, never superuser, never the owner.
 *
 * @example
 * console.log(roleGrantStatements("langgraph_memory", { app: ["lgm_app"], worker: ["lgm_worker"] }).join(";\n"));
 */
export function roleGrantStatements(schema: string, grants: RoleGrants): string[] {
  const s = quoteIdent(schema);
  const all = [...(grants.app ?? []), ...(grants.worker ?? [])];
  if (all.length === 0) throw invalidInput("grants", "name at least one app or worker role");
  all.forEach((r, i) => {
    if (typeof r !== "string" || r.length === 0 || r.length > 63 || r.includes("\0")) throw invalidInput(`grants[${i}]`, "must be a role name (1–63 characters)");
  });
  const roles = all.map(quoteIdent).join(", ");
  const out = [
    `GRANT USAGE ON SCHEMA ${s} TO ${roles}`,
    `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${s} TO ${roles}`,
    // The audit is append-only and the migration record belongs to the owner.
    `REVOKE UPDATE, DELETE ON ${s}.memory_deletion_audit FROM ${roles}`,
    `REVOKE INSERT, UPDATE, DELETE ON ${s}.migrations FROM ${roles}`,
    `GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA ${s} TO ${roles}`,
    `GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA ${s} TO ${roles}`,
  ];
  if (grants.worker && grants.worker.length > 0) {
    out.push(
      `DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${WORKER_GROUP_ROLE}') THEN CREATE ROLE ${WORKER_GROUP_ROLE} NOLOGIN; END IF; END $$`,
      `GRANT ${WORKER_GROUP_ROLE} TO ${grants.worker.map(quoteIdent).join(", ")}`,
    );
  }
  return out;
}

/**
 * Run {@link roleGrantStatements} on this database's schema (as the owner). Re-run after a
 * migration that adds tables, or set default privileges (docs/operations.md).
 */
export async function grantMemoryRoles(db: Database, grants: RoleGrants): Promise<void> {
  for (const sql of roleGrantStatements(db.schema, grants)) await db.exec(sql);
}
