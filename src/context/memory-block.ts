import type { ActiveRule, ProfileDocument, RetrievedMemory } from "../state/types.js";
import { countTextTokensCached, type TokenEncoding } from "../tokens/count-text.js";
import { fitLines, type FormattedSection } from "./fit-lines.js";
import { formatMemoryContext, formatMemoryLine, MEMORY_CONTEXT_CAVEAT, MEMORY_CONTEXT_HEADER } from "./format-memories.js";
import { formatProfile } from "./format-profile.js";
import { formatRules } from "./format-rules.js";

export const PAST_SESSIONS_HEADER = "Relevant past interactions";
export const MEMORY_BLOCK_OPEN =
  "<memory>\nWhat you know about this user from earlier conversations. Use it when relevant; the user's current messages take precedence.";
export const MEMORY_BLOCK_CLOSE = "</memory>";

/**
 * Retrieved memories within `maxTokens`, rendered by `formatMemoryContext` (its format unchanged):
 * whole memories in the given (score) order, one that does not fit is left out.
 */
export function fitMemories(
  memories: readonly RetrievedMemory[] | null | undefined,
  options: { maxTokens?: number; encoding?: TokenEncoding; header?: string } = {},
): FormattedSection {
  const list = memories ?? [];
  const header = options.header ?? MEMORY_CONTEXT_HEADER;
  return fitLines(`${header} (${MEMORY_CONTEXT_CAVEAT}):`, list.map(formatMemoryLine), {
    ...options,
    render: (idx) => formatMemoryContext(idx.map((i) => list[i]), header),
  });
}

export interface MemoryBlockInput {
  profile?: ProfileDocument | null;
  rules?: readonly ActiveRule[] | null;
  memories?: readonly RetrievedMemory[] | null;
  pastSessions?: readonly RetrievedMemory[] | null;
}

export interface MemoryBlock {
  /** The labelled block ("" when every section is empty). */
  text: string;
  /** Tokens of `text` (sections plus the labels around them). */
  tokens: number;
  profile: FormattedSection;
  rules: FormattedSection;
  memories: FormattedSection;
  pastSessions: FormattedSection;
}

/**
 * The memory system block: profile, behavioral rules, retrieved memories and past sessions, each
 * fitted to its own budget by whole items, inside one labelled `<memory>` block. Pure.
 */
export function renderMemoryBlock(
  input: MemoryBlockInput,
  budgets: { profile: number; rules: number; memories: number; pastSessions: number },
  encoding: TokenEncoding = "o200k_base",
): MemoryBlock {
  const profile = formatProfile(input.profile, { maxTokens: budgets.profile, encoding });
  const rules = formatRules(input.rules, { maxTokens: budgets.rules, encoding });
  const memories = fitMemories(input.memories, { maxTokens: budgets.memories, encoding });
  const pastSessions = fitMemories(input.pastSessions, { maxTokens: budgets.pastSessions, encoding, header: PAST_SESSIONS_HEADER });
  const sections = [profile.text, rules.text, memories.text, pastSessions.text].filter((t) => t !== "");
  const text = sections.length === 0 ? "" : [MEMORY_BLOCK_OPEN, ...sections, MEMORY_BLOCK_CLOSE].join("\n\n");
  return { text, tokens: text ? countTextTokensCached(text, encoding) : 0, profile, rules, memories, pastSessions };
}
