/**
 * Past sessions quote what the user said. When a statement stops being true (the write path
 * superseded it: "I live in Prenzlauer Berg" after "we moved to Lisbon") or the user withdrew it
 * ("please forget everything about Tobias"), the sessions that quote it must stop saying it, or
 * every later prompt gets the stale value back as a "relevant past interaction". This module drops
 * the sentences of a session that carry such terms and remembers the terms on the session memory
 * (`metadata.withdrawnTerms`), so re-indexing the thread later drops them again.
 */
import type { BaseMessage } from "@langchain/core/messages";
import { AIMessage } from "@langchain/core/messages";
import type { MemoryRepository } from "../store/memory-store.js";
import type { Memory } from "../store/types.js";
import { sessionMemoryId } from "./session-memory-id.js";
import { isSessionMemory } from "./session-metadata.js";
import { dropWithdrawn, isEmptyWithdrawal, mergeWithdrawals, recordWithdrawal, storedWithdrawal, withdrawalOf } from "./withdrawal.js";

/** Metadata key of the terms withdrawn from a session memory. */
export const WITHDRAWN_TERMS_KEY = "withdrawnTerms";

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A matcher for any of `terms` as whole words (case-insensitive). */
function termsPattern(terms: readonly string[]): RegExp | null {
  const usable = terms.map((t) => t.trim()).filter((t) => t.length >= 2);
  if (usable.length === 0) return null;
  return new RegExp(`(?<![\\p{L}\\p{N}])(?:${usable.map(escapeRegex).join("|")})(?![\\p{L}\\p{N}])`, "iu");
}

/**
 * A session text without the sentences that contain any of `terms` (whole words,
 * case-insensitive). Lines keep their speaker label ("User: …") while a sentence of theirs is
 * left; a line with none left goes. Pure.
 *
 * @example
 * dropSentencesWith("User: I live in Prenzlauer Berg. My bike got stolen.", ["Prenzlauer"])
 * // "User: My bike got stolen."
 */
export function dropSentencesWith(text: string, terms: readonly string[]): string {
  const re = termsPattern(terms);
  if (!re || !re.test(text)) return text;
  const lines: string[] = [];
  for (const line of text.split("\n")) {
    const label = /^((?:User|Assistant|[\w .-]{1,40}):\s+)/.exec(line)?.[1] ?? "";
    const body = line.slice(label.length);
    const kept = body
      .split(/(?<=[.!?…])\s+/)
      .map((s) => s.trim())
      .filter((s) => s !== "" && !re.test(s));
    if (kept.length > 0) lines.push(`${label}${kept.join(" ")}`);
  }
  return lines.join("\n").trim();
}

/**
 * Drop the sentences carrying `terms` from the user's past sessions — of one thread (a superseded
 * statement lives in the session that said it) or of every thread (a withdrawn one) — and record
 * them (as fingerprints, see `withdrawal.ts`) on each session memory for later re-indexing.
 * Returns how many sessions changed. A session left with no text is deleted. (Forgetting a whole
 * statement everywhere is `forgetEverywhere`, src/forgetting/.)
 */
export async function withdrawFromSessions(
  store: MemoryRepository,
  scope: { tenantId: string; userId: string },
  terms: readonly string[],
  where: { threadId: string } | "all",
): Promise<number> {
  const w = withdrawalOf([], terms);
  if (isEmptyWithdrawal(w)) return 0;
  let sessions: Memory[];
  if (where === "all") {
    sessions = [];
    for (let offset = 0; ; offset += 500) {
      const page = await store.list(scope, { kinds: ["episode"], limit: 500, offset });
      sessions.push(...page.filter(isSessionMemory));
      if (page.length < 500) break;
    }
  } else {
    const one = await store.get(scope, sessionMemoryId(scope, where.threadId));
    sessions = one && isSessionMemory(one) ? [one] : [];
  }
  let changed = 0;
  for (const m of sessions) {
    const all = mergeWithdrawals(storedWithdrawal(m.metadata), w);
    const text = dropWithdrawn(m.text, all);
    const context = m.context === null ? null : dropWithdrawn(m.context, all);
    if (text === m.text && context === m.context) continue;
    if (text === "") await store.delete(scope, m.id, { via: "sessions.withdraw" });
    else await store.update(scope, m.id, { text, context: context || null, metadata: recordWithdrawal(m.metadata, w) });
    changed++;
  }
  return changed;
}

/**
 * What a session document may be made from: the user's and the assistant's words. Tool results
 * are third-party content (untrusted: a web page or an email can carry "remember that …"), and
 * tool calls without their results mean nothing later, so neither is kept in a past session.
 */
export function withoutToolTraffic(messages: readonly BaseMessage[]): BaseMessage[] {
  const out: BaseMessage[] = [];
  for (const m of messages) {
    const type = m.getType();
    if (type === "tool") continue;
    const calls = (m as AIMessage).tool_calls;
    if (type === "ai" && Array.isArray(calls) && calls.length > 0) {
      const text = typeof m.content === "string" ? m.content : "";
      if (text.trim() === "") continue;
      out.push(new AIMessage({ id: m.id, content: text, name: m.name }));
      continue;
    }
    out.push(m);
  }
  return out;
}

/** A user message that corrects something said earlier ("typo, it's …", "wrong date, it's the 24th"). */
const CORRECTION_CUE = /\b(?:typo|wrong|i meant|correction|actually|sorry,? (?:i|it)|not\s+\S+,? (?:it's|but)|mistake|misspelt|misspelled|wait,? no|no,? wait|scratch that)\b/i;
/** What precedes a value the correction itself rules out ("we fly on may 14 not may 12"). */
const NEGATION_BEFORE = /(?:\bnot|\binstead of|\brather than)\s+(?:on\s+|the\s+|at\s+)?$/i;
const MONTHS = "Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?";
/** Typed values a correction replaces: e-mail addresses, dates, phone numbers. */
const VALUE_TYPES: Record<string, RegExp> = {
  email: /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+/gu,
  date: new RegExp(`\\b(?:\\d{1,2}(?:st|nd|rd|th)?\\s+(?:of\\s+)?(?:${MONTHS})\\b|(?:${MONTHS})\\s+\\d{1,2}(?:st|nd|rd|th)?\\b|the\\s+\\d{1,2}(?:st|nd|rd|th)\\b|\\d{4}-\\d{2}-\\d{2}\\b)`, "gi"),
  phone: /\+?\d[\d ()-]{7,}\d/g,
};

/**
 * In-thread corrections: the values of a type (e-mail, date, phone number) that a later user
 * message corrects ("argh typo, it's gmail. priya@gmail.com" after "priya@gmial.com") are
 * replaced by "[corrected]" in every earlier message, the assistant's echoes included, so the
 * thread's past session never quotes the wrong value. Pure: returns new messages (same ids).
 */
export function withCorrectionsApplied(messages: readonly BaseMessage[]): BaseMessage[] {
  const texts = messages.map((m) => (typeof m.content === "string" ? m.content : null));
  const { stale, negated } = staleValues(messages, texts);
  if (stale.size === 0 && negated.size === 0) return [...messages];
  return messages.map((m, i) => {
    const values = stale.get(i);
    const ruledOut = negated.get(i);
    if ((!values && !ruledOut) || texts[i] === null) return m;
    let text = texts[i]!;
    for (const v of [...(values ?? [])].sort((a, b) => b.length - a.length)) text = text.split(v).join("[corrected]");
    // The correction keeps its new value and loses the old one it names ("may 14 not may 12" → "may 14").
    for (const v of ruledOut ?? []) text = text.replace(new RegExp(`,?\\s*(?:\\bnot|\\binstead of|\\brather than)\\s+(?:on\\s+|the\\s+|at\\s+)?${escapeRegex(v)}`, "gi"), "");
    const Ctor = m.constructor as new (fields: Record<string, unknown>) => BaseMessage;
    return new Ctor({ ...(m as unknown as Record<string, unknown>), content: text, id: m.id, name: m.name, tool_calls: (m as AIMessage).tool_calls });
  });
}

/**
 * The values a later user message of the thread corrects (see {@link withCorrectionsApplied}):
 * what a session folded before the correction came must drop too (`withdrawnTerms`). Pure.
 *
 * @example
 * correctedValues([user("Mia's birthday is March 14"), user("sorry, wrong date, it's March 24")]) // ["March 14"]
 */
export function correctedValues(messages: readonly BaseMessage[]): string[] {
  const values = new Set<string>();
  const { stale, negated } = staleValues(messages, messages.map((m) => (typeof m.content === "string" ? m.content : null)));
  for (const set of [...stale.values(), ...negated.values()]) for (const v of set) values.add(v);
  return [...values];
}

/**
 * Message index → the values of it a later correction replaces (`stale`), and → the old values a
 * correction names itself to rule them out (`negated`: "not may 12").
 */
function staleValues(messages: readonly BaseMessage[], texts: ReadonlyArray<string | null>): { stale: Map<number, Set<string>>; negated: Map<number, Set<string>> } {
  const stale = new Map<number, Set<string>>();
  const negated = new Map<number, Set<string>>();
  const add = (map: Map<number, Set<string>>, at: number, v: string) => (map.get(at) ?? map.set(at, new Set()).get(at)!).add(v);
  messages.forEach((m, i) => {
    const text = texts[i];
    if (m.getType() !== "human" || text === null) return;
    const cued = CORRECTION_CUE.test(text);
    for (const re of Object.values(VALUE_TYPES)) {
      const found = [...text.matchAll(re)];
      const ruledOut = found.filter((f) => NEGATION_BEFORE.test(text.slice(0, f.index)));
      if (!cued && ruledOut.length === 0) continue;
      for (const f of ruledOut) add(negated, i, f[0]);
      const fresh = new Set(found.filter((f) => !ruledOut.includes(f)).map((f) => f[0].toLowerCase()));
      if (fresh.size === 0) continue;
      for (let j = 0; j < i; j++) {
        for (const v of texts[j]?.match(re) ?? []) {
          if (!fresh.has(v.toLowerCase())) add(stale, j, v);
        }
      }
    }
  });
  return { stale, negated };
}
