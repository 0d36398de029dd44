import type { LangGraphMemory } from "../memory.js";
import { invalidInput } from "../errors.js";

/**
 * Where a graph gets its memory: an open `LangGraphMemory`, or a function that opens it on first
 * use (graph modules compile at import time, before any database is opened).
 */
export type MemoryProvider = LangGraphMemory | (() => LangGraphMemory | Promise<LangGraphMemory>);

/** A getter that resolves the source once; a failed open is retried on the next call. */
export function memoryGetter(source: MemoryProvider): () => Promise<LangGraphMemory> {
  if (source == null) throw invalidInput("memory", "pass the memory (`await createMemory()`) or a function that returns it");
  if (typeof source !== "function") {
    const ready = Promise.resolve(source);
    return () => ready;
  }
  let pending: Promise<LangGraphMemory> | undefined;
  return () => {
    pending ??= Promise.resolve()
      .then(source)
      .catch((err) => {
        pending = undefined;
        throw err;
      });
    return pending;
  };
}
