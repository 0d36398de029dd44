/**
 * Graph messages as plain JSON for a job payload, and back. Only what extraction can use travels:
 * the role, the id, the text (secrets redacted, long texts cut, NUL characters and unpaired
 * surrogates made storable — see `storableText`) and the trust flag. Tool results,
 * AI and system messages are kept short and come back as their own roles, so the extractors treat
 * them as untrusted context and never as sources.
 */
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { createHash } from "node:crypto";
import { invalidInput } from "../../errors.js";
import { UNTRUSTED_CONTENT_FLAG, isUserAuthored } from "../../core/user-authored.js";
import { storableMessageText } from "../sources.js";
import { redactSecrets } from "../../sensitive/redaction.js";
import { storableText } from "../../core/well-formed-text.js";

export type SerializedRole = "human" | "ai" | "tool" | "system";

export interface SerializedMessage {
  id: string;
  role: SerializedRole;
  text: string;
  /** An earlier user message sent as context only (what "remember that!" refers to): never a new source. */
  context?: true;
  /** A human-role message the app flagged as third-party text (`UNTRUSTED_CONTENT_FLAG`). */
  untrusted?: true;
  /** The run that added it (attribution). */
  runId?: string;
  /** The text was cut to the length limit. */
  truncated?: true;
}

export interface SerializeOptions {
  runId?: string | null;
  /** Replace secrets with `[redacted:<category>]` (default true). */
  redact?: boolean;
  /** Characters kept of a user message (default 8,000) and of any other message (default 1,000). */
  maxUserChars?: number;
  maxOtherChars?: number;
}

/** The id a message travels under (graph messages always have one; a hash of the text otherwise). */
export function messageIdOf(message: BaseMessage): string {
  if (typeof message.id === "string" && message.id !== "") return message.id;
  return `message-${createHash("sha256").update(`${message.getType()}\u0000${storableMessageText(message)}`).digest("hex").slice(0, 16)}`;
}

function roleOf(message: BaseMessage): SerializedRole {
  const type = message.getType();
  if (type === "human") return "human";
  if (type === "ai") return "ai";
  if (type === "tool" || type === "function") return "tool";
  return "system";
}

/** One message as payload JSON. */
export function serializeMessage(message: BaseMessage, options: SerializeOptions & { context?: boolean } = {}): SerializedMessage {
  const role = roleOf(message);
  const user = role === "human" && isUserAuthored(message);
  const limit = user ? (options.maxUserChars ?? 8000) : (options.maxOtherChars ?? 1000);
  const full = storableMessageText(message);
  const truncated = full.length > limit;
  // Redact a little past the cut, so a secret straddling it is still recognised whole.
  let text = truncated ? full.slice(0, limit + 256) : full;
  if (options.redact ?? true) text = redactSecrets(text);
  if (truncated) text = text.slice(0, limit);
  return {
    id: storableText(messageIdOf(message)),
    role,
    text,
    ...(options.context ? { context: true as const } : {}),
    ...(role === "human" && !user ? { untrusted: true as const } : {}),
    ...(options.runId ? { runId: options.runId } : {}),
    ...(truncated ? { truncated: true as const } : {}),
  };
}

/** Payload JSON back to messages, with the same ids and trust. */
export function deserializeMessage(m: SerializedMessage): BaseMessage {
  const fields = { id: m.id, content: m.text };
  if (m.role === "human") return new HumanMessage(m.untrusted ? { ...fields, additional_kwargs: { [UNTRUSTED_CONTENT_FLAG]: true } } : fields);
  if (m.role === "ai") return new AIMessage(fields);
  if (m.role === "tool") return new ToolMessage({ ...fields, tool_call_id: `${m.id}-call` });
  return new SystemMessage(fields);
}

const ROLES: readonly string[] = ["human", "ai", "tool", "system"];

/** Validate payload messages (a job's payload is data from the database: check before use). */
export function parseSerializedMessages(value: unknown, field = "payload.messages"): SerializedMessage[] {
  if (!Array.isArray(value)) throw invalidInput(field, "must be an array of { id, role, text }");
  return value.map((m, i) => {
    const r = m as Partial<SerializedMessage> | null;
    if (!r || typeof r !== "object" || typeof r.id !== "string" || r.id === "" || typeof r.text !== "string" || !ROLES.includes(r.role as string)) {
      throw invalidInput(`${field}[${i}]`, "must be { id: string, role: human|ai|tool|system, text: string }");
    }
    return r as SerializedMessage;
  });
}

/**
 * Where the messages not yet extracted start: after the watermark when it is in the list (the id
 * of the last message a previous pass covered), otherwise after the last assistant message before
 * the newest user message — the current turn, with its tool calls and answer.
 */
export function newMessagesStart(messages: readonly BaseMessage[], watermark?: string | null): number {
  if (watermark) {
    const at = messages.findIndex((m) => m.id === watermark);
    if (at >= 0) return at + 1;
  }
  let human = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i].getType() === "human") {
      human = i;
      break;
    }
  }
  if (human < 0) return messages.length;
  for (let i = human - 1; i >= 0; i--) if (messages[i].getType() === "ai") return i + 1;
  return 0;
}

/** Up to `count` user messages before `start` (context for references such as "remember that!"). */
export function contextBefore(messages: readonly BaseMessage[], start: number, count: number): BaseMessage[] {
  const out: BaseMessage[] = [];
  for (let i = start - 1; i >= 0 && out.length < count; i--) if (messages[i].getType() === "human" && isUserAuthored(messages[i])) out.unshift(messages[i]);
  return out;
}
