import type { Embeddings } from "@langchain/core/embeddings";
import {
  BaseStore,
  InvalidNamespaceError,
  type GetOperation,
  type Item,
  type ListNamespacesOperation,
  type Operation,
  type OperationResults,
  type PutOperation,
  type SearchItem,
  type SearchOperation,
} from "@langchain/langgraph-checkpoint";
import type { Database, Queryable } from "../db/database.js";
import { ErrorCodes, MemoryError, invalidInput } from "../errors.js";
import { normalize, validateVector, dimensionMismatch } from "../embeddings/vector.js";
import { embedderIdOf } from "../embeddings/create-embeddings.js";
import { textsAtPath } from "./json-path-text.js";
import { ensureEmbeddingSetting } from "./embedding-settings.js";
import { vectorLiteral } from "./memory-row.js";
import { sensitiveCategoryIn, sensitiveContent } from "../sensitive/sensitive-content.js";
import { checkIdText } from "../core/well-formed-text.js";
import { arrayLiteral, checkNamespace, itemJson } from "./item-checks.js";
import { migrate } from "../db/migrate.js";
import type { RunnableConfig } from "@langchain/core/runnables";
import { DEFAULT_TENANT_ID, readScopeId, type UserScope } from "../core/scope.js";
import { MemoryRepository } from "./memory-store.js";
import { MemoryItems } from "./memory-items.js";
import { isMemoriesNamespace, memoryScopeOf } from "./memory-namespace.js";
import { assertNotOptedOut } from "./opt-out.js";
import {
  DELETE_ITEM_SQL,
  DELETE_ITEM_VECTORS_SQL,
  GET_ITEM_SQL,
  INSERT_ITEM_VECTORS_SQL,
  REFRESH_ITEM_SQL,
  REFRESH_SEARCHED_ITEMS_SQL,
  SWEEP_EXPIRED_ITEMS_SQL,
  UPSERT_ITEM_SQL,
  listNamespacesQuery,
  searchItemsQuery,
  searchItemsWhere,
} from "./store-item-queries.js";

/** Semantic-search settings, as LangGraph's `IndexConfig` (`embed` is accepted as in Python). */
export interface LangGraphStoreIndex {
  dims: number;
  /** LangChain embeddings (InMemoryStore's name). */
  embeddings?: Embeddings;
  /** Same, or a function `texts → vectors` (the Python store's name). */
  embed?: Embeddings | ((texts: string[]) => Promise<number[][]>);
  /** Field paths to embed (default `["$"]`, the whole value). */
  fields?: string[];
}

export interface LangGraphStoreOptions {
  /**
   * Tenant of the items outside the `["memories", tenant, user]` namespace (every statement filters
   * by it). Default `"default"`. LangGraph hands a store no run config, so a multi-tenant app takes
   * a view per run: {@link LangGraphStore.forConfig} / {@link LangGraphStore.forScope}. When given,
   * a memories namespace of another tenant is SCOPE_MISMATCH.
   */
  tenantId?: string;
  /**
   * The user this store acts for: items it writes are recorded as theirs (the user's delete-all,
   * opt-out and export cover them), its writes are OPTED_OUT while the user opted out, and a
   * memories namespace of another user is SCOPE_MISMATCH. Usually set through `forScope`/`forConfig`.
   */
  userId?: string;
  /** The memory table behind `["memories", tenant, user]` (default a `MemoryRepository` on the same database). */
  memories?: MemoryRepository;
  index?: LangGraphStoreIndex;
  /** Item time-to-live: default minutes for every put, and whether reads extend it (default true). */
  ttl?: { defaultTtl?: number; refreshOnRead?: boolean };
  /**
   * Store values that hold secrets, identity or card numbers, or special-category data. Default
   * false: a put whose value (any string or field name, at any depth) or key holds such data is
   * `SENSITIVE_CONTENT` (naming the field and the kind, never the value) and the whole batch writes
   * nothing. Only for an app that stores its own vetted data through this door.
   */
  allowSensitive?: boolean;
  /** Special-category data (health, religion, …) is storable, secrets still are not (the write policy's `allowSpecialCategory`). */
  allowSpecialCategory?: boolean;
}

interface ItemRow {
  namespace: string[];
  key: string;
  value: Record<string, unknown> | string;
  created_at: Date | string;
  updated_at: Date | string;
  score?: number | null;
}

/**
 * The LangGraph `BaseStore` door: items under hierarchical namespaces with filters, pagination,
 * semantic search and TTL, on PGlite or server Postgres. Behaves like `InMemoryStore` (the test
 * suite runs the same operations against both), and namespaces match by whole segments: a search
 * under `["tenant", "acme"]` never returns `["tenant", "acme-corp"]`.
 *
 * `["memories", tenantId, userId]` is the plugin's memory table itself: what extraction, the tools
 * and the controls write is what `search(["memories", "acme", "alice"])` returns, and get/put/delete
 * there act on the same rows through `MemoryRepository` (its validation, secret filter, opt-out and
 * audit). Its tenant and user come from the namespace; a shorter one is SCOPE_REQUIRED. Other
 * namespaces are `store_items` of the store's tenant (see `tenantId`, `forConfig`).
 *
 * @example
 * const store = new LangGraphStore(db, { tenantId: "acme", index: { dims: 512, embeddings: new LocalHashingEmbeddings() } });
 * await store.put(["users", "alice"], "prefs", { text: "Prefers metric units" });
 * const hits = await store.search(["users", "alice"], { query: "units" });
 * const graph = builder.compile({ store });
 * // in a node: the run's tenant, and the user's memories
 * const mine = store.forConfig(config);
 * const memories = await mine.search(["memories", "acme", "alice"], { query: "units" });
 */
export class LangGraphStore extends BaseStore {
  readonly tenantId: string;
  /** The user this store acts for, or null (see {@link LangGraphStoreOptions.userId}). */
  readonly userId: string | null;
  private readonly tenantGiven: boolean;
  private readonly options: LangGraphStoreOptions;
  private memoryItemsCache?: MemoryItems;
  private readonly embedFn?: (texts: string[]) => Promise<number[][]>;
  private readonly embedderId?: string;
  private readonly fields: string[];
  private readonly dims?: number;
  private readonly defaultTtl?: number;
  private readonly refreshOnRead: boolean;
  private readonly allowSensitive: boolean;
  private readonly allowSpecialCategory: boolean;
  private recorded = false;

  constructor(
    readonly db: Database,
    options: LangGraphStoreOptions = {},
  ) {
    super();
    this.options = options;
    this.tenantId = options.tenantId ?? DEFAULT_TENANT_ID;
    this.tenantGiven = options.tenantId !== undefined;
    if (typeof this.tenantId !== "string" || this.tenantId.length === 0) throw new MemoryError(ErrorCodes.SCOPE_REQUIRED, "tenantId must be a non-empty string");
    checkIdText(this.tenantId, "tenantId");
    this.userId = options.userId === undefined ? null : readScopeId(options.userId, "userId");
    if (options.userId !== undefined && this.userId === null) throw new MemoryError(ErrorCodes.SCOPE_REQUIRED, "userId must be a non-empty string (or leave it out)");
    if (options.memories && options.memories.db !== db) throw invalidInput("memories", "must use the same Database as the store");
    const index = options.index;
    if (index) {
      if (!Number.isInteger(index.dims) || index.dims < 1) throw invalidInput("index.dims", "must be a positive integer");
      const source = index.embed ?? index.embeddings;
      if (!source) throw invalidInput("index", "needs `embeddings` (LangChain Embeddings) or `embed`");
      if (typeof source === "function") {
        this.embedFn = source;
        this.embedderId = `function:${index.dims}`;
      } else {
        this.embedFn = (texts) => source.embedDocuments(texts);
        this.embedQuery = (text) => source.embedQuery(text);
        this.embedderId = embedderIdOf(source);
      }
      this.dims = index.dims;
    }
    this.fields = index?.fields ?? ["$"];
    if (options.ttl?.defaultTtl !== undefined) checkTtl(options.ttl.defaultTtl, "ttl.defaultTtl");
    this.defaultTtl = options.ttl?.defaultTtl;
    this.refreshOnRead = options.ttl?.refreshOnRead ?? true;
    this.allowSensitive = options.allowSensitive === true;
    this.allowSpecialCategory = options.allowSpecialCategory === true;
  }

  private embedQuery?: (text: string) => Promise<number[]>;

  /**
   * This store for one tenant (and user): its items are that tenant's, the ones it writes that
   * user's (see {@link LangGraphStoreOptions.userId}). Shares the settings and the memory table.
   *
   * @example
   * const alices = store.forScope({ tenantId: "acme", userId: "alice" });
   * await alices.put(["notes"], "n1", { text: "Call back Tuesday" }); // deleted by alice's delete-all
   */
  forScope(scope: { tenantId: string; userId?: string }): LangGraphStore {
    if (!scope || typeof scope !== "object") throw new MemoryError(ErrorCodes.SCOPE_REQUIRED, "forScope needs { tenantId } or { tenantId, userId }");
    return new LangGraphStore(this.db, { ...this.options, tenantId: scope.tenantId, userId: scope.userId, memories: this.memoryItems.repository });
  }

  /**
   * This store for a run: `config.configurable.tenant_id` and `user_id` (as `forScope`), the
   * store's own tenant when the run names none. LangGraph calls a store without the run's config,
   * so a node that wants the run's tenant asks for it.
   *
   * @example
   * const node = async (state, config) => {
   *   const store = memory.langgraphStore.forConfig(config);
   *   await store.put(["notes"], "n1", { text: "…" });
   * };
   */
  forConfig(config: RunnableConfig | undefined): LangGraphStore {
    const c = config?.configurable ?? {};
    const tenantId = readScopeId(c.tenant_id, "config.configurable.tenant_id") ?? this.tenantId;
    const userId = readScopeId(c.user_id, "config.configurable.user_id") ?? undefined;
    return this.forScope({ tenantId, userId });
  }

  /**
   * Create or update the tables, as `PostgresStore.setup()` does (the pending migrations; none when
   * the database was opened with the default `autoMigrate`). Idempotent.
   */
  async setup(): Promise<void> {
    await migrate(this.db);
    await this.db.refreshCapabilities();
  }

  /** The memory table's door (created on first use). */
  private get memoryItems(): MemoryItems {
    this.memoryItemsCache ??= new MemoryItems(this.options.memories ?? new MemoryRepository(this.db));
    return this.memoryItemsCache;
  }

  /** The user a memories namespace names, checked against the tenant and user this store is bound to. */
  private memoryScope(namespace: string[], field: string): UserScope {
    const scope = memoryScopeOf(namespace, field);
    if (this.tenantGiven && scope.tenantId !== this.tenantId) throw scopeMismatch(field, "tenant");
    if (this.userId !== null && scope.userId !== this.userId) throw scopeMismatch(field, "user");
    return scope;
  }

  /** The vector set recorded in `embedding_settings` for this tenant's items. */
  get vectorSet(): string {
    return `items:${this.tenantId}`;
  }

  override async get(namespace: string[], key: string): Promise<Item | null> {
    return typed(() => super.get(namespace, key));
  }

  override async search(namespacePrefix: string[], options?: { filter?: Record<string, unknown>; limit?: number; offset?: number; query?: string }): Promise<SearchItem[]> {
    return typed(() => super.search(namespacePrefix, options));
  }

  /**
   * Store an item (replacing the one under the same key). `options.ttl` sets this item's
   * time-to-live in minutes (default `ttl.defaultTtl`; `null` = never expires).
   */
  override async put(namespace: string[], key: string, value: Record<string, unknown>, index?: false | string[], options?: { ttl?: number | null }): Promise<void> {
    if (options?.ttl !== undefined && options.ttl !== null) checkTtl(options.ttl, "ttl");
    await typed(async () => {
      checkNamespace(namespace, "namespace", false);
      await this.batch([{ namespace, key, value, index, ttl: options?.ttl } as PutOperation]);
    });
  }

  override async delete(namespace: string[], key: string): Promise<void> {
    return typed(() => super.delete(namespace, key));
  }

  override async listNamespaces(options?: { prefix?: string[]; suffix?: string[]; maxDepth?: number; limit?: number; offset?: number }): Promise<string[][]> {
    return typed(() => super.listNamespaces(options));
  }

  /**
   * Run operations as InMemoryStore does: reads see the state before the batch's writes, and
   * several puts to one key keep the last. Writes run in one transaction.
   */
  async batch<Op extends Operation[]>(operations: Op): Promise<OperationResults<Op>> {
    const results: unknown[] = new Array(operations.length).fill(null);
    const puts = new Map<string, PutOperation & { ttl?: number | null }>();
    const memoryPuts = new Map<string, { scope: UserScope; op: PutOperation & { ttl?: number | null } }>();
    const memoryScopes = new Map<number, UserScope>();
    for (const [i, op] of operations.entries()) {
      if ("namespacePrefix" in op) checkNamespace(op.namespacePrefix, "namespacePrefix", true);
      else if ("namespace" in op) checkNamespace(op.namespace, "namespace", "value" in op && op.value === null ? true : !("value" in op));
      if ("key" in op && typeof op.key !== "string") throw invalidInput("key", "must be a string");
      if ("key" in op && op.key.includes("\0")) throw invalidInput("key", "must not contain NUL characters");
      if ("key" in op) checkIdText(op.key, "key");
      const ns = "namespacePrefix" in op ? op.namespacePrefix : "namespace" in op ? op.namespace : undefined;
      if (ns && isMemoriesNamespace(ns)) {
        memoryScopes.set(i, this.memoryScope(ns, "namespacePrefix" in op ? "namespacePrefix" : "namespace"));
        if ("value" in op && op.value !== null) this.memoryItems.check(op.value);
        if ("namespacePrefix" in op) checkPage(op);
      } else if ("value" in op && op.value !== null && !("namespacePrefix" in op)) {
        itemJson(op.value);
        this.refuseSensitive(op as PutOperation);
      }
    }
    // Memory reads first too: every read of a batch sees the state before its writes.
    for (const [i, scope] of memoryScopes) {
      const op = operations[i];
      if ("namespacePrefix" in op) results[i] = await this.memoryItems.search(scope, { query: op.query, filter: op.filter, limit: op.limit ?? 10, offset: op.offset ?? 0 });
      else if ("value" in op) memoryPuts.set(JSON.stringify([op.namespace, op.key]), { scope, op: op as PutOperation & { ttl?: number | null } });
      else if ("key" in op) results[i] = await this.memoryItems.get(scope, (op as GetOperation).key);
    }
    const scope = this.userId === null ? { tenantId: this.tenantId } : { tenantId: this.tenantId, userId: this.userId };
    await this.db.transaction(async (tx) => {
      for (const [i, op] of operations.entries()) {
        if (memoryScopes.has(i)) continue;
        if ("namespacePrefix" in op) results[i] = await this.searchOp(tx, op);
        else if ("matchConditions" in op || ("limit" in op && !("namespace" in op))) results[i] = await this.listOp(tx, op as ListNamespacesOperation);
        else if ("value" in op) {
          const put = op as PutOperation & { ttl?: number | null };
          puts.set(JSON.stringify([put.namespace, put.key]), put);
        } else if ("key" in op) results[i] = await this.getOp(tx, op as GetOperation);
      }
    }, { scope });
    // The memory table's writes, each in the repository's own transaction, before the items'.
    for (const { scope: user, op } of memoryPuts.values()) {
      if (op.value === null) await this.memoryItems.delete(user, op.key);
      else await this.memoryItems.put(user, op.key, op.value, op.ttl);
    }
    if (puts.size > 0) {
      const ops = [...puts.values()];
      const vectors = await this.vectorsFor(ops);
      await this.db.transaction(async (tx) => {
        if (this.userId !== null) await assertNotOptedOut(tx, { tenantId: this.tenantId, userId: this.userId });
        if (vectors.some((v) => v.length > 0)) await this.ensureRecorded(tx);
        for (const [i, op] of ops.entries()) await this.putOp(tx, op, vectors[i]);
      }, { scope });
    }
    return results as OperationResults<Op>;
  }

  /** Delete expired items now (reads already skip them); returns how many were removed. */
  async sweepExpired(): Promise<number> {
    const { rowCount } = await this.db.transaction(
      (tx) => tx.query(SWEEP_EXPIRED_ITEMS_SQL, [this.tenantId]),
      { scope: { tenantId: this.tenantId } },
    );
    return rowCount;
  }

  private async getOp(tx: Queryable, op: GetOperation): Promise<Item | null> {
    if (this.refreshOnRead) {
      const { rows } = await tx.query<ItemRow>(REFRESH_ITEM_SQL, [this.tenantId, op.namespace, op.key]);
      if (rows[0]) return itemFromRow(rows[0]);
    }
    const { rows } = await tx.query<ItemRow>(GET_ITEM_SQL, [this.tenantId, op.namespace, op.key]);
    return rows[0] ? itemFromRow(rows[0]) : null;
  }

  private async searchOp(tx: Queryable, op: SearchOperation): Promise<SearchItem[]> {
    const limit = op.limit ?? 10;
    const offset = op.offset ?? 0;
    if (!Number.isInteger(limit) || limit < 0 || limit > 10_000) throw invalidInput("limit", "must be an integer from 0 to 10000");
    if (!Number.isInteger(offset) || offset < 0) throw invalidInput("offset", "must be a non-negative integer");
    const where = searchItemsWhere(this.tenantId, op.namespacePrefix, op.filter);
    const queryVector = op.query && this.embedFn ? vectorLiteral(await this.embedQueryText(op.query)) : undefined;
    const query = searchItemsQuery(where, { queryVector, limit, offset });
    const { rows } = await tx.query<ItemRow>(query.text, query.values);
    if (this.refreshOnRead && rows.length > 0) {
      await tx.query(REFRESH_SEARCHED_ITEMS_SQL, [this.tenantId, rows.map((r) => arrayLiteral(r.namespace)), rows.map((r) => r.key)]);
    }
    return rows.map((r) => ({ ...itemFromRow(r), score: r.score === null || r.score === undefined ? undefined : Number(r.score) }));
  }

  private async listOp(tx: Queryable, op: ListNamespacesOperation): Promise<string[][]> {
    const query = listNamespacesQuery(this.tenantId, op.matchConditions ?? [], op.maxDepth);
    const { rows } = await tx.query<{ ns: string[] }>(query.text, query.values);
    // InMemoryStore's order: labels joined with ':' compared with localeCompare.
    const list = rows.map((r) => r.ns).sort((a, b) => a.join(":").localeCompare(b.join(":")));
    const offset = op.offset ?? 0;
    return list.slice(offset, offset + (op.limit ?? list.length));
  }

  /** The door's secret filter (src/sensitive), on the key and every string and field name of the value. */
  private refuseSensitive(op: PutOperation): void {
    if (this.allowSensitive) return;
    // Item values are often machine-written (ids, cursors): only named formats count, not the high-entropy fallback.
    const options = { allowSpecialCategory: this.allowSpecialCategory, ignoreHighEntropy: true };
    const inKey = sensitiveCategoryIn(op.key, options);
    if (inKey) throw sensitiveContent("key", inKey);
    const inValue = sensitiveCategoryIn(op.value, options);
    if (inValue) throw sensitiveContent("value", inValue);
  }

  private async putOp(tx: Queryable, op: PutOperation & { ttl?: number | null }, vectors: Array<[string, number[]]>): Promise<void> {
    if (op.value === null) {
      await tx.query(DELETE_ITEM_SQL, [this.tenantId, op.namespace, op.key]);
      return;
    }
    const json = itemJson(op.value);
    const ttl = op.ttl === undefined ? (this.defaultTtl ?? null) : op.ttl;
    await tx.query(UPSERT_ITEM_SQL, [this.tenantId, op.namespace, op.key, json, ttl, this.userId]);
    await tx.query(DELETE_ITEM_VECTORS_SQL, [this.tenantId, op.namespace, op.key]);
    if (vectors.length > 0) {
      await tx.query(INSERT_ITEM_VECTORS_SQL, [this.tenantId, op.namespace, op.key, vectors.map(([f]) => f), vectors.map(([, v]) => vectorLiteral(v))]);
    }
  }

  /** Per put: [field path, unit vector] for every indexed text (a path with several texts gets `path.i`). */
  private async vectorsFor(ops: PutOperation[]): Promise<Array<Array<[string, number[]]>>> {
    const perOp: Array<Array<[string, string]>> = ops.map((op) => {
      if (!this.embedFn || op.value === null || op.index === false) return [];
      const paths = op.index ?? this.fields;
      const out: Array<[string, string]> = [];
      for (const path of paths) {
        const texts = textsAtPath(op.value, path);
        if (texts.length === 1) out.push([path, texts[0]]);
        else for (const [i, t] of texts.entries()) out.push([`${path}.${i}`, t]);
      }
      return out;
    });
    const unique = [...new Set(perOp.flat().map(([, t]) => t))];
    if (unique.length === 0) return perOp.map(() => []);
    const vectors = await this.embedFn!(unique);
    const byText = new Map(unique.map((t, i) => [t, this.checkVector(vectors[i])]));
    return perOp.map((list) => list.map(([f, t]) => [f, byText.get(t)!]));
  }

  private async embedQueryText(query: string): Promise<number[]> {
    const v = this.embedQuery ? await this.embedQuery(query) : (await this.embedFn!([query]))[0];
    return this.checkVector(v);
  }

  private checkVector(v: unknown): number[] {
    const arr = validateVector(v, "embedding");
    if (arr.length !== this.dims) throw dimensionMismatch(arr.length, this.dims!, this.embedderId);
    return normalize(arr);
  }

  private async ensureRecorded(tx: Queryable): Promise<void> {
    if (this.recorded) return;
    await ensureEmbeddingSetting(tx, this.vectorSet, { embedder: this.embedderId!, dims: this.dims! });
    this.recorded = true;
  }
}

function itemFromRow(r: ItemRow): Item {
  return {
    namespace: r.namespace,
    key: r.key,
    value: typeof r.value === "string" ? JSON.parse(r.value) : r.value,
    createdAt: r.created_at instanceof Date ? r.created_at : new Date(r.created_at),
    updatedAt: r.updated_at instanceof Date ? r.updated_at : new Date(r.updated_at),
  };
}

/** A search's limit and offset as the items' searches check them. */
function checkPage(op: SearchOperation): void {
  const limit = op.limit ?? 10;
  const offset = op.offset ?? 0;
  if (!Number.isInteger(limit) || limit < 0 || limit > 10_000) throw invalidInput("limit", "must be an integer from 0 to 10000");
  if (!Number.isInteger(offset) || offset < 0) throw invalidInput("offset", "must be a non-negative integer");
}

function scopeMismatch(field: string, what: "tenant" | "user"): MemoryError {
  return new MemoryError(ErrorCodes.SCOPE_MISMATCH, `${field}: this store acts for one ${what} and the memories namespace names another; take a store for that scope (forScope/forConfig)`);
}

function checkTtl(ttl: unknown, field: string): void {
  if (typeof ttl !== "number" || !Number.isFinite(ttl) || ttl <= 0) throw invalidInput(field, "must be a positive number of minutes");
}

/** BaseStore's own validation throws InvalidNamespaceError; callers get a typed MemoryError. */
async function typed<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof InvalidNamespaceError) throw new MemoryError(ErrorCodes.INVALID_INPUT, `namespace: ${err.message}`, { cause: err });
    throw err;
  }
}
