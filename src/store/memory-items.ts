/**
 * The operations of the `["memories", tenant, user]` namespace (see `memory-namespace.ts`), run
 * through `MemoryRepository`: its validation, secret filter, opt-out gate, scoping and deletion
 * audit apply to these items exactly as to every other door of the memory table.
 */
import type { Item, SearchItem } from "@langchain/langgraph-checkpoint";
import type { UserScope } from "../core/scope.js";
import { deleteMemoriesIn, type MemoryRepository } from "./memory-store.js";
import type { Memory } from "./types.js";
import { compileItemFilter } from "./item-filter.js";
import { matchingItemKeysSql } from "./memory-queries.js";
import { candidateIds, checkMemoryValue, derivedMemoryId, itemOfMemory, newMemoryOf, patchOf } from "./memory-namespace.js";
import { invalidInput } from "../errors.js";

/** Most memories a search of the namespace ranks or lists before filtering and paging. */
const MAX_CANDIDATES = 1_000;

export class MemoryItems {
  constructor(readonly repository: MemoryRepository) {}

  async get(scope: UserScope, key: string): Promise<Item | null> {
    const m = await this.find(scope, key);
    return m ? itemOfMemory(m) : null;
  }

  /** Check a put before any write of its batch runs. */
  check(value: unknown): void {
    checkMemoryValue(value, "value");
  }

  /** Add the memory, or change the one already under this key (re-embedded when its text changes). */
  async put(scope: UserScope, key: string, value: Record<string, unknown>, ttl?: number | null): Promise<void> {
    const checked = checkMemoryValue(value, "value");
    const now = this.repository.clock.now();
    const current = await this.find(scope, key);
    if (current) {
      await this.repository.update(scope, current.id, patchOf(checked, current, ttl, now));
      return;
    }
    await this.repository.add(scope, newMemoryOf(checked, derivedMemoryId(scope, key), key, ttl, now));
  }

  /** Delete the memory under this key; allowed while the user is opted out (reads are not, so no lookup first). */
  async delete(scope: UserScope, key: string): Promise<void> {
    const s = { level: "user" as const, ...scope };
    await this.repository.db.transaction((tx) => deleteMemoriesIn(tx, s, candidateIds(scope, key), { via: "store.basestore.delete" }), { scope });
  }

  /**
   * With a query: the repository's hybrid search (relevance floor 0, so every memory can rank, as
   * in the BaseStore), best first, `score` its score. Without: active memories, newest first. The
   * filter applies to the item values; then offset and limit.
   */
  async search(scope: UserScope, options: { query?: string; filter?: Record<string, unknown>; limit: number; offset: number }): Promise<SearchItem[]> {
    const { limit, offset } = options;
    if (limit === 0) return [];
    const wanted = options.filter ? MAX_CANDIDATES : Math.min(MAX_CANDIDATES, offset + limit);
    if (offset >= MAX_CANDIDATES) throw invalidInput("offset", `the memories namespace pages through its first ${MAX_CANDIDATES} results; narrow the search with a query or filter`);
    const found: SearchItem[] = options.query
      ? (await this.repository.search(scope, options.query, { limit: wanted, minSimilarity: 0 })).map((m) => ({ ...itemOfMemory(m), score: m.score }))
      : (await this.repository.list(scope, { limit: wanted })).map(itemOfMemory);
    const kept = options.filter ? await this.filtered(found, options.filter) : found;
    return kept.slice(offset, offset + limit);
  }

  private async filtered(items: SearchItem[], filter: Record<string, unknown>): Promise<SearchItem[]> {
    const params: unknown[] = [items.map((i) => i.key), items.map((i) => JSON.stringify(i.value))];
    const where = compileItemFilter(filter, params, "i");
    if (items.length === 0) return [];
    const { rows } = await this.repository.db.query<{ key: string }>(matchingItemKeysSql(where), params);
    const keep = new Set(rows.map((r) => r.key));
    return items.filter((i) => keep.has(i.key));
  }

  /** The user's memory under this key: its id, or the id derived from the key. */
  private async find(scope: UserScope, key: string): Promise<Memory | null> {
    for (const id of candidateIds(scope, key)) {
      const m = await this.repository.get(scope, id);
      if (m) return m;
    }
    return null;
  }
}
