/**
 * What a prompt shows the model, as one searchable text: every message's text and every tool
 * call's arguments, lowercased with whitespace and apostrophes normalised, so "visible" means
 * "the model could read it", whatever section (summary prose, key facts, recent messages) holds it.
 */
import type { BaseMessage } from "@langchain/core/messages";
import { messageText } from "../../src/summarization/transcript.js";
import { messageToolCalls } from "../../src/tokens/count-messages.js";

/** Lowercase, one space for any whitespace run, straight apostrophes. */
export function normalizeForSearch(text: string): string {
  return text.toLowerCase().replace(/[’‘]/g, "'").replace(/\s+/g, " ");
}

/** The prompt's text, normalised (see {@link normalizeForSearch}). */
export function promptText(messages: readonly BaseMessage[]): string {
  const parts: string[] = [];
  for (const m of messages) {
    parts.push(messageText(m));
    for (const call of messageToolCalls(m)) parts.push(`${call.name} ${call.args}`);
  }
  return normalizeForSearch(parts.join("\n"));
}

/** True when every needle is in the (normalised) prompt text. */
export function holdsAll(text: string, needles: readonly string[]): boolean {
  return needles.every((n) => text.includes(normalizeForSearch(n)));
}
