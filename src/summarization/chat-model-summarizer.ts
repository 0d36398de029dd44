import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { HumanMessage, SystemMessage, type BaseMessage } from "@langchain/core/messages";
import type { Runnable, RunnableConfig } from "@langchain/core/runnables";
import { z } from "zod";
import { ErrorCodes, MemoryError } from "../errors.js";
import { ENTITY_KEYS } from "./entities.js";
import { fillPrompt, SUMMARY_JSON_INSTRUCTIONS, SUMMARY_SYSTEM_PROMPT, SUMMARY_UPDATE_PROMPT } from "./prompts.js";
import type { Summarizer, SummarizerInput, SummarizerOutput } from "./summarizer.js";
import { messageText, renderTranscript } from "./transcript.js";

/** Tag on every summariser model call: filter on it in traces and streams. */
export const SUMMARIZATION_TAG = "langgraph-memory:summarize";
/**
 * Tags of the summariser's model call. LangGraph's `streamMode: "messages"` skips chat-model runs
 * tagged `nostream` (and `langsmith:nostream`, the name older versions check), so the summary never
 * streams into a UI as if the assistant were answering.
 */
export const SUMMARIZATION_TAGS: readonly string[] = [SUMMARIZATION_TAG, "nostream", "langsmith:nostream"];
/** Run name of the summariser's model call in traces. */
export const SUMMARIZATION_RUN_NAME = "langgraph-memory:summarize";

/** Structured output the model is asked for (every field required, so strict JSON-schema modes accept it). */
export const SummaryOutputSchema = z.object({
  text: z.string().describe("The updated summary: third-person prose covering the current summary and the new messages."),
  entities: z
    .object({
      people: z.array(z.string()).describe("Names of people mentioned (the user included)."),
      places: z.array(z.string()).describe("Places: cities, countries, addresses, venues."),
      numbers: z.array(z.string()).describe("Numbers with what they are: amounts, quantities (e.g. 'budget €4,500')."),
      references: z.array(z.string()).describe("Ids and references with what they are: booking codes, order and ticket numbers (e.g. 'order 48213', 'flight booking K7QX2M')."),
      dates: z.array(z.string()).describe("Dates and times exactly as stated, with what happens then."),
      decisions: z.array(z.string()).describe("Decisions made, one short sentence each."),
      commitments: z.array(z.string()).describe("Promises someone made (who will do what, by when), one short sentence each."),
      openTasks: z.array(z.string()).describe("Tasks still open, one short sentence each."),
    })
    .describe("Key facts that appear in the new messages."),
  closedTasks: z.array(z.string()).describe("Open tasks from the recorded key facts that the new messages completed or cancelled."),
});

export interface ChatModelSummarizerOptions {
  /** System prompt (default {@link SUMMARY_SYSTEM_PROMPT}). */
  systemPrompt?: string;
  /** Update prompt with placeholders (default {@link SUMMARY_UPDATE_PROMPT}). */
  updatePrompt?: string;
  /**
   * `"auto"` (default): structured output through tool calling when the model supports it, JSON
   * text otherwise; `"structured"`: require it; `"json"`: always ask for JSON text.
   */
  output?: "auto" | "structured" | "json";
  /** Tags of the model call (default {@link SUMMARIZATION_TAGS}). */
  tags?: readonly string[];
}

/**
 * A summariser backed by any LangChain chat model, asking for `{ text, entities, closedTasks }`
 * with structured output (zod). The model sees the previous summary and key facts plus the new
 * messages as a plain transcript. One model call per summary; its call carries
 * {@link SUMMARIZATION_TAGS}. Entities are merged with the previous ones afterwards by
 * `summarizeMessages`, so a model that forgets a fact cannot drop it.
 *
 * @example
 * const summarizer = chatModelSummarizer(new ChatOpenAI({ model: "gpt-4o-mini" }));
 */
export function chatModelSummarizer(model: BaseChatModel, options: ChatModelSummarizerOptions = {}): Summarizer {
  const output = options.output ?? "auto";
  let structured: Runnable<BaseMessage[], unknown> | null = null;
  if (output !== "json") {
    try {
      structured = model.withStructuredOutput(SummaryOutputSchema, { name: "session_summary" }) as Runnable<BaseMessage[], unknown>;
    } catch (err) {
      if (output === "structured") {
        throw new MemoryError(ErrorCodes.MODEL_UNAVAILABLE, `summariser model has no structured output (tool calling): ${(err as Error).message}; use output: "json"`, { cause: err });
      }
    }
  }
  const tags = options.tags ?? SUMMARIZATION_TAGS;
  return {
    name: "chat-model",
    async summarize(input: SummarizerInput): Promise<SummarizerOutput> {
      const maxWords = Math.max(30, Math.floor(input.maxTokens * 0.45));
      const prompt = fillPrompt(options.updatePrompt ?? SUMMARY_UPDATE_PROMPT, {
        previous_summary: input.previous?.text.trim() || "(none)",
        previous_entities: JSON.stringify(input.previous?.entities ?? {}),
        transcript: renderTranscript(input.messages),
        max_words: String(maxWords),
      });
      const system = new SystemMessage(options.systemPrompt ?? SUMMARY_SYSTEM_PROMPT);
      const config = callConfig(input.config, tags);
      try {
        if (structured) return normalizeOutput(await structured.invoke([system, new HumanMessage(prompt)], config));
        const reply = await model.invoke([system, new HumanMessage(`${prompt}\n\n${SUMMARY_JSON_INSTRUCTIONS}`)], config);
        return parseJsonReply(messageText(reply));
      } catch (err) {
        if (err instanceof MemoryError) throw err;
        throw new MemoryError(ErrorCodes.MODEL_UNAVAILABLE, `summariser model call failed: ${(err as Error).message}`, { cause: err, retryable: true });
      }
    },
  };
}

/** The node's config for a nested call: same callbacks and metadata, our tags added, its own run. */
function callConfig(parent: RunnableConfig | undefined, tags: readonly string[]): RunnableConfig {
  const { runId: _runId, runName: _runName, ...base } = (parent ?? {}) as RunnableConfig & { runId?: string };
  return { ...base, tags: [...(parent?.tags ?? []), ...tags], runName: SUMMARIZATION_RUN_NAME };
}

/** Accept whatever the model returned, keeping only well-typed fields. */
export function normalizeOutput(raw: unknown): SummarizerOutput {
  const o = (raw && typeof raw === "object" ? raw : {}) as Record<string, unknown>;
  const text = typeof o.text === "string" ? o.text : typeof o.summary === "string" ? o.summary : "";
  const rawEntities = (o.entities && typeof o.entities === "object" ? o.entities : {}) as Record<string, unknown>;
  const entities: SummarizerOutput["entities"] = {};
  for (const key of ENTITY_KEYS) entities[key] = strings(rawEntities[key]);
  // Closed tasks come back as `closedTasks` beside the entities, never as new entities.
  entities.closedTasks = [];
  return { text: text.trim(), entities, closedTasks: strings(o.closedTasks) };
}

/** Parse a JSON answer (possibly fenced); a reply that is not JSON is taken as the summary text. */
export function parseJsonReply(reply: string): SummarizerOutput {
  const start = reply.indexOf("{");
  const end = reply.lastIndexOf("}");
  if (start >= 0 && end > start) {
    try {
      return normalizeOutput(JSON.parse(reply.slice(start, end + 1)));
    } catch {
      // fall through: not JSON
    }
  }
  return { text: reply.trim(), entities: {}, closedTasks: [] };
}

function strings(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.filter((v): v is string => typeof v === "string" && v.trim() !== "").map((v) => v.trim());
}
