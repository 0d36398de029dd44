import type { RunnableConfig } from "@langchain/core/runnables";
import { scopeFromConfig, type UserScope } from "../core/scope.js";
import { runIdFromConfig } from "../extraction/node/run-config.js";

/** Whose memory a tool call touches and where it came from — always from the run's config, never from the model's arguments. */
export interface ToolCallContext {
  scope: UserScope;
  threadId: string | null;
  runId: string | null;
  /** The tool call's id: the "message" a tool write is attributed to. */
  toolCallId: string | null;
}

export function toolCallContext(config: RunnableConfig | undefined): ToolCallContext {
  const scope = scopeFromConfig(config);
  const thread = (config?.configurable as Record<string, unknown> | undefined)?.thread_id;
  const call = (config as { toolCall?: { id?: unknown } } | undefined)?.toolCall;
  return {
    scope: { tenantId: scope.tenantId, userId: scope.userId },
    threadId: typeof thread === "string" && thread !== "" ? thread : null,
    runId: runIdFromConfig(config),
    toolCallId: typeof call?.id === "string" && call.id !== "" ? call.id : null,
  };
}

/** Tool results are JSON text: the model reads them as data. */
export function toolResult(value: Record<string, unknown>): string {
  return JSON.stringify(value);
}
