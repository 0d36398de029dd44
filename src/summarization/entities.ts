import { emptyEntities, type SummaryEntities } from "../state/types.js";

export const ENTITY_KEYS = ["people", "places", "numbers", "dates", "decisions", "openTasks"] as const satisfies ReadonlyArray<keyof SummaryEntities>;

/**
 * Most items kept per list. When a list is full, the first-seen items stay and new ones are not
 * added: facts stated early (a name, an order number) are the ones repeated summarisation loses.
 */
export const DEFAULT_ENTITY_LIMITS: Readonly<Record<keyof SummaryEntities, number>> = {
  people: 20,
  places: 15,
  numbers: 25,
  dates: 20,
  decisions: 15,
  openTasks: 15,
};

/** Longest entity item kept, in characters (longer ones are shortened at a word boundary). */
export const MAX_ENTITY_CHARS = 160;

export interface MergeEntitiesOptions {
  limits?: Partial<Record<keyof SummaryEntities, number>>;
  /** Open tasks reported done: removed from `openTasks` (matched case- and punctuation-insensitively). */
  closedTasks?: readonly string[];
}

/**
 * Merge entity lists deterministically: previous items first in their order, then new ones not
 * already present (compared case- and punctuation-insensitively), each list capped keeping the
 * first-seen. Nothing from `previous` is lost except closed tasks and what the caps cut.
 *
 * @example
 * mergeEntities({ …, people: ["Priya"] }, { …, people: ["priya", "Tom"] }).people // → ["Priya", "Tom"]
 */
export function mergeEntities(
  previous: Partial<SummaryEntities> | null | undefined,
  next: Partial<SummaryEntities> | null | undefined,
  options: MergeEntitiesOptions = {},
): SummaryEntities {
  const limits = { ...DEFAULT_ENTITY_LIMITS, ...options.limits };
  const closed = new Set((options.closedTasks ?? []).map(entityKey));
  const out = emptyEntities();
  for (const key of ENTITY_KEYS) {
    const seen = new Set<string>();
    for (const source of [previous?.[key], next?.[key]]) {
      if (!Array.isArray(source)) continue;
      for (const raw of source) {
        if (out[key].length >= limits[key]) break;
        if (typeof raw !== "string") continue;
        const item = cleanEntity(raw);
        const k = entityKey(item);
        if (!k || seen.has(k) || (key === "openTasks" && closed.has(k))) continue;
        seen.add(k);
        out[key].push(item);
      }
    }
  }
  return out;
}

/** Normalised identity of an entity item. */
export function entityKey(item: string): string {
  return item
    .toLowerCase()
    .replace(/[\s\u00a0]+/g, " ")
    .replace(/^[\s"'“”‘’.,;:!?-]+|[\s"'“”‘’.,;:!?-]+$/g, "");
}

function cleanEntity(raw: string): string {
  const item = raw.replace(/\s+/g, " ").trim();
  if (item.length <= MAX_ENTITY_CHARS) return item;
  const cut = item.slice(0, MAX_ENTITY_CHARS - 1);
  const space = cut.lastIndexOf(" ");
  return `${space > MAX_ENTITY_CHARS / 2 ? cut.slice(0, space) : cut}…`;
}
