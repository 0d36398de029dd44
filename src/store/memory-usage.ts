/**
 * The typed door's usage recorder: `last_used_at` and `access_count` of memories injected into
 * prompts, written at once (`markUsed`) or queued and batched off the response path
 * (`markUsedLater`, over `pending-usage.ts`); and the door's usage events
 * ({@link MemoryUsageListener}) for what is built over the store.
 */
import { type Database, dbScopeOf } from "../db/database.js";
import { resolveScope, type MemoryScope, type ResolvedScope } from "../core/scope.js";
import { PendingUsage, USAGE_FLUSH_DELAY_MS } from "./pending-usage.js";
import { markUsedSql } from "./memory-record-queries.js";
import { IdListSchema, MemoryIdSchema, parseInclude, parseInput, DelayMsSchema } from "./memory-input-schemas.js";
import type { MemoryUsageListener, UserMemoryScope } from "./memory-usage-events.js";
import type { MemorySearchOptions } from "./types.js";

/** Options of a usage mark: which shared scopes the marked ids may be in, and when. */
export interface UsageMarkOptions {
  include?: MemorySearchOptions["include"];
  now?: Date;
}

/**
 * @example
 * const usage = new MemoryUsageRecorder(db, { now: () => new Date() });
 * usage.markUsedLater(alice, ids);
 * await usage.flush();
 */
export class MemoryUsageRecorder {
  private readonly pending: PendingUsage;
  private readonly listeners = new Set<MemoryUsageListener>();

  constructor(
    private readonly db: Database,
    private readonly clock: { now(): Date },
    flushMs: number = USAGE_FLUSH_DELAY_MS,
  ) {
    parseInput(DelayMsSchema, flushMs, "usageFlushMs");
    this.pending = new PendingUsage(db, flushMs);
  }

  /** Subscribe to usage and change events; returns the unsubscribe. */
  listen(listener: MemoryUsageListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Tell the listeners that a user's memories changed (tenant and global scopes name no user: nothing is said). */
  changed(scope: Pick<ResolvedScope, "level" | "tenantId" | "userId">): void {
    if (scope.level !== "user") return;
    const user = userScope(scope);
    for (const l of this.listeners) l.onChanged?.(user);
  }

  /**
   * Record that memories were injected into a prompt: `last_used_at = now`, `access_count + 1`.
   * One statement; ids outside what the scope may read are ignored.
   */
  async markUsed(scope: MemoryScope, ids: readonly string[], options: UsageMarkOptions = {}): Promise<number> {
    const { s, include } = checkMark(scope, ids, options);
    if (ids.length === 0) return 0;
    return this.db.transaction(async (tx) => {
      const { sql, params } = markUsedSql(s, include!, ids, options.now ?? this.clock.now());
      const { rowCount } = await tx.query(sql, params);
      // A direct mark may move last_used_at back (a usage-only change, not versioned): drop the cached rows.
      this.changed(s);
      return rowCount;
    }, { scope: dbScopeOf(s) });
  }

  /** Queue the marks of {@link markUsed}, written after the flush delay; checks its arguments now. */
  markUsedLater(scope: MemoryScope, ids: readonly string[], options: UsageMarkOptions = {}): void {
    const { s, include } = checkMark(scope, ids, options);
    if (ids.length === 0) return;
    const at = options.now ?? this.clock.now();
    this.pending.add(s, include!, ids, at);
    if (s.level !== "user") return;
    const user = userScope(s);
    for (const l of this.listeners) l.onUsed?.(user, ids, at);
  }

  /** Write the queued marks now; returns the rows updated. */
  flush(): Promise<number> {
    return this.pending.flush();
  }

  /** Write the queued marks before a read of usage fields (a failed write is reported, never thrown). */
  settle(): Promise<void> {
    return this.pending.settle();
  }
}

/** The checks of a mark, in the order the door always made them (ids, each id, include). */
function checkMark(scope: MemoryScope, ids: readonly string[], options: UsageMarkOptions): { s: ResolvedScope; include: { tenant?: boolean; global?: boolean } | null } {
  const s = resolveScope(scope);
  parseInput(IdListSchema, ids, "ids");
  if (ids.length === 0) return { s, include: null };
  for (const id of ids) parseInput(MemoryIdSchema, id, "id");
  return { s, include: parseInclude(options.include, s) };
}

function userScope(s: Pick<ResolvedScope, "tenantId" | "userId">): UserMemoryScope {
  return { level: "user", tenantId: s.tenantId, userId: s.userId };
}
