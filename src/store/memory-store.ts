import { randomUUID } from "node:crypto";
import type { Embeddings } from "@langchain/core/embeddings";
import type { Database, Queryable } from "../db/database.js";
import { RetrievalSchema, WritePolicySchema, type RetrievalConfig, type WritePolicyConfig } from "../config.js";
import { ErrorCodes, MemoryError, describeValue, invalidInput } from "../errors.js";
import { MEMORY_KINDS, type MemoryKind } from "../state/types.js";
import { LocalHashingEmbeddings } from "../embeddings/hashing-embeddings.js";
import { embedderIdOf } from "../embeddings/create-embeddings.js";
import { dimensionMismatch, normalize, validateVector } from "../embeddings/vector.js";
import { resolveScope, dbScopeOf, type MemoryScope, type ResolvedScope } from "./scope.js";
import { MEMORY_COLUMNS, exportMemory, memoryFromRow, vectorLiteral, type MemoryRow } from "./memory-row.js";
import { ACTIVE_SQL, INSERT_MEMORIES_SQL, exactScopeSql, hybridCandidatesSql, nearestMemoriesSql, readGateSql, visibleScopeSql, type CandidateRow, type CandidateSqlParams } from "./memory-queries.js";
import { assertNotOptedOut } from "./opt-out.js";
import { recordDeletion, type DeletionContext } from "./deletion-audit.js";
import { rankHybrid, type Candidate } from "./hybrid-scoring.js";
import { checkEmbeddingSetting, ensureEmbeddingSetting, readEmbeddingSetting, type EmbeddingSetting } from "./embedding-settings.js";
import { warnOnceWithoutPgvector } from "./pgvector-warning.js";
import { PendingUsage, USAGE_FLUSH_DELAY_MS } from "./pending-usage.js";
import { checkWellFormed, storableText } from "../core/well-formed-text.js";
import { strictJson } from "../core/strict-json.js";
import { sensitiveCategoryIn, sensitiveContent } from "../sensitive/sensitive-content.js";
import { CandidateCache, type CandidateCacheOptions } from "../retrieval/candidate-cache.js";
import { VocabularyBridge, type BridgeTerm } from "../language/lexicon/index.js";
import { contentWords } from "../embeddings/text-features.js";
import {
  MEMORY_ORIGINS,
  type ExportedMemory,
  type Memory,
  type MemoryOrigin,
  type MemoryListOptions,
  type MemoryPatch,
  type MemorySearchOptions,
  type NearestMemory,
  type NewMemory,
  type ScoredMemory,
} from "./types.js";

/** The vector set of the typed memory door in `embedding_settings`. */
export const MEMORY_VECTOR_SET = "memories";

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

/** A search checked and embedded ({@link MemoryRepository.prepareSearch}). */
export interface PreparedSearch {
  scope: ResolvedScope;
  /**
   * The query text as searched: NUL characters replaced, unpaired surrogates made U+FFFD, and cut
   * to its first `4 × writePolicy.maxTextChars` characters (16,000 by default) and
   * {@link MAX_QUERY_WORDS} words.
   */
  query: string;
  /** The query's unit vector. */
  embedding: number[];
  /** The caller gave the embedding (its embedder is not checked, only its dimension). */
  embeddingGiven: boolean;
  include: { tenant?: boolean; global?: boolean };
  kinds: MemoryKind[] | null;
  limit: number;
  floor: number;
  now: Date;
  /** Standing memories asked for (`MemorySearchOptions.standing`), or null. */
  standing: { kinds: MemoryKind[]; limit: number } | null;
  /** The query's expansion terms (`retrieval.vocabularyBridge`), best first; [] when off. */
  bridge: readonly BridgeTerm[];
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const INSERT_BATCH = 500;
const RECORD_TTL_MS = 10_000;

/**
 * Long-term memory: the typed repository of the memory table (not a LangGraph `BaseStore`: that
 * door is `LangGraphStore`). Every method takes a required scope and
 * runs in a transaction carrying it (for row-level security); SQL filters by tenant and user.
 *
 * Opt-out is enforced here for user scopes (see `opt-out.ts`): while a user is opted out, reads
 * return nothing (null, []), writes throw OPTED_OUT, and deletes still work. Deletes write a
 * content-free row to the deletion audit in the same transaction.
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
  private recorded: EmbeddingSetting | null | undefined;
  private recordedAt = 0;
  private readonly usage: PendingUsage;
  /** The load-memory node's cache of users' memories (null when turned off). */
  readonly candidateCache: CandidateCache | null;
  /** See {@link MemoryRepositoryOptions.allowSensitive}. */
  readonly allowSensitive: boolean;
  /** Query expansion (`retrieval.vocabularyBridge`), or null when off. */
  private readonly bridge: VocabularyBridge | null;

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
    const vb = this.retrieval.vocabularyBridge;
    this.bridge = vb.enabled && vb.weight > 0 && vb.maxTerms > 0 ? new VocabularyBridge(undefined, { weight: vb.weight, maxTerms: vb.maxTerms, termsPerWord: vb.termsPerWord }) : null;
    const flushMs = options.usageFlushMs ?? USAGE_FLUSH_DELAY_MS;
    if (typeof flushMs !== "number" || !Number.isFinite(flushMs) || flushMs < 0) throw invalidInput("usageFlushMs", "must be a non-negative number of milliseconds");
    this.usage = new PendingUsage(db, flushMs);
    this.candidateCache =
      options.candidateCache === false
        ? null
        : new CandidateCache(db, {
            maxMemories: this.retrieval.candidateCacheMemories,
            maxAgeMs: this.retrieval.candidateCacheMaxAgeSeconds * 1000,
            beforeRead: () => this.usage.flush(),
            ...options.candidateCache,
          });
    warnOnceWithoutPgvector(db);
  }

  /** Lexical share of the hybrid similarity (config, or by embedder when unset). */
  get lexicalWeight(): number {
    return this.retrieval.lexicalWeight ?? (this.embeddings instanceof LocalHashingEmbeddings ? 0.7 : 0.3);
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
  async addMany(scope: MemoryScope, memories: readonly NewMemory[]): Promise<Memory[]> {
    const s = resolveScope(scope);
    if (!Array.isArray(memories)) throw invalidInput("memories", "must be an array");
    const checked = memories.map((m, i) => this.validateNew(m, memories.length === 1 ? "memory" : `memories[${i}]`));
    if (checked.length === 0) return [];
    const vectors = await this.vectorsFor(checked);
    const dims = vectors[0].length;
    const odd = vectors.findIndex((v) => v.length !== dims);
    if (odd >= 0) throw dimensionMismatch(vectors[odd].length, dims);
    return this.db.transaction(async (tx) => {
      await this.assertWritable(tx, s);
      await this.ensureRecorded(tx, vectors[0].length);
      const out: Memory[] = [];
      for (let i = 0; i < checked.length; i += INSERT_BATCH) {
        const batch = checked.slice(i, i + INSERT_BATCH);
        out.push(...(await insertBatch(tx, s, batch, vectors.slice(i, i + INSERT_BATCH))));
      }
      return out;
    }, { scope: dbScopeOf(s) });
  }

  /** One memory of exactly this scope, or null (also for an id of another scope). */
  async get(scope: MemoryScope, id: string): Promise<Memory | null> {
    const s = resolveScope(scope);
    checkId(id);
    await this.usage.settle();
    return this.db.transaction(async (tx) => {
      const params: unknown[] = [];
      const where = exactScopeSql(s, params);
      const gate = readGateSql(s, params);
      params.push(id);
      const { rows } = await tx.query<MemoryRow>(`SELECT ${MEMORY_COLUMNS} FROM memories m WHERE ${where} AND ${gate} AND m.id = $${params.length}`, params);
      return rows[0] ? memoryFromRow(rows[0]) : null;
    }, { scope: dbScopeOf(s) });
  }

  /** Change a memory in place (re-embedding when text or context change). NOT_FOUND outside the scope. */
  async update(scope: MemoryScope, id: string, patch: MemoryPatch): Promise<Memory> {
    const s = resolveScope(scope);
    checkId(id);
    if (!patch || typeof patch !== "object") throw invalidInput("patch", "must be an object");
    const sets: string[] = [];
    const params: unknown[] = [];
    const set = (col: string, v: unknown, cast = "") => {
      params.push(v);
      sets.push(`${col} = $${params.length}${cast}`);
    };
    const textChanged = patch.text !== undefined || patch.context !== undefined;
    if (patch.text !== undefined) set("text", this.refuseSensitive(this.checkText(patch.text, "patch.text"), "patch.text"));
    if (patch.context !== undefined) set("context", this.refuseSensitive(this.checkContext(patch.context, "patch.context"), "patch.context"));
    if (patch.kind !== undefined) set("kind", checkKind(patch.kind, "patch.kind"));
    if (patch.confidence !== undefined) set("confidence", checkConfidence(patch.confidence, "patch.confidence"));
    if (patch.expiresAt !== undefined) set("expires_at", checkDate(patch.expiresAt, "patch.expiresAt"), "::timestamptz");
    if (patch.metadata !== undefined) set("metadata", checkMetadata(this.refuseSensitive(patch.metadata, "patch.metadata"), "patch.metadata"), "::jsonb");
    if (patch.origin !== undefined) set("origin", checkOrigin(patch.origin, "patch.origin"));
    if (patch.deactivated !== undefined) {
      if (typeof patch.deactivated !== "boolean") throw invalidInput("patch.deactivated", "must be true or false");
      sets.push(patch.deactivated ? "deactivated_at = coalesce(m.deactivated_at, now())" : "deactivated_at = NULL");
    }
    if (patch.archived !== undefined) {
      if (typeof patch.archived !== "boolean") throw invalidInput("patch.archived", "must be true or false");
      if (patch.archived) {
        params.push(this.clock.now());
        sets.push(`archived_at = coalesce(m.archived_at, $${params.length}::timestamptz)`);
      } else sets.push("archived_at = NULL");
    }
    if (sets.length === 0) throw invalidInput("patch", "names no field to change (text, context, kind, confidence, expiresAt, metadata, origin, deactivated, archived)");
    return this.db.transaction(async (tx) => {
      await this.assertWritable(tx, s);
      if (textChanged) {
        const current = await this.getIn(tx, s, id, true);
        if (!current) throw notFound(id);
        const [vector] = await this.vectorsFor([{ text: patch.text ?? current.text, context: patch.context !== undefined ? patch.context : current.context }]);
        await this.ensureRecorded(tx, vector.length);
        set("embedding", vectorLiteral(vector), "::real[]");
      }
      sets.push("updated_at = now()");
      const where = exactScopeSql(s, params);
      params.push(id);
      const { rows } = await tx.query<MemoryRow>(
        `UPDATE memories m SET ${sets.join(", ")} WHERE ${where} AND m.id = $${params.length} RETURNING ${MEMORY_COLUMNS}`,
        params,
      );
      if (!rows[0]) throw notFound(id);
      return memoryFromRow(rows[0]);
    }, { scope: dbScopeOf(s) });
  }

  /**
   * Replace a memory with a newer one: the new memory is inserted and the old one points to it
   * through `superseded_by` (kept for audit and export, never retrieved again). One transaction.
   *
   * @example
   * const { current } = await store.supersede(alice, oldId, { kind: "preference", text: "Prefers imperial units now." });
   */
  async supersede(scope: MemoryScope, oldId: string, replacement: NewMemory): Promise<{ previous: Memory; current: Memory }> {
    const s = resolveScope(scope);
    checkId(oldId);
    const checked = this.validateNew(replacement, "replacement");
    const [vector] = await this.vectorsFor([checked]);
    return this.db.transaction(async (tx) => {
      await this.assertWritable(tx, s);
      const old = await this.getIn(tx, s, oldId, true);
      if (!old) throw notFound(oldId);
      if (old.supersededBy) throw invalidInput("oldId", `memory ${oldId} is already superseded by ${old.supersededBy}; supersede the current one`);
      await this.ensureRecorded(tx, vector.length);
      const [current] = await insertBatch(tx, s, [checked], [vector]);
      const params: unknown[] = [];
      const where = exactScopeSql(s, params);
      params.push(current.id, oldId);
      const { rows } = await tx.query<MemoryRow>(
        `UPDATE memories m SET superseded_by = $${params.length - 1}, updated_at = now() WHERE ${where} AND m.id = $${params.length} RETURNING ${MEMORY_COLUMNS}`,
        params,
      );
      return { previous: memoryFromRow(rows[0]), current };
    }, { scope: dbScopeOf(s) });
  }

  /**
   * Hybrid search (BM25 full-text + vector similarity, plus recency) over the scope's active
   * memories; with `include`, a user's search also reads tenant and global knowledge. Read-only:
   * call {@link markUsed} for what was actually injected.
   *
   * @example
   * const hits = await store.search(alice, "what units?", { limit: 5, include: ["tenant"] });
   */
  async search(scope: MemoryScope, query: string, options: MemorySearchOptions = {}): Promise<ScoredMemory[]> {
    return this.searchPrepared(await this.prepareSearch(scope, query, options));
  }

  /** {@link search} of a search already checked and embedded by {@link prepareSearch}. */
  async searchPrepared(prepared: PreparedSearch): Promise<ScoredMemory[]> {
    return this.db.transaction(async (tx) => {
      const candidates = await this.candidateParams(tx, prepared);
      if (!candidates) return [];
      const { sql, params } = hybridCandidatesSql(candidates);
      const { rows } = await tx.query<CandidateRow>(sql, params);
      return this.rankCandidates(rows, prepared);
    }, { scope: dbScopeOf(prepared.scope) });
  }

  /**
   * The first half of {@link search}: options checked and the query embedded. A caller that reads
   * the candidates in a statement of its own (the load-memory node's one round trip) runs
   * {@link candidateParams} and {@link rankCandidates} after it. Throws what `search` throws.
   */
  async prepareSearch(scope: MemoryScope, query: string, options: MemorySearchOptions = {}): Promise<PreparedSearch> {
    const checked = this.checkSearch(scope, query, options);
    const embedding = options.queryEmbedding
      ? normalize(validateVector(options.queryEmbedding, "queryEmbedding"))
      : normalize(validateVector(await this.embeddings.embedQuery(checked.query), "embedding of the query"));
    return { ...checked, embedding, embeddingGiven: options.queryEmbedding !== undefined };
  }

  /** The checks of {@link prepareSearch}, without embedding (synchronous). */
  checkSearch(scope: MemoryScope, query: string, options: MemorySearchOptions = {}): Omit<PreparedSearch, "embedding" | "embeddingGiven"> {
    const s = resolveScope(scope);
    if (typeof query !== "string") throw invalidInput("query", "must be a string");
    const include = checkInclude(options.include, s);
    const kinds = checkKinds(options.kinds);
    const limit = options.limit ?? this.retrieval.topK;
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw invalidInput("limit", "must be an integer from 1 to 1000");
    const floor = options.minSimilarity ?? this.retrieval.relevanceFloor;
    const standing = checkStanding(options.standing);
    // A long message is searched by its beginning (the turn goes on; the message itself is kept).
    const searched = storableText(boundedQuery(query.replace(/\0/g, " "), this.writePolicy.maxTextChars * 4));
    return { scope: s, query: searched, include, kinds, limit, floor, now: options.now ?? this.clock.now(), standing, bridge: this.expandQuery(searched) };
  }

  /** The expansion terms of a query (none when `retrieval.vocabularyBridge` is off). */
  expandQuery(query: string): BridgeTerm[] {
    if (!this.bridge) return [];
    // The first words of a long message are what it is about; each new word costs a few lookups.
    return this.bridge.expand(contentWords(query).slice(0, MAX_BRIDGED_WORDS));
  }

  /**
   * The arguments of the candidates statement for a prepared search, checked against the recorded
   * embedder (read with `tx`, cached for 10 s); null when no memory was ever stored (nothing to find).
   */
  async candidateParams(tx: Queryable, prepared: PreparedSearch): Promise<CandidateSqlParams | null> {
    const recorded = await this.recordedSetting(tx);
    if (!recorded) return null;
    checkEmbeddingSetting(recorded, { embedder: prepared.embeddingGiven ? recorded.embedder : this.embedderId, dims: prepared.embedding.length });
    const lexicalWeight = this.lexicalWeight;
    // Without a query word, similarity = (1 − lexicalWeight)·cosine: it passes the floor only at a
    // cosine of at least this. From 1 up (the offline embedder's weights: 0.3 / (1 − 0.7)) only an
    // exact copy of the query's vector could, and float rounding decides whether its cosine reaches
    // 1: no row without a query word is a candidate then, and SQL skips their vector similarity.
    const vectorFloor = (floor: number) => {
      const min = lexicalWeight >= 1 ? Number.POSITIVE_INFINITY : floor / (1 - lexicalWeight);
      return min >= 1 - 1e-9 ? Number.POSITIVE_INFINITY : min;
    };
    return {
      scope: prepared.scope,
      include: prepared.include,
      query: prepared.query,
      embedding: prepared.embedding,
      kinds: prepared.kinds,
      now: prepared.now,
      recencyDecayDays: this.retrieval.recencyDecayDays,
      minVectorSimilarity: vectorFloor(prepared.floor),
      vectorOnlyLimit: prepared.limit,
      vectorOnlyWeight: this.retrieval.similarityWeight * (1 - lexicalWeight),
      recencyWeight: this.retrieval.recencyWeight,
      archivedMinVectorSimilarity: vectorFloor(this.archivedFloor(prepared)),
      standingKinds: prepared.standing?.kinds ?? null,
      standingLimit: prepared.standing?.limit ?? 0,
      bridgeTerms: prepared.bridge.length > 0 ? prepared.bridge.map((t) => t.term) : null,
    };
  }

  /** The relevance an archived memory needs in this search: the archived floor, or the search's own when higher. */
  archivedFloor(prepared: Pick<PreparedSearch, "floor">): number {
    return Math.max(prepared.floor, this.retrieval.archivedRelevanceFloor);
  }

  /**
   * The second half of {@link search}: BM25 + vector fusion over the candidate rows, floor (for
   * archived memories the higher `retrieval.archivedRelevanceFloor`), top k.
   */
  rankCandidates(rows: readonly CandidateRow[], prepared: PreparedSearch): ScoredMemory[] {
    if (rows.length === 0) return [];
    const standingKinds = new Set<string>(prepared.standing?.kinds ?? []);
    const weights = {
      lexicalWeight: this.lexicalWeight,
      lexicalSaturation: this.retrieval.lexicalSaturation,
      bm25K1: this.retrieval.bm25K1,
      bm25B: this.retrieval.bm25B,
      bm25PriorDocs: this.retrieval.bm25PriorDocs,
      contextWeight: this.retrieval.contextWeight,
      similarityWeight: this.retrieval.similarityWeight,
      recencyWeight: this.retrieval.recencyWeight,
      floor: prepared.floor,
      archivedFloor: this.archivedFloor(prepared),
      limit: prepared.limit,
    };
    const candidates: Candidate[] = rows.map((r) => ({
      id: r.id,
      vsim: Number(r.vsim),
      recency: Number(r.recency),
      docLen: Number(r.doc_len),
      matched: r.matched,
      bridged: r.bridged ?? null,
      archived: r.archived_at !== null && r.archived_at !== undefined,
      standing: standingKinds.has(r.kind) && (r.archived_at === null || r.archived_at === undefined),
    }));
    const ranked = rankHybrid(candidates, { count: Number(rows[0].scope_count), avgDocLen: Number(rows[0].scope_avgdl) }, weights, bridgeWeightsOf(rows, prepared.bridge));
    const byId = new Map(rows.map((r) => [r.id, r]));
    // Object.assign, not a spread literal: at this width V8 copies a spread far slower (docs/benchmarks.md).
    return ranked.map((r) =>
      Object.assign(memoryFromRow(byId.get(r.id)!), { score: r.score, similarity: r.similarity, vectorSimilarity: r.vectorSimilarity, lexicalScore: r.lexicalScore, recency: r.recency }),
    );
  }

  /**
   * Record that memories were injected into a prompt: `last_used_at = now`, `access_count + 1`.
   * One statement; ids outside what the scope may read are ignored.
   */
  async markUsed(scope: MemoryScope, ids: readonly string[], options: { include?: MemorySearchOptions["include"]; now?: Date } = {}): Promise<number> {
    const s = resolveScope(scope);
    checkIdList(ids);
    if (ids.length === 0) return 0;
    ids.forEach(checkId);
    const include = checkInclude(options.include, s);
    return this.db.transaction(async (tx) => {
      const params: unknown[] = [];
      const where = visibleScopeSql(s, params, include);
      const gate = readGateSql(s, params);
      params.push(options.now ?? this.clock.now(), [...ids]);
      const { rowCount } = await tx.query(
        // Being used again brings an archived memory back (archived_at cleared).
        `UPDATE memories m SET last_used_at = $${params.length - 1}, access_count = m.access_count + 1, archived_at = NULL WHERE ${where} AND ${gate} AND m.id = ANY($${params.length}::uuid[])`,
        params,
      );
      // A direct mark may move last_used_at back (a usage-only change, not versioned): drop the cached rows.
      if (s.level === "user") this.candidateCache?.forget(s);
      return rowCount;
    }, { scope: dbScopeOf(s) });
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
    const s = resolveScope(scope);
    checkIdList(ids);
    if (ids.length === 0) return;
    ids.forEach(checkId);
    const include = checkInclude(options.include, s);
    const at = options.now ?? this.clock.now();
    this.usage.add(s, include, ids, at);
    if (s.level === "user") this.candidateCache?.noteUsed({ level: "user", tenantId: s.tenantId, userId: s.userId }, ids, at);
  }

  /** Write the marks {@link markUsedLater} queued, now; returns the rows updated. */
  async flushUsage(): Promise<number> {
    return this.usage.flush();
  }

  /** The scope's memories, newest first (active only unless `includeInactive`). */
  async list(scope: MemoryScope, options: MemoryListOptions = {}): Promise<Memory[]> {
    const s = resolveScope(scope);
    const limit = options.limit ?? 100;
    const offset = options.offset ?? 0;
    if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) throw invalidInput("limit", "must be an integer from 1 to 10000");
    if (!Number.isInteger(offset) || offset < 0) throw invalidInput("offset", "must be a non-negative integer");
    const kinds = checkKinds(options.kinds);
    await this.usage.settle();
    return this.db.transaction(async (tx) => {
      const params: unknown[] = [];
      const where = `${exactScopeSql(s, params)} AND ${readGateSql(s, params)}`;
      params.push(kinds);
      const k = `$${params.length}::text[]`;
      let active = "";
      if (!options.includeInactive) {
        params.push(this.clock.now());
        active = ` AND ${ACTIVE_SQL("m", `$${params.length}::timestamptz`)}`;
      }
      params.push(limit, offset);
      const n = params.length;
      const { rows } = await tx.query<MemoryRow>(
        `SELECT ${MEMORY_COLUMNS} FROM memories m
         WHERE ${where} AND (${k} IS NULL OR m.kind = ANY(${k}))${active}
         ORDER BY m.created_at DESC, m.id LIMIT $${n - 1} OFFSET $${n}`,
        params,
      );
      return rows.map(memoryFromRow);
    }, { scope: dbScopeOf(s) });
  }

  /**
   * Delete one memory (the row, its embedding and its full-text entry are one row); false when it
   * is not in this scope. Allowed while opted out. Writes a content-free audit row.
   */
  async delete(scope: MemoryScope, id: string, audit: DeletionContext = {}): Promise<boolean> {
    const s = resolveScope(scope);
    checkId(id);
    return this.db.transaction(async (tx) => (await deleteMemoriesIn(tx, s, [id], { via: "store.delete", ...audit })) > 0, { scope: dbScopeOf(s) });
  }

  /** Delete every memory of exactly this scope (optionally only some kinds); returns the count. Audited. */
  async deleteAll(scope: MemoryScope, options: { kinds?: readonly MemoryKind[] } & DeletionContext = {}): Promise<number> {
    const s = resolveScope(scope);
    const kinds = checkKinds(options.kinds);
    return this.db.transaction(async (tx) => {
      const params: unknown[] = [];
      const where = exactScopeSql(s, params);
      params.push(kinds);
      const { rowCount } = await tx.query(
        `DELETE FROM memories m WHERE ${where} AND ($${params.length}::text[] IS NULL OR m.kind = ANY($${params.length}::text[]))`,
        params,
      );
      await recordDeletion(tx, s, "memory", rowCount, { via: "store.deleteAll", ...options });
      return rowCount;
    }, { scope: dbScopeOf(s) });
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
  async importMany(scope: MemoryScope, memories: readonly ExportedMemory[], options: { tx?: Queryable } = {}): Promise<{ imported: number; skipped: number }> {
    const s = resolveScope(scope);
    if (!Array.isArray(memories)) throw invalidInput("memories", "must be an array");
    const checked = memories.map((m, i) => this.validateImported(m, `memories[${i}]`));
    if (checked.length === 0) return { imported: 0, skipped: 0 };
    const vectors = await this.vectorsFor(checked.map((c) => c.base));
    const run = async (tx: Queryable) => {
      await this.assertWritable(tx, s);
      await this.ensureRecorded(tx, vectors[0].length);
      let imported = 0;
      for (let i = 0; i < checked.length; i += INSERT_BATCH) {
        imported += await importBatch(tx, s, checked.slice(i, i + INSERT_BATCH), vectors.slice(i, i + INSERT_BATCH));
      }
      return { imported, skipped: checked.length - imported };
    };
    return options.tx ? run(options.tx) : this.db.transaction(run, { scope: dbScopeOf(s) });
  }

  /**
   * Everything stored for the scope (superseded, expired and deactivated included), as JSON-ready
   * objects, oldest first. Empty while the user is opted out. With `tx`, reads inside the caller's
   * (scoped) transaction.
   */
  async export(scope: MemoryScope, options: { tx?: Queryable } = {}): Promise<ExportedMemory[]> {
    const s = resolveScope(scope);
    // Inside a caller's transaction a write of our own would wait for it (PGlite has one session).
    if (!options.tx) await this.usage.settle();
    const run = async (tx: Queryable) => {
      const params: unknown[] = [];
      const where = `${exactScopeSql(s, params)} AND ${readGateSql(s, params)}`;
      const { rows } = await tx.query<MemoryRow>(`SELECT ${MEMORY_COLUMNS} FROM memories m WHERE ${where} ORDER BY m.created_at, m.id`, params);
      return rows.map((r) => exportMemory(memoryFromRow(r)));
    };
    return options.tx ? run(options.tx) : this.db.transaction(run, { scope: dbScopeOf(s) });
  }

  /**
   * The active memories of one kind in exactly this scope nearest to a text (or embedding), with
   * their cosine similarity — what a write policy needs to dedupe or supersede.
   *
   * @example
   * const [near] = await store.nearest(alice, { kind: "preference", text: "Prefers metric units" });
   * if (near && near.similarity >= 0.9) await store.supersede(alice, near.memory.id, candidate);
   */
  async nearest(scope: MemoryScope, query: { kind: MemoryKind; text?: string; embedding?: number[]; limit?: number }): Promise<NearestMemory[]> {
    const s = resolveScope(scope);
    if (!query || typeof query !== "object") throw invalidInput("query", "must be an object { kind, text } or { kind, embedding }");
    const kind = checkKind(query.kind, "kind");
    const limit = query.limit ?? 5;
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw invalidInput("limit", "must be an integer from 1 to 100");
    let vector: number[];
    if (query.embedding) vector = normalize(validateVector(query.embedding, "embedding"));
    else if (typeof query.text === "string") [vector] = await this.vectorsFor([{ text: this.checkText(query.text, "text"), context: null }]);
    else throw invalidInput("text", "give a text or an embedding");
    return this.db.transaction(async (tx) => {
      const recorded = await this.recordedSetting(tx);
      if (!recorded) return [];
      checkEmbeddingSetting(recorded, { embedder: query.embedding ? recorded.embedder : this.embedderId, dims: vector.length });
      const { sql, params } = nearestMemoriesSql(s, kind, vector, limit, this.clock.now());
      const { rows } = await tx.query<MemoryRow & { similarity: number }>(sql, params);
      return rows.map((r) => ({ memory: memoryFromRow(r), similarity: Number(r.similarity) }));
    }, { scope: dbScopeOf(s) });
  }

  /** Embed texts (with optional context) as the store stores them: unit vectors. */
  async vectorsFor(items: ReadonlyArray<{ text: string; context?: string | null; embedding?: number[] }>): Promise<number[][]> {
    const out: number[][] = new Array(items.length);
    const toEmbed: string[] = [];
    const slots: Array<[number, "text" | "context"]> = [];
    items.forEach((item, i) => {
      if (item.embedding) {
        out[i] = normalize(validateVector(item.embedding, items.length === 1 ? "embedding" : `memories[${i}].embedding`));
        return;
      }
      toEmbed.push(item.text);
      slots.push([i, "text"]);
      if (item.context) {
        toEmbed.push(item.context);
        slots.push([i, "context"]);
      }
    });
    if (toEmbed.length > 0) {
      const vectors = await this.embeddings.embedDocuments(toEmbed);
      if (!Array.isArray(vectors) || vectors.length !== toEmbed.length) {
        throw new MemoryError(ErrorCodes.MODEL_UNAVAILABLE, `embedder ${this.embedderId} returned ${Array.isArray(vectors) ? vectors.length : "no"} vectors for ${toEmbed.length} texts`);
      }
      slots.forEach(([i, part], j) => {
        const v = normalize(validateVector(vectors[j], `embedding from ${this.embedderId}`));
        if (part === "text") out[i] = v;
        else out[i] = normalize(out[i].map((x, d) => x + this.retrieval.contextWeight * (v[d] ?? 0)));
      });
    }
    return out;
  }

  /** Writes of a user scope are refused while the user is opted out (tenant/global scopes have no user). */
  private async assertWritable(tx: Queryable, s: ResolvedScope): Promise<void> {
    if (s.level === "user") await assertNotOptedOut(tx, { tenantId: s.tenantId!, userId: s.userId! });
  }

  private validateImported(m: ExportedMemory, field: string): CheckedImport {
    if (!m || typeof m !== "object") throw invalidInput(field, "must be an exported memory object");
    if (typeof m.id !== "string") throw invalidInput(`${field}.id`, "is required on import");
    const base = this.validateNew(
      {
        id: m.id,
        kind: m.kind,
        text: m.text,
        context: m.context,
        source: { threadId: m.source?.threadId, messageId: m.source?.messageId, runId: m.source?.runId, origin: m.source?.origin ?? "user_stated" },
        confidence: m.confidence,
        createdAt: m.createdAt,
        expiresAt: m.expiresAt,
        metadata: m.metadata ?? {},
      },
      field,
    );
    const accessCount = m.accessCount ?? 0;
    if (!Number.isInteger(accessCount) || accessCount < 0) throw invalidInput(`${field}.accessCount`, "must be a non-negative integer");
    if (m.supersededBy !== null && m.supersededBy !== undefined && (typeof m.supersededBy !== "string" || !UUID_RE.test(m.supersededBy))) {
      throw invalidInput(`${field}.supersededBy`, "must be a memory id (uuid) or null");
    }
    return {
      base,
      updatedAt: checkDate(m.updatedAt ?? base.createdAt, `${field}.updatedAt`)!,
      lastUsedAt: checkDate(m.lastUsedAt ?? null, `${field}.lastUsedAt`),
      accessCount,
      supersededBy: m.supersededBy ?? null,
      deactivatedAt: checkDate(m.deactivatedAt ?? null, `${field}.deactivatedAt`),
      archivedAt: checkDate(m.archivedAt ?? null, `${field}.archivedAt`),
    };
  }

  /** Reads trust a recent copy of the record (re-read every 10 s, so a `reembed` is noticed). */
  private async recordedSetting(tx: Queryable): Promise<EmbeddingSetting | null> {
    if (this.recorded && Date.now() - this.recordedAt < RECORD_TTL_MS) return this.recorded;
    this.recorded = await readEmbeddingSetting(tx, MEMORY_VECTOR_SET);
    this.recordedAt = Date.now();
    return this.recorded;
  }

  /** Writes check the record in their own transaction (see `ensureEmbeddingSetting`). */
  private async ensureRecorded(tx: Queryable, dims: number): Promise<void> {
    this.recorded = await ensureEmbeddingSetting(tx, MEMORY_VECTOR_SET, { embedder: this.embedderId, dims });
    this.recordedAt = Date.now();
  }

  private async getIn(tx: Queryable, s: ResolvedScope, id: string, forUpdate = false): Promise<Memory | null> {
    const params: unknown[] = [];
    const where = exactScopeSql(s, params);
    params.push(id);
    const { rows } = await tx.query<MemoryRow>(
      `SELECT ${MEMORY_COLUMNS} FROM memories m WHERE ${where} AND m.id = $${params.length}${forUpdate ? " FOR UPDATE" : ""}`,
      params,
    );
    return rows[0] ? memoryFromRow(rows[0]) : null;
  }

  private validateNew(m: NewMemory, field: string): CheckedMemory {
    if (!m || typeof m !== "object") throw invalidInput(field, "must be an object with kind and text");
    const id = m.id === undefined ? randomUUID() : m.id;
    if (typeof id !== "string" || !UUID_RE.test(id)) throw invalidInput(`${field}.id`, "must be a uuid");
    const source = m.source ?? {};
    const origin = source.origin ?? "user_stated";
    if (!MEMORY_ORIGINS.includes(origin)) throw invalidInput(`${field}.source.origin`, `must be one of ${MEMORY_ORIGINS.join(", ")}`);
    return {
      id,
      kind: checkKind(m.kind, `${field}.kind`),
      text: this.refuseSensitive(this.checkText(m.text, `${field}.text`), `${field}.text`),
      context: this.refuseSensitive(this.checkContext(m.context ?? null, `${field}.context`), `${field}.context`),
      threadId: checkOptionalString(source.threadId, `${field}.source.threadId`),
      messageId: checkOptionalString(source.messageId, `${field}.source.messageId`),
      runId: checkOptionalString(source.runId, `${field}.source.runId`),
      origin,
      confidence: checkConfidence(m.confidence ?? 1, `${field}.confidence`),
      createdAt: checkDate(m.createdAt ?? this.clock.now(), `${field}.createdAt`)!,
      expiresAt: checkDate(m.expiresAt ?? null, `${field}.expiresAt`),
      metadata: checkMetadata(this.refuseSensitive(m.metadata ?? {}, `${field}.metadata`), `${field}.metadata`),
      embedding: m.embedding,
    };
  }

  /**
   * The door's secret filter (src/sensitive): `SENSITIVE_CONTENT` for a text, context or metadata
   * value that holds blocking data, unless the store allows it ({@link MemoryRepositoryOptions.allowSensitive}).
   */
  private refuseSensitive<T>(value: T, field: string): T {
    if (this.allowSensitive || value === null || value === undefined) return value;
    // Metadata holds machine ids (run, message, tool-call ids): only named formats count there.
    const category = sensitiveCategoryIn(value, { allowSpecialCategory: this.writePolicy.allowSpecialCategory, ignoreHighEntropy: typeof value !== "string" });
    if (category) throw sensitiveContent(field, category);
    return value;
  }

  /** A memory text as every write checks it (string, not empty, at most `writePolicy.maxTextChars`, no NUL, well-formed); INVALID_INPUT naming `field` otherwise. */
  checkText(text: unknown, field: string): string {
    if (typeof text !== "string") throw invalidInput(field, "must be a string");
    if (text.trim().length === 0) throw invalidInput(field, "must not be empty");
    if (text.length > this.writePolicy.maxTextChars) {
      throw invalidInput(field, `is ${text.length} characters; the limit is ${this.writePolicy.maxTextChars} (writePolicy.maxTextChars)`, { limit: this.writePolicy.maxTextChars });
    }
    if (text.includes("\0")) throw invalidInput(field, "must not contain NUL characters");
    return checkWellFormed(text, field);
  }

  private checkContext(context: unknown, field: string): string | null {
    if (context === null || context === undefined || context === "") return null;
    if (typeof context !== "string") throw invalidInput(field, "must be a string or null");
    const limit = this.writePolicy.maxTextChars * 4;
    if (context.length > limit) throw invalidInput(field, `is ${context.length} characters; the limit is ${limit} (4 × writePolicy.maxTextChars)`);
    if (context.includes("\0")) throw invalidInput(field, "must not contain NUL characters");
    return checkWellFormed(context, field);
  }
}

interface CheckedMemory {
  id: string;
  kind: MemoryKind;
  text: string;
  context: string | null;
  threadId: string | null;
  messageId: string | null;
  runId: string | null;
  origin: string;
  confidence: number;
  createdAt: Date;
  expiresAt: Date | null;
  metadata: string;
  embedding?: number[];
}

interface CheckedImport {
  base: CheckedMemory;
  updatedAt: Date;
  lastUsedAt: Date | null;
  accessCount: number;
  supersededBy: string | null;
  deactivatedAt: Date | null;
  archivedAt: Date | null;
}

/** Insert exported rows with every column they carry; existing ids are skipped. Returns how many were inserted. */
async function importBatch(tx: Queryable, s: ResolvedScope, batch: CheckedImport[], vectors: number[][]): Promise<number> {
  const col = <K extends keyof CheckedMemory>(k: K) => batch.map((m) => m.base[k]);
  const { rowCount } = await tx.query(
    `INSERT INTO memories (id, scope, tenant_id, user_id, kind, text, context, embedding, source_thread_id, source_message_id,
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
     ON CONFLICT (id) DO NOTHING`,
    [
      s.level,
      s.tenantId,
      s.userId,
      col("id"),
      col("kind"),
      col("text"),
      col("context"),
      vectors.map(vectorLiteral),
      col("threadId"),
      col("messageId"),
      col("runId"),
      col("origin"),
      col("confidence"),
      col("createdAt"),
      batch.map((m) => m.updatedAt),
      batch.map((m) => m.lastUsedAt),
      batch.map((m) => m.accessCount),
      col("expiresAt"),
      batch.map((m) => m.supersededBy),
      batch.map((m) => m.deactivatedAt),
      batch.map((m) => m.archivedAt),
      col("metadata"),
    ],
  );
  return rowCount;
}

/**
 * Delete memories of exactly one scope by id inside a transaction, with one audit row; returns
 * how many were deleted (ids outside the scope are not touched and not counted).
 */
export async function deleteMemoriesIn(tx: Queryable, s: ResolvedScope, ids: readonly string[], audit: DeletionContext & { via: string }): Promise<number> {
  if (ids.length === 0) return 0;
  const params: unknown[] = [];
  const where = exactScopeSql(s, params);
  params.push([...ids]);
  const { rowCount } = await tx.query(`DELETE FROM memories m WHERE ${where} AND m.id = ANY($${params.length}::uuid[])`, params);
  await recordDeletion(tx, s, "memory", rowCount, audit);
  return rowCount;
}

async function insertBatch(tx: Queryable, s: ResolvedScope, batch: CheckedMemory[], vectors: number[][]): Promise<Memory[]> {
  const col = <K extends keyof CheckedMemory>(k: K) => batch.map((m) => m[k]);
  const { rows } = await tx.query<MemoryRow>(INSERT_MEMORIES_SQL, [
    s.level,
    s.tenantId,
    s.userId,
    col("id"),
    col("kind"),
    col("text"),
    col("context"),
    vectors.map(vectorLiteral),
    col("threadId"),
    col("messageId"),
    col("runId"),
    col("origin"),
    col("confidence"),
    col("createdAt"),
    col("expiresAt"),
    col("metadata"),
  ]);
  return rows.map(memoryFromRow);
}

/**
 * Words of a query searched at most. The full-text part of a search turns every word into a
 * tsquery operand, and PGlite's tsquery code recurses once per operand: at about 8,000 words its
 * WASM stack overflowed, the statement returned no row and the engine answered nothing after.
 */
export const MAX_QUERY_WORDS = 1_000;

/** Content words of a query that are expanded through the vocabulary bridge, at most (its first). */
export const MAX_BRIDGED_WORDS = 24;

/**
 * Each expansion lexeme's weight: the rows' `bridge_lexemes` give the lexeme of each term sent
 * (in order); a lexeme several terms stem to keeps the best weight. Undefined without terms.
 */
function bridgeWeightsOf(rows: readonly CandidateRow[], bridge: readonly BridgeTerm[]): Map<string, number> | undefined {
  if (bridge.length === 0) return undefined;
  const aligned = rows.find((r) => r.bridge_lexemes)?.bridge_lexemes;
  if (!aligned) return undefined;
  const out = new Map<string, number>();
  aligned.split(" ").forEach((lexeme, i) => {
    const term = bridge[i];
    if (lexeme === "" || term === undefined) return;
    if ((out.get(lexeme) ?? 0) < term.weight) out.set(lexeme, term.weight);
  });
  return out;
}

/**
 * The first `max` characters and {@link MAX_QUERY_WORDS} words of a query, cut at a space when one
 * is in the last tenth (never inside a surrogate pair).
 */
function boundedQuery(query: string, max: number): string {
  let cut = Math.min(query.length, max);
  const words = /\S+/g;
  for (let n = 0; words.exec(query) && words.lastIndex <= cut; ) {
    if (++n === MAX_QUERY_WORDS) {
      cut = words.lastIndex;
      break;
    }
  }
  if (cut === query.length) return query;
  const space = query.lastIndexOf(" ", cut);
  if (space > cut * 0.9) cut = space;
  else if (/[\uD800-\uDBFF]/.test(query[cut - 1])) cut--;
  return query.slice(0, cut);
}

function notFound(id: string): MemoryError {
  return new MemoryError(ErrorCodes.NOT_FOUND, `no memory ${id} in this scope`, { details: { id } });
}

function checkId(id: unknown): asserts id is string {
  if (typeof id !== "string" || !UUID_RE.test(id)) throw invalidInput("id", "must be a memory id (a uuid)");
}

function checkKind(kind: unknown, field: string): MemoryKind {
  if (!MEMORY_KINDS.includes(kind as MemoryKind)) throw invalidInput(field, `must be one of ${MEMORY_KINDS.join(", ")}, got ${describeValue(kind)}`);
  return kind as MemoryKind;
}

function checkKinds(kinds: unknown): MemoryKind[] | null {
  if (kinds === undefined || kinds === null) return null;
  if (!Array.isArray(kinds)) throw invalidInput("kinds", `must be an array of kinds (${MEMORY_KINDS.join(", ")})`);
  return kinds.map((k, i) => checkKind(k, `kinds[${i}]`));
}

function checkIdList(ids: unknown): asserts ids is readonly string[] {
  if (!Array.isArray(ids)) throw invalidInput("ids", "must be an array of memory ids (uuids)");
}

function checkOrigin(v: unknown, field: string): MemoryOrigin {
  if (!MEMORY_ORIGINS.includes(v as MemoryOrigin)) throw invalidInput(field, `must be one of ${MEMORY_ORIGINS.join(", ")}`);
  return v as MemoryOrigin;
}

function checkConfidence(v: unknown, field: string): number {
  if (typeof v !== "number" || !Number.isFinite(v) || v < 0 || v > 1) throw invalidInput(field, "must be a number from 0 to 1");
  return v;
}

function checkOptionalString(v: unknown, field: string): string | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== "string" || v.length > 1024 || v.includes("\0")) throw invalidInput(field, "must be a string of at most 1024 characters");
  return v;
}

function checkDate(v: unknown, field: string): Date | null {
  if (v === null || v === undefined) return null;
  const d = v instanceof Date ? v : typeof v === "string" ? new Date(v) : undefined;
  if (!d || Number.isNaN(d.getTime())) throw invalidInput(field, "must be a Date or an ISO date string");
  return d;
}

function checkMetadata(v: unknown, field: string): string {
  // A Date or class instance would pass `typeof "object"` and be stored as its JSON (a string),
  // which no longer reads back as an object.
  const proto = v && typeof v === "object" ? Object.getPrototypeOf(v) : undefined;
  if (!v || typeof v !== "object" || Array.isArray(v) || (proto !== Object.prototype && proto !== null)) throw invalidInput(field, "must be a plain object");
  // NaN and ±Infinity would be stored as null: refused, as the profile refuses them.
  const json = strictJson(v, field);
  // Postgres jsonb cannot hold U+0000.
  if (json.includes("\\u0000")) throw invalidInput(field, "must not contain NUL characters");
  if (json.length > 65_536) throw invalidInput(field, "is larger than 64 KiB of JSON");
  return json;
}

function checkInclude(include: MemorySearchOptions["include"], s: ResolvedScope): { tenant?: boolean; global?: boolean } {
  if (include === undefined) return {};
  if (!Array.isArray(include)) throw invalidInput("include", 'must be an array of "tenant" and/or "global"');
  const out: { tenant?: boolean; global?: boolean } = {};
  for (const v of include) {
    if (v === "tenant") {
      if (s.level === "global") throw invalidInput("include", "a global scope cannot include a tenant");
      out.tenant = true;
    } else if (v === "global") out.global = true;
    else throw invalidInput("include", `unknown value ${describeValue(v)}; use "tenant" or "global"`);
  }
  return out;
}

/** `MemorySearchOptions.standing`, checked: known kinds and a limit from 0 to 1000. */
function checkStanding(standing: MemorySearchOptions["standing"]): PreparedSearch["standing"] {
  if (standing === undefined || standing === null) return null;
  if (typeof standing !== "object" || !Array.isArray(standing.kinds)) throw invalidInput("standing", "must be { kinds: MemoryKind[], limit: number }");
  const kinds = standing.kinds.map((k, i) => checkKind(k, `standing.kinds[${i}]`));
  if (!Number.isInteger(standing.limit) || standing.limit < 0 || standing.limit > 1000) throw invalidInput("standing.limit", "must be an integer from 0 to 1000");
  return kinds.length === 0 || standing.limit === 0 ? null : { kinds, limit: standing.limit };
}
