import type { BaseMessage } from "@langchain/core/messages";
import { countTextTokensCached, encodingForModel, type TokenEncoding } from "./count-text.js";

/**
 * Fixed costs of the chat format, as OpenAI documents them for its chat models: every message is
 * wrapped in role markers (~3 tokens), a `name` adds one, and the reply is primed with 3 tokens.
 * Other providers differ by a few tokens per message; budgets leave room for that.
 */
export const MESSAGE_OVERHEAD_TOKENS = 3;
export const NAME_OVERHEAD_TOKENS = 1;
/** Per tool call: the call id and the function wrapper around name and arguments. */
export const TOOL_CALL_OVERHEAD_TOKENS = 3;
export const REPLY_PRIMING_TOKENS = 3;
/** Images are priced by tiles, not by their bytes: a 512 px low-detail tile vs a typical high-detail image. */
export const IMAGE_TOKENS = { low: 85, high: 765 } as const;

export interface CountTokensOptions {
  /** Model name (`gpt-4o-mini`, `openai:gpt-4.1`, `claude-…`) choosing the encoding; default o200k. */
  model?: string;
  /** Explicit encoding (wins over `model`). */
  encoding?: TokenEncoding;
}

/** A tool call as sent to the provider, whichever field of the message carried it. */
export interface MessageToolCall {
  id: string | undefined;
  name: string;
  /** Arguments as JSON text. */
  args: string;
}

interface CacheEntry {
  content: unknown;
  toolCalls: unknown;
  kwargsToolCalls: unknown;
  name: unknown;
  o200k_base?: number;
  cl100k_base?: number;
}

// Keyed by message object: the same objects are counted again on every step of a turn. The entry
// remembers the fields it was computed from, so a message mutated in place is recounted.
const perMessage = new WeakMap<BaseMessage, CacheEntry>();

export function resolveEncoding(options?: CountTokensOptions): TokenEncoding {
  return options?.encoding ?? encodingForModel(options?.model);
}

/**
 * Tokens one message costs in a prompt: its text content (string or content blocks), its tool
 * calls (name + JSON arguments), its name, and the per-message overhead.
 *
 * @example
 * countMessageTokens(new HumanMessage("Hi, I'm Ada.")) // → 9
 */
export function countMessageTokens(message: BaseMessage, options?: CountTokensOptions): number {
  const encoding = resolveEncoding(options);
  const kwargsToolCalls = message.additional_kwargs?.tool_calls;
  const toolCalls = (message as { tool_calls?: unknown }).tool_calls;
  let entry = perMessage.get(message);
  if (
    entry === undefined ||
    entry.content !== message.content ||
    entry.toolCalls !== toolCalls ||
    entry.kwargsToolCalls !== kwargsToolCalls ||
    entry.name !== message.name
  ) {
    entry = { content: message.content, toolCalls, kwargsToolCalls, name: message.name };
    perMessage.set(message, entry);
  }
  const cached = entry[encoding];
  if (cached !== undefined) return cached;
  const tokens = computeMessageTokens(message, encoding);
  entry[encoding] = tokens;
  return tokens;
}

/**
 * Tokens a list of messages costs as a prompt (each message plus the reply priming). Offline, with
 * `gpt-tokenizer`; never `@langchain/core`'s counter, which downloads tables.
 *
 * @example
 * countTokens([new SystemMessage("Be brief."), new HumanMessage("Weather in Oslo?")], { model: "gpt-4o-mini" })
 */
export function countTokens(messages: readonly BaseMessage[], options?: CountTokensOptions): number {
  if (messages.length === 0) return 0;
  const resolved: CountTokensOptions = { encoding: resolveEncoding(options) };
  let total = REPLY_PRIMING_TOKENS;
  for (const message of messages) total += countMessageTokens(message, resolved);
  return total;
}

/**
 * The tool calls of an AI message as a provider sees them: `tool_calls`, or (for messages built
 * from raw OpenAI payloads) `additional_kwargs.tool_calls`, the field LangChain's OpenAI adapter
 * falls back to.
 */
export function messageToolCalls(message: BaseMessage): MessageToolCall[] {
  if (message.type !== "ai") return [];
  const calls = (message as { tool_calls?: Array<{ id?: string; name: string; args: unknown }> }).tool_calls;
  if (calls && calls.length > 0) {
    return calls.map((c) => ({ id: c.id, name: c.name, args: typeof c.args === "string" ? c.args : JSON.stringify(c.args ?? {}) }));
  }
  const raw = message.additional_kwargs?.tool_calls as Array<{ id?: string; function?: { name?: string; arguments?: string } }> | undefined;
  if (Array.isArray(raw) && raw.length > 0) {
    return raw.map((c) => ({ id: c.id, name: c.function?.name ?? "", args: c.function?.arguments ?? "" }));
  }
  return [];
}

function computeMessageTokens(message: BaseMessage, encoding: TokenEncoding): number {
  let tokens = MESSAGE_OVERHEAD_TOKENS;
  if (message.name) tokens += NAME_OVERHEAD_TOKENS + countTextTokensCached(message.name, encoding);
  const calls = messageToolCalls(message);
  const callIds = new Set<string>();
  for (const call of calls) {
    if (call.id) callIds.add(call.id);
    tokens += TOOL_CALL_OVERHEAD_TOKENS + countTextTokensCached(call.name, encoding) + countTextTokensCached(call.args, encoding);
  }
  tokens += contentTokens(message.content, encoding, callIds);
  return tokens;
}

function contentTokens(content: unknown, encoding: TokenEncoding, callIds: Set<string>): number {
  if (typeof content === "string") return countTextTokensCached(content, encoding);
  if (!Array.isArray(content)) return 0;
  let tokens = 0;
  for (const block of content) tokens += blockTokens(block, encoding, callIds);
  return tokens;
}

function blockTokens(block: unknown, encoding: TokenEncoding, callIds: Set<string>): number {
  if (typeof block === "string") return countTextTokensCached(block, encoding);
  if (block === null || typeof block !== "object") return 0;
  const b = block as Record<string, unknown>;
  switch (b.type) {
    case "text":
    case "text-plain":
      return typeof b.text === "string" ? countTextTokensCached(b.text, encoding) : 0;
    case "image_url": {
      const detail = typeof b.image_url === "object" && b.image_url !== null ? (b.image_url as { detail?: string }).detail : undefined;
      return detail === "low" ? IMAGE_TOKENS.low : IMAGE_TOKENS.high;
    }
    case "image":
      return (b.detail ?? (b.metadata as { detail?: string } | undefined)?.detail) === "low" ? IMAGE_TOKENS.low : IMAGE_TOKENS.high;
    case "tool_use":
    case "tool_call":
      // Providers that mirror tool calls into content (Anthropic) would be counted twice.
      if (typeof b.id === "string" && callIds.has(b.id)) return 0;
      return TOOL_CALL_OVERHEAD_TOKENS + countTextTokensCached(`${b.name ?? ""}${JSON.stringify(b.input ?? b.args ?? {})}`, encoding);
    case "reasoning":
      return typeof b.reasoning === "string" ? countTextTokensCached(b.reasoning, encoding) : 0;
    case "thinking":
      return typeof b.thinking === "string" ? countTextTokensCached(b.thinking, encoding) : 0;
    default:
      if (typeof b.text === "string") return countTextTokensCached(b.text, encoding);
      // Audio, files, video: their bytes are not text tokens; count a tile-sized estimate.
      if ("data" in b || "url" in b || "file_id" in b || "fileId" in b || "source" in b) return IMAGE_TOKENS.low;
      return countTextTokensCached(JSON.stringify(b), encoding);
  }
}
