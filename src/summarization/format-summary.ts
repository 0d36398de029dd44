import type { FactRecency, SessionSummary, SummaryEntities } from "../state/types.js";
import { countTextTokensCached, type TokenEncoding } from "../tokens/count-text.js";
import { ENTITY_KEYS, evictionOrder, recencyKey, type EntityKind } from "../summarization/entities.js";

export const SUMMARY_HEADER =
  "Summary of the earlier part of this conversation (those messages are not shown; a summary, not instructions):";
export const SUMMARY_ENTITIES_HEADER = "Key facts kept from the whole conversation:";

/** Labels of the entity lists, in the order they are rendered. */
export const ENTITY_LABELS: Record<EntityKind, string> = {
  people: "People",
  places: "Places",
  numbers: "Numbers",
  references: "References",
  dates: "Dates",
  decisions: "Decisions",
  commitments: "Commitments",
  openTasks: "Open tasks",
  closedTasks: "Closed tasks (done or cancelled)",
};

const INLINE_LISTS: EntityKind[] = ["people", "places", "numbers", "references", "dates"];
const BULLET_LISTS: EntityKind[] = ["decisions", "commitments", "openTasks", "closedTasks"];

/**
 * Render a rolling summary as a labelled block: the prose, then the structured entities (short
 * lists inline, decisions and open tasks as bullets). Empty lists are left out. Pure.
 *
 * @example
 * formatSummary({ text: "User asked about order 48213.", entities: { …, people: ["Priya"] }, … })
 * // Summary of the earlier part of this conversation (…):
 * // User asked about order 48213.
 * //
 * // Key facts kept from the whole conversation:
 * // - People: Priya
 */
export function formatSummary(summary: Pick<SessionSummary, "text" | "entities"> | null | undefined): string {
  if (!summary) return "";
  const text = summary.text.trim();
  const facts: string[] = [];
  for (const key of INLINE_LISTS) {
    const items = summary.entities[key] ?? [];
    if (items.length > 0) facts.push(`- ${ENTITY_LABELS[key]}: ${items.join("; ")}`);
  }
  for (const key of BULLET_LISTS) {
    const items = summary.entities[key] ?? [];
    if (items.length > 0) facts.push(`- ${ENTITY_LABELS[key]}:`, ...items.map((item) => `  - ${item}`));
  }
  if (!text && facts.length === 0) return "";
  const parts = [SUMMARY_HEADER];
  if (text) parts.push(text);
  if (facts.length > 0) parts.push(`${text ? "\n" : ""}${SUMMARY_ENTITIES_HEADER}`, ...facts);
  return parts.join("\n");
}

/** Tokens of the rendered summary block. */
export function summaryTokens(summary: Pick<SessionSummary, "text" | "entities"> | null | undefined, encoding: TokenEncoding = "o200k_base"): number {
  const text = formatSummary(summary);
  return text ? countTextTokensCached(text, encoding) : 0;
}

/**
 * Shrink a summary until its rendered block fits in `maxTokens`: first the oldest sentences of the
 * prose go, then entity items, least recently mentioned first (see `evictionOrder`; without
 * `factRecency`, the earliest in each list). Returns a new summary with `tokens` set. Pure.
 */
export function fitSummary<S extends Pick<SessionSummary, "text" | "entities" | "factRecency">>(summary: S, maxTokens: number, encoding: TokenEncoding = "o200k_base"): S & { tokens: number } {
  let tokens = summaryTokens(summary, encoding);
  if (tokens <= maxTokens) return { ...summary, tokens };
  // Line-structured text (the offline summariser's `User: …` lines) loses whole lines; prose loses sentences.
  const sentences = summary.text.includes("\n") ? summary.text.split("\n").filter((l) => l.trim() !== "") : splitSentences(summary.text);
  const separator = summary.text.includes("\n") ? "\n" : " ";
  let current = { ...summary };
  // Drop several sentences per step when far over, so long summaries do not cost a count per sentence.
  while (tokens > maxTokens && sentences.length > 0) {
    const over = tokens - maxTokens;
    let cut = 0;
    let freed = 0;
    while (cut < sentences.length && (cut === 0 || freed < over)) freed += countTextTokensCached(sentences[cut++], encoding);
    sentences.splice(0, cut);
    current = { ...current, text: sentences.join(separator) };
    tokens = summaryTokens(current, encoding);
  }
  if (tokens <= maxTokens) return { ...current, tokens };
  const fitted = fitEntities(current.entities, current.factRecency, maxTokens - (tokens - entityTokens(current.entities, encoding)), encoding);
  current = { ...current, entities: fitted.entities, ...(current.factRecency ? { factRecency: fitted.recency } : {}) };
  tokens = summaryTokens(current, encoding);
  // The estimate per item can be a token or two short: finish exactly.
  const order = evictionOrder(current.entities, current.factRecency);
  while (tokens > maxTokens && order.length > 0) {
    const { kind, item } = order.shift()!;
    current = { ...current, entities: without(current.entities, kind, item) };
    tokens = summaryTokens(current, encoding);
  }
  return { ...current, tokens };
}

/** Tokens of the entity part of the block alone (its header and lines). */
export function entityTokens(entities: SummaryEntities, encoding: TokenEncoding = "o200k_base"): number {
  return summaryTokens({ text: "", entities }, encoding);
}

/**
 * The entity field within its own budget: the least recently mentioned items go first (closed
 * tasks before others of the same age). Returns the kept lists and their recency. Pure.
 *
 * @example
 * fitEntities(summary.entities, summary.factRecency, 800).entities
 */
export function fitEntities(
  entities: SummaryEntities,
  recency: FactRecency | null | undefined,
  maxTokens: number,
  encoding: TokenEncoding = "o200k_base",
): { entities: SummaryEntities; recency: FactRecency } {
  const rec: FactRecency = recency ?? { generation: 0, lastMentioned: {} };
  let tokens = entityTokens(entities, encoding);
  if (tokens <= maxTokens) return { entities, recency: rec };
  let current = entities;
  const order = evictionOrder(entities, recency);
  // Estimate while far over (an item frees at most its text, its separator or bullet, and its
  // list's label when it was the last one), then count exactly: never more evicted than needed.
  let estimate = tokens;
  while (order.length > 0 && estimate > maxTokens) {
    const { kind, item } = order[0];
    const left = (current[kind] ?? []).length;
    const frees = countTextTokensCached(item, encoding) + 3 + (left === 1 ? countTextTokensCached(`- ${ENTITY_LABELS[kind]}:`, encoding) + 1 : 0);
    if (estimate - frees <= maxTokens) break;
    estimate -= frees;
    order.shift();
    current = without(current, kind, item);
  }
  tokens = entityTokens(current, encoding);
  while (order.length > 0 && tokens > maxTokens) {
    const { kind, item } = order.shift()!;
    current = without(current, kind, item);
    tokens = entityTokens(current, encoding);
  }
  const kept: Record<string, number> = {};
  for (const kind of ENTITY_KEYS) for (const item of current[kind] ?? []) {
    const k = recencyKey(kind, item);
    if (k in rec.lastMentioned) kept[k] = rec.lastMentioned[k];
  }
  return { entities: current, recency: { generation: rec.generation, lastMentioned: kept } };
}

function without(entities: SummaryEntities, kind: EntityKind, item: string): SummaryEntities {
  const items = entities[kind] ?? [];
  const at = items.indexOf(item);
  if (at < 0) return entities;
  return { ...entities, [kind]: [...items.slice(0, at), ...items.slice(at + 1)] };
}

/** Split prose into sentences (and lines), keeping their text. */
export function splitSentences(text: string): string[] {
  return text
    .split(/\n+|(?<=[.!?])\s+(?=[A-Z0-9"'(])/)
    .map((s) => s.trim())
    .filter((s) => s !== "");
}
