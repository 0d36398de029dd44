import type { BaseMessage } from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";
import { scopeFromConfig, type UserScope } from "../../core/scope.js";
import type { ExtractMemoriesOptions } from "../extract-memories.js";
import { extractAndStore } from "../write/extract-and-store.js";
import type { MemoryWriteOptions } from "../write/write-options.js";
import type { WriteReport } from "../write/write-report.js";
import { runIdFromConfig, threadIdFromConfig } from "./run-config.js";
import { newMessagesStart } from "./serialize-messages.js";

/** The state an extraction node reads: the messages, and the optional watermark channel ({@link ExtractionStateSpec}). */
export interface ExtractionNodeState {
  messages: BaseMessage[];
  extractedThroughMessageId?: string | null;
}

/** The update it returns: the new watermark (ignored by graphs without the channel). */
export interface ExtractionNodeUpdate {
  extractedThroughMessageId?: string;
}

export interface MemoryExtractionNodeOptions
  extends MemoryWriteOptions,
    Pick<ExtractMemoriesOptions, "model" | "prompt" | "structuredOutput" | "maxPromptChars" | "isUserMessage"> {
  /** Called with each pass's write report (counts and ids only). */
  onReport?: (report: WriteReport, context: { scope: UserScope; threadId: string }) => void;
}

/**
 * A graph node that extracts memories from the new messages of the turn and stores them through
 * the write path, inside the run (for tests, evals and simple apps; production graphs queue the
 * work with {@link createScheduleExtractionNode} instead). Scope and thread come from
 * `config.configurable` (`tenant_id`, `user_id`, `thread_id`). New messages are those after the
 * watermark channel when the state has it, else the current turn; earlier user messages are
 * context only.
 *
 * @example
 * const graph = new StateGraph(MemoryAnnotation)
 *   .addNode("agent", agent)
 *   .addNode("extract_memories", createMemoryExtractionNode({ store, model }))
 *   .addEdge(START, "agent").addEdge("agent", "extract_memories").addEdge("extract_memories", END)
 *   .compile();
 */
export function createMemoryExtractionNode(options: MemoryExtractionNodeOptions) {
  const { onReport, ...writeOptions } = options;
  return async function extractMemoriesNode(state: ExtractionNodeState, config: RunnableConfig = {}): Promise<ExtractionNodeUpdate> {
    const scope = scopeFromConfig(config);
    const threadId = threadIdFromConfig(config);
    const messages = state.messages ?? [];
    const start = newMessagesStart(messages, state.extractedThroughMessageId);
    if (start >= messages.length) return {};
    const watermark = start > 0 ? messages[start - 1].id : undefined;
    const report = await extractAndStore(watermark || start === 0 ? messages : messages.slice(start), {
      ...writeOptions,
      scope,
      threadId,
      runId: runIdFromConfig(config),
      afterMessageId: watermark || undefined,
      config,
    });
    onReport?.(report, { scope, threadId });
    const last = messages[messages.length - 1].id;
    return last ? { extractedThroughMessageId: last } : {};
  };
}
