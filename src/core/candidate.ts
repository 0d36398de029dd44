/**
 * The shape every extractor produces (LLM or rule-based) and the write policy consumes. A candidate
 * is not a memory yet: it has passed no filter. Its text is user content and must never be logged.
 */

/** Kinds an extractor may propose (a subset of the store's kinds: entities and knowledge are written elsewhere). */
export const CANDIDATE_KINDS = ["preference", "fact", "episode", "procedure"] as const;
export type CandidateKind = (typeof CANDIDATE_KINDS)[number];

/**
 * `add` proposes a new memory (the write path supersedes an older one with the same subject slot);
 * `forget` asks the write path to remove memories matching `text`/`subject` ("forget that I live in Berlin").
 */
export const CANDIDATE_ACTIONS = ["add", "forget"] as const;
export type CandidateAction = (typeof CANDIDATE_ACTIONS)[number];

/**
 * Where a candidate came from. Only these two are trusted: the user's own words, and outcomes the
 * app verified (a passing test, a closed ticket). Tool results, retrieved documents, web pages,
 * system text and earlier memories are never sources.
 */
export const TRUSTED_SOURCES = ["user", "verified_outcome"] as const;
export type CandidateSource = (typeof TRUSTED_SOURCES)[number];

/** What proposed a candidate: an extractor, an agent's memory tool, or an import (the write policy treats them alike). */
export type ExtractorName = "llm" | "rules" | "tool" | "import";

export interface MemoryCandidate {
  kind: CandidateKind;
  /** Self-contained, third-person statement ("User prefers metric units."). */
  text: string;
  /** 0..1; the write policy drops candidates below its floor (0.7 by default). */
  confidence: number;
  /**
   * Slot key of a single-valued attribute (`location.home`, `employer`, `units`, `name`, `diet`):
   * a newer candidate with the same kind and subject supersedes the older memory. Absent for
   * multi-valued things (likes, episodes) that must not replace each other.
   */
  subject?: string;
  action: CandidateAction;
  /** The statement corrects an earlier one ("actually …", "I moved to …", "not … anymore"). */
  correction?: boolean;
  /** The user explicitly asked to remember (or forget) it. */
  explicit?: boolean;
  /** Id of the message (or verified outcome) it came from: attribution on every write. */
  sourceMessageId: string;
  source: CandidateSource;
  extractor: ExtractorName;
}

/** One trusted piece of text an extractor may read: a user message or a verified task outcome. */
export interface ExtractionSource {
  id: string;
  text: string;
  origin: CandidateSource;
  /** Position in the conversation (outcomes come after all messages). */
  index: number;
  /** Verified outcomes only: how much the app vouches for it (default 0.9). */
  confidence?: number;
}

/** An outcome the app verified (tests passed, ticket closed) and offers as a memory source. */
export interface VerifiedOutcome {
  id: string;
  text: string;
  /** Defaults to 0.9: the app vouches for it. */
  confidence?: number;
}

export interface ExtractionDiagnostics {
  extractor: ExtractorName;
  /** Trusted sources read (user messages + verified outcomes). */
  sources: number;
  /** Messages skipped because they are not user-authored (tool, AI, system, untrusted). */
  skippedMessages: number;
  /** Model items that failed validation (LLM only). */
  invalidItems: number;
  /** Model items whose source id was not one of the sources (LLM only): dropped, never guessed. */
  unattributedItems: number;
  /** How the model answered: `tool` (withStructuredOutput) or `json` (parsed from text). */
  structuredOutput?: "tool" | "json";
}

export interface ExtractionResult {
  memories: MemoryCandidate[];
  diagnostics: ExtractionDiagnostics;
}
