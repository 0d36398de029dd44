/**
 * What the list and search routes return, computed from a user's inspected memories (per-user
 * sets are small: tens to thousands of rows, one query).
 */
import type { InspectedMemory, MemoryLifecycleStatus } from "../controls/memory-controls.js";
import type { MemoryKind } from "../state/types.js";
import type { ScoredMemory } from "../store/types.js";

/** A memory in a list: with its search score when it was found by ranked retrieval. */
export interface ListedMemory extends InspectedMemory {
  /** Retrieval score (0.8·relevance + 0.2·recency by default) when `q` found it by search; null otherwise. */
  score: number | null;
}

export interface ListFilter {
  kinds?: readonly MemoryKind[];
  statuses?: readonly MemoryLifecycleStatus[];
}

/** Newest first; then filtered by kind and status. */
export function filterMemories(all: readonly InspectedMemory[], filter: ListFilter): InspectedMemory[] {
  return all
    .filter((m) => (!filter.kinds || filter.kinds.includes(m.kind)) && (!filter.statuses || filter.statuses.includes(m.status)))
    .sort((a, b) => (a.createdAt === b.createdAt ? a.id.localeCompare(b.id) : a.createdAt < b.createdAt ? 1 : -1));
}

/**
 * Search results: the ranked retrieval hits first (what the agent would be given, best first),
 * then every other memory whose text contains the query (case-insensitive) — so a search also
 * finds replaced or inactive wordings and exact words retrieval ranked below its floor.
 */
export function searchResults(filtered: readonly InspectedMemory[], hits: readonly ScoredMemory[], query: string): ListedMemory[] {
  const byId = new Map(filtered.map((m) => [m.id, m]));
  const out: ListedMemory[] = [];
  const seen = new Set<string>();
  for (const h of hits) {
    const m = byId.get(h.id);
    if (!m || seen.has(h.id)) continue;
    seen.add(h.id);
    out.push({ ...m, score: round(h.score) });
  }
  const needle = query.trim().toLocaleLowerCase();
  if (needle) {
    for (const m of filtered) if (!seen.has(m.id) && m.text.toLocaleLowerCase().includes(needle)) out.push({ ...m, score: null });
  }
  return out;
}

/**
 * The versions around one memory: `previous` are the wordings it replaced (transitively, newest
 * first), `newer` the ones that replaced it (oldest first, ending with the current version).
 */
export function versionsOf(all: readonly InspectedMemory[], id: string): { previous: InspectedMemory[]; newer: InspectedMemory[] } {
  const byId = new Map(all.map((m) => [m.id, m]));
  const previous: InspectedMemory[] = [];
  const seen = new Set<string>([id]);
  let frontier = [id];
  while (frontier.length > 0) {
    const next: string[] = [];
    for (const cur of frontier) {
      for (const prevId of byId.get(cur)?.supersedes ?? []) {
        const p = byId.get(prevId);
        if (!p || seen.has(prevId)) continue;
        seen.add(prevId);
        previous.push(p);
        next.push(prevId);
      }
    }
    frontier = next;
  }
  previous.sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
  const newer: InspectedMemory[] = [];
  let cur = byId.get(id)?.supersededBy ?? null;
  while (cur && !seen.has(cur)) {
    seen.add(cur);
    const m = byId.get(cur);
    if (!m) break;
    newer.push(m);
    cur = m.supersededBy;
  }
  return { previous, newer };
}

function round(v: number): number {
  return Math.round(v * 1000) / 1000;
}
