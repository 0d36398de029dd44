import type { MemoryStepsOptions } from "./turn-steps.js";

/** Options of `reactAgentMemory` and `memoryMiddleware`: the turn steps' options and the app's own prompt. */
export interface PrebuiltMemoryOptions extends Omit<MemoryStepsOptions, "memory"> {
  /** Your system prompt; the memory block and the summary follow it. */
  system?: string;
}
