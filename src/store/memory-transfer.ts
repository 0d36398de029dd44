/**
 * Import and export of the typed door: everything stored for a scope as JSON-ready objects, and
 * those objects restored as they were (ids, dates, use counts, links), re-embedded with this
 * store's embedder (exports carry no vectors).
 */
import { dbScopeOf, type Queryable } from "../db/database.js";
import { resolveScope, type MemoryScope, type ResolvedScope } from "../core/scope.js";
import { exportMemory, memoryFromRow, type MemoryRow } from "./memory-row.js";
import { IMPORT_MEMORIES_SQL, exportMemoriesSql, newMemoryParams } from "./memory-record-queries.js";
import { assertWritable, type MemoryRecordParts } from "./memory-records.js";
import { ArraySchema, parseInput, type CheckedImport } from "./memory-input-schemas.js";
import type { ExportedMemory } from "./types.js";

const INSERT_BATCH = 500;

/**
 * @example
 * const transfer = new MemoryTransfer({ db, vectors, input, usage, clock });
 * await transfer.importMany(bob, await transfer.export(alice));
 */
export class MemoryTransfer {
  constructor(private readonly parts: MemoryRecordParts) {}

  async importMany(scope: MemoryScope, memories: readonly ExportedMemory[], options: { tx?: Queryable } = {}): Promise<{ imported: number; skipped: number }> {
    const { db, vectors: vectorizer, input } = this.parts;
    const s = resolveScope(scope);
    parseInput(ArraySchema, memories, "memories");
    const checked = memories.map((m, i) => input.validateImported(m, `memories[${i}]`));
    if (checked.length === 0) return { imported: 0, skipped: 0 };
    const vectors = await vectorizer.vectorsFor(checked.map((c) => c.base));
    const run = async (tx: Queryable) => {
      await assertWritable(tx, s);
      await vectorizer.ensureRecorded(tx, vectors[0].length);
      let imported = 0;
      for (let i = 0; i < checked.length; i += INSERT_BATCH) {
        imported += await importBatch(tx, s, checked.slice(i, i + INSERT_BATCH), vectors.slice(i, i + INSERT_BATCH));
      }
      return { imported, skipped: checked.length - imported };
    };
    return options.tx ? run(options.tx) : db.transaction(run, { scope: dbScopeOf(s) });
  }

  async export(scope: MemoryScope, options: { tx?: Queryable } = {}): Promise<ExportedMemory[]> {
    const s = resolveScope(scope);
    // Inside a caller's transaction a write of our own would wait for it (PGlite has one session).
    if (!options.tx) await this.parts.usage.settle();
    const run = async (tx: Queryable) => {
      const { sql, params } = exportMemoriesSql(s);
      const { rows } = await tx.query<MemoryRow>(sql, params);
      return rows.map((r) => exportMemory(memoryFromRow(r)));
    };
    return options.tx ? run(options.tx) : this.parts.db.transaction(run, { scope: dbScopeOf(s) });
  }
}

/** Insert exported rows with every column they carry; existing ids are skipped. Returns how many were inserted. */
async function importBatch(tx: Queryable, s: ResolvedScope, batch: CheckedImport[], vectors: number[][]): Promise<number> {
  const { rowCount } = await tx.query(IMPORT_MEMORIES_SQL, [
    ...newMemoryParams(s, batch.map((m) => m.base), vectors),
    batch.map((m) => m.updatedAt),
    batch.map((m) => m.lastUsedAt),
    batch.map((m) => m.accessCount),
    batch.map((m) => m.base.expiresAt),
    batch.map((m) => m.supersededBy),
    batch.map((m) => m.deactivatedAt),
    batch.map((m) => m.archivedAt),
    batch.map((m) => m.base.metadata),
  ]);
  return rowCount;
}
