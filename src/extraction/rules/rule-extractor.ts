import type { ExtractionSource, MemoryCandidate } from "../candidate.js";
import { parseForgetRequest, parseRememberRequest, type RequestSignal } from "./memory-requests.js";
import type { Draft, StatementContext } from "./draft.js";
import { parseInstruction } from "./instructions.js";
import { describesProblem } from "./outcomes.js";
import { parseStatement } from "./statements.js";
import { HYPOTHETICAL, QUESTION_START, asSentence, clauses, normaliseClause, ownWords, sentences } from "./text.js";

interface MessageDrafts {
  drafts: Draft[];
  signals: Set<RequestSignal>;
}

/** Drafts from one user message, in order, plus the memory requests it makes. */
export function draftsFromMessage(text: string, ctx: StatementContext): MessageDrafts {
  const drafts: Draft[] = [];
  const signals = new Set<RequestSignal>();
  const own = ownWords(text);
  if (/\b(?:off the record|between (?:you and me|us)|not for (?:your )?memory)\b/i.test(own)) signals.add("suppress-this");
  for (const sentence of sentences(own)) {
    const whole = normaliseClause(sentence);
    // Requests take the whole sentence: "remember that I live in Berlin and work at Acme" is one request.
    const request = parseForgetRequest(whole.text) ?? parseRememberRequest(whole.text);
    if (request) {
      drafts.push(...request.drafts);
      if (request.signal) signals.add(request.signal);
      continue;
    }
    const instruction = parseInstruction(whole.text, whole.flags);
    if (instruction) {
      drafts.push(...instruction);
      continue;
    }
    if (HYPOTHETICAL.test(whole.text) || QUESTION_START.test(whole.text)) continue; // "If I lived in Paris, I'd …"
    for (const part of clauses(sentence)) {
      const { text: clause, flags } = normaliseClause(part);
      const merged = { ...flags, correction: flags.correction || whole.flags.correction, greeting: flags.greeting || whole.flags.greeting };
      drafts.push(...(parseInstruction(clause, merged) ?? parseStatement(clause, merged, ctx)));
    }
  }
  return { drafts, signals };
}

/**
 * The offline extractor: deterministic rules over the user's own messages (English only). It finds
 * first-person durable statements, preferences, corrections, explicit remember/forget requests,
 * durable instructions and task outcomes, normalised to third person with a confidence and, for
 * single-valued attributes, a subject slot. It is a baseline: see docs/extraction.md for what it
 * cannot catch.
 *
 * @example
 * extractWithRules([{ id: "m1", text: "Actually, I moved to Lisbon.", origin: "user", index: 0 }])
 * // [{ kind: "fact", text: "User moved to Lisbon.", subject: "location.home", correction: true, confidence: 0.9, … }]
 */
export function extractWithRules(sources: readonly ExtractionSource[], context: readonly ExtractionSource[] = []): MemoryCandidate[] {
  const history = [...context].sort((a, b) => a.index - b.index);
  let problem: string | undefined = [...history].reverse().find((s) => describesProblem(s.text))?.text;
  let previous: { source: ExtractionSource; drafts: Draft[]; emitted: MemoryCandidate[] } | undefined;
  const lastContext = history[history.length - 1];
  if (lastContext) previous = { source: lastContext, drafts: draftsFromMessage(lastContext.text, {}).drafts, emitted: [] };

  const out: MemoryCandidate[] = [];
  const attribute = (d: Draft, source: ExtractionSource): MemoryCandidate => ({
    kind: d.kind,
    text: d.text,
    confidence: d.confidence,
    ...(d.subject ? { subject: d.subject } : {}),
    action: d.action,
    ...(d.correction ? { correction: true } : {}),
    ...(d.explicit ? { explicit: true } : {}),
    sourceMessageId: source.id,
    source: source.origin,
    extractor: "rules",
  });

  for (const source of sources) {
    if (source.origin === "verified_outcome") {
      out.push({
        kind: "episode",
        text: asSentence(source.text.replace(/\s+/g, " ")),
        confidence: source.confidence ?? 0.9,
        action: "add",
        sourceMessageId: source.id,
        source: "verified_outcome",
        extractor: "rules",
      });
      continue;
    }
    const { drafts, signals } = draftsFromMessage(source.text, { problem });
    let candidates = drafts.map((d) => attribute(d, source));

    if (signals.has("suppress-this")) candidates = candidates.filter((c) => c.action === "forget");
    if (signals.has("suppress-previous") && previous) {
      // Drop what the previous message produced in this batch, and forget it in case an earlier run stored it.
      const dropped = new Set(previous.emitted);
      for (let i = out.length - 1; i >= 0; i--) if (dropped.has(out[i]) && out[i].action === "add") out.splice(i, 1);
      for (const d of previous.drafts.filter((x) => x.action === "add")) {
        candidates.push(attribute({ ...d, action: "forget", explicit: true, confidence: Math.max(d.confidence, 0.9), correction: undefined }, source));
      }
    }
    if (signals.has("remember-previous") && previous) {
      const already = new Set(previous.emitted);
      for (const c of out) if (already.has(c) && c.action === "add") Object.assign(c, { explicit: true, confidence: Math.max(c.confidence, 0.95) });
      if (previous.emitted.length === 0) {
        for (const d of previous.drafts.filter((x) => x.action === "add")) candidates.push(attribute({ ...d, explicit: true, confidence: Math.max(d.confidence, 0.95) }, source));
      }
    }

    out.push(...candidates);
    previous = { source, drafts, emitted: candidates };
    if (describesProblem(source.text) && !candidates.some((c) => c.kind === "episode")) problem = source.text;
  }
  return out;
}
