import type { MemoryCandidate } from "../core/candidate.js";
import { asSentence } from "./text.js";

/** A candidate before attribution (the extractor adds source, message id and extractor). */
export type Draft = Omit<MemoryCandidate, "sourceMessageId" | "source" | "extractor">;

export interface StatementContext {
  /** The user's latest problem statement before this clause (for "that worked", "the fix was …"). */
  problem?: string;
}

export const fact = (text: string, confidence: number, subject?: string, extra: Partial<Draft> = {}): Draft => ({
  kind: "fact",
  text: asSentence(text),
  confidence,
  ...(subject ? { subject } : {}),
  action: "add",
  ...extra,
});
export const pref = (text: string, confidence: number, subject?: string, extra: Partial<Draft> = {}): Draft => ({
  ...fact(text, confidence, subject, extra),
  kind: "preference",
});
