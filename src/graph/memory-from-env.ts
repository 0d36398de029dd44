import { ErrorCodes, MemoryError } from "../errors.js";
import type { JobWorker } from "../jobs/job-worker.js";
import { createMemory, type CreateMemoryOptions, type LangGraphMemory } from "../memory.js";
import { memoryWorker } from "./memory-worker.js";

/**
 * How graph modules extract memories (`LANGGRAPH_MEMORY_EXTRACTION`):
 * - `worker` (default): queue a job, and run a worker in the graph's own process — what the
 *   embedded database needs (one process per data folder) and what the dev server has (no
 *   separate worker); extraction stays off the response path.
 * - `inline`: extract inside the run (the answer waits for extraction; simplest, deterministic).
 * - `queue`: queue only; run `langgraph-memory worker` elsewhere (server Postgres).
 */
export type GraphExtractionMode = "worker" | "inline" | "queue";

/** Settings of graph modules, read from the environment. */
export interface GraphMemorySettings {
  extraction: GraphExtractionMode;
  /** `LANGGRAPH_MEMORY_DEBOUNCE_MS` (default 5,000): a burst of turns on a thread makes one job. */
  debounceMs: number;
}

/** Environment variables of graph modules (besides `DATABASE_URL`, `LANGGRAPH_MEMORY_DATA_DIR`, `LANGGRAPH_MEMORY_SCHEMA`, `MODEL`, `EMBEDDINGS`). */
export const GRAPH_ENV_VARS = {
  extraction: "LANGGRAPH_MEMORY_EXTRACTION",
  debounceMs: "LANGGRAPH_MEMORY_DEBOUNCE_MS",
} as const;

/** Read {@link GraphMemorySettings} from the environment; a bad value is CONFIG_INVALID naming the variable. */
export function graphMemorySettings(env: NodeJS.ProcessEnv = process.env): GraphMemorySettings {
  const mode = (env[GRAPH_ENV_VARS.extraction] ?? "").trim() || "worker";
  if (mode !== "worker" && mode !== "inline" && mode !== "queue") {
    throw new MemoryError(ErrorCodes.CONFIG_INVALID, `${GRAPH_ENV_VARS.extraction} must be worker, inline or queue (got "${mode}")`);
  }
  const rawDebounce = (env[GRAPH_ENV_VARS.debounceMs] ?? "").trim();
  const debounceMs = rawDebounce === "" ? 5_000 : Number(rawDebounce);
  if (!Number.isInteger(debounceMs) || debounceMs < 0) {
    throw new MemoryError(ErrorCodes.CONFIG_INVALID, `${GRAPH_ENV_VARS.debounceMs} must be a non-negative integer of milliseconds (got "${rawDebounce}")`);
  }
  return { extraction: mode, debounceMs };
}

interface Shared {
  memory: Promise<LangGraphMemory>;
  worker?: JobWorker;
}

// One memory per process, kept on globalThis: every graph module of the process (the dev server
// loads each graph file on its own) shares it, and an embedded data folder is opened once.
const KEY = Symbol.for("langgraph-memory.shared-memory");
type GlobalWithShared = typeof globalThis & { [KEY]?: Shared };

/**
 * The process's memory, opened from the environment on first call (`DATABASE_URL`, or the
 * embedded folder `LANGGRAPH_MEMORY_DATA_DIR`; `MODEL`, `EMBEDDINGS`, `LANGGRAPH_MEMORY_SCHEMA`),
 * with an in-process worker when `LANGGRAPH_MEMORY_EXTRACTION` is `worker` (the default). Graph
 * modules pass this function as `withMemory({ memory })`: the LangGraph dev server and Platform
 * replace a graph's checkpointer and store with their own, so memory lives in the plugin's
 * database, opened here. A failed open is retried on the next call.
 *
 * @example
 * export const graph = withMemory({ memory: sharedMemory, agent }).compile();
 */
export function sharedMemory(options: Omit<CreateMemoryOptions, "db"> = {}): Promise<LangGraphMemory> {
  const g = globalThis as GlobalWithShared;
  if (g[KEY]) return g[KEY].memory;
  const shared = {} as Shared;
  shared.memory = (async () => {
    const settings = graphMemorySettings();
    const memory = await createMemory(options);
    if (settings.extraction === "worker") {
      shared.worker = memoryWorker(memory);
      shared.worker.start();
    }
    return memory;
  })();
  g[KEY] = shared;
  shared.memory.catch(() => {
    if (g[KEY] === shared) delete g[KEY];
  });
  return shared.memory;
}

/** Stop the in-process worker (letting a running job finish) and close the shared memory, if open. */
export async function closeSharedMemory(): Promise<void> {
  const g = globalThis as GlobalWithShared;
  const shared = g[KEY];
  if (!shared) return;
  delete g[KEY];
  const memory = await shared.memory.catch(() => null);
  await shared.worker?.stop({ timeoutMs: 10_000 });
  await memory?.close();
}

/** The in-process worker of the shared memory, when one runs (tests use `drain()` on it). */
export async function sharedMemoryWorker(): Promise<JobWorker | undefined> {
  const shared = (globalThis as GlobalWithShared)[KEY];
  if (!shared) return undefined;
  await shared.memory;
  return shared.worker;
}
