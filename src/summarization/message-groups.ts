import { AIMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { messageToolCalls } from "../tokens/count-messages.js";

/**
 * What to do with an AI tool call that has no result in the history (a run interrupted between the
 * model's call and the tool, or a result lost to trimming elsewhere):
 * - `"synthesize"` (default): add a tool result saying the call did not complete, so the model
 *   knows it was attempted (LangChain's agents patch dangling calls the same way);
 * - `"drop"`: remove the calls and their partial results, keeping the AI message's text if any.
 */
export type MissingToolResultPolicy = "synthesize" | "drop";

/** Text of a synthesized result for a tool call that never completed. */
export const MISSING_TOOL_RESULT_TEXT = "This tool call did not complete: no result was recorded.";

/**
 * An atomic unit of history: a single message, or an AI message with tool calls together with
 * the results of all its calls. Trimming and summarising keep or drop whole groups only.
 */
export interface MessageGroup {
  /** Messages as they must be sent (results follow their call, missing ones repaired). */
  messages: BaseMessage[];
  /** Index in the input of the group's first message. */
  start: number;
  /** Highest input index of any message in the group. */
  end: number;
  /** Type of the first message (`system`, `human`, `ai`, …). */
  type: string;
  /** True when a tool call had to be repaired (missing results). */
  repaired: boolean;
}

export interface GroupMessagesResult {
  groups: MessageGroup[];
  /** Tool results dropped because no earlier AI message in the list made their call. */
  orphanToolResults: number;
  /** AI tool calls that had no result. */
  missingToolResults: number;
}

// Repaired copies are cached per source message so the token cache (keyed by object) keeps hitting.
const synthesizedResults = new WeakMap<BaseMessage, Map<string, ToolMessage>>();
const strippedCalls = new WeakMap<BaseMessage, AIMessage | null>();

/**
 * Split messages into atomic groups for trimming and summarising: each AI message with tool calls
 * is paired with the results of all its calls (found anywhere after it, placed right after it);
 * a tool result with no earlier call is dropped; calls without a result are repaired by `policy`.
 * Pure: the input is not changed.
 *
 * @example
 * const { groups } = groupMessages(state.messages);
 * groups.at(-1)?.messages // the newest unit, e.g. [AIMessage(tool_calls: a, b), ToolMessage(a), ToolMessage(b)]
 */
export function groupMessages(messages: readonly BaseMessage[], policy: MissingToolResultPolicy = "synthesize"): GroupMessagesResult {
  // Pending results by call id, in input order; consumed by the first AI message before them.
  const resultsById = new Map<string, number[]>();
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (m.type === "tool") {
      const id = (m as ToolMessage).tool_call_id;
      const list = resultsById.get(id);
      if (list) list.push(i);
      else resultsById.set(id, [i]);
    }
  }
  const consumed = new Set<number>();
  const groups: MessageGroup[] = [];
  let orphanToolResults = 0;
  let missingToolResults = 0;

  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (m.type === "tool") {
      if (!consumed.has(i)) orphanToolResults++;
      continue;
    }
    if (m.type === "remove") continue;
    const calls = m.type === "ai" ? messageToolCalls(m) : [];
    if (calls.length === 0) {
      groups.push({ messages: [m], start: i, end: i, type: m.type, repaired: false });
      continue;
    }
    const results: BaseMessage[] = [];
    const missing: string[] = [];
    let end = i;
    let unpairable = false;
    for (const call of calls) {
      if (!call.id) {
        unpairable = true;
        continue;
      }
      const at = takeResultAfter(resultsById.get(call.id), i, consumed);
      if (at === undefined) missing.push(call.id);
      else {
        results.push(messages[at]);
        end = Math.max(end, at);
      }
    }
    if (missing.length === 0 && !unpairable) {
      groups.push({ messages: [m, ...results], start: i, end, type: "ai", repaired: false });
      continue;
    }
    missingToolResults += missing.length;
    if (policy === "synthesize" && !unpairable) {
      const synthesized = missing.map((id) => synthesizedResult(m, id, calls.find((c) => c.id === id)?.name));
      // Keep the provider's order: results in the order of the calls.
      const byId = new Map<string, BaseMessage>();
      for (const r of results) byId.set((r as ToolMessage).tool_call_id, r);
      for (const s of synthesized) byId.set(s.tool_call_id, s);
      const ordered = calls.map((c) => byId.get(c.id as string) as BaseMessage);
      groups.push({ messages: [m, ...ordered], start: i, end, type: "ai", repaired: true });
    } else {
      const stripped = withoutToolCalls(m);
      if (stripped) groups.push({ messages: [stripped], start: i, end, type: "ai", repaired: true });
    }
  }
  return { groups, orphanToolResults, missingToolResults };
}

/** Flatten groups back into a message list. */
export function flattenGroups(groups: readonly MessageGroup[]): BaseMessage[] {
  const out: BaseMessage[] = [];
  for (const g of groups) for (const m of g.messages) out.push(m);
  return out;
}

/**
 * Ensure a message list is a valid OpenAI-style sequence: orphan tool results dropped, results
 * placed right after their call, missing results repaired. Returns the input array itself when
 * nothing needed fixing.
 */
export function repairToolPairs(messages: readonly BaseMessage[], policy: MissingToolResultPolicy = "synthesize"): BaseMessage[] {
  const { groups, orphanToolResults, missingToolResults } = groupMessages(messages, policy);
  const flat = flattenGroups(groups);
  if (orphanToolResults === 0 && missingToolResults === 0 && flat.length === messages.length && flat.every((m, i) => m === messages[i])) {
    return messages as BaseMessage[];
  }
  return flat;
}

function takeResultAfter(indices: number[] | undefined, after: number, consumed: Set<number>): number | undefined {
  if (!indices) return undefined;
  for (const at of indices) {
    if (at > after && !consumed.has(at)) {
      consumed.add(at);
      return at;
    }
  }
  return undefined;
}

function synthesizedResult(ai: BaseMessage, callId: string, name: string | undefined): ToolMessage {
  let byCall = synthesizedResults.get(ai);
  if (!byCall) synthesizedResults.set(ai, (byCall = new Map()));
  let result = byCall.get(callId);
  if (!result) {
    result = new ToolMessage({ content: MISSING_TOOL_RESULT_TEXT, tool_call_id: callId, name, status: "error" });
    byCall.set(callId, result);
  }
  return result;
}

function withoutToolCalls(ai: BaseMessage): AIMessage | null {
  if (strippedCalls.has(ai)) return strippedCalls.get(ai) ?? null;
  const { tool_calls: _calls, ...kwargs } = ai.additional_kwargs ?? {};
  const content = Array.isArray(ai.content)
    ? ai.content.filter((b) => typeof b === "string" || !["tool_use", "tool_call"].includes((b as { type?: string }).type ?? ""))
    : ai.content;
  const empty = typeof content === "string" ? content.trim() === "" : content.length === 0;
  const copy = empty ? null : new AIMessage({ content, id: ai.id, name: ai.name, additional_kwargs: kwargs, response_metadata: ai.response_metadata });
  strippedCalls.set(ai, copy);
  return copy;
}
