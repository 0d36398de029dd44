import type { BaseMessage } from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";
import { invalidInput } from "../errors.js";
import { fitEntities, fitSummary } from "./format-summary.js";
import type { SessionSummary, SummaryEntities } from "../state/types.js";
import { resolveEncoding, type CountTokensOptions } from "../tokens/count-messages.js";
import { mergeFacts, recencyKey, type EntityKind } from "./entities.js";
import { offlineSummarizer } from "./offline-summarizer.js";
import { storableEntities } from "./storable-entities.js";
import { boundedForSummary } from "./bounded-messages.js";
import { messageText } from "./transcript.js";
import { detectSecretsAndIdentifiers } from "../sensitive/detect-sensitive.js";
import type { Summarizer } from "./summarizer.js";

export interface SummarizeMessagesOptions extends CountTokensOptions {
  /** The chunk to fold in, oldest first (see `planSummarization`). */
  messages: readonly BaseMessage[];
  /** The summary so far. */
  previous?: SessionSummary | null;
  /** Default: the offline extractive summariser. */
  summarizer?: Summarizer;
  /** Token budget of the rendered summary block. */
  maxSummaryTokens: number;
  /** The new watermark; default: the id of the chunk's last message. */
  coversThroughMessageId?: string;
  entityLimits?: Partial<Record<keyof SummaryEntities, number>>;
  /**
   * Budget of the entity field alone, in tokens (default {@link DEFAULT_ENTITY_SHARE} of
   * `maxSummaryTokens`): over it, the least recently mentioned facts go first. The prose gets
   * what the field leaves.
   */
  maxEntityTokens?: number;
  /** Passed to the summariser (callbacks of the calling node). */
  config?: RunnableConfig;
  /** Clock for `updatedAt` (tests). */
  now?: () => Date;
}

/** Share of the summary budget the entity field may take by default. */
export const DEFAULT_ENTITY_SHARE = 0.8;

/** Lists whose items are short names or values, found again by their text in later messages. */
const NAMED_KINDS: readonly EntityKind[] = ["people", "places", "numbers", "references", "dates"];

/**
 * Fold a chunk of messages and the previous summary into a new summary: the summariser writes the
 * prose and reports entities; entities are merged with the previous ones deterministically (so
 * none is lost to a forgetful model), and the block is fitted to `maxSummaryTokens`.
 *
 * @example
 * const summary = await summarizeMessages({ messages: plan.chunk, previous: state.summary, maxSummaryTokens: 1200 });
 */
export async function summarizeMessages(options: SummarizeMessagesOptions): Promise<SessionSummary> {
  if (options.messages.length === 0) throw invalidInput("messages", "nothing to summarise: the chunk is empty");
  if (!Number.isFinite(options.maxSummaryTokens) || options.maxSummaryTokens <= 0) {
    throw invalidInput("maxSummaryTokens", `must be a positive number of tokens, got ${options.maxSummaryTokens}`);
  }
  const covers = options.coversThroughMessageId ?? options.messages[options.messages.length - 1].id;
  if (!covers) throw invalidInput("messages", "the last summarised message needs an id (it becomes the watermark)");
  const encoding = resolveEncoding(options);
  const previous = options.previous ?? null;
  const summarizer = options.summarizer ?? offlineSummarizer();
  const messages = boundedForSummary(options.messages);
  const out = await summarizer.summarize({ messages, previous, maxTokens: options.maxSummaryTokens, encoding, config: options.config });
  // A summariser (a model, or a previous summary from state) may list a secret or pieces of one: the
  // merged lists pass the secret filter after joining.
  const knownSecrets = messages.flatMap((m) => {
    const text = messageText(m);
    return detectSecretsAndIdentifiers(text).map((f) => text.slice(f.start, f.end));
  });
  const merged = mergeFacts(previous?.entities, out.entities, {
    limits: options.entityLimits,
    closedTasks: out.closedTasks,
    recency: previous?.factRecency,
    mentioned: mentionedAgain(previous?.entities, messages),
  });
  const storable = storableEntities(merged.entities, { knownSecrets });
  const maxEntityTokens = options.maxEntityTokens ?? Math.floor(options.maxSummaryTokens * DEFAULT_ENTITY_SHARE);
  const field = fitEntities(storable, merged.recency, maxEntityTokens, encoding);
  const text = out.text.trim() || previous?.text || "";
  const fitted = fitSummary({ text, entities: field.entities, factRecency: field.recency }, options.maxSummaryTokens, encoding);
  return {
    text: fitted.text,
    entities: fitted.entities,
    coversThroughMessageId: covers,
    tokens: fitted.tokens,
    updatedAt: (options.now?.() ?? new Date()).toISOString(),
    factRecency: fitted.factRecency ?? field.recency,
  };
}

/** Recency keys of the previous names and values that the new messages mention again (whole words, any case). */
function mentionedAgain(entities: Partial<SummaryEntities> | null | undefined, messages: readonly BaseMessage[]): Set<string> {
  const out = new Set<string>();
  if (!entities) return out;
  const text = ` ${messages.map((m) => messageText(m)).join("\n").toLowerCase().replace(/[’]/g, "'")} `;
  for (const kind of NAMED_KINDS) {
    for (const item of entities[kind] ?? []) {
      const needle = item.toLowerCase().replace(/[’]/g, "'");
      if (needle.length < 3) continue;
      let at = text.indexOf(needle);
      while (at >= 0) {
        const before = text[at - 1];
        const after = text[at + needle.length];
        if (!/[\p{L}\p{N}]/u.test(before) && !/[\p{L}\p{N}]/u.test(after ?? " ")) {
          out.add(recencyKey(kind, item));
          break;
        }
        at = text.indexOf(needle, at + 1);
      }
    }
  }
  return out;
}
