import type { BaseMessage, ToolMessage } from "@langchain/core/messages";
import { messageToolCalls } from "../tokens/count-messages.js";

/** Longest tool result quoted into a summariser's input, in characters. */
export const MAX_TOOL_RESULT_CHARS = 600;

/** Plain text of a message's content (text blocks only; images and files are named, not inlined). */
export function messageText(message: BaseMessage): string {
  const content = message.content as unknown;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const parts: string[] = [];
  for (const block of content) {
    if (typeof block === "string") parts.push(block);
    else if (block && typeof block === "object") {
      const b = block as { type?: string; text?: unknown };
      if (typeof b.text === "string" && (b.type === "text" || b.type === undefined || b.type === "text-plain")) parts.push(b.text);
      else if (b.type === "image_url" || b.type === "image") parts.push("[image]");
      else if (b.type === "file" || b.type === "audio" || b.type === "video") parts.push(`[${b.type}]`);
    }
  }
  return parts.join("\n");
}

/** Speaker label of a message in a transcript. */
export function speaker(message: BaseMessage): string {
  switch (message.type) {
    case "human":
      return "User";
    case "ai":
      return "Assistant";
    case "system":
      return "System";
    case "tool":
      return `Tool ${(message as ToolMessage).name ?? "result"}`;
    default:
      return message.type;
  }
}

/**
 * Render messages as a plain transcript for a summariser. Tool calls and results become text
 * lines, so the summariser's own request never carries tool messages a provider could reject.
 *
 * @example
 * renderTranscript(messages)
 * // User: What's the weather in Oslo?
 * // Assistant called get_weather({"city":"Oslo"})
 * // Tool get_weather: 12°C, cloudy
 */
export function renderTranscript(messages: readonly BaseMessage[], maxToolResultChars = MAX_TOOL_RESULT_CHARS): string {
  const lines: string[] = [];
  for (const m of messages) {
    const text = messageText(m).trim();
    if (m.type === "tool") {
      lines.push(`${speaker(m)}: ${clipChars(text, maxToolResultChars)}`);
      continue;
    }
    if (text) lines.push(`${speaker(m)}: ${text}`);
    for (const call of messageToolCalls(m)) lines.push(`${speaker(m)} called ${call.name}(${clipChars(call.args, maxToolResultChars)})`);
  }
  return lines.join("\n");
}

export function clipChars(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
