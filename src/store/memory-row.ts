import type { MemoryKind, MemoryScopeLevel } from "../state/types.js";
import type { ExportedMemory, Memory, MemoryOrigin } from "./types.js";

/** The columns of `memories` that callers see (never the embedding or the tsvector). */
export const MEMORY_COLUMNS = `m.id, m.scope, m.tenant_id, m.user_id, m.kind, m.text, m.context, m.source_thread_id,
  m.source_message_id, m.source_run_id, m.origin, m.confidence, m.created_at, m.updated_at, m.last_used_at,
  m.access_count, m.expires_at, m.superseded_by, m.deactivated_at, m.archived_at, m.metadata`;

export interface MemoryRow {
  id: string;
  scope: MemoryScopeLevel;
  tenant_id: string | null;
  user_id: string | null;
  kind: MemoryKind;
  text: string;
  context: string | null;
  source_thread_id: string | null;
  source_message_id: string | null;
  source_run_id: string | null;
  origin: MemoryOrigin;
  confidence: number;
  created_at: Date | string;
  updated_at: Date | string;
  last_used_at: Date | string | null;
  access_count: number;
  expires_at: Date | string | null;
  superseded_by: string | null;
  /** Absent from search rows (which are never deactivated). */
  deactivated_at?: Date | string | null;
  archived_at?: Date | string | null;
  metadata: Record<string, unknown> | string;
}

export function memoryFromRow(r: MemoryRow): Memory {
  return {
    id: r.id,
    scope: r.scope,
    tenantId: r.tenant_id,
    userId: r.user_id,
    kind: r.kind,
    text: r.text,
    context: r.context,
    source: { threadId: r.source_thread_id, messageId: r.source_message_id, runId: r.source_run_id, origin: r.origin },
    confidence: Number(r.confidence),
    createdAt: toDate(r.created_at)!,
    updatedAt: toDate(r.updated_at)!,
    lastUsedAt: toDate(r.last_used_at),
    accessCount: Number(r.access_count),
    expiresAt: toDate(r.expires_at),
    supersededBy: r.superseded_by,
    deactivatedAt: toDate(r.deactivated_at ?? null),
    archivedAt: toDate(r.archived_at ?? null),
    metadata: typeof r.metadata === "string" ? (JSON.parse(r.metadata) as Record<string, unknown>) : r.metadata,
  };
}

export function exportMemory(m: Memory): ExportedMemory {
  return {
    ...m,
    createdAt: m.createdAt.toISOString(),
    updatedAt: m.updatedAt.toISOString(),
    lastUsedAt: m.lastUsedAt?.toISOString() ?? null,
    expiresAt: m.expiresAt?.toISOString() ?? null,
    deactivatedAt: m.deactivatedAt?.toISOString() ?? null,
    archivedAt: m.archivedAt?.toISOString() ?? null,
  };
}

function toDate(v: Date | string | null): Date | null {
  if (v === null || v === undefined) return null;
  return v instanceof Date ? v : new Date(v);
}

/**
 * A real[] literal (`{0.12,0,-0.5}`) for a vector parameter. Passing this text and casting with
 * `::real[]` is cheaper than letting the driver serialise a JS array (docs/benchmarks.md); 9
 * significant digits round-trip a float4 exactly.
 */
export function vectorLiteral(v: readonly number[]): string {
  let out = "{";
  for (let i = 0; i < v.length; i++) {
    const x = v[i];
    out += (i ? "," : "") + (x === 0 ? "0" : String(Number(x.toPrecision(9))));
  }
  return out + "}";
}
