import type { RunnableConfig } from "@langchain/core/runnables";
import { ErrorCodes, MemoryError } from "../../errors.js";
import { readThreadId } from "../../core/scope.js";

/** The thread of a run (`config.configurable.thread_id`); extraction needs it for attribution and to group a thread's turns. */
export function threadIdFromConfig(config: RunnableConfig | undefined): string {
  const id = readThreadId((config?.configurable as Record<string, unknown> | undefined)?.thread_id, "config.configurable.thread_id");
  if (id === null) {
    throw new MemoryError(ErrorCodes.SCOPE_REQUIRED, "memory extraction needs config.configurable.thread_id (a non-empty string or a finite number) on every run");
  }
  return id;
}

/** The run id: LangGraph Platform's `configurable.run_id`, `metadata.run_id`, or the config's `runId`. */
export function runIdFromConfig(config: RunnableConfig | undefined): string | null {
  const c = (config?.configurable ?? {}) as Record<string, unknown>;
  const m = (config?.metadata ?? {}) as Record<string, unknown>;
  for (const v of [c.run_id, m.run_id, config?.runId]) if (typeof v === "string" && v !== "") return v;
  return null;
}
