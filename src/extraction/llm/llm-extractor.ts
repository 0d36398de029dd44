import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { HumanMessage, SystemMessage, type BaseMessage } from "@langchain/core/messages";
import type { BaseLanguageModelInput } from "@langchain/core/language_models/base";
import type { Runnable, RunnableConfig } from "@langchain/core/runnables";
import { ErrorCodes, MemoryError } from "../../errors.js";
import { CANDIDATE_KINDS, type CandidateAction, type CandidateKind, type ExtractionSource, type MemoryCandidate } from "../../core/candidate.js";
import { storableMessageText } from "../sources.js";
import { parseJsonObject } from "./parse-json.js";
import { JSON_OUTPUT_INSTRUCTIONS, MEMORY_EXTRACTION_PROMPT, MemoryExtractionSchema, formatSources } from "./prompt.js";

/**
 * Tags on every extraction call: `nostream` (and LangSmith's spelling) keep LangGraph's
 * `streamMode: "messages"` from streaming the extractor's tokens into the user's UI;
 * `langgraph-memory:extract` lets callbacks and traces recognise the call.
 */
export const EXTRACTION_TAGS = ["langgraph-memory:extract", "nostream", "langsmith:nostream"] as const;
export const EXTRACTION_RUN_NAME = "langgraph-memory:extract";
/** Tool name the structured output is requested under. */
export const EXTRACTION_TOOL_NAME = "record_memories";

export interface LlmExtractorOptions {
  model: BaseChatModel;
  /** System prompt (default {@link MEMORY_EXTRACTION_PROMPT}). */
  prompt?: string;
  /** `auto`: `withStructuredOutput` when the model binds tools, else JSON from text; `json`: always JSON from text. */
  structuredOutput?: "auto" | "json";
  /** The caller's run config (callbacks, signal): extraction tags are added to it. */
  config?: RunnableConfig;
  /** Character budget of the sources in the prompt (oldest dropped first). Default 24000. */
  maxPromptChars?: number;
}

export interface LlmExtraction {
  memories: MemoryCandidate[];
  invalidItems: number;
  unattributedItems: number;
  structuredOutput: "tool" | "json";
  /** Sources that fit in the prompt. */
  included: number;
}

const ACTION_ALIASES: Record<string, CandidateAction> = {
  add: "add", create: "add", remember: "add", update: "add", upsert: "add", insert: "add",
  forget: "forget", delete: "forget", remove: "forget", erase: "forget",
};

function callConfig(config: RunnableConfig | undefined): RunnableConfig {
  const tags = [...(config?.tags ?? []).filter((t) => !(EXTRACTION_TAGS as readonly string[]).includes(t)), ...EXTRACTION_TAGS];
  return { ...config, tags, runName: EXTRACTION_RUN_NAME, metadata: { ...config?.metadata, langgraph_memory: "extract" } };
}

function modelFailure(err: unknown): MemoryError {
  if (err instanceof MemoryError) return err;
  const name = err instanceof Error ? err.name : typeof err;
  const status = (err as { status?: unknown } | null)?.status;
  // The provider's message stays in `cause`: it may quote the prompt, which is user content.
  return new MemoryError(ErrorCodes.MODEL_UNAVAILABLE, `the extraction model call failed (${name}${typeof status === "number" ? `, status ${status}` : ""}); see error.cause`, {
    retryable: true,
    cause: err,
  });
}

function invalidOutput(detail: string): MemoryError {
  return new MemoryError(ErrorCodes.MODEL_OUTPUT_INVALID, `the extraction model's answer is not a { memories: [...] } object: ${detail}; retrying may help, or use a model with structured output`, {
    retryable: true,
  });
}

function toolCallArgs(message: unknown): Record<string, unknown> | undefined {
  const calls = (message as { tool_calls?: Array<{ name?: string; args?: unknown }> } | null)?.tool_calls;
  const call = calls?.find((c) => c.name === EXTRACTION_TOOL_NAME) ?? calls?.[0];
  return call && call.args && typeof call.args === "object" ? (call.args as Record<string, unknown>) : undefined;
}

async function askModel(options: LlmExtractorOptions, human: string): Promise<{ value: Record<string, unknown>; mode: "tool" | "json" }> {
  const { model } = options;
  const prompt = options.prompt ?? MEMORY_EXTRACTION_PROMPT;
  const config = callConfig(options.config);
  const canBindTools = typeof (model as { bindTools?: unknown }).bindTools === "function";

  if (options.structuredOutput !== "json" && canBindTools) {
    let structured: Runnable<BaseLanguageModelInput, { raw?: BaseMessage; parsed?: Record<string, unknown> | null }> | undefined;
    try {
      structured = model.withStructuredOutput(MemoryExtractionSchema, { name: EXTRACTION_TOOL_NAME, includeRaw: true });
    } catch {
      structured = undefined; // the model cannot do structured output after all: fall back to text
    }
    if (structured) {
      let out: { raw?: BaseMessage; parsed?: Record<string, unknown> | null };
      try {
        out = await structured.invoke([new SystemMessage(prompt), new HumanMessage(human)], config);
      } catch (err) {
        throw modelFailure(err);
      }
      // Some models ignore includeRaw and return the parsed object itself.
      if (out && typeof out === "object" && !("raw" in out) && "memories" in out) return { value: out as Record<string, unknown>, mode: "tool" };
      if (out?.parsed && typeof out.parsed === "object") return { value: out.parsed, mode: "tool" };
      const args = toolCallArgs(out?.raw);
      if (args) return { value: args, mode: "tool" };
      const fromText = out?.raw && typeof out.raw === "object" && "content" in out.raw ? parseJsonObject(storableMessageText(out.raw)) : undefined;
      if (fromText) return { value: fromText, mode: "json" };
      throw invalidOutput("no tool call and no JSON object in the reply");
    }
  }

  let reply: BaseMessage;
  try {
    reply = await model.invoke([new SystemMessage(`${prompt}\n\n${JSON_OUTPUT_INSTRUCTIONS}`), new HumanMessage(human)], config);
  } catch (err) {
    throw modelFailure(err);
  }
  const value = toolCallArgs(reply) ?? parseJsonObject(storableMessageText(reply));
  if (!value) throw invalidOutput("no JSON object in the reply");
  return { value, mode: "json" };
}

interface ParsedItem {
  kind: CandidateKind;
  text: string;
  confidence: number;
  subject?: string;
  action: CandidateAction;
  sourceId?: string;
}

/** Validate one model item leniently: aliases and string numbers are accepted, anything unusable is dropped. */
function parseItem(raw: unknown): ParsedItem | undefined {
  if (!raw || typeof raw !== "object") return undefined;
  const r = raw as Record<string, unknown>;
  const kind = typeof r.kind === "string" ? r.kind.trim().toLowerCase() : "";
  if (!(CANDIDATE_KINDS as readonly string[]).includes(kind)) return undefined;
  const text = typeof r.text === "string" ? r.text.trim() : "";
  if (text === "") return undefined;
  const c = typeof r.confidence === "number" ? r.confidence : typeof r.confidence === "string" ? Number(r.confidence) : NaN;
  // A missing confidence is not a high one: below the default floor, so the policy drops it.
  const confidence = Number.isFinite(c) ? Math.min(1, Math.max(0, c > 1 && c <= 100 ? c / 100 : c)) : 0.5;
  const subjectRaw = typeof r.subject === "string" ? r.subject.trim() : "";
  const subject = /^(?:\*|[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_*-]+)*)$/.test(subjectRaw) && subjectRaw.length <= 64 ? subjectRaw.toLowerCase() : undefined;
  const actionRaw = typeof r.action === "string" ? r.action.trim().toLowerCase() : "add";
  const action = ACTION_ALIASES[actionRaw];
  if (!action) return undefined;
  const idRaw = r.source_id ?? r.sourceId ?? r.source_message_id ?? r.sourceMessageId ?? r.message_id;
  const sourceId = typeof idRaw === "string" || typeof idRaw === "number" ? String(idRaw) : undefined;
  return { kind: kind as CandidateKind, text, confidence, ...(subject ? { subject } : {}), action, ...(sourceId ? { sourceId } : {}) };
}

/**
 * Extract candidates with a chat model. Only the given sources (the user's own messages and
 * verified outcomes) are sent; every candidate must name one of them as its source, otherwise it
 * is dropped — a model cannot attribute a memory to a tool result it never saw.
 *
 * @example
 * const { memories } = await extractWithModel(sources, { model: new ChatOpenAI({ model: "gpt-4o-mini" }) });
 */
export async function extractWithModel(sources: readonly ExtractionSource[], options: LlmExtractorOptions): Promise<LlmExtraction> {
  const { text, included } = formatSources(sources, options.maxPromptChars);
  const { value, mode } = await askModel(options, text);
  const items = value.memories;
  if (!Array.isArray(items)) throw invalidOutput('"memories" is not an array');

  const byId = new Map(included.map((s) => [s.id, s]));
  const memories: MemoryCandidate[] = [];
  let invalidItems = 0;
  let unattributedItems = 0;
  for (const raw of items) {
    const item = parseItem(raw);
    if (!item) {
      invalidItems++;
      continue;
    }
    const source = item.sourceId !== undefined ? byId.get(item.sourceId) : included.length === 1 ? included[0] : undefined;
    if (!source) {
      unattributedItems++;
      continue;
    }
    memories.push({
      kind: item.kind,
      text: item.text,
      confidence: item.confidence,
      ...(item.subject ? { subject: item.subject } : {}),
      action: item.action,
      sourceMessageId: source.id,
      source: source.origin,
      extractor: "llm",
    });
  }
  return { memories, invalidItems, unattributedItems, structuredOutput: mode, included: included.length };
}
