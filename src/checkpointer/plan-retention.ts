/** One checkpoint as retention sees it. */
export interface RetentionRow {
  ns: string;
  id: string;
  parent: string | null;
  /** LangGraph's `counters_since_delta_snapshot`: the delta channels not stored in this checkpoint. */
  counters: Record<string, unknown> | null;
  /** Channels this checkpoint holds a stored value for. */
  stored: string[] | null;
}

/**
 * Which checkpoints of one thread to delete when keeping the last `keepLast` per namespace.
 *
 * A kept checkpoint may still need ancestors: a LangGraph `DeltaChannel` stores no value in most
 * checkpoints and is rebuilt by replaying the writes of ancestors back to the nearest one that
 * stored a snapshot (`getDeltaChannelHistory`). LangGraph lists such channels in the checkpoint's
 * metadata (`counters_since_delta_snapshot`); for each of them, every ancestor up to and including
 * the one holding a stored value is kept too. (Our own storage needs no ancestor: a checkpoint
 * refers to items, which are kept while any remaining checkpoint or write refers to them.)
 */
export function checkpointsToDelete(rows: RetentionRow[], keepLast: number): RetentionRow[] {
  const byKey = new Map<string, RetentionRow>();
  const byNs = new Map<string, RetentionRow[]>();
  for (const row of rows) {
    byKey.set(key(row.ns, row.id), row);
    const list = byNs.get(row.ns) ?? [];
    list.push(row);
    byNs.set(row.ns, list);
  }
  const keep = new Set<string>();
  for (const list of byNs.values()) {
    list.sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
    for (const row of list.slice(0, Math.max(0, keepLast))) keep.add(key(row.ns, row.id));
  }
  for (const k of [...keep]) {
    const row = byKey.get(k)!;
    for (const channel of Object.keys(row.counters ?? {})) {
      if (storedAt(row, channel)) continue;
      let cursor = row.parent;
      while (cursor !== null) {
        const ancestor = byKey.get(key(row.ns, cursor));
        if (!ancestor) break;
        keep.add(key(ancestor.ns, ancestor.id));
        if (storedAt(ancestor, channel)) break;
        cursor = ancestor.parent;
      }
    }
  }
  return rows.filter((row) => !keep.has(key(row.ns, row.id)));
}

function storedAt(row: RetentionRow, channel: string): boolean {
  return row.stored?.includes(channel) ?? false;
}

function key(ns: string, id: string): string {
  return `${ns}\u0000${id}`;
}
