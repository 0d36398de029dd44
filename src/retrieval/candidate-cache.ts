/**
 * Users' retrievable memories held in process, so that the load-memory node's turn skips the
 * search statement while nothing changed: the node's one statement still runs (opt-out, profile,
 * rules) and reads the user's memories version beside them; when the cache holds that version,
 * the statement returns the query's lexemes instead of candidates and the cached rows are chosen
 * and ranked in TypeScript (`selectCachedCandidates`, the statement's logic). Any change to a
 * user's memories, from any process, gives the user a new version (triggers, migration 0007), so
 * content is never served stale; the entry is dropped and refilled off the response path.
 *
 * Usage marks (last use, use count) do not change the version: this process's own marks are
 * applied to the cached rows as they are queued (those queued before a fill are written before it
 * reads), and entries older than `maxAgeMs` are refilled, which bounds how long another process's
 * marks (recency) can be missed.
 */
import { type Database, dbScopeOf } from "../db/database.js";
import { invalidInput } from "../errors.js";
import type { CandidateRow, CandidateSqlParams } from "../store/memory-queries.js";
import type { ResolvedScope } from "../core/scope.js";
import type { CandidateCacheOptions, MemoryUsageListener, UserMemoryScope } from "../store/memory-usage-events.js";
import { readUserMemories } from "./candidate-cache-queries.js";
import { CachedUserMemories, type CachedMemory } from "./cached-candidates.js";

/** The cache's options: defined beside the store that carries them (`MemoryRepositoryOptions.candidateCache`). */
export type { CandidateCacheOptions } from "../store/memory-usage-events.js";

/** What the cache did since it was made. */
export interface CandidateCacheStats {
  /** Searches answered from cached rows. */
  hits: number;
  /** Searches that ran in SQL: nothing cached, too old, or changed since. */
  misses: number;
  /** Users read into the cache. */
  fills: number;
  fillErrors: number;
  users: number;
  memories: number;
}

interface Entry {
  version: string;
  memories: CachedUserMemories;
  byId: Map<string, CachedMemory>;
  loadedAt: number;
}

type UserScope = Pick<ResolvedScope, "tenantId" | "userId"> & { level: "user" };

/**
 * @example
 * const cache = new CandidateCache(db);
 * const held = cache.lookup(scope);              // the version to pass to memory_load_context
 * // … a hit: cache.candidates(scope, held, params, lexemes); a miss: cache.refresh(scope, version)
 */
export class CandidateCache implements MemoryUsageListener {
  readonly maxMemories: number;
  readonly maxAgeMs: number;
  private readonly entries = new Map<string, Entry>();
  private readonly filling = new Map<string, Promise<void>>();
  /** Usage marks noted while a user's fill runs, applied once it lands. */
  private readonly lateMarks = new Map<string, { ids: readonly string[]; at: Date }[]>();
  private readonly beforeRead: (() => Promise<unknown>) | undefined;
  private held = 0;
  private sweptAt = 0;
  private warned = false;
  private readonly now: () => number;
  private readonly warn: (message: string) => void;
  private readonly counts = { hits: 0, misses: 0, fills: 0, fillErrors: 0 };

  constructor(
    private readonly db: Database,
    options: CandidateCacheOptions = {},
  ) {
    this.maxMemories = options.maxMemories ?? 20_000;
    this.maxAgeMs = options.maxAgeMs ?? 300_000;
    if (!Number.isInteger(this.maxMemories) || this.maxMemories < 0) throw invalidInput("maxMemories", "must be a non-negative integer");
    if (!Number.isFinite(this.maxAgeMs) || this.maxAgeMs < 0) throw invalidInput("maxAgeMs", "must be a non-negative number of milliseconds");
    this.now = options.now ?? Date.now;
    this.beforeRead = options.beforeRead;
    this.warn = options.warn ?? console.warn;
  }

  get enabled(): boolean {
    return this.maxMemories > 0;
  }

  /** The version held for the user (null: nothing held, or too old, which is dropped). */
  lookup(scope: UserScope): string | null {
    this.sweep();
    const key = keyOf(scope);
    const entry = this.entries.get(key);
    if (!entry) return null;
    if (this.now() - entry.loadedAt > this.maxAgeMs) {
      this.drop(key);
      return null;
    }
    return entry.version;
  }

  /**
   * The candidate rows of a search from the entry at `version`, as the search statement would
   * return them (null: the entry is gone or was replaced meanwhile; search in SQL). `bridgeLexemes`:
   * the expansion terms' lexemes as the statement stems them (`memory_load_head`'s `query_bridge`).
   */
  candidates(scope: UserScope, version: string, params: CandidateSqlParams, lexemes: readonly string[], bridgeLexemes: string | null = null): CandidateRow[] | null {
    const key = keyOf(scope);
    const entry = this.entries.get(key);
    if (!entry || entry.version !== version) return null;
    // Most recently used last: eviction takes the first.
    this.entries.delete(key);
    this.entries.set(key, entry);
    this.counts.hits++;
    return entry.memories.select(params, lexemes, bridgeLexemes);
  }

  /**
   * A search ran in SQL: the user's memories are at `version` now (null: none recorded). Drops
   * what is held at another version and reads the user's rows off the response path.
   */
  refresh(scope: UserScope, version: string | null): void {
    this.counts.misses++;
    if (!this.enabled) return;
    const key = keyOf(scope);
    const entry = this.entries.get(key);
    if (entry && entry.version === version) return;
    if (entry) this.drop(key);
    if (version === null || this.filling.has(key)) return;
    // After the turn's own work (setImmediate): on PGlite the read runs on the thread that answers.
    // Marks queued until the usage flush are in the rows read; later ones are noted and replayed.
    const fill = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.beforeRead?.())
      .then(() => this.lateMarks.set(key, []))
      .then(() => this.db.transaction((tx) => readUserMemories(tx, scope.tenantId!, scope.userId!), { scope: dbScopeOf(scope) }))
      .then((read) => {
        this.counts.fills++;
        if (read.version === null || read.memories.length > this.maxMemories) return;
        if (this.entries.has(key)) this.drop(key);
        this.entries.set(key, { version: read.version, memories: new CachedUserMemories(read.memories), byId: new Map(read.memories.map((m) => [m.row.id, m])), loadedAt: this.now() });
        this.held += read.memories.length;
        for (const mark of this.lateMarks.get(key) ?? []) this.noteUsed(scope, mark.ids, mark.at);
        this.evict();
      })
      .catch((err: unknown) => {
        // Closed meanwhile (shutdown, the end of a test): nothing to cache, nothing to report.
        if (this.db.closed) return;
        this.counts.fillErrors++;
        if (!this.warned) {
          this.warned = true;
          const code = (err as { code?: unknown })?.code;
          this.warn(`langgraph-memory: could not read memories into the candidate cache${typeof code === "string" ? ` (${code})` : ""}; searches run in SQL meanwhile`);
        }
      })
      .finally(() => {
        this.filling.delete(key);
        this.lateMarks.delete(key);
      });
    this.filling.set(key, fill);
  }

  /**
   * This process used these memories at `at` (queued usage marks): the cached rows get the values
   * the marks will write (`last_used_at` never moves back, `access_count` + 1). Using an archived
   * memory un-archives it, a change the database versions: that entry is dropped.
   */
  noteUsed(scope: UserScope, ids: readonly string[], at: Date): void {
    const key = keyOf(scope);
    const entry = this.entries.get(key);
    if (!entry) {
      this.lateMarks.get(key)?.push({ ids: [...ids], at });
      return;
    }
    const atMs = at.getTime();
    for (const id of ids) {
      const m = entry.byId.get(id);
      if (!m) continue;
      if (m.archived) {
        this.drop(key);
        return;
      }
      if (m.lastUsedMs === null || atMs > m.lastUsedMs) {
        m.lastUsedMs = atMs;
        m.row.last_used_at = new Date(atMs);
        entry.memories.touched(m);
      }
      m.row.access_count = Number(m.row.access_count) + 1;
    }
  }

  /** The store's usage event (the cache subscribes to its store: `store.onUsage(cache)`): see {@link noteUsed}. */
  onUsed(scope: UserMemoryScope, ids: readonly string[], at: Date): void {
    this.noteUsed(scope, ids, at);
  }

  /** The store's change event: the user's rows may have changed where their version does not show it. */
  onChanged(scope: UserMemoryScope): void {
    this.forget(scope);
  }

  /** Drop what is held for a user (e.g. their data was erased). */
  forget(scope: Pick<ResolvedScope, "tenantId" | "userId">): void {
    this.drop(keyOf(scope));
  }

  /** Drop everything held. */
  clear(): void {
    this.entries.clear();
    this.held = 0;
  }

  /** Wait for fills in flight (tests, benchmarks). */
  async settle(): Promise<void> {
    while (this.filling.size > 0) await Promise.all([...this.filling.values()]);
  }

  get stats(): CandidateCacheStats {
    return { ...this.counts, users: this.entries.size, memories: this.held };
  }

  /**
   * Drop every entry older than maxAgeMs, at most every maxAgeMs / 2: an idle user's memories (and
   * an erased user's, in a process that did not erase them) do not stay in memory indefinitely.
   */
  private sweep(): void {
    const now = this.now();
    if (now - this.sweptAt < this.maxAgeMs / 2) return;
    this.sweptAt = now;
    for (const [key, entry] of this.entries) if (now - entry.loadedAt > this.maxAgeMs) this.drop(key);
  }

  private drop(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.held -= entry.memories.memories.length;
  }

  private evict(): void {
    for (const key of this.entries.keys()) {
      if (this.held <= this.maxMemories) return;
      this.drop(key);
    }
  }
}

function keyOf(scope: Pick<ResolvedScope, "tenantId" | "userId">): string {
  return `${scope.tenantId}\u0000${scope.userId}`;
}
