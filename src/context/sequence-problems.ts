import type { BaseMessage, ToolMessage } from "@langchain/core/messages";
import { messageToolCalls } from "../tokens/count-messages.js";

export interface SequenceProblem {
  /** Index of the offending message. */
  index: number;
  code: "orphan-tool-result" | "duplicate-tool-result" | "missing-tool-result" | "system-not-first";
  message: string;
}

export interface SequenceCheckOptions {
  /** Also require system messages to come before all others (Anthropic and Gemini require it). Default true. */
  requireSystemFirst?: boolean;
}

/**
 * Problems that make an OpenAI-style chat API reject a message list: a tool result that does not
 * directly follow the AI message that called it (only other results between them), a result
 * answered twice, an AI tool call without all its results. Empty list = valid.
 *
 * @example
 * expect(findSequenceProblems(context.messages)).toEqual([]);
 */
export function findSequenceProblems(messages: readonly BaseMessage[], options: SequenceCheckOptions = {}): SequenceProblem[] {
  const problems: SequenceProblem[] = [];
  const requireSystemFirst = options.requireSystemFirst ?? true;
  let seenNonSystem = false;
  // Calls of the AI message the current run of tool results answers.
  let open: { index: number; pending: Set<string>; answered: Set<string> } | null = null;

  const closeOpen = () => {
    if (open && open.pending.size > 0) {
      problems.push({ index: open.index, code: "missing-tool-result", message: `AI tool call(s) ${[...open.pending].join(", ")} have no result` });
    }
    open = null;
  };

  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (m.type === "tool") {
      const id = (m as ToolMessage).tool_call_id;
      const current = open as { index: number; pending: Set<string>; answered: Set<string> } | null;
      if (current?.pending.has(id)) {
        current.pending.delete(id);
        current.answered.add(id);
      } else if (current?.answered.has(id)) {
        problems.push({ index: i, code: "duplicate-tool-result", message: `tool result ${id} answered twice` });
      } else {
        problems.push({ index: i, code: "orphan-tool-result", message: `tool result ${id} does not follow the AI message that called it` });
      }
      seenNonSystem = true;
      continue;
    }
    closeOpen();
    if (m.type === "system") {
      if (requireSystemFirst && seenNonSystem) problems.push({ index: i, code: "system-not-first", message: "system message after conversation messages" });
      continue;
    }
    seenNonSystem = true;
    const calls = messageToolCalls(m);
    if (calls.length > 0) open = { index: i, pending: new Set(calls.map((c) => c.id ?? "")), answered: new Set() };
  }
  closeOpen();
  return problems;
}
