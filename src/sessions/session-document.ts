import { ENTITY_LABELS, splitSentences } from "../summarization/format-summary.js";
import { emptyEntities, type SessionSummary, type SummaryEntities } from "../state/types.js";
import { ENTITY_KEYS, entityKey } from "../summarization/entities.js";
import { filterEntities } from "../summarization/storable-entities.js";
import { countTextTokens, type TokenEncoding } from "../tokens/count-text.js";
import { redactSensitive, type RedactOptions } from "./redact-summary.js";
import { storableText } from "../core/well-formed-text.js";
import { sessionGist } from "./session-gist.js";

/**
 * Default tokens of a session's shown text (JSON-quoted, as rendered): three sessions and the
 * section's header fit the default past-sessions budget (500). A rolling summary may be 1,200 tokens; stored whole it would
 * never fit the section.
 */
export const DEFAULT_SESSION_TEXT_TOKENS = 135;

/** What a session memory stores: the text shown in prompts and the indexing-only context. */
export interface SessionDocument {
  /** The session's gist and its entity lines within the token cap (without prose, the entity lines). */
  text: string;
  /** Key entities (one labelled line per list) and the whole prose: searched at the context weight, never shown. */
  context: string | null;
  /** Sensitive categories removed. */
  redacted: string[];
}

export interface SessionDocumentOptions extends RedactOptions {
  /** The store's `writePolicy.maxTextChars`. */
  maxTextChars: number;
  /** Cap of the shown text. Default {@link DEFAULT_SESSION_TEXT_TOKENS}. */
  maxTextTokens?: number;
  encoding?: TokenEncoding;
}

/**
 * The stored form of a session summary — a memory, not a transcript. Text: the session's gist (a
 * few of its summary's sentences that say what it was about, `sessionGist`), then its entity
 * field as labelled lines (the rolling summary's lists: people, places, numbers, dates,
 * decisions, open tasks), within `maxTextTokens`; over the cap the most recently added entity
 * items go first, as the rolling summary drops them. Context: the entity lines and the whole
 * prose, so everything the session covered is searchable (and is what the session folds its next
 * messages into) while the prompt shows the short text. Both pass the secret filter span by span.
 * Empty text when there is nothing to say. Pure.
 *
 * @example
 * sessionDocument({ text: "User planned a trip to Lisbon.", entities: { …, places: ["Lisbon"] } }, { maxTextChars: 4000 })
 * // { text: "User planned a trip to Lisbon.\nPlaces: Lisbon", context: "Places: Lisbon\nUser planned a trip to Lisbon.", redacted: [] }
 */
export function sessionDocument(summary: Pick<SessionSummary, "text" | "entities">, options: SessionDocumentOptions): SessionDocument {
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
  const text = shownText(prose.text.trim(), facts.text.trim(), options.maxTextChars, maxTokens, options.encoding);
  const context = contextOf(facts.text.trim(), prose.text.trim(), options.maxTextChars * 4);
  return { text, context: context && context !== text ? context : null, redacted };
}

/**
 * The summary a stored session document was made from, read back: its key-entity lines and its
 * prose (the context holds both; without a context, the text does). Redacted values stay
 * redacted. What a session folds its next messages into, so a session grows from its own content
 * — the user's and the assistant's words — and never from a thread's rolling summary, which quotes
 * tool results. Pure.
 *
 * @example
 * sessionSummaryOf({ text: "…", context: "Places: Lisbon\nUser: We fly to Lisbon." })
 * // { text: "User: We fly to Lisbon.", entities: { …, places: ["Lisbon"] } }
 */
export function sessionSummaryOf(doc: { text: string; context: string | null }): Pick<SessionSummary, "text" | "entities"> {
  const entities = emptyEntities();
  const lines = (doc.context ?? doc.text).split("\n");
  let at = 0;
  for (; at < lines.length; at++) {
    const key = ENTITY_KEYS.find((k) => lines[at].startsWith(`${ENTITY_LABELS[k]}: `));
    if (!key || entities[key].length > 0) break;
    entities[key] = lines[at]
      .slice(ENTITY_LABELS[key].length + 2)
      .split("; ")
      .map((item) => item.trim())
      .filter((item) => item !== "");
  }
  return { text: lines.slice(at).join("\n").trim(), entities };
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

/** Share of the cap the gist may take; the entity lines get the rest (and what the gist leaves). */
const GIST_SHARE = 0.55;
/** Entity lists whose items are whole sentences: not repeated when the gist already says them. */
const SENTENCE_LISTS = new Set([ENTITY_LABELS.decisions, ENTITY_LABELS.openTasks]);

/**
 * The shown text: the gist of the prose, then the entity lines. Over the caps, items go from the
 * end of the longest list (the most recently added, as `fitSummary` drops them), then the whole
 * is cut to its newest part.
 */
function shownText(prose: string, facts: string, maxChars: number, maxTokens: number, encoding?: TokenEncoding): string {
  const gist = prose ? sessionGist(prose, Math.floor(maxTokens * GIST_SHARE), encoding) : "";
  const said = entityKey(gist);
  const lists = (facts ? facts.split("\n") : []).map((line) => {
    const at = line.indexOf(": ");
    if (at < 0) return { label: "", items: [line] };
    const label = line.slice(0, at);
    const items = line
      .slice(at + 2)
      .split("; ")
      .filter((item) => item.trim() !== "" && !(SENTENCE_LISTS.has(label) && said.includes(entityKey(item))));
    return { label, items };
  });
  const render = () => [gist, ...lists.filter((l) => l.items.length > 0).map((l) => (l.label ? `${l.label}: ${l.items.join("; ")}` : l.items.join("; ")))].filter(Boolean).join("\n");
  const fits = (t: string) => t.length <= maxChars && countTextTokens(JSON.stringify(t), encoding) <= maxTokens;
  let text = render();
  while (!fits(text)) {
    const longest = lists.reduce<(typeof lists)[number] | null>((a, b) => (b.items.length > (a?.items.length ?? 0) ? b : a), null);
    if (!longest) break;
    longest.items.pop();
    text = render();
  }
  return text && !fits(text) ? fitNewest(text, maxChars, maxTokens, encoding) : text;
}

/** Facts, then the prose; over `max` characters the prose keeps its newest part. */
function contextOf(facts: string, prose: string, max: number): string {
  const head = facts.slice(0, max);
  const room = max - head.length - 1;
  const tail = prose.length <= room ? prose : room > 0 ? prose.slice(prose.length - room) : "";
  return [head, tail].filter((t) => t !== "").join("\n");
}
