/**
 * The deletion audit (table `memory_deletion_audit`, migration 0005): *that* something was
 * deleted — the kind of item, how many, which code path, who asked — never what it said. Written
 * in the same transaction as the deletion, so an audit row exists exactly when the delete
 * committed.
 */
import { randomUUID } from "node:crypto";
import type { Queryable } from "../db/database.js";
import { INSERT_DELETION_AUDIT_SQL, SELECT_DELETION_AUDIT_SQL } from "./deletion-audit-queries.js";

export type DeletedItemKind = "memory" | "profile" | "profile_history" | "rule" | "job" | "thread" | "confirmation" | "store_item";

/** Who and which path asked for a deletion. */
export interface DeletionContext {
  /** The code path, e.g. "controls.deleteMemory", "retention.expire" (default: the caller's own name). */
  via?: string;
  /** Who asked (an app-defined label such as "user", "admin:bob"); null when unknown. */
  actor?: string | null;
  /** Groups the audit rows of one operation (default: a new id per call). */
  operationId?: string;
}

export interface DeletionAuditEntry {
  id: number;
  operationId: string;
  tenantId: string | null;
  userId: string | null;
  itemKind: DeletedItemKind;
  itemCount: number;
  via: string;
  actor: string | null;
  createdAt: Date;
}

/** Record `count` deleted items (nothing when count is 0). */
export async function recordDeletion(
  tx: Queryable,
  scope: { tenantId: string | null; userId: string | null },
  itemKind: DeletedItemKind,
  count: number,
  context: DeletionContext & { via: string },
): Promise<void> {
  if (!(count > 0)) return;
  await tx.query(
    INSERT_DELETION_AUDIT_SQL,
    [context.operationId ?? randomUUID(), scope.tenantId, scope.userId, itemKind, count, context.via.slice(0, 100), context.actor?.slice(0, 200) ?? null],
  );
}

/** The audit rows of exactly one scope, newest first. */
export async function readDeletionAudit(
  tx: Queryable,
  scope: { tenantId: string | null; userId: string | null },
  limit = 100,
): Promise<DeletionAuditEntry[]> {
  const { rows } = await tx.query<{
    id: number;
    operation_id: string;
    tenant_id: string | null;
    user_id: string | null;
    item_kind: DeletedItemKind;
    item_count: number;
    via: string;
    actor: string | null;
    created_at: Date | string;
  }>(
    SELECT_DELETION_AUDIT_SQL,
    [scope.tenantId, scope.userId, limit],
  );
  return rows.map((r) => ({
    id: Number(r.id),
    operationId: r.operation_id,
    tenantId: r.tenant_id,
    userId: r.user_id,
    itemKind: r.item_kind,
    itemCount: Number(r.item_count),
    via: r.via,
    actor: r.actor,
    createdAt: r.created_at instanceof Date ? r.created_at : new Date(r.created_at),
  }));
}
