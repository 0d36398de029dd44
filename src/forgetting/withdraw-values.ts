/**
 * A withdrawal applied to the values that quote what the user said: a rolling summary (prose and
 * entity lists), lists of retrieved memories, past sessions or rules in graph state, a profile
 * document, a job payload. Each returns the value itself when nothing in it states the withdrawn
 * fact, else a new value without it. Pure; plain JSON in, plain JSON out.
 */
import { summaryTokens } from "../summarization/format-summary.js";
import type { SessionSummary, SummaryEntities } from "../state/types.js";
import { dropWithdrawn, statesWithdrawn, type MatchOptions, type Withdrawal } from "../sessions/withdrawal.js";

/** Structured data and queued turns: whole statements only (see `Withdrawal.values`). */
const STATEMENTS: MatchOptions = { values: false };

/** The graph-state channels that hold memory text (`MemoryStateSpec`), rewritten by a withdrawal. */
export const MEMORY_TEXT_CHANNELS = ["summary", "memories", "pastSessions", "rules", "profile"] as const;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** A rolling summary without the withdrawn sentences and entity entries (its token count updated). */
export function withdrawFromSummary(summary: unknown, w: Withdrawal): unknown {
  if (!isObject(summary) || typeof summary.text !== "string") return summary;
  const text = dropWithdrawn(summary.text, w);
  let changed = text !== summary.text;
  const entities: Record<string, unknown> = isObject(summary.entities) ? { ...summary.entities } : {};
  for (const [key, list] of Object.entries(entities)) {
    if (!Array.isArray(list)) continue;
    const kept = list.filter((e) => typeof e !== "string" || !statesWithdrawn(e, w));
    if (kept.length !== list.length) {
      entities[key] = kept;
      changed = true;
    }
  }
  if (!changed) return summary;
  const next = { ...summary, text, entities } as unknown as SessionSummary;
  return typeof summary.tokens === "number" ? { ...next, tokens: summaryTokens({ text, entities: entities as unknown as SummaryEntities }) } : next;
}

/**
 * A list of `{ id, text, … }` items (retrieved memories, past sessions, rules) without the
 * withdrawn memories and the items whose text states the fact; a past session keeps its other
 * sentences.
 */
export function withdrawFromItems(list: unknown, w: Withdrawal, options: { keepRest?: boolean } & MatchOptions = {}): unknown {
  if (!Array.isArray(list)) return list;
  let changed = false;
  const out: unknown[] = [];
  for (const item of list) {
    if (!isObject(item)) {
      out.push(item);
      continue;
    }
    if (typeof item.id === "string" && w.ids.includes(item.id)) {
      changed = true;
      continue;
    }
    if (typeof item.text !== "string") {
      out.push(item);
      continue;
    }
    if (options.keepRest) {
      const text = dropWithdrawn(item.text, w, options);
      if (text === item.text) out.push(item);
      else {
        changed = true;
        if (text !== "") out.push({ ...item, text });
      }
    } else if (statesWithdrawn(item.text, w, options) || dropWithdrawn(item.text, w, options) !== item.text) changed = true;
    else out.push(item);
  }
  return changed ? out : list;
}

/**
 * A profile document without the withdrawn fact: a text field loses the sentences that state it
 * (and goes when none is left); any other field goes when a string in it states it.
 */
export function withdrawFromDocument(doc: unknown, w: Withdrawal): { document: unknown; removed: string[]; rewritten: string[] } {
  if (!isObject(doc)) return { document: doc, removed: [], rewritten: [] };
  const out: Record<string, unknown> = { ...doc };
  const removed: string[] = [];
  const rewritten: string[] = [];
  for (const [field, value] of Object.entries(doc)) {
    if (typeof value === "string") {
      const text = dropWithdrawn(value, w, STATEMENTS);
      if (text === value && !statesWithdrawn(value, w, STATEMENTS)) continue;
      if (text === "" || text === value) {
        delete out[field];
        removed.push(field);
      } else {
        out[field] = text;
        rewritten.push(field);
      }
    } else if (jsonStatesWithdrawn(value, w)) {
      delete out[field];
      removed.push(field);
    }
  }
  return { document: removed.length + rewritten.length > 0 ? out : doc, removed, rewritten };
}

/** Whether any string in a JSON value states a withdrawn statement (a profile value or history entry; whole statements only). */
export function jsonStatesWithdrawn(value: unknown, w: Withdrawal): boolean {
  return stringsOf(value).some((s) => statesWithdrawn(s, w, STATEMENTS) || dropWithdrawn(s, w, STATEMENTS) !== s);
}

/**
 * A job payload with the sentences that state a withdrawn statement gone from every message text
 * (`text` and `content` strings at any depth); ids, roles and other fields unchanged.
 */
export function withdrawFromPayload(payload: unknown, w: Withdrawal): unknown {
  const walk = (v: unknown, key: string | null): unknown => {
    if (typeof v === "string") return key === "text" || key === "content" ? dropWithdrawn(v, w, STATEMENTS) : v;
    if (Array.isArray(v)) {
      let changed = false;
      const out = v.map((x) => {
        const y = walk(x, key);
        if (y !== x) changed = true;
        return y;
      });
      return changed ? out : v;
    }
    if (isObject(v)) {
      let changed = false;
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) {
        const y = walk(x, k);
        if (y !== x) changed = true;
        out[k] = y;
      }
      return changed ? out : v;
    }
    return v;
  };
  return walk(payload, null);
}

/** One memory channel's value of graph state, withdrawn (see {@link MEMORY_TEXT_CHANNELS}). */
export function withdrawFromChannel(channel: string, value: unknown, w: Withdrawal): unknown {
  switch (channel) {
    case "summary":
      return withdrawFromSummary(value, w);
    case "memories":
    case "rules":
      return withdrawFromItems(value, w, STATEMENTS);
    case "pastSessions":
      return withdrawFromItems(value, w, { keepRest: true });
    case "profile":
      return withdrawFromDocument(value, w).document;
    default:
      return value;
  }
}

function stringsOf(value: unknown): string[] {
  const out: string[] = [];
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === "string") out.push(v);
    else if (Array.isArray(v)) for (const x of v) stack.push(x);
    else if (isObject(v)) for (const x of Object.values(v)) stack.push(x);
  }
  return out;
}
