import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { ExtractionResult } from "../core/candidate.js";
import { extractWithModel, type LlmExtractorOptions } from "./llm/llm-extractor.js";
import { extractWithRules } from "../rule-extractor/rule-extractor.js";
import { collectExtractionSources, type CollectedSources, type ExtractionConversation, type SourceOptions } from "./sources.js";
import { applyWritePolicy, type WritePolicyOptions, type WritePolicyResult } from "./write-policy.js";

export interface ExtractMemoriesOptions extends SourceOptions, Omit<LlmExtractorOptions, "model"> {
  /** Any LangChain chat model; unset → the offline rule-based extractor. */
  model?: BaseChatModel | null;
}

/**
 * Propose long-term memories from a conversation. Pure: reads nothing but its arguments, writes
 * nothing, logs nothing. Only the user's own messages (after `afterMessageId`) and verified
 * outcomes are read; tool results, AI and system messages never reach an extractor. Every
 * candidate names the message it came from. Candidates still have to pass {@link applyWritePolicy}.
 *
 * With a `model` the LLM extractor runs (structured output when the model supports it, JSON from
 * text otherwise; the call is tagged `nostream`); without one, the offline rules run. No sources →
 * no model call.
 *
 * @example
 * const { memories } = await extractMemories(state.messages, { model, afterMessageId: watermark });
 * // [{ kind: "preference", text: "User prefers metric units.", confidence: 0.9, subject: "units",
 * //    action: "add", sourceMessageId: "msg-17", source: "user", extractor: "llm" }]
 */
export async function extractMemories(conversation: ExtractionConversation, options: ExtractMemoriesOptions = {}): Promise<ExtractionResult> {
  return extractFromSources(collectExtractionSources(conversation, options), options);
}

/**
 * {@link extractMemories} from sources already collected: the write path collects them once and
 * hands the same ones to the extractor and to the write policy.
 */
export async function extractFromSources(collected: CollectedSources, options: ExtractMemoriesOptions): Promise<ExtractionResult> {
  const { sources, context, skippedMessages } = collected;
  const base = { sources: sources.length, skippedMessages, invalidItems: 0, unattributedItems: 0 };
  if (!options.model) {
    return { memories: extractWithRules(sources, context), diagnostics: { extractor: "rules", ...base } };
  }
  if (sources.length === 0) return { memories: [], diagnostics: { extractor: "llm", ...base } };
  const result = await extractWithModel(sources, { ...options, model: options.model });
  return {
    memories: result.memories,
    diagnostics: {
      extractor: "llm",
      ...base,
      sources: result.included,
      invalidItems: result.invalidItems,
      unattributedItems: result.unattributedItems,
      structuredOutput: result.structuredOutput,
    },
  };
}

export interface StorableMemories extends WritePolicyResult {
  diagnostics: ExtractionResult["diagnostics"];
}

/**
 * {@link extractMemories} followed by {@link applyWritePolicy} with the same sources, so the policy
 * can also check that no secret from a source message survives in a paraphrase. What the write
 * path calls.
 *
 * @example
 * const { accepted, counts } = await extractStorableMemories(messages, { model, policy: config.writePolicy });
 */
export async function extractStorableMemories(
  conversation: ExtractionConversation,
  options: ExtractMemoriesOptions & { policy?: WritePolicyOptions["config"] } = {},
): Promise<StorableMemories> {
  const collected = collectExtractionSources(conversation, options);
  const { memories, diagnostics } = await extractFromSources(collected, options);
  return { ...applyWritePolicy(memories, { config: options.policy, sources: collected.sources }), diagnostics };
}
