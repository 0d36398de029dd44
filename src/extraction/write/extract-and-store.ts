import { extractFromSources, type ExtractMemoriesOptions } from "../extract-memories.js";
import { collectExtractionSources, type ExtractionConversation } from "../sources.js";
import { isOptedOut, writeCandidates } from "./write-candidates.js";
import type { MemoryWriteOptions, WriteAttribution, WriteCandidatesOptions } from "./write-options.js";
import { emptyWriteReport, type WriteReport } from "./write-report.js";
import { requireUserScope } from "./write-run.js";
import { requireThreadOwner } from "../../threads/thread-owner.js";

export interface ExtractAndStoreOptions extends MemoryWriteOptions, Omit<WriteAttribution, "writer">, ExtractMemoriesOptions, Pick<WriteCandidatesOptions, "beforeWrite"> {
  /** Default `"extraction"`. */
  writer?: WriteAttribution["writer"];
}

/**
 * Extract memories from a conversation and store them through the write path, in one call: the
 * opt-out is checked first (an opted-out user's messages never reach a model), then
 * the extraction of {@link extractMemories} (the model when given, else the offline rules) and
 * {@link writeCandidates} with the same trusted sources. What the extraction node (inline) and
 * the background job run; usable directly from your own code. With a `threadId`, the thread must
 * be the scope's (THREAD_SCOPE_MISMATCH otherwise, before any model call or write).
 *
 * @example
 * const report = await extractAndStore(state.messages, {
 *   store, model, scope: { tenantId: "acme", userId: "alice" }, threadId: "t1", runId,
 *   targets: { profile, rules, settings },
 * });
 * // report.added, report.superseded, report.refusedByCategory, …
 */
export async function extractAndStore(conversation: ExtractionConversation, options: ExtractAndStoreOptions): Promise<WriteReport> {
  const scope = requireUserScope(options.scope);
  if (await isOptedOut(options.targets, scope)) return { ...emptyWriteReport(0), skipped: "opted_out" };
  if (options.threadId && options.store) await requireThreadOwner(options.store.db, options.threadId, scope);
  const collected = collectExtractionSources(conversation, options);
  const { memories, diagnostics } = await extractFromSources(collected, options);
  const report = await writeCandidates(memories, { ...options, scope, writer: options.writer ?? "extraction", sources: collected.sources, optOutChecked: true });
  report.diagnostics = diagnostics;
  return report;
}
