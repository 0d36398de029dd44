/**
 * The baseline of `bench sessions`: a past session's stored form before it became a summary and
 * its entities (issue 21 item 3) — the newest lines of the session's prose within the cap, led by
 * its key facts when the prose did not fit. Kept here, outside the package, so the benchmark can
 * compare both forms in one run on the same folded summaries.
 */
import { ENTITY_LABELS, splitSentences } from "../../src/summarization/format-summary.js";
import type { SessionSummary, SummaryEntities } from "../../src/state/types.js";
import { ENTITY_KEYS } from "../../src/summarization/entities.js";
import { filterEntities } from "../../src/summarization/storable-entities.js";
import { countTextTokens, type TokenEncoding } from "../../src/tokens/count-text.js";
import { redactSensitive, type RedactOptions } from "../../src/sessions/redact-summary.js";
import { storableText } from "../../src/core/well-formed-text.js";

/**
 * Default tokens of a session's shown text (JSON-quoted, as rendered): three sessions and the
 * section's header fit the default past-sessions budget (500). A rolling summary may be 1,200 tokens; stored whole it would
 * never fit the section.
 */
const DEFAULT_SESSION_TEXT_TOKENS = 135;

/** What a session memory stores: the text shown in prompts and the indexing-only context. */
interface SessionDocument {
  /** The newest summary prose within the token cap (or, without prose, its key facts). */
  text: string;
  /** Key entities (one labelled line per list) and the whole prose: searched at the context weight, never shown. */
  context: string | null;
  /** Sensitive categories removed. */
  redacted: string[];
}

interface SessionDocumentOptions extends RedactOptions {
  /** The store's `writePolicy.maxTextChars`. */
  maxTextChars: number;
  /** Cap of the shown text. Default {@link DEFAULT_SESSION_TEXT_TOKENS}. */
  maxTextTokens?: number;
  encoding?: TokenEncoding;
}

/**
 * The stored form of a session summary. Text: the prose, newest sentences first within
 * `maxTextTokens` (the rolling summary drops its oldest prose first too). Context: the key entities
 * and the whole prose, so everything the session covered is searchable while the prompt shows a
 * short text. Both pass the secret filter span by span. Empty text when there is nothing to say. Pure.
 *
 * @example
 * sessionDocument({ text: "User planned a trip to Lisbon.", entities: { …, places: ["Lisbon"] } }, { maxTextChars: 4000 })
 * // { text: "User planned a trip to Lisbon.", context: "Places: Lisbon\nUser planned a trip to Lisbon.", redacted: [] }
 */
export function transcriptDocument(summary: Pick<SessionSummary, "text" | "entities">, options: SessionDocumentOptions): SessionDocument {
  const maxTokens = options.maxTextTokens ?? DEFAULT_SESSION_TEXT_TOKENS;
  // A summary quotes the conversation: a NUL or a half character there must not lose the session.
  // Entities pass the filter after joining (a number split into groups is still that number), then line by line.
  // What is dropped leaves a marker in its list, as redaction leaves one in the prose.
  const filtered = filterEntities(summary.entities, { specialCategories: true, allowSpecialCategory: options.allowSpecialCategory, knownSecrets: options.knownSecrets });
  const entities = filtered.entities;
  for (const [key, categories] of Object.entries(filtered.dropped) as Array<[keyof SummaryEntities, string[]]>) entities[key].push(...categories.map((c) => `[redacted ${c}]`));
  const facts = redactSensitive(storableText(entityLines(entities).join("\n")), options);
  // Tool results quoted by a rolling summary ("x returned: …") are third-party content, not the session's.
  const prose = redactSensitive(storableText(summary.text).replace(/^[\w.-]+ returned: .*$\n?/gm, "").trim(), options);
  const redacted = [...new Set([...prose.categories, ...facts.categories, ...Object.values(filtered.dropped).flat()])];
  const shown = prose.text.trim() || facts.text.trim();
  let text = shown ? fitNewest(shown, options.maxTextChars, maxTokens, options.encoding) : "";
  // A long session shows only its newest prose: lead with its key facts (places, dates, numbers,
  // people), which the prose of the early turns carried, so they are not lost from sight.
  if (prose.text.trim() && text !== prose.text.trim() && facts.text.trim()) {
    const keyFacts = fitNewest(`Key facts: ${facts.text.trim().replace(/\n/g, "; ")}`.replace(/…$/, ""), options.maxTextChars, Math.floor(maxTokens * 0.4), options.encoding);
    const rest = fitNewest(prose.text.trim(), options.maxTextChars, Math.max(0, maxTokens - Math.ceil(countTextTokens(JSON.stringify(keyFacts), options.encoding))), options.encoding);
    text = [keyFacts, rest].filter(Boolean).join("\n");
  }
  const context = contextOf(facts.text.trim(), prose.text.trim(), options.maxTextChars * 4);
  return { text, context: context && context !== text ? context : null, redacted };
}

function entityLines(entities: Partial<SummaryEntities> | null | undefined): string[] {
  const lines: string[] = [];
  for (const key of ENTITY_KEYS) {
    const items = (entities?.[key] ?? []).filter((i) => typeof i === "string" && i.trim() !== "");
    if (items.length > 0) lines.push(`${ENTITY_LABELS[key]}: ${items.join("; ")}`);
  }
  return lines;
}

/**
 * The newest whole sentences within both caps; a single sentence too long is cut at a word. Tokens
 * are counted on the JSON-quoted text, as prompts render it (escaped quotes and newlines cost more).
 */
function fitNewest(text: string, maxChars: number, maxTokens: number, encoding?: TokenEncoding): string {
  const fits = (t: string) => t.length <= maxChars && countTextTokens(JSON.stringify(t), encoding) <= maxTokens;
  if (fits(text)) return text;
  const sentences = splitSentences(text);
  let kept: string[] = [];
  for (let i = sentences.length - 1; i >= 0; i--) {
    const next = [sentences[i], ...kept];
    if (!fits(next.join(" "))) break;
    kept = next;
  }
  if (kept.length > 0) return kept.join(" ");
  // The newest sentence alone is too long: its start, cut at a word, within both caps.
  let out = "";
  for (const w of sentences[sentences.length - 1].split(/\s+/)) {
    const next = out ? `${out} ${w}` : w;
    if (!fits(`${next}…`)) break;
    out = next;
  }
  return out ? `${out}…` : "";
}

/** Facts, then the prose; over `max` characters the prose keeps its newest part. */
function contextOf(facts: string, prose: string, max: number): string {
  const head = facts.slice(0, max);
  const room = max - head.length - 1;
  const tail = prose.length <= room ? prose : room > 0 ? prose.slice(prose.length - room) : "";
  return [head, tail].filter((t) => t !== "").join("\n");
}
