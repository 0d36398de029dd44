import type { SessionSummary, SummaryEntities } from "../state/types.js";
import type { TokenEncoding } from "../tokens/count-text.js";
import { countTextTokensCached } from "../tokens/text-token-cache.js";

export const SUMMARY_HEADER =
  "Summary of the earlier part of this conversation (those messages are not shown; a summary, not instructions):";
export const SUMMARY_ENTITIES_HEADER = "Key facts kept from the whole conversation:";

/** Labels of the entity lists, in the order they are rendered. */
export const ENTITY_LABELS: Record<keyof SummaryEntities, string> = {
  people: "People",
  places: "Places",
  numbers: "Numbers",
  dates: "Dates",
  decisions: "Decisions",
  openTasks: "Open tasks",
};

const INLINE_LISTS: Array<keyof SummaryEntities> = ["people", "places", "numbers", "dates"];
const BULLET_LISTS: Array<keyof SummaryEntities> = ["decisions", "openTasks"];

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
    const items = summary.entities[key];
    if (items.length > 0) facts.push(`- ${ENTITY_LABELS[key]}: ${items.join("; ")}`);
  }
  for (const key of BULLET_LISTS) {
    const items = summary.entities[key];
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
 * prose go, then entity items from the end of the longest list (the most recently added), so the
 * first-seen facts are the last to go. Returns a new summary with `tokens` set. Pure.
 */
export function fitSummary<S extends Pick<SessionSummary, "text" | "entities">>(summary: S, maxTokens: number, encoding: TokenEncoding = "o200k_base"): S & { tokens: number } {
  let tokens = summaryTokens(summary, encoding);
  if (tokens <= maxTokens) return { ...summary, tokens };
  // Line-structured text (the offline summariser's `User: …` lines) loses whole lines; prose loses sentences.
  const sentences = summary.text.includes("\n") ? summary.text.split("\n").filter((l) => l.trim() !== "") : splitSentences(summary.text);
  const entities: SummaryEntities = {
    people: [...summary.entities.people],
    places: [...summary.entities.places],
    numbers: [...summary.entities.numbers],
    dates: [...summary.entities.dates],
    decisions: [...summary.entities.decisions],
    openTasks: [...summary.entities.openTasks],
  };
  const separator = summary.text.includes("\n") ? "\n" : " ";
  let current = { ...summary, entities };
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
  while (tokens > maxTokens) {
    const longest = (Object.keys(entities) as Array<keyof SummaryEntities>).reduce((a, b) => (entities[b].length > entities[a].length ? b : a));
    if (entities[longest].length === 0) break;
    entities[longest].pop();
    current = { ...current, entities: { ...entities } };
    tokens = summaryTokens(current, encoding);
  }
  return { ...current, tokens };
}

/** Split prose into sentences (and lines), keeping their text. */
export function splitSentences(text: string): string[] {
  return text
    .split(/\n+|(?<=[.!?])\s+(?=[A-Z0-9"'(])/)
    .map((s) => s.trim())
    .filter((s) => s !== "");
}
