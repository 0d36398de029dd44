/**
 * Named SQL of the BaseStore items a user owns (migration 0012's `store_items.user_id`): what the
 * user's delete-all removes and their export carries. Always filtered by tenant and user.
 */
import type { Queryable } from "../db/database.js";
import type { UserScope } from "../core/scope.js";
import { invalidInput } from "../errors.js";
import { checkIdText } from "../core/well-formed-text.js";
import { arrayLiteral, checkNamespace, itemJson } from "./item-checks.js";
import { isMemoriesNamespace } from "./memory-namespace.js";

/** A BaseStore item of the user as exported (JSON-friendly, ISO dates, no vectors). */
export interface ExportedStoreItem {
  namespace: string[];
  key: string;
  value: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
  /** When it expires, or null. */
  expiresAt: string | null;
  /** Its time-to-live in minutes (reads extend it by this much), or null. */
  ttlMinutes: number | null;
}

interface StoreItemRow {
  namespace: string[];
  key: string;
  value: Record<string, unknown> | string;
  created_at: Date | string;
  updated_at: Date | string;
  expires_at: Date | string | null;
  ttl_minutes: number | null;
}

/** Delete the user's items (their vectors go with them); returns how many. */
export async function deleteUserStoreItemsIn(tx: Queryable, s: UserScope): Promise<number> {
  return (await tx.query("DELETE FROM store_items WHERE tenant_id = $1 AND user_id = $2", [s.tenantId, s.userId])).rowCount;
}

/** The user's items, oldest first (expired ones too: they are still stored until swept). */
export async function exportUserStoreItemsIn(tx: Queryable, s: UserScope): Promise<ExportedStoreItem[]> {
  const { rows } = await tx.query<StoreItemRow>(
    "SELECT namespace, key, value, created_at, updated_at, expires_at, ttl_minutes FROM store_items WHERE tenant_id = $1 AND user_id = $2 ORDER BY seq",
    [s.tenantId, s.userId],
  );
  return rows.map((r) => ({
    namespace: r.namespace,
    key: r.key,
    value: typeof r.value === "string" ? JSON.parse(r.value) : r.value,
    createdAt: new Date(r.created_at).toISOString(),
    updatedAt: new Date(r.updated_at).toISOString(),
    expiresAt: r.expires_at === null ? null : new Date(r.expires_at).toISOString(),
    ttlMinutes: r.ttl_minutes === null ? null : Number(r.ttl_minutes),
  }));
}

/**
 * Restore exported items as the user's, in the caller's transaction (scoped to the user): their
 * dates and expiry as they were, no vectors (exports carry none; a put indexes an item again). An
 * item whose namespace and key the tenant already holds — the user's or anyone's — is skipped, so
 * an import neither overwrites nor takes over an item, and can be repeated. Items are checked as
 * the door checks a put (INVALID_INPUT naming the index); a `["memories", …]` item is refused,
 * memories travel in the export's `memories`.
 */
export async function importUserStoreItemsIn(tx: Queryable, s: UserScope, items: readonly unknown[]): Promise<{ imported: number; skipped: number }> {
  if (!Array.isArray(items)) throw invalidInput("storeItems", "must be an array");
  const rows = items.map((raw, i) => checkedItem(raw, `storeItems[${i}]`));
  if (rows.length === 0) return { imported: 0, skipped: 0 };
  const { rowCount } = await tx.query(
    `INSERT INTO store_items (tenant_id, user_id, namespace, key, value, created_at, updated_at, expires_at, ttl_minutes)
     SELECT $1, $2, u.ns::text[], u.key, u.value::jsonb, u.created_at, u.updated_at, u.expires_at, u.ttl
     FROM unnest($3::text[], $4::text[], $5::text[], $6::timestamptz[], $7::timestamptz[], $8::timestamptz[], $9::float8[])
       AS u(ns, key, value, created_at, updated_at, expires_at, ttl)
     ON CONFLICT (tenant_id, namespace, key) DO NOTHING`,
    [
      s.tenantId,
      s.userId,
      rows.map((r) => r.namespaceLiteral),
      rows.map((r) => r.key),
      rows.map((r) => r.json),
      rows.map((r) => r.createdAt),
      rows.map((r) => r.updatedAt),
      rows.map((r) => r.expiresAt),
      rows.map((r) => r.ttlMinutes),
    ],
  );
  return { imported: rowCount, skipped: rows.length - rowCount };
}

function checkedItem(raw: unknown, field: string) {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) throw invalidInput(field, "must be an object { namespace, key, value, … }");
  const item = raw as Record<string, unknown>;
  checkNamespace(item.namespace, `${field}.namespace`, false);
  const namespace = item.namespace as string[];
  if (isMemoriesNamespace(namespace)) throw invalidInput(`${field}.namespace`, "is the memories namespace; memories are imported from `memories`");
  if (typeof item.key !== "string" || item.key.includes("\0")) throw invalidInput(`${field}.key`, "must be a string without NUL characters");
  checkIdText(item.key, `${field}.key`);
  const date = (v: unknown, name: string, optional: boolean): Date | null => {
    if ((v === null || v === undefined) && optional) return null;
    const d = typeof v === "string" ? new Date(v) : undefined;
    if (!d || Number.isNaN(d.getTime())) throw invalidInput(`${field}.${name}`, "must be an ISO date string");
    return d;
  };
  const ttl = item.ttlMinutes ?? null;
  if (ttl !== null && (typeof ttl !== "number" || !Number.isFinite(ttl) || ttl <= 0)) throw invalidInput(`${field}.ttlMinutes`, "must be a positive number of minutes or null");
  return {
    namespaceLiteral: arrayLiteral(namespace),
    key: item.key,
    json: itemJson(item.value),
    createdAt: date(item.createdAt, "createdAt", false),
    updatedAt: date(item.updatedAt, "updatedAt", false),
    expiresAt: date(item.expiresAt, "expiresAt", true),
    ttlMinutes: ttl as number | null,
  };
}
