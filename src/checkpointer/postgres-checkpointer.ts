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
import { SqlState, sqlStateOf } from "../db/sqlstate.js";
import { openDatabase, type OpenDatabaseOptions } from "../db/open.js";
import { migrate } from "../db/migrate.js";
import { ErrorCodes, MemoryError, invalidInput } from "../errors.js";
import { checkIdText } from "../core/well-formed-text.js";
import { forgetOwners, ownerOfConfigurable, rememberOwner, threadScopeMismatch, type ThreadOwner } from "../threads/thread-owner.js";
import { DEFAULTS, type PostgresCheckpointerOptions } from "./options.js";
import { nextChannelVersion } from "./versions.js";
import { joinCheckpoint, splitCheckpoint, type CheckpointColumns } from "./checkpoint-row.js";
import { CheckpointCache, ThreadCache, type ChannelState, type ItemSource } from "./thread-cache.js";
import { Dumper, ValuePlanner, digest, joinRecord, needsHash, rethrowUnserializable } from "./plan-value.js";
import { expandRanges, isInlineRef, isRef, refSeqs, type RecordRef, type Ref } from "./refs.js";
import { ThreadLocks } from "./thread-lock.js";
import { MessageDecoder } from "./message-decoder.js";
import { readRowOf, type CheckpointReadRow, type ItemReadRow, type ReadWireRow, type WritesReadRow } from "./read-rows.js";
import { queryPrepared } from "./prepared-query.js";
import { fingerprintOf, type Fingerprint } from "./item-fingerprint.js";
import { checkpointsToDelete, type RetentionRow } from "./plan-retention.js";
import {
  DELETE_THREAD_SQL,
  PRUNE_DELETE_CHECKPOINTS_SQL,
  PRUNE_ITEMS_SQL,
  PRUNE_SCAN_SQL,
  PUT_FROM_ANCESTORS_SQL,
  PUT_SQL,
  PUT_WRITES_IN_BLOCK_SQL,
  PUT_WRITES_SQL,
  SWEEP_IDLE_THREADS_SQL,
  THREAD_WITH_OWNER_SQL,
  readSql,
  type PutParams,
  type PutWritesInBlockParams,
  type PutWritesParams,
  type SourceParams,
  type StoreRow,
} from "./sql.js";

// One each per module: constructing a TextDecoder costs more than decoding a checkpoint's metadata.
const UTF8_DECODER = new TextDecoder();
const UTF8_ENCODER = new TextEncoder();

/** A thread's row: who owns it, when it was active, and the size of its conversation. */
export interface CheckpointThread {
  threadId: string;
  /** The owner recorded at the thread's first use (migration 0008's `thread_owners`; null: nobody's). */
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

/** Parameters of `readSql` before the `where` clause's own (cache, limit, caller's scope, guarded thread). */
const READ_FIXED_PARAMS = 7;

/**
 * A LangGraph checkpointer on Postgres: server Postgres through `pg` or embedded PGlite, with the
 * same SQL. It stores what changed — a new version of a messages channel stores only the messages
 * it adds — so a conversation's storage grows linearly; one statement per put; reads in one round
 * trip whose cost follows what they return; a thread row with owner and token counts; retention.
 * A thread belongs to the `tenant_id` / `user_id` of the config that first stored it (nobody, for
 * a config without them), and every read and write of it checks that in its own statement: another
 * scope gets THREAD_SCOPE_MISMATCH, with nothing read or written; `list()` without a thread id
 * returns only the caller's threads. See docs/checkpointer.md.
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
  private readonly locks = new ThreadLocks();
  private readonly decoder: MessageDecoder | undefined;
  /** Whether reads ask for JSON items as text (see `readRows`). */
  private itemsAsText = true;
  private readonly putsSincePrune = new Map<string, number>();
  private sweeper?: NodeJS.Timeout;

  constructor(db: Database, options: PostgresCheckpointerOptions = {}, ownsDatabase = false) {
    super(options.serde);
    this.db = db;
    this.options = options;
    this.ownsDatabase = ownsDatabase;
    this.cache = new CheckpointCache(options.cacheMaxItems ?? DEFAULTS.cacheMaxItems);
    this.decoder = MessageDecoder.for(this.serde);
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

  /**
   * `fromUrl` under the name `PostgresSaver` users know: open (and migrate) the database the
   * connection string names and return a checkpointer that owns it.
   *
   * @example
   * const checkpointer = await PostgresCheckpointer.fromConnString("postgres://localhost/app");
   * await checkpointer.setup();
   */
  static async fromConnString(connString: string, options: PostgresCheckpointerOptions & OpenDatabaseOptions = {}): Promise<PostgresCheckpointer> {
    return PostgresCheckpointer.fromUrl(connString, options);
  }

  /**
   * Create or update the tables, as `PostgresSaver.setup()` does: applies the pending migrations
   * (none when the database was opened with the default `autoMigrate`). Idempotent, and safe to
   * call from several processes at once (the migrations run under an advisory lock).
   *
   * @example
   * const checkpointer = await PostgresCheckpointer.fromConnString(url);
   * await checkpointer.setup(); // as with PostgresSaver; nothing left to do here
   */
  async setup(): Promise<void> {
    await migrate(this.db);
    await this.db.refreshCapabilities();
  }

  /** The next integer, also after string versions another saver wrote (see `nextChannelVersion`). */
  override getNextVersion(current: number | undefined): number {
    return nextChannelVersion(current);
  }

  async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    const { thread_id, checkpoint_ns = "", checkpoint_id } = config.configurable ?? {};
    if (thread_id === undefined || thread_id === null) return undefined;
    const threadId = checkIdText(String(thread_id), "config.configurable.thread_id");
    const params: unknown[] = [threadId, String(checkpoint_ns)];
    let where = "c.thread_id = $8 AND c.checkpoint_ns = $9";
    if (checkpoint_id) {
      where += " AND c.checkpoint_id = $10";
      params.push(String(checkpoint_id));
    }
    const [tuple] = await this.read(where, params, checkpoint_id ? null : 1, threadId, true, ownerOfConfigurable(config.configurable));
    return tuple;
  }

  async *list(config: RunnableConfig, options: CheckpointListOptions = {}): AsyncGenerator<CheckpointTuple> {
    const { limit, before, filter } = options;
    const cfg = config.configurable ?? {};
    const wheres: string[] = [];
    const params: unknown[] = [];
    const add = (clause: (p: string) => string, value: unknown) => {
      params.push(value);
      wheres.push(clause(`$${params.length + READ_FIXED_PARAMS}`));
    };
    const threadId = cfg.thread_id !== undefined && cfg.thread_id !== null && cfg.thread_id !== "" ? checkIdText(String(cfg.thread_id), "config.configurable.thread_id") : undefined;
    if (threadId !== undefined) add((p) => `c.thread_id = ${p}`, threadId);
    if (cfg.checkpoint_ns !== undefined && cfg.checkpoint_ns !== null) add((p) => `c.checkpoint_ns = ${p}`, String(cfg.checkpoint_ns));
    if (cfg.checkpoint_id) add((p) => `c.checkpoint_id = ${p}`, String(cfg.checkpoint_id));
    if (filter && Object.keys(filter).length > 0) add((p) => `c.metadata @> ${p}::jsonb`, JSON.stringify(filter));
    if (before?.configurable?.checkpoint_id !== undefined) add((p) => `c.checkpoint_id < ${p}`, String(before.configurable.checkpoint_id));
    // Without a thread id: the threads the caller's scope owns (nobody's threads for an unscoped config).
    const owner = ownerOfConfigurable(cfg);
    let remaining = limit === undefined ? Infinity : Math.max(0, Math.floor(Number(limit)));
    let cursor: [string, string, string] | undefined;
    while (remaining > 0) {
      const page = Math.min(remaining, LIST_PAGE);
      const pageWheres = [...wheres];
      const pageParams = [...params];
      if (cursor) {
        const base = pageParams.length + READ_FIXED_PARAMS;
        pageWheres.push(`(c.checkpoint_id, c.thread_id, c.checkpoint_ns) < ($${base + 1}, $${base + 2}, $${base + 3})`);
        pageParams.push(...cursor);
      }
      const where = pageWheres.length > 0 ? pageWheres.join(" AND ") : "TRUE";
      const tuples = await this.read(where, pageParams, page, threadId, false, owner);
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
    const threadId = checkIdText(String(thread_id), "config.configurable.thread_id");
    const ns = String(checkpoint_ns);
    const values = checkpoint.channel_values;
    const [, metadataBytes] = await this.serde.dumpsTyped(metadata).catch(rethrowUnserializable);
    const carried = Object.entries(checkpoint.channel_versions ?? {}).filter(([channel]) => !Object.prototype.hasOwnProperty.call(newVersions, channel));
    const put: PendingPut = {
      threadId,
      ns,
      checkpointId: checkpoint.id,
      parentId: parentId ? String(parentId) : null,
      columns: splitCheckpoint(checkpoint),
      metadataJson: UTF8_DECODER.decode(metadataBytes),
      owner: ownerOfConfigurable(config.configurable),
      values: values ?? {},
      newVersions,
      carried: carried.map(([channel, version]) => [channel, String(version)]),
    };
    await this.locks.run(threadId, () => this.putLocked(put));
    await this.maybePrune(threadId);
    return { configurable: { thread_id: config.configurable.thread_id, checkpoint_ns: ns, checkpoint_id: checkpoint.id } };
  }

  async putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string, taskPath = ""): Promise<void> {
    const { thread_id, checkpoint_ns = "", checkpoint_id } = config.configurable ?? {};
    if (thread_id === undefined || thread_id === null || thread_id === "") throw invalidInput("config.configurable.thread_id", "is missing");
    if (!checkpoint_id) throw invalidInput("config.configurable.checkpoint_id", "is missing; writes belong to a stored checkpoint");
    // One row per idx; a repeated special write (same negative idx) keeps the last, as MemorySaver.
    const byIdx = new Map<number, { channel: string; value: unknown }>();
    writes.forEach(([channel, value], i) => byIdx.set(WRITES_IDX_MAP[channel] ?? i, { channel, value }));
    // Serialize now: LangGraph's reducer assigns ids to these messages in place right after.
    const dumper = new Dumper(this.serde);
    for (const w of byIdx.values()) dumper.prime(w.value);
    const threadId = checkIdText(String(thread_id), "config.configurable.thread_id");
    await this.locks.run(threadId, () =>
      this.putWritesLocked({
        threadId,
        owner: ownerOfConfigurable(config.configurable),
        ns: String(checkpoint_ns),
        checkpointId: String(checkpoint_id),
        taskId: String(taskId),
        taskPath: taskPath ?? "",
        writes: [...byIdx.entries()].map(([idx, w]) => ({ idx, ...w })),
        dumper,
      }),
    );
  }

  /**
   * Delete every row of the thread — checkpoints, values, items, writes, the thread row — and its
   * recorded owner, whoever that is: the operator's and the erasure path (LangGraph's API gives it
   * no config). Apps deleting on a user's behalf check the owner first (`getThread`), as
   * `MemoryControls.deleteAll` does.
   */
  async deleteThread(threadId: string): Promise<void> {
    const id = String(threadId);
    await this.locks.run(id, async () => {
      this.cache.drop(id);
      this.putsSincePrune.delete(id);
      await this.db.query(DELETE_THREAD_SQL, [id]);
      forgetOwners(this.db, [id]);
    });
  }

  /** The thread's row with its owner, or undefined when the thread has no checkpoint (operators: no scope check). */
  async getThread(threadId: string): Promise<CheckpointThread | undefined> {
    const { rows } = await this.db.query<{
      thread_id: string; tenant_id: string | null; user_id: string | null; created_at: Date; updated_at: Date; message_count: number; message_tokens: number;
    }>(THREAD_WITH_OWNER_SQL, [String(threadId)]);
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
    return this.locks.run(id, async () => {
      const result = await this.db.transaction(async (tx) => {
        const { rows } = await tx.query<RetentionRow>(PRUNE_SCAN_SQL, [id]);
        if (rows.length <= keepLast) return { doomed: [] as RetentionRow[], gone: [] as number[] };
        const doomed = checkpointsToDelete(rows, keepLast);
        if (doomed.length === 0) return { doomed, gone: [] as number[] };
        await tx.query(PRUNE_DELETE_CHECKPOINTS_SQL, [id, doomed.map((r) => r.ns), doomed.map((r) => r.id)]);
        const items = await tx.query<{ seq: number }>(PRUNE_ITEMS_SQL, [id]);
        return { doomed, gone: items.rows.map((r) => Number(r.seq)) };
      });
      if (result.doomed.length > 0) this.cache.get(id)?.forget(result.gone, new Set(result.doomed.map((r) => `${r.ns}\u0000${r.id}`)));
      return result.doomed.length;
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
    forgetOwners(this.db, rows.map((r) => r.thread_id));
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

  private async putLocked(put: PendingPut): Promise<void> {
    const { threadId, ns } = put;
    const dumper = new Dumper(this.serde);
    const messagesChannel = this.options.messagesChannel ?? DEFAULTS.messagesChannel;
    let thread = this.cache.get(threadId);
    let numbering = numberingOf(thread);
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const planner = new ValuePlanner(thread, ns, numbering.next, dumper, this.maxRanges, messagesChannel);
      const vals: PlannedValue[] = [];
      let messageCount: number | null = null;
      let messageTokens: number | null = null;
      for (const [channel, rawVersion] of Object.entries(put.newVersions)) {
        // A channel without a value (consumed, cleared) stores nothing: a version with no stored
        // value reads as "no value", exactly what the official saver's 'empty' rows say.
        if (!Object.prototype.hasOwnProperty.call(put.values, channel)) continue;
        const value = put.values[channel];
        const { ref, seqs } = await planner.plan(value, thread?.channels.get(ThreadCache.channelKey(ns, channel)), channel);
        vals.push({ channel, version: String(rawVersion), refText: JSON.stringify(ref), seqs, value });
        if (ns === "" && channel === messagesChannel && Array.isArray(value)) {
          messageCount = value.length;
          messageTokens = seqs.length === value.length ? seqs.reduce((sum, seq) => sum + planner.tokensOf(seq), 0) : 0;
        }
      }
      const params: PutParams = [
        threadId, ns, put.checkpointId, put.parentId,
        put.columns.v, put.columns.ts, put.columns.channelVersions, put.columns.versionsSeen, put.columns.extra,
        put.metadataJson, put.owner.tenantId, put.owner.userId,
        planner.reserved, messageCount, messageTokens, numbering.epoch, numbering.next,
        planner.items.map((i) => i.seq), planner.items.map((i) => i.type), planner.items.map((i) => i.blob), planner.items.map((i) => i.tokens),
        vals.map((v) => v.channel), vals.map((v) => v.refText),
        put.carried.map(([c]) => c), put.carried.map(([, v]) => v),
        ...sourceParams(planner),
      ];
      let row = await this.storeStatement(threadId, PUT_SQL, params);
      if (!row.scope_ok) throw threadScopeMismatch(threadId);
      // The parent does not hold an unchanged channel at the checkpoint's version (not LangGraph's
      // way, but a caller may skip checkpoints): take it from the nearest ancestor that does.
      if (row.parent_ok && row.carry_ok === false) row = await this.storeStatement(threadId, PUT_FROM_ANCESTORS_SQL, params);
      if (!row.parent_ok) {
        throw new MemoryError(
          ErrorCodes.CHECKPOINT_PARENT_MISSING,
          `thread ${threadId}: the parent checkpoint ${put.parentId} (namespace "${ns}") is not stored; it was deleted (retention, deleteThread) or the config names a checkpoint of another thread`,
          { details: { threadId, checkpointNs: ns, parentId: put.parentId } },
        );
      }
      if (row.epoch !== null) {
        this.rememberPut(put, Number(row.epoch), planner, vals);
        rememberOwner(this.db, threadId, put.owner);
        return;
      }
      ({ thread, numbering } = this.afterConflict(threadId, thread, row));
    }
    throw new MemoryError(ErrorCodes.DB_QUERY_FAILED, `thread ${threadId}: the checkpoint could not be stored after ${MAX_ATTEMPTS} attempts (other writers kept changing the thread); nothing was written`, {
      retryable: true,
    });
  }

  private async putWritesLocked(w: PendingWrites): Promise<void> {
    const { threadId, ns } = w;
    let thread = this.cache.get(threadId);
    let numbering = numberingOf(thread);
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const planner = new ValuePlanner(thread, ns, numbering.next, w.dumper, this.maxRanges, this.options.messagesChannel ?? DEFAULTS.messagesChannel);
      const planned: Array<[number, string, Ref]> = [];
      for (const { idx, channel, value } of w.writes) {
        const { ref } = await planner.plan(value, thread?.channels.get(ThreadCache.channelKey(ns, channel)), channel);
        planned.push([idx, channel, ref]);
      }
      const items = planner.items;
      const seqs = items.map((i) => i.seq), types = items.map((i) => i.type), blobs = items.map((i) => i.blob), tokens = items.map((i) => i.tokens);
      // The common case (a stored thread, new items from a block this process holds, nothing
      // reused) has a small statement of its own; anything else takes the full one.
      const row =
        numbering.epoch !== null && planner.reserved === 0 && planner.sources.size === 0
          ? await this.storeStatement(threadId, PUT_WRITES_IN_BLOCK_SQL, [
              threadId, ns, w.checkpointId, w.taskId, w.taskPath, numbering.epoch, seqs, types, blobs, tokens, JSON.stringify(planned), w.owner.tenantId, w.owner.userId,
            ] satisfies PutWritesInBlockParams)
          : await this.storeStatement(threadId, PUT_WRITES_SQL, [
              threadId, ns, w.checkpointId, w.taskId, w.taskPath, planner.reserved, numbering.epoch, numbering.next, items.length, seqs, types, blobs, tokens,
              JSON.stringify(planned), ...sourceParams(planner), w.owner.tenantId, w.owner.userId,
            ] satisfies PutWritesParams);
      if (!row.scope_ok) throw threadScopeMismatch(threadId);
      if (row.ok) {
        if (planner.items.length > 0 && row.epoch !== null) {
          const t = this.learnNumbering(threadId, Number(row.epoch), planner);
          // Only remembered (not kept as values): LangGraph applies these objects next, and its
          // reducer may change them in place.
          const source: ItemSource = { kind: "write", ns, id: w.checkpointId, task: w.taskId };
          for (const item of planner.items) t.remember(item.value, { seq: item.seq, source, fp: item.fp, hash: item.hash, tokens: item.tokens });
          this.cache.trim();
        }
        return;
      }
      ({ thread, numbering } = this.afterConflict(threadId, thread, row));
    }
    throw new MemoryError(ErrorCodes.DB_QUERY_FAILED, `thread ${threadId}: the writes of task ${w.taskId} could not be stored after ${MAX_ATTEMPTS} attempts; nothing was written`, {
      retryable: true,
    });
  }

  /**
   * Run a storing statement. When it fails, its outcome is unknown — a connection lost between
   * COMMIT and the reply leaves the rows stored — so this process forgets the thread's numbering
   * (counter and reserved blocks): otherwise the next put would take item numbers from a block it
   * believes unused and collide with the items the "failed" statement stored. The next statement
   * learns the stored counter (a conflict, then a retry). The cached items stay true: stored items
   * never change, and the failed statement's items were never added.
   */
  private async storeStatement(threadId: string, sql: string, params: readonly unknown[]): Promise<StoreRow> {
    try {
      return (await queryPrepared<StoreRow>(this.db, sql, params)).rows[0];
    } catch (err) {
      const thread = this.cache.get(threadId);
      if (thread) {
        thread.nextSeq = undefined;
        thread.blocks = new Map();
      }
      throw err;
    }
  }

  /**
   * A statement stored nothing because the thread's numbering moved (another process wrote) or a
   * row whose items it reused is gone (retention, deleteThread): retry with the numbering the
   * statement found, reusing only what is still safe to reuse.
   */
  private afterConflict(threadId: string, thread: ThreadCache | undefined, row: StoreRow): { thread: ThreadCache | undefined; numbering: Numbering } {
    if (row.cur_epoch === null) {
      this.cache.drop(threadId);
      return { thread: undefined, numbering: { epoch: null, next: 0 } };
    }
    const epoch = Number(row.cur_epoch);
    const next = Number(row.cur_next);
    if (!row.sources_ok || thread === undefined || thread.epoch !== epoch) {
      this.cache.drop(threadId);
      return { thread: this.cache.ensure(threadId, epoch, next), numbering: { epoch, next } };
    }
    thread.nextSeq = next;
    return { thread, numbering: { epoch, next } };
  }

  /** After a committed statement: the thread's counter and the streams' blocks are what the plan made them. */
  private learnNumbering(threadId: string, epoch: number, planner: ValuePlanner): ThreadCache {
    const thread = this.cache.ensure(threadId, epoch, planner.counter + planner.reserved);
    thread.blocks = planner.blocks;
    return thread;
  }

  /** After a committed put: the cache learns the new items and the channels' new references. */
  private rememberPut(put: PendingPut, epoch: number, planner: ValuePlanner, vals: PlannedValue[]): void {
    const { threadId, ns } = put;
    const thread = this.learnNumbering(threadId, epoch, planner);
    const source = { kind: "cp" as const, ns, id: put.checkpointId };
    for (const item of planner.items) {
      thread.addItem(item.seq, item.value, item.tokens, item.hash, item.fp);
      thread.remember(item.value, { seq: item.seq, source, fp: item.fp, hash: item.hash, tokens: item.tokens });
    }
    // Items found among recent writes: now part of a value, kept like the value's other items.
    for (const m of planner.matched.values()) if (!thread.items.has(m.seq)) thread.addItem(m.seq, m.value, m.tokens, m.hash, m.fp);
    for (const v of vals) {
      thread.channels.set(ThreadCache.channelKey(ns, v.channel), {
        version: v.version,
        source,
        refText: v.refText,
        seqs: v.seqs,
        values: Array.isArray(v.value) ? v.value.slice() : undefined,
      });
    }
    for (const channel of Object.keys(put.newVersions)) {
      if (!vals.some((v) => v.channel === channel)) thread.channels.delete(ThreadCache.channelKey(ns, channel));
    }
    // Unchanged channels were copied from the parent: this checkpoint now holds them too.
    for (const [channel, version] of put.carried) {
      const state = thread.channels.get(ThreadCache.channelKey(ns, channel));
      if (state && state.source.ns === ns && state.source.id === put.parentId && state.version === version) state.source = source;
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
   * read is confined to (its cached items need not be fetched); `seed` records the read
   * checkpoint's values and pending writes as the base of the next put (getTuple: the checkpoint a
   * run resumes).
   */
  private async read(where: string, params: unknown[], limit: number | null, cacheThread: string | undefined, seed: boolean, owner: ThreadOwner): Promise<CheckpointTuple[]> {
    const useReadCache = this.options.readCache ?? true;
    const cached = cacheThread !== undefined ? this.cache.get(cacheThread) : undefined;
    const knownParams = useReadCache && cached ? [cacheThread, cached.epoch, cached.knownMultirange()] : [null, null, "{}"];
    const rows = await this.readRows(where, [...knownParams, limit, owner.tenantId, owner.userId, cacheThread ?? null, ...params]);
    const cps: CheckpointReadRow[] = [];
    const itemRows = new Map<string, ItemReadRow[]>();
    const writes = new Map<string, WritesReadRow[]>();
    const sends = new Map<string, WritesReadRow[]>();
    for (const wire of rows) {
      const row = readRowOf(wire);
      switch (row?.kind) {
        case "checkpoint": cps.push(row); break;
        case "item": pushTo(itemRows, row.threadId, row); break;
        case "writes": pushTo(writes, cpKey(row.threadId, row.ns, row.checkpointId), row); break;
        case "parentSends": pushTo(sends, cpKey(row.threadId, row.ns, row.checkpointId), row); break;
        case "foreignThread": throw threadScopeMismatch(row.threadId);
      }
    }
    cps.sort((x, y) => compareCodePoints(y.id, x.id) || compareCodePoints(y.threadId, x.threadId) || compareCodePoints(y.ns, x.ns));

    // Items: decoded once per read, shared by every value and write that refers to them.
    const threadItems = new Map<string, Map<number, unknown>>();
    const threadCaches = new Map<string, ThreadCache>();
    // Fetched items of the cached thread as they were decoded (for remembering pending writes).
    const itemRowInfo = new Map<number, { fp: Fingerprint; hash?: string; tokens: number }>();
    for (const cp of cps) {
      if (cacheThread === undefined || cp.threadId !== cacheThread || cp.epoch === null || threadCaches.has(cp.threadId)) continue;
      threadCaches.set(cp.threadId, this.cache.ensure(cp.threadId, cp.epoch, Number(cp.nextItemSeq)));
    }
    for (const [threadId, list] of itemRows) {
      const decoded = await this.decodeItems(list, threadId);
      const map = new Map<number, unknown>();
      const tc = threadCaches.get(threadId);
      list.forEach((r, i) => {
        const seq = r.seq;
        map.set(seq, decoded[i]);
        const hash = needsHash(decoded[i]) ? digest(r.data) : undefined;
        if (tc) {
          tc.addItem(seq, decoded[i], r.tokens, hash);
          itemRowInfo.set(seq, { fp: fingerprintOf(decoded[i]), hash, tokens: r.tokens });
        }
      });
      threadItems.set(threadId, map);
    }

    const tuples: CheckpointTuple[] = [];
    for (const cp of cps) {
      const { threadId, ns, id } = cp;
      const where = () => `checkpoint ${id} of thread ${threadId} (namespace "${ns}")`;
      const tc = threadCaches.get(threadId);
      const items: ItemLookup = { fetched: threadItems.get(threadId), cached: tc };
      const checkpoint = joinCheckpoint(id, {
        v: cp.v,
        ts: cp.ts,
        channelVersions: parseJson(cp.channelVersions, where),
        versionsSeen: parseJson(cp.versionsSeen, where),
        extra: cp.extra === null ? null : parseJson<Record<string, unknown>>(cp.extra, where),
      });
      const vals = parseJson<Record<string, unknown>>(cp.vals, where);
      const seeds: Array<[string, ChannelState]> = [];
      const source = { kind: "cp" as const, ns, id };
      for (const [channel, raw] of Object.entries(vals)) {
        const what = () => `${where()}: channel ${channel}`;
        const ref = asRef(raw, what);
        const refText = JSON.stringify(ref);
        const known = useReadCache ? tc?.channels.get(ThreadCache.channelKey(ns, channel)) : undefined;
        if (known?.values && known.refText === refText) {
          // The value this process last wrote or read: copy it (one array of references).
          checkpoint.channel_values[channel] = known.values.slice();
          continue;
        }
        const value = await this.resolve(ref, items, what);
        checkpoint.channel_values[channel] = value;
        if (seed && tc) {
          const version = String(checkpoint.channel_versions[channel] ?? "");
          seeds.push([ThreadCache.channelKey(ns, channel), { version, source, refText, seqs: refSeqs(ref), values: Array.isArray(value) ? value.slice() : undefined }]);
        }
      }
      const pendingSends = expandWrites(sends.get(cpKey(threadId, ns, id)) ?? [], where).filter((w) => w.channel === TASKS);
      if (pendingSends.length > 0 && (checkpoint.v ?? 0) < 4) {
        checkpoint.channel_values[TASKS] = await Promise.all(pendingSends.map((w) => this.resolve(w.ref, items, where)));
        const versions = Object.values(checkpoint.channel_versions);
        checkpoint.channel_versions[TASKS] = versions.length > 0 ? maxChannelVersion(...versions) : this.getNextVersion(undefined);
      }
      const pendingWrites: CheckpointPendingWrite[] = [];
      for (const w of expandWrites(writes.get(cpKey(threadId, ns, id)) ?? [], where)) {
        const what = () => `${where()}: write ${w.idx} of task ${w.task}`;
        pendingWrites.push([w.task, w.channel, await this.resolve(w.ref, items, what)]);
        if (seed && tc) {
          const writeSource: ItemSource = { kind: "write", ns, id, task: w.task };
          const ref = w.ref;
          for (const seq of refSeqs(ref)) {
            const value = itemValue(seq, items, what);
            const info = tc.items.get(seq);
            const fetched = items.fetched?.get(seq) === value ? itemRowInfo.get(seq) : undefined;
            if (info && info.value === value) tc.remember(value, { seq, source: writeSource, fp: info.fp, hash: info.hash, tokens: info.tokens });
            else if (fetched) tc.remember(value, { seq, source: writeSource, ...fetched });
          }
        }
      }
      const metadata = (await this.decode("json", UTF8_ENCODER.encode(cp.metadata), where)) as CheckpointMetadata;
      const tuple: CheckpointTuple = {
        config: { configurable: { thread_id: threadId, checkpoint_ns: ns, checkpoint_id: id } },
        checkpoint,
        metadata,
        pendingWrites,
      };
      if (cp.parentId) tuple.parentConfig = { configurable: { thread_id: threadId, checkpoint_ns: ns, checkpoint_id: cp.parentId } };
      if (tc) for (const [key, state] of seeds) tc.channels.set(key, state);
      tuples.push(tuple);
    }
    this.cache.trim();
    return tuples;
  }

  /**
   * The read statement's rows, JSON items as text. When an item's bytes cannot be converted (not
   * UTF-8 although typed json, or a database encoding that lacks a character), read again with
   * every item as bytea; a database whose encoding cannot hold such text gets bytea from then on.
   */
  private async readRows(where: string, params: unknown[]): Promise<ReadWireRow[]> {
    if (this.itemsAsText) {
      try {
        return (await queryPrepared<ReadWireRow>(this.db, readSql(where, true), params)).rows;
      } catch (err) {
        const state = sqlStateOf(err);
        if (state !== SqlState.CHARACTER_NOT_IN_REPERTOIRE && state !== SqlState.UNTRANSLATABLE_CHARACTER) throw err;
        if (state === SqlState.UNTRANSLATABLE_CHARACTER) this.itemsAsText = false;
      }
    }
    return (await queryPrepared<ReadWireRow>(this.db, readSql(where, false), params)).rows;
  }

  /** Rebuild a value from its reference. */
  private async resolve(ref: Ref, items: ItemLookup, where: () => string): Promise<unknown> {
    if (typeof ref === "number") return itemValue(ref, items, where);
    if (Array.isArray(ref)) return expandRanges(ref).map((seq) => itemValue(seq, items, where));
    if (isInlineRef(ref)) return this.decode("json", UTF8_ENCODER.encode(JSON.stringify(ref.v)), where);
    const record = ref as RecordRef;
    const elements = expandRanges(record.i).map((seq) => itemValue(seq, items, where));
    const rest = "v" in record ? await this.decode("json", UTF8_ENCODER.encode(JSON.stringify(record.v)), where) : elements.shift();
    try {
      return joinRecord(rest, record.k, elements);
    } catch (err) {
      throw corrupt(`${where()}: ${(err as Error).message}`, {}, err);
    }
  }

  /** Items' values: plain messages decoded synchronously (see `MessageDecoder`), the rest by the serializer. */
  private async decodeItems(list: ItemReadRow[], threadId: string): Promise<unknown[]> {
    const out: unknown[] = new Array(list.length);
    const pending: Array<Promise<void>> = [];
    list.forEach((r, i) => {
      const fast = this.decoder?.decode(r.type, r.data);
      if (fast !== undefined) out[i] = fast;
      else {
        const bytes = typeof r.data === "string" ? UTF8_ENCODER.encode(r.data) : r.data;
        pending.push(this.decode(r.type, bytes, () => `item ${r.seq} of thread ${threadId}`).then((v) => void (out[i] = v)));
      }
    });
    await Promise.all(pending);
    return out;
  }

  private async decode(type: string, bytes: Uint8Array, where: () => string): Promise<unknown> {
    try {
      return await this.serde.loadsTyped(type, bytes);
    } catch (err) {
      throw corrupt(`${where()} cannot be decoded (${(err as Error).message}); restore it from a backup or delete the thread`, { type }, err);
    }
  }

  private get maxRanges(): number {
    return this.options.maxItemRanges ?? DEFAULTS.maxItemRanges;
  }
}

const MAX_ATTEMPTS = 4;

/** The thread's item numbering a statement assumes: epoch null and 0 for a thread not stored yet. */
interface Numbering {
  epoch: number | null;
  next: number;
}

function numberingOf(thread: ThreadCache | undefined): Numbering {
  return thread?.nextSeq !== undefined ? { epoch: thread.epoch, next: thread.nextSeq } : { epoch: null, next: 0 };
}

interface PendingPut {
  threadId: string;
  ns: string;
  checkpointId: string;
  parentId: string | null;
  columns: CheckpointColumns;
  metadataJson: string;
  /** The caller's scope: must be the thread's owner (recorded by the thread's first put). */
  owner: ThreadOwner;
  values: Record<string, unknown>;
  newVersions: ChannelVersions;
  /** Channels whose version did not change, with that version. */
  carried: Array<[string, string]>;
}

interface PendingWrites {
  threadId: string;
  owner: ThreadOwner;
  ns: string;
  checkpointId: string;
  taskId: string;
  taskPath: string;
  writes: Array<{ idx: number; channel: string; value: unknown }>;
  dumper: Dumper;
}

interface PlannedValue {
  channel: string;
  version: string;
  refText: string;
  seqs: number[];
  value: unknown;
}

interface ItemLookup {
  fetched: Map<number, unknown> | undefined;
  cached: ThreadCache | undefined;
}

function itemValue(seq: number, items: ItemLookup, where: () => string): unknown {
  if (items.fetched?.has(seq)) return items.fetched.get(seq);
  const cached = items.cached?.items.get(seq);
  if (!cached) {
    throw new MemoryError(ErrorCodes.CHECKPOINT_PARENT_MISSING, `${where()} refers to item ${seq}, which is not stored; the thread was pruned or edited outside the checkpointer`, {
      details: { seq },
    });
  }
  return cached.value;
}

function asRef(raw: unknown, where: () => string): Ref {
  if (!isRef(raw)) throw corrupt(`${where()} has a malformed value reference`, { ref: raw });
  return raw;
}

/** The rows the plan reuses items from (all in the statement's namespace, see `ValuePlanner`). */
function sourceParams(planner: ValuePlanner): SourceParams {
  const cps = [...planner.sources.values()].filter((s) => s.kind === "cp");
  const ws = [...planner.sources.values()].filter((s): s is Extract<ItemSource, { kind: "write" }> => s.kind === "write");
  return [cps.map((s) => s.id), ws.map((s) => s.id), ws.map((s) => s.task), ws.map((s) => `${s.id}\u0001${s.task}`)];
}

interface FlatWrite {
  task: string;
  path: string;
  idx: number;
  channel: string;
  ref: Ref;
}

/** The writes of task rows, one entry per write, in LangGraph's write order. */
function expandWrites(rows: WritesReadRow[], where: () => string): FlatWrite[] {
  const out: FlatWrite[] = [];
  for (const row of rows) {
    const what = () => `${where()}: the writes of task ${row.taskId}`;
    const list = parseJson<unknown>(row.writes, what);
    if (!Array.isArray(list)) throw corrupt(`${what()} are malformed`, { task: row.taskId });
    for (const entry of list) {
      if (!Array.isArray(entry) || entry.length !== 3 || !Number.isInteger(entry[0]) || typeof entry[1] !== "string") {
        throw corrupt(`${what()} are malformed`, { task: row.taskId });
      }
      out.push({ task: row.taskId, path: row.taskPath, idx: entry[0] as number, channel: entry[1], ref: asRef(entry[2], what) });
    }
  }
  return out
    .map((w) => ({ w, key: writesSortKey(w.path, w.task, w.idx) }))
    .sort((x, y) => compareWritesSortKeys(x.key, y.key))
    .map((x) => x.w);
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
