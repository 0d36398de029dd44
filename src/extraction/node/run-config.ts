import type { RunnableConfig } from "@langchain/core/runnables";
import { ErrorCodes, MemoryError } from "../../errors.js";

/** The thread of a run (`config.configurable.thread_id`); extraction needs it for attribution and to group a thread's turns. */
export function threadIdFromConfig(config: RunnableConfig | undefined): string {
  const id = (config?.configurable as Record<string, unknown> | undefined)?.thread_id;
  if (typeof id !== "string" || id === "") {
    throw new MemoryError(ErrorCodes.SCOPE_REQUIRED, "memory extraction needs config.configurable.thread_id (a non-empty string) on every run");
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
