import type { RunnableConfig } from "@langchain/core/runnables";
import {
  BaseCheckpointSaver,
  TASKS,
  WRITES_IDX_MAP,
  compareWritesSortKeys,
  maxChannelVersion,
  writesSortKey,
  type ChannelVersions,
  type Checkpoint,
  type CheckpointListOptions,
  type CheckpointMetadata,
  type CheckpointPendingWrite,
  type CheckpointTuple,
  type PendingWrite,
} from "@langchain/langgraph-checkpoint";
import type { Database } from "../db/database.js";
import { openDatabase, type OpenDatabaseOptions } from "../db/open.js";
import { ErrorCodes, MemoryError, invalidInput } from "../errors.js";
import { DEFAULTS, type PostgresCheckpointerOptions } from "./options.js";
import { nextChannelVersion } from "./versions.js";
import { CheckpointCache, ThreadCache, type ChannelState } from "./thread-cache.js";
import { planItems } from "./plan-items.js";
import { queryPrepared } from "./prepared-query.js";
import { itemTokens } from "./item-tokens.js";
import { checkpointsToDelete, type RetentionRow } from "./plan-retention.js";
import {
  DELETE_THREAD_SQL,
  PRUNE_DELETE_CHECKPOINTS_SQL,
  PRUNE_ITEMS_SQL,
  PRUNE_SCAN_SQL,
  PRUNE_STORED_VALUES_SQL,
  PRUNE_VALUES_SQL,
  PUT_SQL,
  PUT_WRITES_SQL,
  SWEEP_IDLE_THREADS_SQL,
  readSql,
  type PutParams,
  type PutRow,
  type ReadRow,
} from "./sql.js";

/** A thread's row: who owns it, when it was active, and the size of its conversation. */
export interface CheckpointThread {
  threadId: string;
  tenantId: string | null;
  userId: string | null;
  createdAt: Date;
  updatedAt: Date;
  /** Messages in the root namespace's messages channel at the latest put. */
  messageCount: number;
  /** Their tokens (o200k, counted offline when each message was first stored). */
  messageTokens: number;
}

const LIST_PAGE = 100;

/**
 * A LangGraph checkpointer on Postgres: server Postgres through `pg` or embedded PGlite, with the
 * same SQL. It stores what changed — a new version of a messages channel stores only the messages
 * it adds — so a conversation's storage grows linearly; one statement per put; reads in one round
 * trip whose cost follows what they return; a thread row with owner and token counts; retention.
 * See docs/checkpointer.md.
 *
 * @example
 * const checkpointer = await PostgresCheckpointer.fromUrl("postgres://localhost/app");
 * const graph = new StateGraph(MessagesAnnotation).addNode("agent", agent)
 *   .addEdge(START, "agent").compile({ checkpointer });
 * await graph.invoke({ messages: [new HumanMessage("hi")] },
 *   { configurable: { thread_id: "t1", tenant_id: "acme", user_id: "alice" } });
 */
export class PostgresCheckpointer extends BaseCheckpointSaver {
  readonly db: Database;
  private readonly options: PostgresCheckpointerOptions;
  private readonly ownsDatabase: boolean;
  private readonly cache: CheckpointCache;
  private readonly putsSincePrune = new Map<string, number>();
  private sweeper?: NodeJS.Timeout;

  constructor(db: Database, options: PostgresCheckpointerOptions = {}, ownsDatabase = false) {
    super(options.serde);
    this.db = db;
    this.options = options;
    this.ownsDatabase = ownsDatabase;
    this.cache = new CheckpointCache(options.cacheMaxItems ?? DEFAULTS.cacheMaxItems);
    validateOptions(options);
    const { idleTtlMs, sweepEveryMs } = options.retention ?? {};
    if (idleTtlMs !== undefined && sweepEveryMs !== undefined) {
      this.sweeper = setInterval(() => {
        this.sweepIdleThreads().catch(options.onBackgroundError ?? ((e) => console.warn(`langgraph-memory: idle-thread sweep failed: ${(e as Error).message}`)));
      }, sweepEveryMs);
      this.sweeper.unref();
    }
  }

  /**
   * A checkpointer on an open database (migrated by `openDatabase`). The caller keeps ownership:
   * `close()` stops background work but leaves the database open.
   *
   * @example
   * const db = await openDatabase("memory://");
   * const checkpointer = PostgresCheckpointer.fromDatabase(db, { retention: { keepLast: 50 } });
   */
  static fromDatabase(db: Database, options: PostgresCheckpointerOptions = {}): PostgresCheckpointer {
    return new PostgresCheckpointer(db, options, false);
  }

  /**
   * Open the database the URL names (or `DATABASE_URL`, or the embedded default folder), migrate
   * it, and return a checkpointer that owns it (`close()` closes it).
   *
   * @example
   * const checkpointer = await PostgresCheckpointer.fromUrl();                // embedded
   * const checkpointer = await PostgresCheckpointer.fromUrl("postgres://localhost/app", { schema: "memory" });
   */
  static async fromUrl(url?: string, options: PostgresCheckpointerOptions & OpenDatabaseOptions = {}): Promise<PostgresCheckpointer> {
    const { schema, autoMigrate, poolMax, dataDir, loadDataDir, ...rest } = options;
    const db = await openDatabase(url, { schema, autoMigrate, poolMax, dataDir, loadDataDir });
    return new PostgresCheckpointer(db, rest, true);
  }

  /** Channel versions are unique per write (see `nextChannelVersion`), so forks never collide. */
  override getNextVersion(current: number | undefined): number {
    return nextChannelVersion(current);
  }

  async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    const { thread_id, checkpoint_ns = "", checkpoint_id } = config.configurable ?? {};
    if (thread_id === undefined || thread_id === null) return undefined;
    const threadId = String(thread_id);
    const params: unknown[] = [threadId, String(checkpoint_ns)];
    let where = "c.thread_id = $5 AND c.checkpoint_ns = $6";
    if (checkpoint_id) {
      where += " AND c.checkpoint_id = $7";
      params.push(String(checkpoint_id));
    }
    const [tuple] = await this.read(where, params, checkpoint_id ? null : 1, threadId, true);
    return tuple;
  }

  async *list(config: RunnableConfig, options: CheckpointListOptions = {}): AsyncGenerator<CheckpointTuple> {
    const { limit, before, filter } = options;
    const cfg = config.configurable ?? {};
    const wheres: string[] = [];
    const params: unknown[] = [];
    const add = (clause: (p: string) => string, value: unknown) => {
      params.push(value);
      wheres.push(clause(`$${params.length + 4}`));
    };
    const threadId = cfg.thread_id !== undefined && cfg.thread_id !== null && cfg.thread_id !== "" ? String(cfg.thread_id) : undefined;
    if (threadId !== undefined) add((p) => `c.thread_id = ${p}`, threadId);
    if (cfg.checkpoint_ns !== undefined && cfg.checkpoint_ns !== null) add((p) => `c.checkpoint_ns = ${p}`, String(cfg.checkpoint_ns));
    if (cfg.checkpoint_id) add((p) => `c.checkpoint_id = ${p}`, String(cfg.checkpoint_id));
    if (filter && Object.keys(filter).length > 0) add((p) => `c.metadata @> ${p}::jsonb`, JSON.stringify(filter));
    if (before?.configurable?.checkpoint_id !== undefined) add((p) => `c.checkpoint_id < ${p}`, String(before.configurable.checkpoint_id));
    let remaining = limit === undefined ? Infinity : Math.max(0, Math.floor(Number(limit)));
    let cursor: [string, string, string] | undefined;
    while (remaining > 0) {
      const page = Math.min(remaining, LIST_PAGE);
      const pageWheres = [...wheres];
      const pageParams = [...params];
      if (cursor) {
        const base = pageParams.length + 4;
        pageWheres.push(`(c.checkpoint_id, c.thread_id, c.checkpoint_ns) < ($${base + 1}, $${base + 2}, $${base + 3})`);
        pageParams.push(...cursor);
      }
      const where = pageWheres.length > 0 ? pageWheres.join(" AND ") : "TRUE";
      const tuples = await this.read(where, pageParams, page, threadId, false);
      for (const tuple of tuples) yield tuple;
      if (tuples.length < page) return;
      remaining -= tuples.length;
      const last = tuples[tuples.length - 1].config.configurable!;
      cursor = [last.checkpoint_id, last.thread_id, last.checkpoint_ns];
    }
  }

  async put(config: RunnableConfig, checkpoint: Checkpoint, metadata: CheckpointMetadata, newVersions: ChannelVersions): Promise<RunnableConfig> {
    if (config.configurable === undefined) throw invalidInput("config.configurable", "is missing; pass { configurable: { thread_id } }");
    const { thread_id, checkpoint_ns = "", checkpoint_id: parentId } = config.configurable;
    if (thread_id === undefined || thread_id === null || thread_id === "") {
      throw invalidInput("config.configurable.thread_id", "is missing; a checkpointer needs a thread_id to know which conversation to save");
    }
    const threadId = String(thread_id);
    const ns = String(checkpoint_ns);
    const { channel_values: values, id: _id, ...rest } = checkpoint;
    const [, metadataBytes] = await this.serde.dumpsTyped(metadata);
    const fixed = {
      threadId,
      ns,
      checkpointId: checkpoint.id,
      parentId: parentId ? String(parentId) : null,
      checkpointJson: JSON.stringify(rest),
      metadataJson: new TextDecoder().decode(metadataBytes),
      tenantId: scopeValue(config.configurable.tenant_id),
      userId: scopeValue(config.configurable.user_id),
    };
    for (const useCache of [true, false]) {
      const thread = useCache ? this.cache.get(threadId) : undefined;
      const plan = await this.planPut(thread, ns, values ?? {}, newVersions);
      const params: PutParams = [
        fixed.threadId, fixed.ns, fixed.checkpointId, fixed.parentId, fixed.checkpointJson, fixed.metadataJson,
        fixed.tenantId, fixed.userId, plan.items.length, plan.messageCount, plan.messageTokens,
        plan.known ? thread!.epoch : null, plan.known ? thread!.nextSeq! : null,
        plan.items.map((i) => i.type), plan.items.map((i) => i.blob), plan.items.map((i) => i.tokens),
        plan.blobs.map((b) => b.channel), plan.blobs.map((b) => b.version), plan.blobs.map((b) => b.type),
        plan.blobs.map((b) => b.blob), plan.blobs.map((b) => (b.ranges ? `{${b.ranges.join(",")}}` : null)),
        plan.bases.map((b) => b.channel), plan.bases.map((b) => b.version), plan.bases.map((b) => `{${b.ranges.join(",")}}`),
      ];
      const { rows } = await queryPrepared<PutRow>(this.db, PUT_SQL, params);
      const row = rows[0];
      if (!row.parent_ok) {
        throw new MemoryError(
          ErrorCodes.CHECKPOINT_PARENT_MISSING,
          `thread ${threadId}: the parent checkpoint ${fixed.parentId} (namespace "${ns}") is not stored; it was deleted (retention, deleteThread) or the config names a checkpoint of another thread`,
          { details: { threadId, checkpointNs: ns, parentId: fixed.parentId } },
        );
      }
      if (row.base === null || row.epoch === null) {
        // The cache no longer matches the database (another process wrote or pruned): retry once
        // without it, which stores the value afresh.
        this.cache.drop(threadId);
        continue;
      }
      this.remember(threadId, ns, Number(row.epoch), Number(row.base), plan, new Set(row.inserted ?? []));
      await this.maybePrune(threadId);
      return { configurable: { thread_id: config.configurable.thread_id, checkpoint_ns: ns, checkpoint_id: checkpoint.id } };
    }
    throw new MemoryError(ErrorCodes.DB_QUERY_FAILED, `thread ${threadId}: the checkpoint could not be stored after a retry; nothing was written`);
  }

  async putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string, taskPath = ""): Promise<void> {
    const { thread_id, checkpoint_ns = "", checkpoint_id } = config.configurable ?? {};
    if (thread_id === undefined || thread_id === null || thread_id === "") throw invalidInput("config.configurable.thread_id", "is missing");
    if (!checkpoint_id) throw invalidInput("config.configurable.checkpoint_id", "is missing; writes belong to a stored checkpoint");
    // One row per idx; a repeated special write (same negative idx) keeps the last, as MemorySaver.
    const byIdx = new Map<number, { channel: string; value: unknown }>();
    writes.forEach(([channel, value], i) => byIdx.set(WRITES_IDX_MAP[channel] ?? i, { channel, value }));
    const entries = [...byIdx.entries()];
    const dumped = await Promise.all(entries.map(([, w]) => this.serde.dumpsTyped(w.value)));
    await queryPrepared(this.db, PUT_WRITES_SQL, [
      String(thread_id), String(checkpoint_ns), String(checkpoint_id), String(taskId), taskPath ?? "",
      entries.map(([idx]) => idx), entries.map(([, w]) => w.channel), dumped.map(([type]) => type), dumped.map(([, bytes]) => toBytes(bytes)),
    ]);
  }

  /** Delete every row of the thread: checkpoints, values, items, writes and the thread row. */
  async deleteThread(threadId: string): Promise<void> {
    const id = String(threadId);
    this.cache.drop(id);
    this.putsSincePrune.delete(id);
    await this.db.query(DELETE_THREAD_SQL, [id]);
  }

  /** The thread's row, or undefined when the thread has no checkpoint. */
  async getThread(threadId: string): Promise<CheckpointThread | undefined> {
    const { rows } = await this.db.query<{
      thread_id: string; tenant_id: string | null; user_id: string | null; created_at: Date; updated_at: Date; message_count: number; message_tokens: number;
    }>("SELECT thread_id, tenant_id, user_id, created_at, updated_at, message_count, message_tokens FROM threads WHERE thread_id = $1", [String(threadId)]);
    const r = rows[0];
    return r && {
      threadId: r.thread_id, tenantId: r.tenant_id, userId: r.user_id, createdAt: r.created_at, updatedAt: r.updated_at,
      messageCount: Number(r.message_count), messageTokens: Number(r.message_tokens),
    };
  }

  /**
   * Keep the last `keepLast` checkpoints per namespace of the thread (default: the configured
   * retention) and the ancestors delta channels still need; delete the rest with the values and
   * items nothing refers to any more. Returns how many checkpoints were deleted.
   *
   * @example
   * await checkpointer.pruneThread("t1", 20);
   */
  async pruneThread(threadId: string, keepLast = this.options.retention?.keepLast): Promise<number> {
    if (keepLast === undefined) throw invalidInput("keepLast", "is not configured; pass it or set retention.keepLast");
    if (!Number.isInteger(keepLast) || keepLast < 1) throw invalidInput("keepLast", "must be an integer ≥ 1");
    const id = String(threadId);
    return this.db.transaction(async (tx) => {
      const { rows } = await tx.query<RetentionRow>(PRUNE_SCAN_SQL, [id]);
      if (rows.length <= keepLast) return 0;
      const deltaChannels = [...new Set(rows.flatMap((r) => Object.keys(r.counters ?? {})))];
      const stored = new Set<string>();
      if (deltaChannels.length > 0) {
        const values = await tx.query<{ ns: string; channel: string; version: string }>(PRUNE_STORED_VALUES_SQL, [id, deltaChannels]);
        for (const v of values.rows) stored.add(`${v.ns}\u0000${v.channel}\u0000${v.version}`);
      }
      const doomed = checkpointsToDelete(rows, keepLast, (ns, ch, ver) => stored.has(`${ns}\u0000${ch}\u0000${ver}`));
      if (doomed.length === 0) return 0;
      await tx.query(PRUNE_DELETE_CHECKPOINTS_SQL, [id, doomed.map((r) => r.ns), doomed.map((r) => r.id)]);
      await tx.query(PRUNE_VALUES_SQL, [id]);
      await tx.query(PRUNE_ITEMS_SQL, [id]);
      return doomed.length;
    });
  }

  /**
   * Delete threads with no put for longer than `idleMs` (default: `retention.idleTtlMs`), with all
   * their rows. Returns the deleted thread ids.
   *
   * @example
   * await checkpointer.sweepIdleThreads(30 * 24 * 3600 * 1000); // idle for 30 days
   */
  async sweepIdleThreads(idleMs = this.options.retention?.idleTtlMs): Promise<string[]> {
    if (idleMs === undefined) throw invalidInput("idleMs", "is not configured; pass it or set retention.idleTtlMs");
    if (!(idleMs >= 0)) throw invalidInput("idleMs", "must be a number of milliseconds ≥ 0");
    const { rows } = await this.db.query<{ thread_id: string }>(SWEEP_IDLE_THREADS_SQL, [idleMs / 1000]);
    for (const r of rows) {
      this.cache.drop(r.thread_id);
      this.putsSincePrune.delete(r.thread_id);
    }
    return rows.map((r) => r.thread_id);
  }

  /** Stop background work; close the database when this checkpointer opened it (`fromUrl`). */
  async close(): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = undefined;
    this.cache.clear();
    if (this.ownsDatabase) await this.db.close();
  }

  // ── writing ────────────────────────────────────────────────────────────────────────────────

  private async planPut(thread: ThreadCache | undefined, ns: string, values: Record<string, unknown>, newVersions: ChannelVersions): Promise<PutPlan> {
    const known = thread !== undefined && thread.nextSeq !== undefined;
    const plan: PutPlan = { known, items: [], blobs: [], bases: [], channels: [], messageCount: null, messageTokens: null };
    const maxRanges = this.options.maxItemRanges ?? DEFAULTS.maxItemRanges;
    const messagesChannel = this.options.messagesChannel ?? DEFAULTS.messagesChannel;
    for (const [channel, rawVersion] of Object.entries(newVersions)) {
      const version = String(rawVersion);
      // A channel without a value (consumed, cleared) stores nothing: a version with no stored
      // value reads as "no value", exactly what the official saver's 'empty' rows say.
      if (!Object.prototype.hasOwnProperty.call(values, channel)) continue;
      const value = values[channel];
      if (!Array.isArray(value)) {
        const [type, bytes] = await this.serde.dumpsTyped(value);
        plan.blobs.push({ channel, version, type, blob: toBytes(bytes), ranges: null });
        continue;
      }
      const base = known ? thread!.channels.get(ThreadCache.channelKey(ns, channel)) : undefined;
      const items = planItems(value, known ? thread : undefined, base, maxRanges, plan.items.length);
      const firstNew = plan.items.length;
      const dumped = await Promise.all(items.newItems.map((item) => this.serde.dumpsTyped(item)));
      items.newItems.forEach((item, k) => {
        plan.items.push({ value: item, type: dumped[k][0], blob: toBytes(dumped[k][1]), tokens: itemTokens(item) });
      });
      plan.blobs.push({ channel, version, type: "items", blob: null, ranges: items.ranges });
      if (items.reusesBase) plan.bases.push({ channel, version: base!.version, ranges: base!.ranges });
      plan.channels.push({ channel, version, ranges: items.ranges, seqs: items.seqs, firstNew, value });
      if (ns === "" && channel === messagesChannel) {
        let tokens = 0;
        if (items.seqs) {
          // Known numbering: new items are nextSeq + (their index in plan.items) + 1.
          const next = thread!.nextSeq!;
          for (const seq of items.seqs) tokens += seq > next ? plan.items[seq - next - 1].tokens : thread!.items.get(seq)!.tokens;
        } else {
          for (let k = firstNew; k < plan.items.length; k += 1) tokens += plan.items[k].tokens;
        }
        plan.messageCount = value.length;
        plan.messageTokens = tokens;
      }
    }
    return plan;
  }

  /** After a committed put: the cache learns the new items and the channels' new versions. */
  private remember(threadId: string, ns: string, epoch: number, base: number, plan: PutPlan, inserted: Set<string>): void {
    const thread = this.cache.ensure(threadId, epoch, base + plan.items.length);
    plan.items.forEach((item, k) => thread.addItem(base + k + 1, item.value, item.tokens));
    for (const ch of plan.channels) {
      const key = ThreadCache.channelKey(ns, ch.channel);
      if (!inserted.has(ch.channel)) {
        // The version was already stored (by someone else): we do not know its items.
        thread.channels.delete(key);
        continue;
      }
      const ranges = ch.ranges.map((x) => (x < 0 ? base - x : x));
      thread.channels.set(key, { version: ch.version, ranges, seqs: ch.seqs ?? expandRanges(ranges), values: ch.value.slice() });
    }
    this.cache.trim();
  }

  private async maybePrune(threadId: string): Promise<void> {
    const keepLast = this.options.retention?.keepLast;
    if (keepLast === undefined) return;
    const count = (this.putsSincePrune.get(threadId) ?? 0) + 1;
    if (count < (this.options.retention?.pruneEvery ?? DEFAULTS.pruneEvery)) {
      this.putsSincePrune.set(threadId, count);
      return;
    }
    this.putsSincePrune.set(threadId, 0);
    await this.pruneThread(threadId, keepLast);
  }

  // ── reading ────────────────────────────────────────────────────────────────────────────────

  /**
   * Run one read statement and rebuild its checkpoints. `cacheThread` names the single thread the
   * read is confined to (its cached items need not be fetched); `seedChannels` records the read
   * checkpoint's array values as the base of the next put (getTuple: the checkpoint a run resumes).
   */
  private async read(where: string, params: unknown[], limit: number | null, cacheThread: string | undefined, seedChannels: boolean): Promise<CheckpointTuple[]> {
    const useReadCache = this.options.readCache ?? true;
    const cached = cacheThread !== undefined ? this.cache.get(cacheThread) : undefined;
    const knownParams = useReadCache && cached ? [cacheThread, cached.epoch, cached.knownMultirange()] : [null, null, "{}"];
    const { rows } = await queryPrepared<ReadRow>(this.db, readSql(where), [...knownParams, limit, ...params]);
    const cps: ReadRow[] = [];
    const values = new Map<string, ReadRow>();
    const itemRows = new Map<string, ReadRow[]>();
    const writes = new Map<string, ReadRow[]>();
    const sends = new Map<string, ReadRow[]>();
    for (const row of rows) {
      switch (row.k) {
        case 0: cps.push(row); break;
        case 1: values.set(valueKey(row.thread_id, row.ns!, row.a!, row.b!), row); break;
        case 2: pushTo(itemRows, row.thread_id, row); break;
        case 3: pushTo(writes, cpKey(row.thread_id, row.ns!, row.a!), row); break;
        case 4: pushTo(sends, cpKey(row.thread_id, row.ns!, row.a!), row); break;
      }
    }
    cps.sort((x, y) => compareCodePoints(y.a!, x.a!) || compareCodePoints(y.thread_id, x.thread_id) || compareCodePoints(y.ns!, x.ns!));

    // Items: decoded once per read, shared by every value that contains them.
    const threadItems = new Map<string, Map<number, unknown>>();
    const threadCaches = new Map<string, ThreadCache>();
    for (const cp of cps) {
      if (cacheThread === undefined || cp.thread_id !== cacheThread || cp.n === null || threadCaches.has(cp.thread_id)) continue;
      threadCaches.set(cp.thread_id, this.cache.ensure(cp.thread_id, Number(cp.n), Number(cp.m)));
    }
    for (const [threadId, list] of itemRows) {
      const decoded = await Promise.all(list.map((r) => this.decode(r.c!, r.blob!, () => `item ${r.n} of thread ${threadId}`)));
      const map = new Map<number, unknown>();
      const tc = threadCaches.get(threadId);
      list.forEach((r, i) => {
        map.set(Number(r.n), decoded[i]);
        tc?.addItem(Number(r.n), decoded[i], Number(r.m));
      });
      threadItems.set(threadId, map);
    }

    const decodedValues = new Map<string, Promise<unknown>>();
    const tuples: CheckpointTuple[] = [];
    for (const cp of cps) {
      const threadId = cp.thread_id;
      const ns = cp.ns!;
      const id = cp.a!;
      const where = () => `checkpoint ${id} of thread ${threadId} (namespace "${ns}")`;
      const stored = parseJson<Omit<Checkpoint, "id" | "channel_values">>(cp.c!, where);
      const checkpoint: Checkpoint = { ...(stored as Checkpoint), id, channel_values: {} };
      checkpoint.channel_versions ??= {};
      checkpoint.versions_seen ??= {};
      const seeds: Array<[string, ChannelState]> = [];
      for (const [channel, rawVersion] of Object.entries(checkpoint.channel_versions)) {
        const version = String(rawVersion);
        const key = valueKey(threadId, ns, channel, version);
        const row = values.get(key);
        if (!row || row.c === "empty") continue;
        if (row.c === "items") {
          const ranges = (row.items ?? []).map(Number);
          if (ranges.length % 2 !== 0) throw corrupt(`${where()}: channel ${channel} has a malformed item list`, { threadId, channel, version });
          const tc = threadCaches.get(threadId);
          const known = useReadCache ? tc?.channels.get(ThreadCache.channelKey(ns, channel)) : undefined;
          if (known?.values && known.version === version && sameNumbers(known.ranges, ranges)) {
            // The version this process last wrote or read: copy it (one array of references).
            checkpoint.channel_values[channel] = known.values.slice();
            continue;
          }
          const value = this.assembleItems(ranges, threadItems.get(threadId), tc, () => `${where()}: channel ${channel} version ${version}`);
          checkpoint.channel_values[channel] = value;
          if (seedChannels) seeds.push([ThreadCache.channelKey(ns, channel), { version, ranges, seqs: expandRanges(ranges), values: value.slice() }]);
        } else {
          let p = decodedValues.get(key);
          if (!p) {
            p = this.decode(row.c!, row.blob!, () => `${where()}: channel ${channel} version ${version}`);
            decodedValues.set(key, p);
          }
          checkpoint.channel_values[channel] = await p;
        }
      }
      const pendingSends = sends.get(cpKey(threadId, ns, id));
      if (pendingSends && pendingSends.length > 0 && (checkpoint.v ?? 0) < 4) {
        const sorted = sortWrites(pendingSends);
        checkpoint.channel_values[TASKS] = await Promise.all(sorted.map((w) => this.decode(w.d!, w.blob!, where)));
        const versions = Object.values(checkpoint.channel_versions);
        checkpoint.channel_versions[TASKS] = versions.length > 0 ? maxChannelVersion(...versions) : this.getNextVersion(undefined);
      }
      const pendingWrites: CheckpointPendingWrite[] = await Promise.all(
        sortWrites(writes.get(cpKey(threadId, ns, id)) ?? []).map(async (w) => [w.b!, w.c!, await this.decode(w.d!, w.blob!, where)] as CheckpointPendingWrite),
      );
      const metadata = (await this.decode("json", new TextEncoder().encode(cp.d!), where)) as CheckpointMetadata;
      const tuple: CheckpointTuple = {
        config: { configurable: { thread_id: threadId, checkpoint_ns: ns, checkpoint_id: id } },
        checkpoint,
        metadata,
        pendingWrites,
      };
      if (cp.b) tuple.parentConfig = { configurable: { thread_id: threadId, checkpoint_ns: ns, checkpoint_id: cp.b } };
      const tc = threadCaches.get(threadId);
      if (tc) for (const [key, state] of seeds) tc.channels.set(key, state);
      tuples.push(tuple);
    }
    this.cache.trim();
    return tuples;
  }

  private assembleItems(ranges: number[], fetched: Map<number, unknown> | undefined, cached: ThreadCache | undefined, where: () => string): unknown[] {
    const out: unknown[] = [];
    for (let i = 0; i < ranges.length; i += 2) {
      for (let seq = ranges[i]; seq <= ranges[i + 1]; seq += 1) {
        if (fetched?.has(seq)) out.push(fetched.get(seq));
        else {
          const item = cached?.items.get(seq);
          if (!item) {
            throw new MemoryError(ErrorCodes.CHECKPOINT_PARENT_MISSING, `${where()} refers to item ${seq}, which is not stored; the thread was pruned or edited outside the checkpointer`, {
              details: { seq },
            });
          }
          out.push(item.value);
        }
      }
    }
    return out;
  }

  private async decode(type: string, bytes: Uint8Array, where: () => string): Promise<unknown> {
    try {
      return await this.serde.loadsTyped(type, bytes);
    } catch (err) {
      throw corrupt(`${where()} cannot be decoded (${(err as Error).message}); restore it from a backup or delete the thread`, { type }, err);
    }
  }
}

interface PutPlan {
  /** The cache's item numbering was used (the put checks it still holds). */
  known: boolean;
  items: Array<{ value: unknown; type: string; blob: Uint8Array; tokens: number }>;
  blobs: Array<{ channel: string; version: string; type: string; blob: Uint8Array | null; ranges: number[] | null }>;
  bases: Array<{ channel: string; version: string; ranges: number[] }>;
  channels: Array<{ channel: string; version: string; ranges: number[]; seqs: number[] | undefined; firstNew: number; value: readonly unknown[] }>;
  messageCount: number | null;
  messageTokens: number | null;
}

function validateOptions(options: PostgresCheckpointerOptions): void {
  const r = options.retention ?? {};
  if (r.keepLast !== undefined && !(Number.isInteger(r.keepLast) && r.keepLast >= 1)) throw invalidInput("retention.keepLast", "must be an integer ≥ 1");
  if (r.pruneEvery !== undefined && !(Number.isInteger(r.pruneEvery) && r.pruneEvery >= 1)) throw invalidInput("retention.pruneEvery", "must be an integer ≥ 1");
  if (r.idleTtlMs !== undefined && !(r.idleTtlMs >= 0)) throw invalidInput("retention.idleTtlMs", "must be a number of milliseconds ≥ 0");
  if (r.sweepEveryMs !== undefined && (r.idleTtlMs === undefined || !(r.sweepEveryMs > 0))) {
    throw invalidInput("retention.sweepEveryMs", "must be > 0 and needs retention.idleTtlMs");
  }
  if (options.maxItemRanges !== undefined && !(Number.isInteger(options.maxItemRanges) && options.maxItemRanges >= 1)) throw invalidInput("maxItemRanges", "must be an integer ≥ 1");
  if (options.cacheMaxItems !== undefined && !(Number.isInteger(options.cacheMaxItems) && options.cacheMaxItems >= 0)) throw invalidInput("cacheMaxItems", "must be an integer ≥ 0");
}

function scopeValue(v: unknown): string | null {
  return v === undefined || v === null || v === "" ? null : String(v);
}

function toBytes(bytes: Uint8Array | string): Uint8Array {
  const b = typeof bytes === "string" ? new TextEncoder().encode(bytes) : bytes;
  // pg encodes Buffers (not plain Uint8Arrays) as bytea, also inside arrays.
  return Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength);
}

function sameNumbers(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function expandRanges(ranges: number[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < ranges.length; i += 2) for (let s = ranges[i]; s <= ranges[i + 1]; s += 1) out.push(s);
  return out;
}

function sortWrites(rows: ReadRow[]): ReadRow[] {
  return rows
    .map((r) => ({ r, key: writesSortKey(r.e ?? "", r.b!, Number(r.n)) }))
    .sort((x, y) => compareWritesSortKeys(x.key, y.key))
    .map((x) => x.r);
}

function parseJson<T>(text: string, where: () => string): T {
  try {
    return JSON.parse(text) as T;
  } catch (err) {
    throw corrupt(`${where()} cannot be decoded (${(err as Error).message})`, {}, err);
  }
}

function corrupt(message: string, details: Record<string, unknown>, cause?: unknown): MemoryError {
  return new MemoryError(ErrorCodes.CHECKPOINT_CORRUPT, message, { details, cause });
}

/** String order by Unicode code point: the order of Postgres' "C" collation on UTF-8. */
function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const x = Buffer.from(a, "utf8");
  const y = Buffer.from(b, "utf8");
  return Buffer.compare(x, y);
}

function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function valueKey(threadId: string, ns: string, channel: string, version: string): string {
  return `${threadId}\u0000${ns}\u0000${channel}\u0000${version}`;
}

function cpKey(threadId: string, ns: string, id: string): string {
  return `${threadId}\u0000${ns}\u0000${id}`;
}
