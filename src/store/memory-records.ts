/**
 * The typed door's repository of memory rows: add, get, update, supersede, list, delete and the
 * nearest memories of a kind (what write policies dedupe against). Every method resolves its
 * scope, checks its input (`memory-input-schemas.ts`) and runs its named statements
 * (`memory-record-queries.ts`, `memory-queries.ts`) in a transaction carrying the scope.
 */
import { type Database, dbScopeOf, type Queryable } from "../db/database.js";
import { ErrorCodes, MemoryError, invalidInput } from "../errors.js";
import type { MemoryKind } from "../state/types.js";
import { dimensionMismatch, normalize, validateVector } from "../embeddings/vector.js";
import { resolveScope, type MemoryScope, type ResolvedScope } from "../core/scope.js";
import { memoryFromRow, type MemoryRow } from "./memory-row.js";
import { INSERT_MEMORIES_SQL, nearestMemoriesSql } from "./memory-queries.js";
import {
  deleteAllMemoriesSql,
  deleteMemoriesSql,
  getMemoryForWriteSql,
  getMemorySql,
  listMemoriesSql,
  newMemoryParams,
  supersedeMemorySql,
  updateMemorySql,
  type MemoryChanges,
} from "./memory-record-queries.js";
import { assertNotOptedOut } from "./opt-out.js";
import { recordDeletion, type DeletionContext } from "./deletion-audit.js";
import { checkEmbeddingSetting } from "./embedding-settings.js";
import { ConfidenceSchema, MemoryIdSchema, MemoryKindSchema, MemoryKindsSchema, MemoryOriginSchema, OptionalDateSchema, parseInput, parseMetadata, type CheckedMemory, type MemoryInput, ArraySchema, ListLimitSchema, NearestLimitSchema, OffsetSchema, SwitchSchema, objectSchema } from "./memory-input-schemas.js";
import type { MemoryUsageRecorder } from "./memory-usage.js";
import type { MemoryVectors } from "./memory-vectors.js";
import type { Memory, MemoryListOptions, MemoryPatch, NearestMemory, NewMemory } from "./types.js";

const INSERT_BATCH = 500;

/** What the repository is built on (the parts {@link MemoryRepository} assembles). */
export interface MemoryRecordParts {
  db: Database;
  vectors: MemoryVectors;
  input: MemoryInput;
  usage: MemoryUsageRecorder;
  clock: { now(): Date };
}

/**
 * @example
 * const records = new MemoryRecords({ db, vectors, input, usage, clock });
 * const [m] = await records.addMany(alice, [{ kind: "fact", text: "Has a dog." }]);
 */
export class MemoryRecords {
  constructor(private readonly parts: MemoryRecordParts) {}

  async addMany(scope: MemoryScope, memories: readonly NewMemory[]): Promise<Memory[]> {
    const { db, vectors: vectorizer, input } = this.parts;
    const s = resolveScope(scope);
    parseInput(ArraySchema, memories, "memories");
    const checked = memories.map((m, i) => input.validateNew(m, memories.length === 1 ? "memory" : `memories[${i}]`));
    if (checked.length === 0) return [];
    const vectors = await vectorizer.vectorsFor(checked);
    const dims = vectors[0].length;
    const odd = vectors.findIndex((v) => v.length !== dims);
    if (odd >= 0) throw dimensionMismatch(vectors[odd].length, dims);
    return db.transaction(async (tx) => {
      await assertWritable(tx, s);
      await vectorizer.ensureRecorded(tx, vectors[0].length);
      const out: Memory[] = [];
      for (let i = 0; i < checked.length; i += INSERT_BATCH) {
        const batch = checked.slice(i, i + INSERT_BATCH);
        out.push(...(await insertBatch(tx, s, batch, vectors.slice(i, i + INSERT_BATCH))));
      }
      return out;
    }, { scope: dbScopeOf(s) });
  }

  async get(scope: MemoryScope, id: string): Promise<Memory | null> {
    const s = resolveScope(scope);
    parseInput(MemoryIdSchema, id, "id");
    await this.parts.usage.settle();
    return this.parts.db.transaction(async (tx) => {
      const { sql, params } = getMemorySql(s, id);
      const { rows } = await tx.query<MemoryRow>(sql, params);
      return rows[0] ? memoryFromRow(rows[0]) : null;
    }, { scope: dbScopeOf(s) });
  }

  async update(scope: MemoryScope, id: string, patch: MemoryPatch): Promise<Memory> {
    const { db, vectors, input, clock } = this.parts;
    const s = resolveScope(scope);
    parseInput(MemoryIdSchema, id, "id");
    parseInput(objectSchema("must be an object"), patch, "patch");
    const changes: MemoryChanges = {};
    const textChanged = patch.text !== undefined || patch.context !== undefined;
    if (patch.text !== undefined) changes.text = input.refuseSensitive(input.checkText(patch.text, "patch.text"), "patch.text");
    if (patch.context !== undefined) changes.context = input.refuseSensitive(input.checkContext(patch.context, "patch.context"), "patch.context");
    if (patch.kind !== undefined) changes.kind = parseInput(MemoryKindSchema, patch.kind, "patch.kind");
    if (patch.confidence !== undefined) changes.confidence = parseInput(ConfidenceSchema, patch.confidence, "patch.confidence");
    if (patch.expiresAt !== undefined) changes.expiresAt = parseInput(OptionalDateSchema, patch.expiresAt, "patch.expiresAt");
    if (patch.metadata !== undefined) changes.metadata = parseMetadata(input.refuseSensitive(patch.metadata, "patch.metadata"), "patch.metadata");
    if (patch.origin !== undefined) changes.origin = parseInput(MemoryOriginSchema, patch.origin, "patch.origin");
    if (patch.deactivated !== undefined) changes.deactivated = parseInput(SwitchSchema, patch.deactivated, "patch.deactivated");
    if (patch.archived !== undefined) changes.archived = parseInput(SwitchSchema, patch.archived, "patch.archived") ? clock.now() : false;
    if (Object.keys(changes).length === 0) throw invalidInput("patch", "names no field to change (text, context, kind, confidence, expiresAt, metadata, origin, deactivated, archived)");
    return db.transaction(async (tx) => {
      await assertWritable(tx, s);
      if (textChanged) {
        const current = await getIn(tx, s, id, true);
        if (!current) throw notFound(id);
        const [vector] = await vectors.vectorsFor([{ text: patch.text ?? current.text, context: patch.context !== undefined ? patch.context : current.context }]);
        await vectors.ensureRecorded(tx, vector.length);
        changes.embedding = vector;
      }
      const { sql, params } = updateMemorySql(s, id, changes);
      const { rows } = await tx.query<MemoryRow>(sql, params);
      if (!rows[0]) throw notFound(id);
      return memoryFromRow(rows[0]);
    }, { scope: dbScopeOf(s) });
  }

  async supersede(scope: MemoryScope, oldId: string, replacement: NewMemory): Promise<{ previous: Memory; current: Memory }> {
    const { db, vectors, input } = this.parts;
    const s = resolveScope(scope);
    parseInput(MemoryIdSchema, oldId, "id");
    const checked = input.validateNew(replacement, "replacement");
    const [vector] = await vectors.vectorsFor([checked]);
    return db.transaction(async (tx) => {
      await assertWritable(tx, s);
      const old = await getIn(tx, s, oldId, true);
      if (!old) throw notFound(oldId);
      if (old.supersededBy) throw invalidInput("oldId", `memory ${oldId} is already superseded by ${old.supersededBy}; supersede the current one`);
      await vectors.ensureRecorded(tx, vector.length);
      const [current] = await insertBatch(tx, s, [checked], [vector]);
      const { sql, params } = supersedeMemorySql(s, oldId, current.id);
      const { rows } = await tx.query<MemoryRow>(sql, params);
      return { previous: memoryFromRow(rows[0]), current };
    }, { scope: dbScopeOf(s) });
  }

  async list(scope: MemoryScope, options: MemoryListOptions = {}): Promise<Memory[]> {
    const s = resolveScope(scope);
    const limit = parseInput(ListLimitSchema, options.limit ?? 100, "limit");
    const offset = parseInput(OffsetSchema, options.offset ?? 0, "offset");
    const kinds = parseInput(MemoryKindsSchema, options.kinds, "kinds");
    await this.parts.usage.settle();
    return this.parts.db.transaction(async (tx) => {
      const { sql, params } = listMemoriesSql(s, { kinds, activeAt: options.includeInactive ? null : this.parts.clock.now(), limit, offset });
      const { rows } = await tx.query<MemoryRow>(sql, params);
      return rows.map(memoryFromRow);
    }, { scope: dbScopeOf(s) });
  }

  async delete(scope: MemoryScope, id: string, audit: DeletionContext = {}): Promise<boolean> {
    const s = resolveScope(scope);
    parseInput(MemoryIdSchema, id, "id");
    return this.parts.db.transaction(async (tx) => (await deleteMemoriesIn(tx, s, [id], { via: "store.delete", ...audit })) > 0, { scope: dbScopeOf(s) });
  }

  async deleteAll(scope: MemoryScope, options: { kinds?: readonly MemoryKind[] } & DeletionContext = {}): Promise<number> {
    const s = resolveScope(scope);
    const kinds = parseInput(MemoryKindsSchema, options.kinds, "kinds");
    return this.parts.db.transaction(async (tx) => {
      const { sql, params } = deleteAllMemoriesSql(s, kinds);
      const { rowCount } = await tx.query(sql, params);
      await recordDeletion(tx, s, "memory", rowCount, { via: "store.deleteAll", ...options });
      return rowCount;
    }, { scope: dbScopeOf(s) });
  }

  async nearest(scope: MemoryScope, query: { kind: MemoryKind; text?: string; embedding?: number[]; limit?: number }): Promise<NearestMemory[]> {
    const { db, vectors, input, clock } = this.parts;
    const s = resolveScope(scope);
    parseInput(objectSchema("must be an object { kind, text } or { kind, embedding }"), query, "query");
    const kind = parseInput(MemoryKindSchema, query.kind, "kind");
    const limit = parseInput(NearestLimitSchema, query.limit ?? 5, "limit");
    let vector: number[];
    if (query.embedding) vector = normalize(validateVector(query.embedding, "embedding"));
    else if (typeof query.text === "string") [vector] = await vectors.vectorsFor([{ text: input.checkText(query.text, "text"), context: null }]);
    else throw invalidInput("text", "give a text or an embedding");
    return db.transaction(async (tx) => {
      const recorded = await vectors.recordedSetting(tx);
      if (!recorded) return [];
      checkEmbeddingSetting(recorded, { embedder: query.embedding ? recorded.embedder : vectors.embedderId, dims: vector.length });
      const { sql, params } = nearestMemoriesSql(s, kind, vector, limit, clock.now());
      const { rows } = await tx.query<MemoryRow & { similarity: number }>(sql, params);
      return rows.map((r) => ({ memory: memoryFromRow(r), similarity: Number(r.similarity) }));
    }, { scope: dbScopeOf(s) });
  }
}

/** Writes of a user scope are refused while the user is opted out (tenant/global scopes have no user). */
export async function assertWritable(tx: Queryable, s: ResolvedScope): Promise<void> {
  if (s.level === "user") await assertNotOptedOut(tx, { tenantId: s.tenantId!, userId: s.userId! });
}

/**
 * Delete memories of exactly one scope by id inside a transaction, with one audit row; returns
 * how many were deleted (ids outside the scope are not touched and not counted).
 */
export async function deleteMemoriesIn(tx: Queryable, s: ResolvedScope, ids: readonly string[], audit: DeletionContext & { via: string }): Promise<number> {
  if (ids.length === 0) return 0;
  const { sql, params } = deleteMemoriesSql(s, ids);
  const { rowCount } = await tx.query(sql, params);
  await recordDeletion(tx, s, "memory", rowCount, audit);
  return rowCount;
}

async function getIn(tx: Queryable, s: ResolvedScope, id: string, forUpdate = false): Promise<Memory | null> {
  const { sql, params } = getMemoryForWriteSql(s, id, forUpdate);
  const { rows } = await tx.query<MemoryRow>(sql, params);
  return rows[0] ? memoryFromRow(rows[0]) : null;
}

async function insertBatch(tx: Queryable, s: ResolvedScope, batch: CheckedMemory[], vectors: number[][]): Promise<Memory[]> {
  const col = <K extends keyof CheckedMemory>(k: K) => batch.map((m) => m[k]);
  const { rows } = await tx.query<MemoryRow>(INSERT_MEMORIES_SQL, [...newMemoryParams(s, batch, vectors), col("expiresAt"), col("metadata")]);
  return rows.map(memoryFromRow);
}

function notFound(id: string): MemoryError {
  return new MemoryError(ErrorCodes.NOT_FOUND, `no memory ${id} in this scope`, { details: { id } });
}
