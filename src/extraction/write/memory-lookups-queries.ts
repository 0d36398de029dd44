/**
 * The statements of the write path's lookups (`memory-lookups.ts`). Each takes the scope predicate
 * (`where`, from `exactScopeSql`) and the positions of its other parameters, which the caller has
 * pushed after the scope's.
 */
import { MEMORY_COLUMNS } from "../../store/memory-row.js";

/** The memories of one subject slot of these kinds (`active`: "" or ` AND <active predicate>`), newest first. */
export function slotMemoriesSql(where: string, kindsParam: string, subjectParam: string, active: string, limitParam: string): string {
  return `SELECT ${MEMORY_COLUMNS} FROM memories m
       WHERE ${where} AND m.kind = ANY(${kindsParam}::text[]) AND m.metadata->>'subject' = ${subjectParam}${active}
       ORDER BY m.created_at DESC, m.id LIMIT ${limitParam}`;
}

/** The memories of these kinds holding every word of a text by full-text search; `$n-2` the words, `$n-1` the kinds, `$n` the limit. */
export function memoriesWithWordsSql(where: string, n: number): string {
  return `SELECT ${MEMORY_COLUMNS} FROM memories m
       WHERE ${where} AND m.kind = ANY($${n - 1}::text[]) AND m.fts @@ plainto_tsquery('english', $${n - 2})
       ORDER BY m.created_at DESC, m.id LIMIT $${n}`;
}

/**
 * Point memories `$n` (ids) at their replacement `$n-1`. Only `superseded_by IS NULL` (not
 * replaced yet), not the whole memory_is_active (migration 0015): the ids come from an active
 * lookup of the slot; what must not happen here is re-pointing a row another replacement already
 * claimed. One that expired since is still linked (harmless).
 */
export function linkSupersededSql(where: string, n: number): string {
  return `UPDATE memories m SET superseded_by = $${n - 1}::uuid, updated_at = now()
       WHERE ${where} AND m.id = ANY($${n}::uuid[]) AND m.superseded_by IS NULL AND m.id <> $${n - 1}::uuid`;
}
