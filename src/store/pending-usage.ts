/**
 * Usage marks (`last_used_at`, `access_count`) recorded off the response path: the load-memory
 * node queues what it injected and returns; the marks are written a moment later, batched (one
 * UPDATE per scope for every mark queued meanwhile, default 1 s later). On PGlite every statement
 * runs on the one thread that also answers the user, so a mark written inline costs the turn its
 * full price (~0.5 ms); batched after the turn it costs a fraction, while the agent waits on its
 * model. Repeated marks of one memory within the delay are one row update: each update writes a
 * new version of the whole (2 KB+) row, and PGlite runs no autovacuum to reclaim the old ones.
 *
 * A mark is lost only if the process stops (or the database is closed) within the delay without
 * `flush()`. The store's own reads of usage fields (`get`, `list`, `export`) flush first, so this
 * process always reads its own marks; `search` does not wait (its recency may lag by the delay).
 */
import { type Database, dbScopeOf, type Queryable } from "../db/database.js";
import type { ResolvedScope } from "../core/scope.js";
import { markUsedBatchSql } from "./memory-queries.js";

export interface UsageMark {
  /** Times marked since the last flush. */
  count: number;
  /** When it was last marked. */
  at: Date;
}

interface Group {
  scope: ResolvedScope;
  include: { tenant?: boolean; global?: boolean };
  marks: Map<string, UsageMark>;
}

/** Default delay between the first queued mark and the write. */
export const USAGE_FLUSH_DELAY_MS = 1_000;
/** Queued marks that trigger a write without waiting for the delay. */
const MAX_PENDING = 2_000;

export class PendingUsage {
  private groups = new Map<string, Group>();
  private pending = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private writing: Promise<number> | null = null;
  private warned = false;

  constructor(
    private readonly db: Database,
    private readonly delayMs: number = USAGE_FLUSH_DELAY_MS,
    private readonly warn: (message: string) => void = console.warn,
  ) {}

  /** Queue marks for ids the scope may read (validated by the caller); written after the delay. */
  add(scope: ResolvedScope, include: { tenant?: boolean; global?: boolean }, ids: readonly string[], at: Date): void {
    if (ids.length === 0) return;
    const key = `${scope.level}\u0000${scope.tenantId ?? ""}\u0000${scope.userId ?? ""}\u0000${include.tenant ? 1 : 0}${include.global ? 1 : 0}`;
    let group = this.groups.get(key);
    if (!group) {
      group = { scope, include: { ...include }, marks: new Map() };
      this.groups.set(key, group);
    }
    for (const id of ids) {
      const mark = group.marks.get(id);
      if (mark) {
        mark.count++;
        if (at > mark.at) mark.at = at;
      } else {
        group.marks.set(id, { count: 1, at });
        this.pending++;
      }
    }
    if (this.pending >= MAX_PENDING) this.schedule(0);
    else this.schedule(this.delayMs);
  }

  /**
   * Write every queued mark now (and wait for a write already under way). Returns the rows
   * updated. Safe to call any time; a no-op when nothing is queued.
   */
  async flush(): Promise<number> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    let updated = 0;
    // A write under way first: marks queued meanwhile go in the next one.
    while (this.writing) updated += await this.writing;
    if (this.pending === 0) return updated;
    const groups = [...this.groups.values()];
    this.groups = new Map();
    this.pending = 0;
    this.writing = this.write(groups);
    try {
      return updated + (await this.writing);
    } finally {
      this.writing = null;
    }
  }

  /** {@link flush} for readers: a failed write is reported (once), never thrown at the reader. */
  async settle(): Promise<void> {
    if (this.pending === 0 && !this.writing) return;
    try {
      await this.flush();
    } catch (err) {
      this.report(err);
    }
  }

  private schedule(delay: number): void {
    if (this.timer) {
      if (delay > 0) return;
      clearTimeout(this.timer);
    }
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flush().catch((err) => this.report(err));
    }, Math.min(delay, 2_147_483_647));
    // Never keep a process alive for usage statistics.
    this.timer.unref?.();
  }

  private async write(groups: Group[]): Promise<number> {
    if (this.db.closed) return 0;
    let updated = 0;
    for (const g of groups) {
      const ids: string[] = [];
      const ats: Date[] = [];
      const counts: number[] = [];
      for (const [id, mark] of g.marks) {
        ids.push(id);
        ats.push(mark.at);
        counts.push(mark.count);
      }
      const { sql, params } = markUsedBatchSql(g.scope, g.include, ids, ats, counts);
      updated += await this.db.transaction(async (tx: Queryable) => (await tx.query(sql, params)).rowCount, { scope: dbScopeOf(g.scope) });
    }
    return updated;
  }

  private report(err: unknown): void {
    // The database was closed (or its schema dropped) with marks queued: shutdown, nothing to report.
    const sqlstate = (err as { details?: { sqlstate?: unknown } })?.details?.sqlstate;
    if (this.db.closed || sqlstate === "42P01" || sqlstate === "3F000" || this.warned) return;
    this.warned = true;
    const code = (err as { code?: unknown })?.code;
    this.warn(`langgraph-memory: could not record memory usage (last_used_at/access_count) in the background${typeof code === "string" ? ` (${code})` : ""}; later marks are still tried`);
  }
}
