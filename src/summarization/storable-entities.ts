import { isSpecialCategory } from "../sensitive/categories.js";
import { blockingFindings, detectSensitive, detectSecretsAndIdentifiers } from "../sensitive/detect-sensitive.js";
import { emptyEntities, type SummaryEntities } from "../state/types.js";
import { ENTITY_KEYS } from "./entities.js";

export interface StorableEntitiesOptions {
  /**
   * Also drop special-category items (health, religion, …) — what a past session stores. Default
   * false: the rolling summary keeps them, as its prose does; secrets and identifiers always go.
   */
  specialCategories?: boolean;
  /** With `specialCategories`: keep them when the app allows them (`writePolicy.allowSpecialCategory`). */
  allowSpecialCategory?: boolean;
  /**
   * Secret values seen in the summarised messages: an item that holds one, or is a piece of one
   * (3+ letters or digits of it), goes too — a model may list "4471" without the words around it.
   */
  knownSecrets?: readonly string[];
}

const compact = (s: string) => s.replace(/[^\p{L}\p{N}]/gu, "").toLowerCase();

/** Most pieces one number is split into (a card in 4, an IBAN in up to 8 groups of 4, but then it is long). */
const MAX_GROUPS = 8;

/** An item that is a short group of digits or letters, maybe after a label: a piece of a longer number. */
const GROUP = /^(?:[\p{L}.#]+\s+)?([A-Z0-9]{1,6})$/iu;

/**
 * Entity lists without the items that carry a secret or an identifier — checked after joining, since
 * a card number, an IBAN or a national id split into digit groups ("card 4539", "4637", "7264", …)
 * is no less that number: each list is joined in order, and its short groups are joined on their
 * own too, and every item a finding touches is dropped.
 *
 * @example
 * storableEntities({ …, numbers: ["card 4539", "1488", "0343", "6467", "order 48213"] }).numbers // ["order 48213"]
 */
export function storableEntities(entities: Partial<SummaryEntities> | null | undefined, options: StorableEntitiesOptions = {}): Required<SummaryEntities> {
  return filterEntities(entities, options).entities;
}

/** What {@link storableEntities} keeps, and per list the categories of what it dropped (in first-seen order; never the values). */
export function filterEntities(
  entities: Partial<SummaryEntities> | null | undefined,
  options: StorableEntitiesOptions = {},
): { entities: Required<SummaryEntities>; dropped: Partial<Record<keyof SummaryEntities, string[]>> } {
  const out = emptyEntities();
  const droppedCategories: Partial<Record<keyof SummaryEntities, string[]>> = {};
  for (const key of ENTITY_KEYS) {
    const items = (entities?.[key] ?? []).filter((i): i is string => typeof i === "string");
    const dropped = new Set<number>();
    const categories: string[] = [];
    const note = (category: string) => {
      if (!categories.includes(category)) categories.push(category);
    };
    const drop = (view: ReturnType<typeof joined>, indexes: readonly number[]) => {
      for (const f of findingsIn(view.text, options)) {
        view.spans.forEach((s, i) => {
          if (s && s.start < f.end && f.start < s.end) {
            dropped.add(indexes[i]);
            note(f.category);
          }
        });
      }
    };
    const all = items.map((_, i) => i);
    drop(joined(items, (item) => item), all);
    // Short groups in a row, whatever lies between them, in windows of 2 to 6 (a number's groups
    // next to other numbers would make one run no format matches).
    const groups = all.filter((i) => GROUP.test(items[i].trim()));
    for (let from = 0; from < groups.length; from++) {
      for (let n = 2; n <= MAX_GROUPS && from + n <= groups.length; n++) {
        const window = groups.slice(from, from + n);
        drop(joined(window.map((i) => items[i]), (item) => GROUP.exec(item.trim())![1]), window);
      }
    }
    const known = (options.knownSecrets ?? []).map(compact).filter((v) => v.length >= 4);
    if (known.length > 0) {
      items.forEach((item, i) => {
        const c = compact(item);
        const group = compact(GROUP.exec(item.trim())?.[1] ?? "");
        if (known.some((v) => c.includes(v) || (c.length >= 3 && v.includes(c)) || (group.length >= 3 && v.includes(group)))) {
          if (!dropped.has(i)) note("secret");
          dropped.add(i);
        }
      });
    }
    out[key] = items.filter((_, i) => !dropped.has(i));
    if (categories.length > 0) droppedCategories[key] = categories;
  }
  return { entities: out, dropped: droppedCategories };
}

function findingsIn(text: string, options: StorableEntitiesOptions): Array<{ start: number; end: number; category: string }> {
  if (text.length === 0) return [];
  if (!options.specialCategories) return detectSecretsAndIdentifiers(text);
  return blockingFindings(detectSensitive(text), { allowSpecialCategory: options.allowSpecialCategory }).filter((f) => !options.allowSpecialCategory || !isSpecialCategory(f.category));
}

/** The items (or the part `pick` takes of them) joined by spaces, with each one's span; null where `pick` takes nothing. */
function joined(items: readonly string[], pick: (item: string) => string | null): { text: string; spans: Array<{ start: number; end: number } | null> } {
  let text = "";
  const spans: Array<{ start: number; end: number } | null> = [];
  for (const item of items) {
    const part = pick(item);
    if (part === null) {
      spans.push(null);
      continue;
    }
    if (text.length > 0) text += " ";
    spans.push({ start: text.length, end: text.length + part.length });
    text += part;
  }
  return { text, spans };
}
