/**
 * Named SQL of the memory repository's reads and writes by id and by scope (get, update,
 * supersede, mark used, list, delete, import, export). Like `memory-queries.ts`, scope predicates
 * come from fixed fragments (`exactScopeSql`, `visibleScopeSql`, `readGateSql`), never from caller
 * text: every statement filters by tenant and user on the server side.
 */
import type { ResolvedScope } from "../core/scope.js";
import type { CheckedMemory } from "./memory-input-schemas.js";
import { MEMORY_COLUMNS, vectorLiteral } from "./memory-row.js";
import { ACTIVE_SQL, exactScopeSql, readGateSql, visibleScopeSql } from "./memory-queries.js";

/** A statement and its values. */
export interface Statement {
  sql: string;
  params: unknown[];
}

/** One memory of exactly this scope by id, behind the opt-out read gate (`get`). */
export function getMemorySql(scope: ResolvedScope, id: string): Statement {
  const params: unknown[] = [];
  const where = exactScopeSql(scope, params);
  const gate = readGateSql(scope, params);
  params.push(id);
  return { sql: `SELECT ${MEMORY_COLUMNS} FROM memories m WHERE ${where} AND ${gate} AND m.id = $${params.length}`, params };
}

/**
 * One memory of exactly this scope by id, without the read gate: what a write reads before it
 * changes the row (`FOR UPDATE` locks it for the transaction).
 */
export function getMemoryForWriteSql(scope: ResolvedScope, id: string, forUpdate: boolean): Statement {
  const params: unknown[] = [];
  const where = exactScopeSql(scope, params);
  params.push(id);
  return { sql: `SELECT ${MEMORY_COLUMNS} FROM memories m WHERE ${where} AND m.id = $${params.length}${forUpdate ? " FOR UPDATE" : ""}`, params };
}

/** The checked columns an update changes (undefined: left alone). */
export interface MemoryChanges {
  text?: string;
  context?: string | null;
  kind?: string;
  confidence?: number;
  expiresAt?: Date | null;
  /** Metadata as JSON text. */
  metadata?: string;
  origin?: string;
  /** true: deactivated now (kept if already); false: reactivated. */
  deactivated?: boolean;
  /** A date: archived then (kept if already); false: un-archived. */
  archived?: Date | false;
  /** A new unit vector (text or context changed). */
  embedding?: number[];
}

/** Change one memory of exactly this scope in place; returns its row (none: not in the scope). */
export function updateMemorySql(scope: ResolvedScope, id: string, changes: MemoryChanges): Statement {
  const sets: string[] = [];
  const params: unknown[] = [];
  const set = (col: string, v: unknown, cast = "") => {
    params.push(v);
    sets.push(`${col} = $${params.length}${cast}`);
  };
  if (changes.text !== undefined) set("text", changes.text);
  if (changes.context !== undefined) set("context", changes.context);
  if (changes.kind !== undefined) set("kind", changes.kind);
  if (changes.confidence !== undefined) set("confidence", changes.confidence);
  if (changes.expiresAt !== undefined) set("expires_at", changes.expiresAt, "::timestamptz");
  if (changes.metadata !== undefined) set("metadata", changes.metadata, "::jsonb");
  if (changes.origin !== undefined) set("origin", changes.origin);
  if (changes.deactivated !== undefined) sets.push(changes.deactivated ? "deactivated_at = coalesce(m.deactivated_at, now())" : "deactivated_at = NULL");
  if (changes.archived !== undefined) {
    if (changes.archived) {
      params.push(changes.archived);
      sets.push(`archived_at = coalesce(m.archived_at, $${params.length}::timestamptz)`);
    } else sets.push("archived_at = NULL");
  }
  if (changes.embedding !== undefined) set("embedding", vectorLiteral(changes.embedding), "::real[]");
  sets.push("updated_at = now()");
  const where = exactScopeSql(scope, params);
  params.push(id);
  return { sql: `UPDATE memories m SET ${sets.join(", ")} WHERE ${where} AND m.id = $${params.length} RETURNING ${MEMORY_COLUMNS}`, params };
}

/** Point an old memory of exactly this scope at the one that replaces it; returns the old row. */
export function supersedeMemorySql(scope: ResolvedScope, oldId: string, newId: string): Statement {
  const params: unknown[] = [];
  const where = exactScopeSql(scope, params);
  params.push(newId, oldId);
  return {
    sql: `UPDATE memories m SET superseded_by = $${params.length - 1}, updated_at = now() WHERE ${where} AND m.id = $${params.length} RETURNING ${MEMORY_COLUMNS}`,
    params,
  };
}

/**
 * Record one direct use of memories the scope may read (`markUsed`): `last_used_at = at` (it may
 * move back: a direct mark says when), `access_count + 1`. Behind the opt-out read gate.
 */
export function markUsedSql(scope: ResolvedScope, include: { tenant?: boolean; global?: boolean }, ids: readonly string[], at: Date): Statement {
  const params: unknown[] = [];
  const where = visibleScopeSql(scope, params, include);
  const gate = readGateSql(scope, params);
  params.push(at, [...ids]);
  return {
    // Being used again brings an archived memory back (archived_at cleared).
    sql: `UPDATE memories m SET last_used_at = $${params.length - 1}, access_count = m.access_count + 1, archived_at = NULL WHERE ${where} AND ${gate} AND m.id = ANY($${params.length}::uuid[])`,
    params,
  };
}

/** A page of the scope's memories, newest first; `activeAt` null lists inactive ones too. */
export function listMemoriesSql(scope: ResolvedScope, options: { kinds: readonly string[] | null; activeAt: Date | null; limit: number; offset: number }): Statement {
  const params: unknown[] = [];
  const where = `${exactScopeSql(scope, params)} AND ${readGateSql(scope, params)}`;
  params.push(options.kinds);
  const k = `$${params.length}::text[]`;
  let active = "";
  if (options.activeAt !== null) {
    params.push(options.activeAt);
    active = ` AND ${ACTIVE_SQL("m", `$${params.length}::timestamptz`)}`;
  }
  params.push(options.limit, options.offset);
  const n = params.length;
  return {
    sql: `SELECT ${MEMORY_COLUMNS} FROM memories m
         WHERE ${where} AND (${k} IS NULL OR m.kind = ANY(${k}))${active}
         ORDER BY m.created_at DESC, m.id LIMIT $${n - 1} OFFSET $${n}`,
    params,
  };
}

/** Delete memories of exactly this scope by id (ids outside it are not touched). */
export function deleteMemoriesSql(scope: ResolvedScope, ids: readonly string[]): Statement {
  const params: unknown[] = [];
  const where = exactScopeSql(scope, params);
  params.push([...ids]);
  return { sql: `DELETE FROM memories m WHERE ${where} AND m.id = ANY($${params.length}::uuid[])`, params };
}

/** Delete every memory of exactly this scope, or only those of some kinds (null: all). */
export function deleteAllMemoriesSql(scope: ResolvedScope, kinds: readonly string[] | null): Statement {
  const params: unknown[] = [];
  const where = exactScopeSql(scope, params);
  params.push(kinds);
  return { sql: `DELETE FROM memories m WHERE ${where} AND ($${params.length}::text[] IS NULL OR m.kind = ANY($${params.length}::text[]))`, params };
}

/** Everything stored for exactly this scope (behind the read gate), oldest first (`export`). */
export function exportMemoriesSql(scope: ResolvedScope): Statement {
  const params: unknown[] = [];
  const where = `${exactScopeSql(scope, params)} AND ${readGateSql(scope, params)}`;
  return { sql: `SELECT ${MEMORY_COLUMNS} FROM memories m WHERE ${where} ORDER BY m.created_at, m.id`, params };
}

/**
 * Insert exported rows with every column they carry, through unnest (one statement per batch);
 * an id that exists is skipped. $1–$3: scope level, tenant, user; then one array per column in
 * the order of `u(...)`.
 */
export const IMPORT_MEMORIES_SQL = `INSERT INTO memories (id, scope, tenant_id, user_id, kind, text, context, embedding, source_thread_id, source_message_id,
       source_run_id, origin, confidence, created_at, updated_at, last_used_at, access_count, expires_at, superseded_by,
       deactivated_at, archived_at, metadata)
     SELECT u.id, $1, $2, $3, u.kind, u.text, u.context, u.embedding::real[], u.thread_id, u.message_id, u.run_id, u.origin,
       u.confidence, u.created_at, u.updated_at, u.last_used_at, u.access_count, u.expires_at, u.superseded_by,
       u.deactivated_at, u.archived_at, u.metadata::jsonb
     FROM unnest($4::uuid[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[],
       $12::text[], $13::real[], $14::timestamptz[], $15::timestamptz[], $16::timestamptz[], $17::int[], $18::timestamptz[],
       $19::uuid[], $20::timestamptz[], $21::timestamptz[], $22::text[])
       AS u(id, kind, text, context, embedding, thread_id, message_id, run_id, origin, confidence, created_at, updated_at,
            last_used_at, access_count, expires_at, superseded_by, deactivated_at, archived_at, metadata)
     ON CONFLICT (id) DO NOTHING`;

/**
 * The parameters $1–$14 that `INSERT_MEMORIES_SQL` and {@link IMPORT_MEMORIES_SQL} share, in
 * their order: scope, then one array per column from id to created_at.
 */
export function newMemoryParams(s: ResolvedScope, batch: readonly CheckedMemory[], vectors: readonly number[][]): unknown[] {
  const col = <K extends keyof CheckedMemory>(k: K) => batch.map((m) => m[k]);
  return [
    s.level, s.tenantId, s.userId,
    col("id"), col("kind"), col("text"), col("context"), vectors.map(vectorLiteral),
    col("threadId"), col("messageId"), col("runId"), col("origin"), col("confidence"), col("createdAt"),
  ];
}
