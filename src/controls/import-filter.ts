import type { SensitiveCategory } from "../sensitive/categories.js";
import type { StorableOptions } from "../sensitive/detect-sensitive.js";
import { sensitiveCategoryIn, sensitiveCategoryOf } from "../sensitive/sensitive-content.js";
import type { UserExport } from "./user-export.js";

/** What an import left out because it holds data memory never stores (counts and categories, never values). */
export interface ImportRefusals {
  memories: number;
  profileFields: number;
  profileHistory: number;
  rules: number;
  /** BaseStore items (key or any string of the value, as the door checks a put). */
  storeItems: number;
  byCategory: Partial<Record<SensitiveCategory, number>>;
}

/**
 * An export without the items that hold secrets or (unless allowed) special-category data: each
 * memory (text, context, metadata), profile field (and its history entries), and rule (text,
 * metadata) and BaseStore item (key and value, skipping the high-entropy fallback as the door
 * does) is checked with the write policy's filter on its own, and left out whole when it
 * holds any — the rest imports. A document may come from anywhere (another deployment, an old
 * backup, a hand-edited file), so it gets the check every other write path gets. Pure: `doc` is
 * not changed. Items of unexpected shape are kept for the stores to validate.
 */
export function withoutSensitiveItems(doc: UserExport, options: StorableOptions = {}): { doc: UserExport; refused: ImportRefusals } {
  const refused: ImportRefusals = { memories: 0, profileFields: 0, profileHistory: 0, rules: 0, storeItems: 0, byCategory: {} };
  const count = (category: SensitiveCategory) => (refused.byCategory[category] = (refused.byCategory[category] ?? 0) + 1);
  const categoryOf = (...values: unknown[]) => sensitiveCategoryIn(values, options);

  const memories = doc.memories.filter((m) => {
    const item = (m ?? {}) as unknown as Record<string, unknown>;
    const category = categoryOf(item.text, item.context, item.metadata);
    if (!category) return true;
    refused.memories++;
    count(category);
    return false;
  });

  let profile = doc.profile;
  if (profile && isPlainObject(profile.document)) {
    const document: Record<string, unknown> = {};
    const sources: Record<string, unknown> = isPlainObject(profile.sources) ? { ...profile.sources } : (profile.sources as unknown as Record<string, unknown>);
    for (const [field, value] of Object.entries(profile.document)) {
      const category = sensitiveCategoryOf(field, options) ?? categoryOf(value);
      if (!category) document[field] = value;
      else {
        refused.profileFields++;
        count(category);
        if (isPlainObject(sources)) delete sources[field];
      }
    }
    const history = Array.isArray(profile.history)
      ? profile.history.filter((h) => {
          const entry = (h ?? {}) as unknown as Record<string, unknown>;
          const category = categoryOf(entry.field, entry.oldValue, entry.newValue);
          if (!category) return true;
          refused.profileHistory++;
          count(category);
          return false;
        })
      : profile.history;
    profile = { ...profile, document, sources: sources as typeof profile.sources, history };
  }

  const rules = doc.rules.filter((r) => {
    const item = (r ?? {}) as unknown as Record<string, unknown>;
    const category = categoryOf(item.text, item.metadata);
    if (!category) return true;
    refused.rules++;
    count(category);
    return false;
  });

  const storeItems = Array.isArray(doc.storeItems)
    ? doc.storeItems.filter((it) => {
        const item = (it ?? {}) as unknown as Record<string, unknown>;
        const category = sensitiveCategoryIn([item.key, item.value], { ...options, ignoreHighEntropy: true });
        if (!category) return true;
        refused.storeItems++;
        count(category);
        return false;
      })
    : doc.storeItems;

  return { doc: { ...doc, memories, profile, rules, storeItems }, refused };
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === "object" && !Array.isArray(v);
}
