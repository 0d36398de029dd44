/**
 * Named SQL of the BaseStore items (`store_items`, `store_vectors`): the door's own statements
 * (`LangGraphStore`, every one filtered by the store's tenant, $1) and those of the items a user
 * owns (migration 0012's `store_items.user_id`): what the user's delete-all removes and their
 * export carries, filtered by tenant and user.
 */
import type { MatchCondition } from "@langchain/langgraph-checkpoint";
import type { Queryable } from "../db/database.js";
import type { UserScope } from "../core/scope.js";
import { invalidInput } from "../errors.js";
import { checkIdText } from "../core/well-formed-text.js";
import { arrayLiteral, checkNamespace, itemJson } from "./item-checks.js";
import { compileItemFilter } from "./item-filter.js";
import { isMemoriesNamespace } from "./memory-namespace.js";
import { ownerNotOptedOutSql } from "./opt-out.js";

/** A statement with its parameters, as `Queryable.query` takes them. */
export interface ItemQuery {
  text: string;
  values: unknown[];
}

/** The columns an item is read back with. */
const ITEM_COLUMNS = "i.namespace, i.key, i.value, i.created_at, i.updated_at";

/** The tenant's expired items ($1 tenant); reads already skip them. */
export const SWEEP_EXPIRED_ITEMS_SQL = "DELETE FROM store_items WHERE tenant_id = $1 AND expires_at <= now()";

/**
 * Get with refresh-on-read: extends a live TTL item of ($1 tenant, $2 namespace, $3 key) by its
 * TTL and returns it; no row for an item without TTL (then `GET_ITEM_SQL` reads it). An opted-out
 * owner's item is neither extended nor returned.
 */
export const REFRESH_ITEM_SQL = `UPDATE store_items i SET expires_at = now() + make_interval(secs => i.ttl_minutes * 60)
         WHERE i.tenant_id = $1 AND i.namespace = $2::text[] AND i.key = $3 AND i.ttl_minutes IS NOT NULL AND i.expires_at > now() AND ${ownerNotOptedOutSql("i")}
         RETURNING ${ITEM_COLUMNS}`;

/** The live item of ($1 tenant, $2 namespace, $3 key), unless its owner opted out. */
export const GET_ITEM_SQL = `SELECT ${ITEM_COLUMNS} FROM store_items i
       WHERE i.tenant_id = $1 AND i.namespace = $2::text[] AND i.key = $3 AND (i.expires_at IS NULL OR i.expires_at > now()) AND ${ownerNotOptedOutSql("i")}`;

/** Extends the TTL of the items just searched ($1 tenant, $2 namespace literals, $3 keys). */
export const REFRESH_SEARCHED_ITEMS_SQL = `UPDATE store_items i SET expires_at = now() + make_interval(secs => i.ttl_minutes * 60)
         FROM unnest($2::text[], $3::text[]) AS r(ns, key)
         WHERE i.tenant_id = $1 AND i.namespace::text = r.ns AND i.key = r.key AND i.ttl_minutes IS NOT NULL`;

/** Deletes the item ($1 tenant, $2 namespace, $3 key); its vectors go with it. */
export const DELETE_ITEM_SQL = "DELETE FROM store_items WHERE tenant_id = $1 AND namespace = $2::text[] AND key = $3";

/**
 * Inserts or replaces the item ($1 tenant, $2 namespace, $3 key, $4 JSON value, $5 TTL minutes or
 * null, $6 owning user or null); a TTL sets its expiry from now.
 */
export const UPSERT_ITEM_SQL = `INSERT INTO store_items (tenant_id, namespace, key, value, ttl_minutes, expires_at, user_id)
       VALUES ($1, $2::text[], $3, $4::jsonb, $5::float8, CASE WHEN $5::float8 IS NULL THEN NULL ELSE now() + make_interval(secs => $5::float8 * 60) END, $6)
       ON CONFLICT (tenant_id, namespace, key) DO UPDATE
       SET value = excluded.value, updated_at = now(), ttl_minutes = excluded.ttl_minutes, expires_at = excluded.expires_at, user_id = excluded.user_id`;

/** Drops the item's vectors ($1 tenant, $2 namespace, $3 key) before a put indexes it again. */
export const DELETE_ITEM_VECTORS_SQL = "DELETE FROM store_vectors WHERE tenant_id = $1 AND namespace = $2::text[] AND key = $3";

/** Stores the item's vectors ($1 tenant, $2 namespace, $3 key, $4 field paths, $5 vector literals). */
export const INSERT_ITEM_VECTORS_SQL = `INSERT INTO store_vectors (tenant_id, namespace, key, field, embedding)
         SELECT $1, $2::text[], $3, f, e::real[] FROM unnest($4::text[], $5::text[]) AS u(f, e)`;

/**
 * Which of the tenant's live items a search reads: whole-segment namespace prefix and the item
 * filter. A filter operand JSON cannot hold (a BigInt, a cycle) is INVALID_INPUT. Compiled before
 * the search's query is embedded, so a bad filter costs no embedding call.
 */
export function searchItemsWhere(tenantId: string, namespacePrefix: readonly string[], filter: unknown): ItemQuery {
  const params: unknown[] = [tenantId];
  let where = `i.tenant_id = $1 AND (i.expires_at IS NULL OR i.expires_at > now()) AND ${ownerNotOptedOutSql("i")}`;
  if (namespacePrefix.length > 0) {
    // Whole-segment prefix: the first n labels equal the prefix exactly (no LIKE on joined text).
    params.push(namespacePrefix);
    where += ` AND i.namespace[1:${namespacePrefix.length}] = $${params.length}::text[]`;
  }
  where += ` AND ${filterSql(filter, params)}`;
  return { text: where, values: params };
}

/**
 * The search itself on `searchItemsWhere`'s items: with a query vector (a `vectorLiteral`) the
 * best dot product of the item's vectors is its score, best first, then insertion order.
 */
export function searchItemsQuery(where: ItemQuery, page: { queryVector?: string; limit: number; offset: number }): ItemQuery {
  const params = [...where.values];
  let scoreSql = "NULL::float8";
  if (page.queryVector !== undefined) {
    params.push(page.queryVector);
    scoreSql = `(SELECT max(memory_vector_dot(v.embedding, memory_query_vector($${params.length}::real[])))
                   FROM store_vectors v WHERE v.tenant_id = i.tenant_id AND v.namespace = i.namespace AND v.key = i.key)`;
  }
  params.push(page.limit, page.offset);
  return {
    text: `SELECT ${ITEM_COLUMNS}, ${scoreSql} AS score
       FROM store_items i WHERE ${where.text}
       ORDER BY score DESC NULLS LAST, i.seq
       LIMIT $${params.length - 1} OFFSET $${params.length}`,
    values: params,
  };
}

/**
 * The tenant's distinct live namespaces (cut to `maxDepth` labels) matching every condition
 * (prefix/suffix, `*` any one label). A bad condition or depth is INVALID_INPUT.
 */
export function listNamespacesQuery(tenantId: string, matchConditions: readonly MatchCondition[], maxDepth: number | undefined): ItemQuery {
  const params: unknown[] = [tenantId];
  const conds = ["tenant_id = $1", "(expires_at IS NULL OR expires_at > now())", ownerNotOptedOutSql("store_items")];
  for (const c of matchConditions) conds.push(matchSql(c, params));
  if (maxDepth !== undefined && (!Number.isInteger(maxDepth) || maxDepth < 1)) throw invalidInput("maxDepth", "must be a positive integer");
  const ns = maxDepth === undefined ? "namespace" : `namespace[1:${maxDepth}]`;
  return { text: `SELECT DISTINCT ${ns} AS ns FROM store_items WHERE ${conds.join(" AND ")}`, values: params };
}

/** The search filter as SQL; operands JSON cannot hold (a BigInt, a cycle) are INVALID_INPUT. */
function filterSql(filter: unknown, params: unknown[]): string {
  try {
    return compileItemFilter(filter, params, "i");
  } catch (err) {
    if (err instanceof TypeError || err instanceof RangeError) throw invalidInput("filter", `must be JSON-serialisable (${err.message})`);
    throw err;
  }
}

/** `namespace` prefix/suffix conditions, `*` matching any one label. */
function matchSql(c: MatchCondition, params: unknown[]): string {
  const n = c.path.length;
  if (n === 0) return "TRUE";
  checkNamespace(c.path.filter((l) => l !== "*"), "matchConditions.path", true);
  const parts = [`cardinality(namespace) >= ${n}`];
  c.path.forEach((label, i) => {
    if (label === "*") return;
    params.push(label);
    const index = c.matchType === "prefix" ? `${i + 1}` : `cardinality(namespace) - ${n - 1 - i}`;
    parts.push(`namespace[${index}] = $${params.length}`);
  });
  if (c.matchType !== "prefix" && c.matchType !== "suffix") throw invalidInput("matchType", 'must be "prefix" or "suffix"');
  return `(${parts.join(" AND ")})`;
}

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
