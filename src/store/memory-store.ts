import type { Embeddings } from "@langchain/core/embeddings";
import type { Database, Queryable } from "../db/database.js";
import { RetrievalSchema, WritePolicySchema, type RetrievalConfig, type WritePolicyConfig } from "../config.js";
import type { MemoryKind } from "../state/types.js";
import { LocalHashingEmbeddings } from "../embeddings/hashing-embeddings.js";
import { embedderIdOf } from "../embeddings/create-embeddings.js";
import type { MemoryScope, ResolvedScope } from "../core/scope.js";
import type { CandidateRow, CandidateSqlParams } from "./memory-queries.js";
import type { DeletionContext } from "./deletion-audit.js";
import type { BridgeTerm } from "../language/lexicon/index.js";
import { warnOnceWithoutPgvector } from "./pgvector-warning.js";
import { MemoryVectors } from "./memory-vectors.js";
import { MemoryInput } from "./memory-input-schemas.js";
import { MemorySearch, type PreparedSearch } from "./memory-search.js";
import { MemoryUsageRecorder } from "./memory-usage.js";
import { MemoryRecords } from "./memory-records.js";
import { MemoryTransfer } from "./memory-transfer.js";
import type { CandidateCacheOptions, MemoryUsageListener } from "./memory-usage-events.js";
import type { ExportedMemory, Memory, MemoryListOptions, MemoryPatch, MemorySearchOptions, NearestMemory, NewMemory, ScoredMemory } from "./types.js";

// The parts' names that other files import from here, where they have always been.
export { deleteMemoriesIn } from "./memory-records.js";
export { MAX_BRIDGED_WORDS, MAX_QUERY_WORDS, type PreparedSearch } from "./memory-search.js";
export { MEMORY_VECTOR_SET } from "./memory-vectors.js";
export type { CandidateCacheOptions, MemoryUsageListener, UserMemoryScope } from "./memory-usage-events.js";

export interface MemoryRepositoryOptions {
  /** Any LangChain embeddings; default the offline {@link LocalHashingEmbeddings}. */
  embeddings?: Embeddings;
  /** Name recorded beside the vectors (default derived from the embeddings, e.g. `local-hash-v1/512`). */
  embedderId?: string;
  retrieval?: Partial<RetrievalConfig>;
  writePolicy?: Partial<WritePolicyConfig>;
  /** Delay before usage marks queued by {@link MemoryRepository.markUsedLater} are written (default 1,000 ms). */
  usageFlushMs?: number;
  /**
   * Where "now" comes from when a call names no time: recency and read-time expiry of searches and
   * lists, creation and last-used times of writes (default the system clock; evals and tests move
   * a `ManualClock`).
   */
  clock?: StoreClock;
  /**
   * The load-memory node's in-process cache of users' memories (see `CandidateCache`): a turn
   * whose user's memories did not change since they were read ranks the cached rows instead of
   * running the search in SQL. `false` turns it off. Default: on, sized by
   * `retrieval.candidateCacheMemories` (20,000) and `retrieval.candidateCacheMaxAgeSeconds` (300).
   * The store only carries this setting: the cache is built over the store by the retrieval layer
   * (`candidateCacheOf(store)`, src/retrieval/per-store.ts) and kept current through
   * {@link MemoryRepository.onUsage}.
   */
  candidateCache?: CandidateCacheOptions | false;
  /**
   * Store texts, contexts and metadata that hold secrets, identity or card numbers, or (unless
   * `writePolicy.allowSpecialCategory`) special-category data. Default false: such a write is
   * `SENSITIVE_CONTENT` (naming the field and the kind of data, never the value) and nothing is
   * written. Only for an app that stores its own vetted data through this door; extraction, tools
   * and controls refuse such data whatever this says.
   */
  allowSensitive?: boolean;
}

/** A source of the current time ({@link MemoryRepositoryOptions.clock}). */
export interface StoreClock {
  now(): Date;
}

const SYSTEM_CLOCK: StoreClock = { now: () => new Date() };

/**
 * Long-term memory: the typed repository of the memory table (not a LangGraph `BaseStore`: that
 * door is `LangGraphStore`). Every method takes a required scope and
 * runs in a transaction carrying it (for row-level security); SQL filters by tenant and user.
 *
 * Opt-out is enforced here for user scopes (see `opt-out.ts`): while a user is opted out, reads
 * return nothing (null, []), writes throw OPTED_OUT, and deletes still work. Deletes write a
 * content-free row to the deletion audit in the same transaction.
 *
 * The class assembles the door's parts and hands each call to one: the rows
 * (`memory-records.ts`), the search (`memory-search.ts`), the usage recorder (`memory-usage.ts`)
 * and import/export (`memory-transfer.ts`), over shared vectors (`memory-vectors.ts`) and input
 * checks (`memory-input-schemas.ts`).
 *
 * @example
 * const db = await openDatabase();
 * const store = new MemoryRepository(db);
 * const alice = { tenantId: "acme", userId: "alice" };
 * await store.add(alice, { kind: "preference", text: "Prefers metric units." });
 * const hits = await store.search(alice, "which units should I use?");
 */
export class MemoryRepository {
  readonly embeddings: Embeddings;
  readonly embedderId: string;
  readonly retrieval: RetrievalConfig;
  readonly writePolicy: WritePolicyConfig;
  /** The store's clock (see {@link MemoryRepositoryOptions.clock}); writers and loaders on this store default to it too. */
  readonly clock: StoreClock;
  /** See {@link MemoryRepositoryOptions.allowSensitive}. */
  readonly allowSensitive: boolean;
  /** How the candidate cache over this store is to be built, or false for none ({@link MemoryRepositoryOptions.candidateCache}). */
  readonly candidateCacheOptions: CandidateCacheOptions | false;
  private readonly vectors: MemoryVectors;
  private readonly input: MemoryInput;
  private readonly searcher: MemorySearch;
  private readonly usage: MemoryUsageRecorder;
  private readonly records: MemoryRecords;
  private readonly transfer: MemoryTransfer;

  constructor(
    readonly db: Database,
    options: MemoryRepositoryOptions = {},
  ) {
    this.embeddings = options.embeddings ?? new LocalHashingEmbeddings();
    this.embedderId = options.embedderId ?? embedderIdOf(this.embeddings);
    this.retrieval = RetrievalSchema.parse(options.retrieval ?? {});
    this.writePolicy = WritePolicySchema.parse(options.writePolicy ?? {});
    this.clock = options.clock ?? SYSTEM_CLOCK;
    this.allowSensitive = options.allowSensitive === true;
    this.candidateCacheOptions = options.candidateCache === false ? false : { ...options.candidateCache };
    this.vectors = new MemoryVectors(this.embeddings, this.embedderId, this.retrieval.contextWeight);
    this.input = new MemoryInput({ maxTextChars: this.writePolicy.maxTextChars, allowSpecialCategory: this.writePolicy.allowSpecialCategory, allowSensitive: this.allowSensitive, now: () => this.clock.now() });
    this.searcher = new MemorySearch(db, this.vectors, this.retrieval, { maxTextChars: this.writePolicy.maxTextChars, clock: this.clock });
    this.usage = new MemoryUsageRecorder(db, this.clock, options.usageFlushMs);
    const parts = { db, vectors: this.vectors, input: this.input, usage: this.usage, clock: this.clock };
    this.records = new MemoryRecords(parts);
    this.transfer = new MemoryTransfer(parts);
    warnOnceWithoutPgvector(db);
  }

  /** Lexical share of the hybrid similarity (config, or by embedder when unset). */
  get lexicalWeight(): number {
    return this.searcher.lexicalWeight;
  }

  /**
   * Add one memory (embedded with the store's embedder unless `embedding` is given).
   *
   * @example
   * await store.add({ tenantId: "acme", userId: "alice" }, { kind: "fact", text: "Has a dog named Rex.", source: { threadId: "t1", origin: "extracted" }, confidence: 0.9 });
   */
  async add(scope: MemoryScope, memory: NewMemory): Promise<Memory> {
    return (await this.addMany(scope, [memory]))[0];
  }

  /** Add many memories of one scope with batched multi-row inserts. */
  addMany(scope: MemoryScope, memories: readonly NewMemory[]): Promise<Memory[]> {
    return this.records.addMany(scope, memories);
  }

  /** One memory of exactly this scope, or null (also for an id of another scope). */
  get(scope: MemoryScope, id: string): Promise<Memory | null> {
    return this.records.get(scope, id);
  }

  /** Change a memory in place (re-embedding when text or context change). NOT_FOUND outside the scope. */
  update(scope: MemoryScope, id: string, patch: MemoryPatch): Promise<Memory> {
    return this.records.update(scope, id, patch);
  }

  /**
   * Replace a memory with a newer one: the new memory is inserted and the old one points to it
   * through `superseded_by` (kept for audit and export, never retrieved again). One transaction.
   *
   * @example
   * const { current } = await store.supersede(alice, oldId, { kind: "preference", text: "Prefers imperial units now." });
   */
  supersede(scope: MemoryScope, oldId: string, replacement: NewMemory): Promise<{ previous: Memory; current: Memory }> {
    return this.records.supersede(scope, oldId, replacement);
  }

  /**
   * Hybrid search (BM25 full-text + vector similarity, plus recency) over the scope's active
   * memories; with `include`, a user's search also reads tenant and global knowledge. Read-only:
   * call {@link markUsed} for what was actually injected.
   *
   * @example
   * const hits = await store.search(alice, "what units?", { limit: 5, include: ["tenant"] });
   */
  search(scope: MemoryScope, query: string, options: MemorySearchOptions = {}): Promise<ScoredMemory[]> {
    return this.searcher.search(scope, query, options);
  }

  /** {@link search} of a search already checked and embedded by {@link prepareSearch}. */
  searchPrepared(prepared: PreparedSearch): Promise<ScoredMemory[]> {
    return this.searcher.searchPrepared(prepared);
  }

  /**
   * The first half of {@link search}: options checked and the query embedded. A caller that reads
   * the candidates in a statement of its own (the load-memory node's one round trip) runs
   * {@link candidateParams} and {@link rankCandidates} after it. Throws what `search` throws.
   */
  prepareSearch(scope: MemoryScope, query: string, options: MemorySearchOptions = {}): Promise<PreparedSearch> {
    return this.searcher.prepareSearch(scope, query, options);
  }

  /** The checks of {@link prepareSearch}, without embedding (synchronous). */
  checkSearch(scope: MemoryScope, query: string, options: MemorySearchOptions = {}): Omit<PreparedSearch, "embedding" | "embeddingGiven"> {
    return this.searcher.checkSearch(scope, query, options);
  }

  /** The expansion terms of a query (none when `retrieval.vocabularyBridge` is off). */
  expandQuery(query: string): BridgeTerm[] {
    return this.searcher.expandQuery(query);
  }

  /**
   * The arguments of the candidates statement for a prepared search, checked against the recorded
   * embedder (read with `tx`, cached for 10 s); null when no memory was ever stored (nothing to find).
   */
  candidateParams(tx: Queryable, prepared: PreparedSearch): Promise<CandidateSqlParams | null> {
    return this.searcher.candidateParams(tx, prepared);
  }

  /** The relevance an archived memory needs in this search: the archived floor, or the search's own when higher. */
  archivedFloor(prepared: Pick<PreparedSearch, "floor">): number {
    return this.searcher.archivedFloor(prepared);
  }

  /**
   * The second half of {@link search}: BM25 + vector fusion over the candidate rows, floor (for
   * archived memories the higher `retrieval.archivedRelevanceFloor`), top k.
   */
  rankCandidates(rows: readonly CandidateRow[], prepared: PreparedSearch): ScoredMemory[] {
    return this.searcher.rankCandidates(rows, prepared);
  }

  /**
   * Record that memories were injected into a prompt: `last_used_at = now`, `access_count + 1`.
   * One statement; ids outside what the scope may read are ignored.
   */
  markUsed(scope: MemoryScope, ids: readonly string[], options: { include?: MemorySearchOptions["include"]; now?: Date } = {}): Promise<number> {
    return this.usage.markUsed(scope, ids, options);
  }

  /**
   * {@link markUsed} off the response path: the marks are queued and written shortly after
   * (`usageFlushMs`, default 1 s), batched with every other mark queued meanwhile — what the
   * load-memory node does with what it injected. Checks its arguments now; returns at once. The
   * store's `get`, `list` and `export` write queued marks first, so this process reads its own
   * marks; call {@link flushUsage} before closing the database (e.g. at shutdown).
   *
   * @example
   * store.markUsedLater(alice, hits.map((h) => h.id));
   * await store.flushUsage(); // written now (tests, shutdown)
   */
  markUsedLater(scope: MemoryScope, ids: readonly string[], options: { include?: MemorySearchOptions["include"]; now?: Date } = {}): void {
    this.usage.markUsedLater(scope, ids, options);
  }

  /** Write the marks {@link markUsedLater} queued, now; returns the rows updated. */
  flushUsage(): Promise<number> {
    return this.usage.flush();
  }

  /**
   * Subscribe to this store's usage events: marks queued for a user's memories, and changes their
   * version may not show (see {@link MemoryUsageListener}). What is built over the store (the
   * candidate cache) subscribes where the parts are assembled. Returns the unsubscribe.
   *
   * @example
   * const stop = store.onUsage({ onChanged: (scope) => console.log("changed", scope.userId) });
   */
  onUsage(listener: MemoryUsageListener): () => void {
    return this.usage.listen(listener);
  }

  /**
   * Tell the subscribers that a user's memories changed outside this store's methods (an erasure
   * through `deleteMemoriesIn`, past sessions rewritten): what they hold for the user is dropped.
   *
   * @example
   * store.memoriesChanged({ level: "user", tenantId: "acme", userId: "alice" });
   */
  memoriesChanged(scope: Pick<ResolvedScope, "level" | "tenantId" | "userId">): void {
    this.usage.changed(scope);
  }

  /** The scope's memories, newest first (active only unless `includeInactive`). */
  list(scope: MemoryScope, options: MemoryListOptions = {}): Promise<Memory[]> {
    return this.records.list(scope, options);
  }

  /**
   * Delete one memory (the row, its embedding and its full-text entry are one row); false when it
   * is not in this scope. Allowed while opted out. Writes a content-free audit row.
   */
  delete(scope: MemoryScope, id: string, audit: DeletionContext = {}): Promise<boolean> {
    return this.records.delete(scope, id, audit);
  }

  /** Delete every memory of exactly this scope (optionally only some kinds); returns the count. Audited. */
  deleteAll(scope: MemoryScope, options: { kinds?: readonly MemoryKind[] } & DeletionContext = {}): Promise<number> {
    return this.records.deleteAll(scope, options);
  }

  /**
   * Restore exported memories as they were: ids, dates, use counts, expiry, supersede links,
   * deactivation, source and metadata (re-embedded with this store's embedder — exports carry no
   * vectors). A memory whose id already exists is skipped, so an import can be repeated. With
   * `tx`, runs inside the caller's transaction (which must carry the scope).
   *
   * @example
   * const rows = await store.export(alice);
   * await store.deleteAll(alice);
   * await store.importMany(alice, rows); // → { imported: rows.length, skipped: 0 }
   */
  importMany(scope: MemoryScope, memories: readonly ExportedMemory[], options: { tx?: Queryable } = {}): Promise<{ imported: number; skipped: number }> {
    return this.transfer.importMany(scope, memories, options);
  }

  /**
   * Everything stored for the scope (superseded, expired and deactivated included), as JSON-ready
   * objects, oldest first. Empty while the user is opted out. With `tx`, reads inside the caller's
   * (scoped) transaction.
   */
  export(scope: MemoryScope, options: { tx?: Queryable } = {}): Promise<ExportedMemory[]> {
    return this.transfer.export(scope, options);
  }

  /**
   * The active memories of one kind in exactly this scope nearest to a text (or embedding), with
   * their cosine similarity — what a write policy needs to dedupe or supersede.
   *
   * @example
   * const [near] = await store.nearest(alice, { kind: "preference", text: "Prefers metric units" });
   * if (near && near.similarity >= 0.9) await store.supersede(alice, near.memory.id, candidate);
   */
  nearest(scope: MemoryScope, query: { kind: MemoryKind; text?: string; embedding?: number[]; limit?: number }): Promise<NearestMemory[]> {
    return this.records.nearest(scope, query);
  }

  /** Embed texts (with optional context) as the store stores them: unit vectors. */
  vectorsFor(items: ReadonlyArray<{ text: string; context?: string | null; embedding?: number[] }>): Promise<number[][]> {
    return this.vectors.vectorsFor(items);
  }

  /** A memory text as every write checks it (string, not empty, at most `writePolicy.maxTextChars`, no NUL, well-formed); INVALID_INPUT naming `field` otherwise. */
  checkText(text: unknown, field: string): string {
    return this.input.checkText(text, field);
  }
}
