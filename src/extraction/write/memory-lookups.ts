/**
 * Named queries the write path needs beyond the store's API: a user's memories of one subject
 * slot (the slot is kept in `metadata.subject`), the memories holding every word of a forget
 * request, and linking extra memories of a slot to their replacement. Each runs in a transaction
 * carrying the user's scope (row-level security) and filters by tenant and user in SQL.
 */
import type { Database } from "../../db/database.js";
import { ACTIVE_SQL, exactScopeSql } from "../../store/memory-queries.js";
import { memoryFromRow, type MemoryRow } from "../../store/memory-row.js";
import { resolveScope, type UserScope } from "../../core/scope.js";
import type { Memory } from "../../store/types.js";
import type { MemoryKind } from "../../state/types.js";
import { linkSupersededSql, memoriesWithWordsSql, slotMemoriesSql } from "./memory-lookups-queries.js";

const MAX_ROWS = 200;

/**
 * The user's memories whose `metadata.subject` is `subject`, of these kinds, newest first; with
 * `includeInactive`, superseded and expired ones too (a forget request removes the whole history).
 */
export async function findSlotMemories(
  db: Database,
  scope: UserScope,
  subject: string,
  kinds: readonly MemoryKind[],
  options: { includeInactive?: boolean; now?: Date } = {},
): Promise<Memory[]> {
  const s = resolveScope(scope);
  return db.transaction(async (tx) => {
    const params: unknown[] = [];
    const where = exactScopeSql(s, params);
    const p = (v: unknown) => `$${params.push(v)}`;
    const subjectParam = p(subject);
    const kindsParam = p([...kinds]);
    const active = options.includeInactive ? "" : ` AND ${ACTIVE_SQL("m", `${p(options.now ?? new Date())}::timestamptz`)}`;
    const limitParam = p(MAX_ROWS);
    const { rows } = await tx.query<MemoryRow>(slotMemoriesSql(where, kindsParam, subjectParam, active, limitParam), params);
    return rows.map(memoryFromRow);
  }, { scope: { tenantId: scope.tenantId, userId: scope.userId } });
}

/**
 * The user's memories (any state) whose text holds every word of `words` by Postgres full-text
 * search (`plainto_tsquery`: stemmed, stop words dropped, words ANDed). A prefilter: the caller
 * re-checks each row, since the full-text column also holds the memory's context.
 */
export async function findMemoriesWithWords(db: Database, scope: UserScope, words: string, kinds: readonly MemoryKind[]): Promise<Memory[]> {
  const s = resolveScope(scope);
  if (words.trim() === "") return [];
  return db.transaction(async (tx) => {
    const params: unknown[] = [];
    const where = exactScopeSql(s, params);
    params.push(words, [...kinds], MAX_ROWS);
    const n = params.length;
    const { rows } = await tx.query<MemoryRow>(memoriesWithWordsSql(where, n), params);
    return rows.map(memoryFromRow);
  }, { scope: { tenantId: scope.tenantId, userId: scope.userId } });
}

/** Point more active memories at their replacement (a slot that held several values). Returns how many. */
export async function linkSuperseded(db: Database, scope: UserScope, ids: readonly string[], replacementId: string): Promise<number> {
  if (ids.length === 0) return 0;
  const s = resolveScope(scope);
  return db.transaction(async (tx) => {
    const params: unknown[] = [];
    const where = exactScopeSql(s, params);
    params.push(replacementId, [...ids]);
    const n = params.length;
    // Only rows not replaced yet (see linkSupersededSql).
    const { rowCount } = await tx.query(linkSupersededSql(where, n), params);
    return rowCount;
  }, { scope: { tenantId: scope.tenantId, userId: scope.userId } });
}
