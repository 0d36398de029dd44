/** Graph nodes and background execution of extraction: see docs/extraction.md ("Nodes and jobs"). */
export { createScheduleExtractionNode, type ScheduleExtractionNodeOptions } from "./schedule-extraction-node.js";
export { createMemoryExtractionNode, type MemoryExtractionNodeOptions, type ExtractionNodeState, type ExtractionNodeUpdate } from "./memory-extraction-node.js";
export { EXTRACTION_QUEUE, processExtractionPayload, orderPayloadMessages, type ExtractionJobPayload, type ProcessExtractionOptions } from "./extraction-payload.js";
export { createExtractionJobHandler, extractionJobHandlers, type ExtractionJobHandlerOptions } from "./extraction-job-handler.js";
export { ExtractionStateSpec } from "./extraction-state.js";
export { serializeMessage, deserializeMessage, newMessagesStart, type SerializedMessage } from "./serialize-messages.js";
