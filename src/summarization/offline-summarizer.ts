import type { ToolMessage } from "@langchain/core/messages";
import type { SummaryEntities } from "../state/types.js";
import { messageToolCalls } from "../tokens/count-messages.js";
import { closedTasksIn } from "./closed-tasks.js";
import { mergeEntities } from "./entities.js";
import { extractEntities, sentencesOf } from "./extract-entities.js";
import type { Summarizer, SummarizerInput, SummarizerOutput } from "./summarizer.js";
import { clipChars, messageText } from "./transcript.js";

export interface OfflineSummarizerOptions {
  /** Sentences kept per user message (assistant messages get one). Default 2. */
  sentencesPerUserMessage?: number;
  /** Longest kept sentence, in words. Default 40. */
  maxSentenceWords?: number;
  /**
   * Most new entities one chunk contributes per list (most important first: user-stated before the
   * assistant's; money and identifiers before quantities). Keeps a chatty stretch from filling the
   * capped lists. Default {@link DEFAULT_NEW_ENTITIES_PER_CHUNK}.
   */
  newEntitiesPerChunk?: Partial<Record<keyof SummaryEntities, number>>;
}

export const DEFAULT_NEW_ENTITIES_PER_CHUNK: Readonly<Record<keyof SummaryEntities, number>> = {
  people: 8,
  places: 6,
  numbers: 6,
  references: 8,
  dates: 6,
  decisions: 5,
  commitments: 5,
  openTasks: 5,
  closedTasks: 0,
};

const DECISION_OR_TASK = /\b(?:decided|agreed|go with|going with|chose|settled on|opted for|will use|confirmed|approved|remind me|need to|must|follow up|don't forget|deadline|due|please|I'll|I will|we'll|we will)\b/i;
const FILLER = /^(?:ok(?:ay)?|thanks?(?: you)?|thank you|great|cool|sure|yes|no|got it|sounds good|perfect|nice|hi|hello|hey)[.!]*$/i;

/**
 * The offline summariser: extractive and deterministic. For each message it keeps the sentences
 * that carry entities, decisions or tasks (user messages weigh more), appends them as
 * `User: …` / `Assistant: …` lines to the previous summary, and extracts entities with rules
 * (user-stated ones first). It does not paraphrase, resolve pronouns, merge repeated facts in the
 * prose, notice that a task was completed, or judge importance beyond those cues; older prose
 * lines are dropped first when the summary outgrows its budget, while the entity lists keep the
 * facts. Used when no chat model is configured.
 *
 * @example
 * const node = createSummarizationNode({ summarizer: offlineSummarizer() });
 */
export function offlineSummarizer(options: OfflineSummarizerOptions = {}): Summarizer {
  return {
    name: "offline",
    async summarize(input) {
      return summarizeOffline(input, options);
    },
  };
}

/** The offline summariser as a pure synchronous function. */
export function summarizeOffline(input: Pick<SummarizerInput, "messages" | "previous">, options: OfflineSummarizerOptions = {}): SummarizerOutput {
  const perUser = options.sentencesPerUserMessage ?? 2;
  const maxWords = options.maxSentenceWords ?? 40;
  const lines: string[] = [];
  const userText: string[] = [];
  const assistantText: string[] = [];
  for (const m of input.messages) {
    const text = messageText(m).trim();
    if (m.type === "human") {
      userText.push(text);
      const picked = pickSentences(text, perUser, maxWords);
      if (picked) lines.push(`User: ${picked}`);
    } else if (m.type === "ai") {
      assistantText.push(text);
      const picked = pickSentences(text, 1, maxWords);
      const calls = messageToolCalls(m).map((c) => `${c.name}(${clipChars(c.args, 80)})`);
      if (picked) lines.push(`Assistant: ${picked}`);
      if (calls.length > 0) lines.push(`Assistant called ${calls.join(", ")}.`);
    } else if (m.type === "tool") {
      const first = sentencesOf(text)[0];
      if (first) lines.push(`${(m as ToolMessage).name ?? "Tool"} returned: ${clipWords(first, 20)}`);
    }
  }
  // User-stated entities first: with capped lists, what the user said outranks the assistant's numbers.
  const entities: SummaryEntities = mergeEntities(extractEntities(userText.join("\n")), extractEntities(assistantText.join("\n")), {
    limits: { ...DEFAULT_NEW_ENTITIES_PER_CHUNK, ...options.newEntitiesPerChunk },
  });
  // Tasks the chunk reports done: the recorded ones, and those it stated itself before closing them.
  const said = [...userText, ...assistantText].join("\n");
  const closedTasks = closedTasksIn(said, [...(input.previous?.entities.openTasks ?? []), ...entities.openTasks]);
  const previousText = input.previous?.text.trim() ?? "";
  const text = [previousText, ...lines].filter(Boolean).join("\n");
  return { text, entities, closedTasks };
}

function pickSentences(text: string, count: number, maxWords: number): string {
  if (!text || FILLER.test(text)) return "";
  const sentences = sentencesOf(text);
  const scored = sentences.map((s, index) => ({ s, index, score: sentenceScore(s, index) }));
  const best = scored
    .filter((x) => x.score > 0)
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, count)
    .sort((a, b) => a.index - b.index);
  return best.map((x) => clipWords(x.s, maxWords)).join(" ");
}

/**
 * How much a sentence is worth keeping in a summary (0: filler): entities, a decision or task cue,
 * a question, first place in its message; very short sentences without entities lose. What the
 * offline summariser ranks a message's sentences by, and a past session its gist's.
 *
 * @example
 * sentenceScore("we decided to stay in Alfama on May 14", 0) > sentenceScore("lol ok", 1) // true
 */
export function sentenceScore(sentence: string, index: number): number {
  const words = sentence.split(/\s+/).length;
  if (FILLER.test(sentence)) return 0;
  const e = extractEntities(sentence, { nlp: false });
  const entityCount = e.people.length + e.places.length + e.numbers.length + e.references.length + e.dates.length;
  let s = 1 + Math.min(entityCount, 3) * 2;
  if (DECISION_OR_TASK.test(sentence)) s += 2;
  if (index === 0) s += 1;
  if (/\?\s*$/.test(sentence)) s += 1;
  if (words < 4 && entityCount === 0) s -= 2;
  return s;
}

function clipWords(text: string, max: number): string {
  const words = text.split(/\s+/);
  return words.length <= max ? text : `${words.slice(0, max).join(" ")}…`;
}
