/**
 * Named SQL of the BaseStore items a user owns (migration 0012's `store_items.user_id`): what the
 * user's delete-all removes and their export carries. Always filtered by tenant and user.
 */
import type { Queryable } from "../db/database.js";
import type { UserScope } from "../core/scope.js";

/** A BaseStore item of the user as exported (JSON-friendly, ISO dates, no vectors). */
export interface ExportedStoreItem {
  namespace: string[];
  key: string;
  value: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
  /** When it expires (its TTL), or null. */
  expiresAt: string | null;
}

interface StoreItemRow {
  namespace: string[];
  key: string;
  value: Record<string, unknown> | string;
  created_at: Date | string;
  updated_at: Date | string;
  expires_at: Date | string | null;
}

/** Delete the user's items (their vectors go with them); returns how many. */
export async function deleteUserStoreItemsIn(tx: Queryable, s: UserScope): Promise<number> {
  return (await tx.query("DELETE FROM store_items WHERE tenant_id = $1 AND user_id = $2", [s.tenantId, s.userId])).rowCount;
}

/** The user's items, oldest first (expired ones too: they are still stored until swept). */
export async function exportUserStoreItemsIn(tx: Queryable, s: UserScope): Promise<ExportedStoreItem[]> {
  const { rows } = await tx.query<StoreItemRow>(
    "SELECT namespace, key, value, created_at, updated_at, expires_at FROM store_items WHERE tenant_id = $1 AND user_id = $2 ORDER BY seq",
    [s.tenantId, s.userId],
  );
  return rows.map((r) => ({
    namespace: r.namespace,
    key: r.key,
    value: typeof r.value === "string" ? JSON.parse(r.value) : r.value,
    createdAt: new Date(r.created_at).toISOString(),
    updatedAt: new Date(r.updated_at).toISOString(),
    expiresAt: r.expires_at === null ? null : new Date(r.expires_at).toISOString(),
  }));
}
