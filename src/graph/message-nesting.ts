import type { BaseMessage } from "@langchain/core/messages";
import { invalidInput } from "../errors.js";

/**
 * Deepest nesting of a message's content, `additional_kwargs`, `response_metadata`, tool calls and
 * artifact. LangGraph's checkpoint serializer walks values recursively and overflows the stack
 * somewhere past 10,000 levels; 1,000 is far beyond any real message.
 */
export const MAX_MESSAGE_NESTING = 1_000;

/**
 * Refuse messages nested deeper than {@link MAX_MESSAGE_NESTING} with INVALID_INPUT naming the
 * message and the field, at the start of a memory-enabled run — before any node reads or writes
 * anything. Without it the checkpoint of the run's input fails only after the nodes have run and
 * queued work (LangGraph saves checkpoints in the background). Walked without recursion.
 *
 * @example
 * checkMessageNesting(state.messages); // throws for additional_kwargs nested 20,000 levels deep
 */
export function checkMessageNesting(messages: readonly BaseMessage[]): void {
  messages.forEach((m, i) => {
    if (!m || typeof m !== "object") return;
    const fields = m as unknown as Record<string, unknown>;
    for (const field of ["content", "additional_kwargs", "response_metadata", "tool_calls", "artifact"]) {
      const depth = nestingOf(fields[field]);
      if (depth > MAX_MESSAGE_NESTING) {
        throw invalidInput(
          `messages[${i}].${field}`,
          `is nested more than ${MAX_MESSAGE_NESTING} levels deep, which the checkpoint cannot save — flatten it (or send it as a JSON string)`,
        );
      }
    }
  });
}

/** Levels of nesting of a JSON-like value, stopping once past the bound. */
function nestingOf(value: unknown): number {
  if (value === null || typeof value !== "object") return 0;
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== "object" || seen.has(v)) continue;
    seen.add(v);
    if (depth > deepest) deepest = depth;
    if (deepest > MAX_MESSAGE_NESTING) return deepest;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (child !== null && typeof child === "object") stack.push([child, depth + 1]);
  }
  return deepest;
}
