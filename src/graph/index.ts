/** Memory in a LangGraph graph: `withMemory`, prompts, agents, graph modules (docs/architecture.md). */
export { withMemory, hasToolCalls, MEMORY_NODES, MemoryGraphAnnotation, type MemoryGraphState, type MemoryGraphUpdate, type MemoryAgentNode, type MemoryAgentTools, type WithMemoryOptions, type WithMemoryBuilderOptions } from "./with-memory.js";
export { createMemoryTurnSteps, type MemoryStepsOptions, type MemoryTurnEvent, type MemoryTurnState, type MemoryTurnSteps } from "./turn-steps.js";
export { memoryPrompt, memoryContext, type MemoryPromptOptions, type MemoryPromptState } from "./memory-prompt.js";
export { requireRunScope, RUN_SCOPE_KEYS, type RunScope } from "./run-scope.js";
export { memoryGetter, type MemoryProvider } from "./memory-source.js";
export { writeTargetsOf } from "./write-targets.js";
export { offlineAnswer, createOfflineResponder, isOfflineAnswer, OFFLINE_RESPONDER_NAME, OFFLINE_RESPONDER_LABEL, OFFLINE_RESPONDER_HINT, type OfflineAnswerOptions } from "./offline-responder.js";
export { createMemoryAgentNode, MEMORY_AGENT_SYSTEM_PROMPT, type MemoryAgentNodeOptions } from "./memory-agent-node.js";
export { memoryToolsFor } from "./memory-tools.js";
export { memoryWorker, type MemoryWorkerOptions } from "./memory-worker.js";
export { sharedMemory, closeSharedMemory, sharedMemoryWorker, graphMemorySettings, GRAPH_ENV_VARS, type GraphExtractionMode, type GraphMemorySettings } from "./memory-from-env.js";
export { createExtractionGraph, ExtractionGraphAnnotation } from "./extraction-graph.js";
export { reactAgentMemory, memoryMiddleware, MemoryMiddlewareState, type PrebuiltMemoryOptions } from "./prebuilt.js";
export { MemoryGraphInputSchema, MemoryGraphOutputSchema, MemoryRunConfigSchema, MemoryScopeConfigSchema, ExtractionGraphInputSchema, ExtractionGraphOutputSchema } from "./graph-schemas.js";
export { MemoryStateSchema, MemoryStateFields, ExtractionStateFields, type MemoryStateSchemaState } from "../state/memory-state-schema.js";
