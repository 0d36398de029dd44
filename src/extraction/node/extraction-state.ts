import { Annotation } from "@langchain/langgraph";

/**
 * An optional state channel for the extraction watermark: the id of the last message a previous
 * extraction (or schedule) covered. With it, a turn that was not scheduled (an error, an
 * interrupted run) is picked up by the next one; without it, the nodes take the current turn (the
 * messages after the last assistant answer before the newest user message).
 *
 * @example
 * const State = Annotation.Root({ ...MemoryAnnotation.spec, ...ExtractionStateSpec });
 */
export const ExtractionStateSpec = {
  extractedThroughMessageId: Annotation<string | null>({ reducer: (left, right) => (right === undefined ? left : right), default: () => null }),
};
