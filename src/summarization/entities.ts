import { emptyEntities, type FactRecency, type SummaryEntities } from "../state/types.js";

/** Every list of the entity field, in the order they are rendered and merged. */
export const ENTITY_KEYS = ["people", "places", "numbers", "references", "dates", "decisions", "commitments", "openTasks", "closedTasks"] as const satisfies ReadonlyArray<keyof SummaryEntities>;
export type EntityKind = (typeof ENTITY_KEYS)[number];

/**
 * Most items kept per list. A full list drops its least recently mentioned item for a new one; the
 * field as a whole is also held to a token budget (see `fitEntities`), least recently mentioned first.
 */
export const DEFAULT_ENTITY_LIMITS: Readonly<Record<EntityKind, number>> = {
  people: 40,
  places: 30,
  numbers: 40,
  references: 40,
  dates: 40,
  decisions: 30,
  commitments: 30,
  openTasks: 30,
  closedTasks: 20,
};

/** Longest entity item kept, in characters (longer ones are shortened at a word boundary). */
export const MAX_ENTITY_CHARS = 160;

export interface MergeEntitiesOptions {
  limits?: Partial<Record<keyof SummaryEntities, number>>;
  /** Open tasks reported done: moved from `openTasks` to `closedTasks` (matched case- and punctuation-insensitively). */
  closedTasks?: readonly string[];
  /** When the previous items were last mentioned (absent: all of them before the first generation). */
  recency?: FactRecency | null;
  /** Recency keys ({@link recencyKey}) of previous items the new messages mention again. */
  mentioned?: ReadonlySet<string>;
}

/** The merged field and when each of its items was last mentioned. */
export interface MergedFacts {
  entities: Required<SummaryEntities>;
  recency: FactRecency;
}

/** Lists of whole sentences (decisions, tasks): near-repeats are merged. */
const SENTENCE_KINDS: ReadonlySet<EntityKind> = new Set(["decisions", "commitments", "openTasks", "closedTasks"]);

/** Identity of an item of a list in {@link FactRecency.lastMentioned}. */
export function recencyKey(kind: EntityKind, item: string): string {
  return `${kind}:${entityKey(item)}`;
}

/**
 * Merge the entity field with what a new summary reported: nothing is re-derived. Previous items
 * stay in their order; new ones not already present (compared case- and punctuation-insensitively)
 * are appended; an item reported again, or in `mentioned`, counts as mentioned in this generation.
 * Closed tasks move from `openTasks` to `closedTasks`. A list over its limit loses its least
 * recently mentioned items. Deterministic.
 *
 * @example
 * mergeFacts({ …, people: ["Priya"] }, { people: ["priya", "Tom"] }).entities.people // → ["Priya", "Tom"]
 */
export function mergeFacts(previous: Partial<SummaryEntities> | null | undefined, next: Partial<SummaryEntities> | null | undefined, options: MergeEntitiesOptions = {}): MergedFacts {
  const limits = { ...DEFAULT_ENTITY_LIMITS, ...options.limits };
  const generation = (options.recency?.generation ?? 0) + 1;
  const before = options.recency?.lastMentioned ?? {};
  const lastMentioned: Record<string, number> = {};
  const closed = new Set((options.closedTasks ?? []).map(entityKey));
  const out = emptyEntities();
  const add = (kind: EntityKind, item: string, when: number) => {
    let k = recencyKey(kind, item);
    // A sentence that holds a recorded one whole ("Noted: Book the hotel.") is that fact mentioned again.
    if (!(k in lastMentioned) && SENTENCE_KINDS.has(kind)) {
      const key = entityKey(item);
      const same = out[kind].find((other) => {
        const o = entityKey(other);
        return Math.min(o.length, key.length) >= 20 && (o.includes(key) || key.includes(o));
      });
      if (same) k = recencyKey(kind, same);
    }
    if (k in lastMentioned) {
      lastMentioned[k] = Math.max(lastMentioned[k], when);
      return;
    }
    out[kind].push(item);
    lastMentioned[k] = when;
  };
  for (const kind of ENTITY_KEYS) {
    for (const raw of list(previous?.[kind])) {
      const item = cleanEntity(raw);
      if (!entityKey(item)) continue;
      const k = recencyKey(kind, item);
      const when = options.mentioned?.has(k) ? generation : (before[k] ?? 0);
      if (kind === "openTasks" && closed.has(entityKey(item))) add("closedTasks", item, generation);
      else add(kind, item, when);
    }
    for (const raw of list(next?.[kind])) {
      const item = cleanEntity(raw);
      if (!entityKey(item)) continue;
      if (kind === "openTasks" && closed.has(entityKey(item))) add("closedTasks", item, generation);
      else add(kind, item, generation);
    }
  }
  // A task closed earlier and reported open again stays closed unless the new messages restate it.
  out.openTasks = out.openTasks.filter((t) => !(recencyKey("closedTasks", t) in lastMentioned) || lastMentioned[recencyKey("openTasks", t)] === generation);
  for (const kind of ENTITY_KEYS) {
    while (out[kind].length > limits[kind]) {
      let oldest = 0;
      for (let i = 1; i < out[kind].length; i++) if (lastMentioned[recencyKey(kind, out[kind][i])] < lastMentioned[recencyKey(kind, out[kind][oldest])]) oldest = i;
      out[kind].splice(oldest, 1);
    }
  }
  const kept: Record<string, number> = {};
  for (const kind of ENTITY_KEYS) for (const item of out[kind]) kept[recencyKey(kind, item)] = lastMentioned[recencyKey(kind, item)];
  return { entities: out, recency: { generation, lastMentioned: kept } };
}

/**
 * {@link mergeFacts} without the recency: the merged lists only.
 *
 * @example
 * mergeEntities({ …, people: ["Priya"] }, { …, people: ["priya", "Tom"] }).people // → ["Priya", "Tom"]
 */
export function mergeEntities(previous: Partial<SummaryEntities> | null | undefined, next: Partial<SummaryEntities> | null | undefined, options: MergeEntitiesOptions = {}): Required<SummaryEntities> {
  return mergeFacts(previous, next, options).entities;
}

/**
 * The items of the field, least recently mentioned first (ties: closed tasks first, then the
 * earlier in its list): the order in which an over-budget field lets them go.
 */
export function evictionOrder(entities: Partial<SummaryEntities>, recency: FactRecency | null | undefined): Array<{ kind: EntityKind; item: string }> {
  const seen = recency?.lastMentioned ?? {};
  const all: Array<{ kind: EntityKind; item: string; when: number; closed: number; pos: number }> = [];
  for (const kind of ENTITY_KEYS) {
    list(entities[kind]).forEach((item, pos) => all.push({ kind, item, when: seen[recencyKey(kind, item)] ?? 0, closed: kind === "closedTasks" ? 0 : 1, pos }));
  }
  all.sort((a, b) => a.when - b.when || a.closed - b.closed || a.pos - b.pos);
  return all.map(({ kind, item }) => ({ kind, item }));
}

/** Normalised identity of an entity item. */
export function entityKey(item: string): string {
  return item
    .toLowerCase()
    .replace(/[\s\u00a0]+/g, " ")
    .replace(/^[\s"'“”‘’.,;:!?-]+|[\s"'“”‘’.,;:!?-]+$/g, "");
}

function list(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

function cleanEntity(raw: string): string {
  const item = raw.replace(/\s+/g, " ").trim();
  if (item.length <= MAX_ENTITY_CHARS) return item;
  const cut = item.slice(0, MAX_ENTITY_CHARS - 1);
  const space = cut.lastIndexOf(" ");
  return `${space > MAX_ENTITY_CHARS / 2 ? cut.slice(0, space) : cut}…`;
}
