import type { RunnableConfig } from "@langchain/core/runnables";
import { Annotation, END, START, StateGraph } from "@langchain/langgraph";
import { processExtractionPayload, type ExtractionJobPayload } from "../extraction/node/extraction-payload.js";
import type { SerializedMessage } from "../extraction/node/serialize-messages.js";
import type { WriteReport } from "../extraction/write/write-report.js";
import { scopeFromConfig } from "../core/scope.js";
import { memoryGetter, type MemoryProvider } from "./memory-source.js";
import { writeTargetsOf } from "./write-targets.js";
import { ExtractionGraphInputSchema, ExtractionGraphOutputSchema, MemoryScopeConfigSchema } from "./graph-schemas.js";

/**
 * State of the extraction graph: the input is an extraction payload as `schedule_extraction`
 * queues it (`{ v: 1, threadId, messages }`); the output adds the write report (counts and ids).
 */
export const ExtractionGraphAnnotation = Annotation.Root({
  v: Annotation<1>(),
  threadId: Annotation<string>(),
  messages: Annotation<SerializedMessage[]>({ reducer: (_, right) => right, default: () => [] }),
  report: Annotation<WriteReport | null>({ reducer: (_, right) => right, default: () => null }),
});

/**
 * The background extraction graph: one node running `processExtractionPayload` on its input with
 * the memory's store, model and write targets, in the scope of `config.configurable` (`tenant_id`,
 * `user_id`; missing → SCOPE_REQUIRED). What a LangGraph Platform background run executes
 * instead of a worker; idempotent like the job (the same payload twice writes each memory once).
 * The input is the payload only (`report` is output), and the payload's thread must be the
 * configured user's (THREAD_SCOPE_MISMATCH otherwise, nothing written).
 *
 * @example
 * const graph = createExtractionGraph(memory);
 * await graph.invoke({ v: 1, threadId: "t1", messages: [{ id: "m1", role: "human", text: "I moved to Lisbon." }] },
 *   { configurable: { tenant_id: "acme", user_id: "alice" } });
 */
export function createExtractionGraph(source: MemoryProvider) {
  const getMemory = memoryGetter(source);
  return new StateGraph(ExtractionGraphAnnotation, { input: ExtractionGraphInputSchema, output: ExtractionGraphOutputSchema, context: MemoryScopeConfigSchema })
    .addNode("extract_memories", async (state: typeof ExtractionGraphAnnotation.State, config: RunnableConfig) => {
      const scope = scopeFromConfig(config);
      const memory = await getMemory();
      const payload: ExtractionJobPayload = { v: 1, threadId: state.threadId, messages: state.messages };
      const report = await processExtractionPayload(payload, {
        store: memory.store,
        model: memory.model,
        targets: writeTargetsOf(memory),
        policy: memory.config.writePolicy,
        scope,
        config,
      });
      return { report };
    })
    .addEdge(START, "extract_memories")
    .addEdge("extract_memories", END)
    .compile({ name: "extract_memories" });
}
