import { invalidInput } from "../../errors.js";
import type { JobScope } from "../../jobs/types.js";
import { extractAndStore, type ExtractAndStoreOptions } from "../write/extract-and-store.js";
import type { WriteReport } from "../write/write-report.js";
import { deserializeMessage, parseSerializedMessages, type SerializedMessage } from "./serialize-messages.js";

/** The queue extraction jobs go to. */
export const EXTRACTION_QUEUE = "memory-extraction";

/**
 * What `schedule_extraction` queues for a turn. Merged with `append` while pending, so a burst of
 * turns on one thread becomes one job whose `messages` hold every turn in order.
 */
export interface ExtractionJobPayload {
  [key: string]: unknown;
  v: 1;
  threadId: string;
  messages: SerializedMessage[];
}

/** Options of {@link processExtractionPayload}: the write path's dependencies and the extractor's settings. */
export type ProcessExtractionOptions = Omit<ExtractAndStoreOptions, "scope" | "threadId" | "runId" | "runIdOf" | "afterMessageId" | "writer"> & {
  scope: JobScope;
  jobId?: number | null;
};

/**
 * Run extraction and the write path for one job payload: the messages of the turns it holds
 * (earlier user messages flagged as context only), attributed to the payload's thread and each
 * message's run. The job handler calls it; so can a LangGraph Platform background run of the
 * extraction graph, with the same payload.
 *
 * @example
 * const report = await processExtractionPayload(job.payload, { store, model, scope: job.scope, jobId: job.id });
 */
export async function processExtractionPayload(payload: unknown, options: ProcessExtractionOptions): Promise<WriteReport> {
  const p = payload as Partial<ExtractionJobPayload> | null;
  if (!p || typeof p !== "object" || typeof p.threadId !== "string" || p.threadId === "") {
    throw invalidInput("payload", "is not an extraction payload { v: 1, threadId, messages }");
  }
  const { messages, afterMessageId, runIds } = orderPayloadMessages(parseSerializedMessages(p.messages));
  return extractAndStore(messages.map(deserializeMessage), {
    ...options,
    threadId: p.threadId,
    afterMessageId,
    runIdOf: (id) => runIds.get(id),
    jobId: options.jobId ?? null,
  });
}

/**
 * One list from merged turns: each message once (a message sent as context by a later turn and
 * as new by an earlier one is new), context-only messages first, then the rest in the order they
 * arrived. The last context-only message is the watermark: only what follows is extracted.
 */
export function orderPayloadMessages(list: readonly SerializedMessage[]): { messages: SerializedMessage[]; afterMessageId?: string; runIds: Map<string, string> } {
  const byId = new Map<string, SerializedMessage>();
  const isNew = new Set<string>();
  const runIds = new Map<string, string>();
  for (const m of list) {
    if (!byId.has(m.id)) byId.set(m.id, m);
    if (!m.context) isNew.add(m.id);
    if (m.runId && !runIds.has(m.id)) runIds.set(m.id, m.runId);
  }
  const all = [...byId.values()];
  const context = all.filter((m) => !isNew.has(m.id));
  const fresh = all.filter((m) => isNew.has(m.id));
  return { messages: [...context, ...fresh], afterMessageId: context.length > 0 ? context[context.length - 1].id : undefined, runIds };
}
