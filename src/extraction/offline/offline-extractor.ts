/**
 * The offline extractor: no model, English. Each user message is analysed into clauses
 * (`src/language/`), and the trained scorer keeps the statement clauses worth remembering
 * (see clause-memories.ts). Explicit memory requests ("remember …", "forget …", "off the
 * record") and standing instructions to the assistant ("always answer in metric") are read by
 * the request and instruction readers first; a clause they already turned into a memory is not
 * kept twice.
 */
import { analyseMessage } from "../../language/index.js";
import type { ExtractionSource, MemoryCandidate } from "../candidate.js";
import { draftsFromMessage, extractWithRules } from "../rules/rule-extractor.js";
import { describesProblem } from "../rules/outcomes.js";
import { ownWords } from "../rules/text.js";
import { sensitiveCategoryIn } from "../../sensitive/sensitive-content.js";
import { clauseMemories } from "./clause-memories.js";

const words = (text: string) => new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);

/** Share of `a`'s words that are in `b`. */
function overlap(a: Set<string>, b: Set<string>): number {
  if (a.size === 0) return 0;
  let n = 0;
  for (const w of a) if (b.has(w)) n++;
  return n / a.size;
}

/**
 * Propose memories from trusted sources without a model. Pure and deterministic.
 *
 * @example
 * extractOffline([{ id: "m1", text: "tbh our beagle Max hates the vet", origin: "user", index: 0 }])
 * // [{ kind: "preference", text: "Their beagle Max hates the vet.", sourceMessageId: "m1", extractor: "rules", … }]
 */
export function extractOffline(sources: readonly ExtractionSource[], context: readonly ExtractionSource[] = []): MemoryCandidate[] {
  const requested = extractWithRules(sources, context);
  const out: MemoryCandidate[] = [...requested];
  let previous: MemoryCandidate[] = [];
  for (const source of sources) {
    if (source.origin !== "user") continue;
    const own = ownWords(source.text);
    const { signals } = draftsFromMessage(source.text, {});
    // "forget what I just said" takes back the previous message's clauses too.
    if (signals.has("suppress-previous")) for (const c of previous) out.splice(out.indexOf(c), 1);
    previous = [];
    if (signals.has("suppress-this") || signals.has("suppress-previous")) continue;
    const fromRules = requested.filter((c) => c.sourceMessageId === source.id);
    // What the request and instruction readers understood in a message stands for the message:
    // a second reading of the same words would store it twice, or outlive a correction.
    if (fromRules.length > 0) continue;
    // A problem report is episode material: kept as facts it would outlive the episode's expiry.
    if (describesProblem(own)) continue;
    const ruleWords = fromRules.map((c) => words(c.text));
    for (const m of clauseMemories(analyseMessage(own))) {
      // The store's own door check, applied here too: a clause it would refuse is never proposed.
      if (sensitiveCategoryIn(m.text) || sensitiveCategoryIn(m.clause.text)) continue;
      // A dated value must be replaceable when the date is corrected: without a slot it is not kept.
      if (m.clause.dates.length > 0 && !m.subject) continue;
      // A clause whose nouns a request or instruction memory already holds says the same thing again.
      const nouns = new Set(m.clause.terms.filter((t) => t.tags.includes("Noun") && !t.tags.includes("Pronoun")).flatMap((t) => [...words(t.normal)]));
      if (ruleWords.some((r) => overlap(nouns, r) >= 0.5 || overlap(words(m.clause.text), r) >= 0.5)) continue;
      const candidate: MemoryCandidate = {
        kind: m.kind,
        text: m.text,
        confidence: m.confidence,
        ...(m.subject ? { subject: m.subject } : {}),
        action: "add",
        ...(m.correction ? { correction: true } : {}),
        sourceMessageId: source.id,
        source: "user",
        extractor: "rules",
      };
      out.push(candidate);
      previous.push(candidate);
    }
  }
  return out;
}
