/**
 * Named queries the write path needs beyond the store's API: a user's memories of one subject
 * slot (the slot is kept in `metadata.subject`), the memories holding every word of a forget
 * request, and linking extra memories of a slot to their replacement. Each runs in a transaction
 * carrying the user's scope (row-level security) and filters by tenant and user in SQL.
 */
import type { Database } from "../../db/database.js";
import { ACTIVE_SQL, exactScopeSql } from "../../store/memory-queries.js";
import { MEMORY_COLUMNS, memoryFromRow, type MemoryRow } from "../../store/memory-row.js";
import { resolveScope } from "../../store/scope.js";
import type { Memory } from "../../store/types.js";
import type { MemoryKind } from "../../state/types.js";
import type { UserScope } from "../../core/scope.js";

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
    const { rows } = await tx.query<MemoryRow>(
      `SELECT ${MEMORY_COLUMNS} FROM memories m
       WHERE ${where} AND m.kind = ANY(${kindsParam}::text[]) AND m.metadata->>'subject' = ${subjectParam}${active}
       ORDER BY m.created_at DESC, m.id LIMIT ${p(MAX_ROWS)}`,
      params,
    );
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
    const { rows } = await tx.query<MemoryRow>(
      `SELECT ${MEMORY_COLUMNS} FROM memories m
       WHERE ${where} AND m.kind = ANY($${n - 1}::text[]) AND m.fts @@ plainto_tsquery('english', $${n - 2})
       ORDER BY m.created_at DESC, m.id LIMIT $${n}`,
      params,
    );
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
    // Only `superseded_by IS NULL` (not replaced yet), not the whole memory_is_active (migration
    // 0015): the ids come from an active lookup of the slot; what must not happen here is
    // re-pointing a row another replacement already claimed. One that expired since is still linked (harmless).
    const { rowCount } = await tx.query(
      `UPDATE memories m SET superseded_by = $${n - 1}::uuid, updated_at = now()
       WHERE ${where} AND m.id = ANY($${n}::uuid[]) AND m.superseded_by IS NULL AND m.id <> $${n - 1}::uuid`,
      params,
    );
    return rowCount;
  }, { scope: { tenantId: scope.tenantId, userId: scope.userId } });
}
