import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import type { MemoryPromptState } from "./memory-prompt.js";
import type { RetrievedMemory } from "../state/types.js";
import { readMemories, readProfile, readRules, readSummary } from "../state/state-schemas.js";

/** Every offline answer starts with this label, so nobody mistakes it for a model's answer. */
export const OFFLINE_RESPONDER_LABEL = "[offline responder]";

/** The `name` of the offline responder's messages (summaries and session indexing leave them out: they restate memory). */
export const OFFLINE_RESPONDER_NAME = "offline_responder";

/** True for a message the offline responder wrote. */
export function isOfflineAnswer(message: BaseMessage): boolean {
  return message.getType() === "ai" && message.name === OFFLINE_RESPONDER_NAME;
}

/** Said once per answer: how to get real answers. */
export const OFFLINE_RESPONDER_HINT = "(No chat model: set MODEL, e.g. openai:gpt-4o-mini.)";

export interface OfflineAnswerOptions {
  /** Most memories quoted (default 3). */
  maxMemories?: number;
  /** Most past sessions quoted (default 1). */
  maxPastSessions?: number;
  /** Longest quote of one memory or session, in characters (default 160). */
  maxQuoteChars?: number;
}

/**
 * What the offline responder says: not an answer to the question, but what memory injected for it
 * — the retrieved memories with their dates, the profile, the approved rules, the most relevant
 * past session and the rolling summary — labelled `[offline responder]` so it is never mistaken
 * for a model. Deterministic; reads only the memory channels the load node filled.
 *
 * @example
 * offlineAnswer(state)
 * // '[offline responder] From memory: "User prefers metric units." (2026-03-02). Profile: name Alice. (No chat model configured: …)'
 */
export function offlineAnswer(state: MemoryPromptState, options: OfflineAnswerOptions = {}): string {
  const maxQuote = options.maxQuoteChars ?? 160;
  const parts: string[] = [];
  // Malformed sections (older versions, other writers) are left out, as in buildContext.
  const memories = readMemories(state.memories).slice(0, options.maxMemories ?? 3);
  if (memories.length > 0) parts.push(`From memory: ${memories.map((m) => quoteMemory(m, maxQuote)).join("; ")}.`);
  const profile = Object.entries(readProfile(state.profile) ?? {}).filter(([, v]) => v !== null && v !== undefined && v !== "");
  if (profile.length > 0) parts.push(`Profile: ${profile.map(([k, v]) => `${k} ${typeof v === "string" ? v : JSON.stringify(v)}`).join(", ")}.`);
  const rules = readRules(state.rules);
  if (rules.length > 0) parts.push(`Rules I follow: ${rules.map((r) => r.text).join(" ")}`);
  const sessions = readMemories(state.pastSessions).slice(0, options.maxPastSessions ?? 1);
  if (sessions.length > 0) parts.push(`From an earlier session: ${sessions.map((s) => quoteMemory(s, Math.min(maxQuote, 100))).join("; ")}.`);
  const summary = readSummary(state.summary);
  if (summary?.text) parts.push(`This conversation so far: ${clip(summary.text.replace(/\s+/g, " "), maxQuote)}`);
  const body = parts.length > 0 ? parts.join(" ") : "Nothing in memory relates to this message yet.";
  return `${OFFLINE_RESPONDER_LABEL} ${body} ${OFFLINE_RESPONDER_HINT}`;
}

/**
 * A graph node answering offline from the memory context (see {@link offlineAnswer}); what the
 * `memory_agent` graph runs when no `MODEL` is set.
 *
 * @example
 * const graph = withMemory({ memory, agent: createOfflineResponder() }).compile();
 */
export function createOfflineResponder(options: OfflineAnswerOptions = {}) {
  return async function offlineResponder(state: MemoryPromptState): Promise<{ messages: AIMessage[] }> {
    return { messages: [new AIMessage({ content: offlineAnswer(state, options), name: OFFLINE_RESPONDER_NAME })] };
  };
}

function quoteMemory(m: RetrievedMemory, maxChars: number): string {
  const date = typeof m.createdAt === "string" ? m.createdAt.slice(0, 10) : "";
  return `"${clip(m.text.replace(/\s+/g, " ").trim(), maxChars)}"${date ? ` (${date})` : ""}`;
}

function clip(text: string, maxChars: number): string {
  return text.length <= maxChars ? text : `${text.slice(0, maxChars - 1).trimEnd()}…`;
}
