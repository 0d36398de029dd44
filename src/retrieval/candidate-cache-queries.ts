/**
 * Named SQL of the candidate cache: one user's retrievable memories with their vectors and
 * tsvectors, and the user's memories version, in one statement (so one snapshot).
 */
import type { Queryable } from "../db/database.js";
import { MEMORY_COLUMNS, type MemoryRow } from "../store/memory-row.js";
import { parseRealArray, tsvectorEntries, type CachedMemory } from "./cached-candidates.js";

/**
 * $1 tenant, $2 user. One row with a NULL id when the user has no retrievable memory. Superseded
 * and deactivated memories are never candidates; expired ones are filtered when searched (expiry
 * is a matter of time, not of a change). So this is the time-free part of `memory_is_active`
 * (migration 0015), written out on purpose: the cached rows must outlive the instant of the fill.
 */
export const CACHE_FILL_SQL = `
SELECT v.version AS memories_version, ${MEMORY_COLUMNS}, m.embedding::text AS embedding_text, m.fts::text AS fts_text, m.doc_len
FROM (SELECT (SELECT x.version FROM memory_versions x WHERE x.tenant_id = $1::text AND x.user_id = $2::text) AS version) v
LEFT JOIN memories m ON m.tenant_id = $1::text AND m.user_id = $2::text AND m.scope = 'user'
  AND m.superseded_by IS NULL AND m.deactivated_at IS NULL`;

type FillRow = MemoryRow & { memories_version: string | number | bigint | null; embedding_text: string; fts_text: string; doc_len: number };

export interface FilledUser {
  /** The user's memories version at the read (null: none recorded, nothing to cache). */
  version: string | null;
  memories: CachedMemory[];
}

/** Read a user's memories for the cache (the caller scopes `tx` to the user for row-level security). */
export async function readUserMemories(tx: Queryable, tenantId: string, userId: string): Promise<FilledUser> {
  const { rows } = await tx.query<FillRow>(CACHE_FILL_SQL, [tenantId, userId]);
  const version = rows.length > 0 && rows[0].memories_version !== null && rows[0].memories_version !== undefined ? String(rows[0].memories_version) : null;
  const memories: CachedMemory[] = [];
  for (const r of rows) {
    if (r.id === null) continue;
    const row = memoryRowOf(r);
    memories.push({
      row,
      embedding: parseRealArray(r.embedding_text),
      terms: tsvectorEntries(r.fts_text),
      docLen: Number(r.doc_len),
      createdMs: toMs(row.created_at)!,
      lastUsedMs: toMs(row.last_used_at),
      expiresMs: toMs(row.expires_at),
      archived: row.archived_at !== null && row.archived_at !== undefined,
    });
  }
  return { version, memories };
}

/**
 * The row's columns in an object of one fixed shape: driver rows are built key by key, and copying
 * them (every cached search copies its candidates) cost ~9 µs a row against well under 1 µs.
 */
function memoryRowOf(r: MemoryRow): MemoryRow {
  return {
    id: r.id,
    scope: r.scope,
    tenant_id: r.tenant_id,
    user_id: r.user_id,
    kind: r.kind,
    text: r.text,
    context: r.context,
    source_thread_id: r.source_thread_id,
    source_message_id: r.source_message_id,
    source_run_id: r.source_run_id,
    origin: r.origin,
    confidence: Number(r.confidence),
    created_at: r.created_at,
    updated_at: r.updated_at,
    last_used_at: r.last_used_at,
    access_count: Number(r.access_count),
    expires_at: r.expires_at,
    superseded_by: r.superseded_by,
    deactivated_at: r.deactivated_at ?? null,
    archived_at: r.archived_at ?? null,
    metadata: typeof r.metadata === "string" ? (JSON.parse(r.metadata) as Record<string, unknown>) : r.metadata,
  };
}

function toMs(v: Date | string | null | undefined): number | null {
  if (v === null || v === undefined) return null;
  return (v instanceof Date ? v : new Date(v)).getTime();
}
