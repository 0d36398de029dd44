import type { ExtractionSource, MemoryCandidate } from "../core/candidate.js";
import { parseForgetRequest, parseRememberRequest, type RequestSignal } from "./memory-requests.js";
import type { Draft, StatementContext } from "./draft.js";
import { parseContinuedInstruction, parseInstruction, parseRequestQuestion } from "./instructions.js";
import { describesProblem } from "./outcomes.js";
import { parseRoleFragment, parseStatement } from "./statements.js";
import { QUESTION_START, asSentence, clauses, normaliseClause, ownWords, sentences, toThirdPerson, withPronounI } from "./text.js";

interface MessageDrafts {
  drafts: Draft[];
  signals: Set<RequestSignal>;
}

/**
 * A short announcement before a colon ("Big news: …", "quick request that'll save me a lot of
 * pain: …", "context for future: …"): what follows is the statement. Times ("at 10:30") and
 * introductions of pasted text are not lead-ins (pasted text is gone by now, see `ownWords`).
 */
const HYPOTHETICAL_START = /^(?:if|suppose|supposing|imagine|what if|let's say|lets say|assuming|hypothetically|in theory|pretend|say I|in a world|I wish|I'd love to|I would love to|I might|I may|I could|would I)\b/i;

const COLON_LEAD = /^([^:"“]{1,70}?):\s+(\S.*)$/;

function withoutLeadIn(sentence: string): { text: string; correction: boolean; standing: boolean } {
  const m = COLON_LEAD.exec(sentence);
  if (!m || m[1].trim().split(/\s+/).length > 9 || /\d$/.test(m[1])) return { text: sentence, correction: false, standing: false };
  return {
    text: m[2],
    correction: /\b(?:update|correction|news|change of plans?)\b/i.test(m[1]),
    standing: /\b(?:standing|rule|always|in general|from now on|going forward|for (?:anything|everything|all)|every time)\b/i.test(m[1]),
  };
}

/**
 * Replace "him"/"her" in a forget request by the last person named before it in the message
 * ("Tobias and I broke up. please forget everything about him" → "… about Tobias"): offline
 * coreference for the one case where guessing wrong deletes nothing the user did not name.
 */
const NOT_A_PERSON =
  /^(?:The|This|That|These|Those|My|Our|Your|It|He|She|They|We|You|Please|Okay|Ok|So|Update|Hi|Hey|Hello|Thanks|Yes|No|Also|Just|Can|Could|Would|What|How|When|Where|Why|Oh|Well|And|But|Big|News|Sorry|Actually|Anyway|Guess|Today|Tomorrow|Yesterday|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)$/;

function resolvePersonPronoun(sentence: string, before: readonly string[]): string {
  if (!/^(?:please\s+|can you\s+|could you\s+)?(?:forget|delete|erase|remove|wipe)\b.*\b(?:him|her)\b/i.test(sentence)) return sentence;
  const names = before.join(" ").match(/\b\p{Lu}\p{Ll}+\b/gu) ?? [];
  const person = [...names].reverse().find((n) => !NOT_A_PERSON.test(n));
  return person ? sentence.replace(/\b(?:him|her)\b/i, person) : sentence;
}

/**
 * Replace "here"/"there" in a move ("I took the job in Toronto and we moved up here last week") by
 * the last place named before it in the message ("in Toronto", "to Lisbon"): the one reading of
 * "moved here" a message that names a single place allows. Several places, or none: unchanged.
 */
function resolveMovePlace(sentence: string, before: readonly string[]): string {
  const move = /\b(?:moved|relocated)\s+(?:back\s+|over\s+|up\s+|down\s+|out\s+)?(here|there)\b/i.exec(sentence);
  if (!move) return sentence;
  const text = [...before, sentence.slice(0, move.index)].join(" ");
  const places = [...text.matchAll(/\b(?:in|to|at)\s+(\p{Lu}[\p{L}'’-]+(?:\s+\p{Lu}[\p{L}'’-]+){0,2})/gu)].map((m) => m[1]).filter((p) => !NOT_A_PERSON.test(p));
  if (new Set(places).size !== 1) return sentence;
  return `${sentence.slice(0, move.index)}${move[0].slice(0, move[0].length - move[1].length).trimEnd()} to ${places[0]}${sentence.slice(move.index + move[0].length)}`;
}

/** A lead-in asking to keep what follows: "logging this so we have it next time: …", "note to self: …". */
const KEEP_LEAD = /\b(?:log(?:ging)? this|for next time|so (?:we|I|you) (?:have|remember) it|for (?:future )?reference|note to self|for the record|remember (?:this|that)|keep (?:this|that)|save (?:this|that))\b/i;
/** A tail asking to keep what was just said: "I'm left-handed, so keep that in mind", "…, in case I ask again". */
const KEEP_TAIL = /^(.+?),?\s+(?:(?:so|and|please)\s+)*(?:keep (?:that|this|it) in mind|bear (?:that|this|it) in mind|remember (?:that|this|it)|note (?:that|this)|in case I (?:ask|forget|need it)(?: again| later)?|for (?:next time|future reference))\b.*$/i;
const OUTCOME_WORDS = /\b(?:solved|fixed|resolved|the fix|workaround|turned out|root cause|culprit|worked)\b/i;

/**
 * "logging this so we have it next time: ticket 812 … solved by re-uploading the certificate":
 * the rest of the message is kept as the user said it (an explicit episode, or a fact).
 */
function keptMessage(sentences: readonly string[]): Draft | null {
  const m = COLON_LEAD.exec(sentences[0] ?? "");
  if (!m || !KEEP_LEAD.test(m[1]) || /\b(?:don't|do not|never|not)\b/i.test(m[1]) || m[1].trim().split(/\s+/).length > 9) return null;
  const text = [m[2], ...sentences.slice(1)].join(" ").replace(/\s+/g, " ").trim();
  if (text.split(/\s+/).length < 4 || text.length > 600) return null;
  const kind = OUTCOME_WORDS.test(text) ? "episode" : "fact";
  return { kind, text: asSentence(toThirdPerson(text)), confidence: 0.95, action: "add", explicit: true };
}

const EMAIL = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+/u;

/**
 * The user's e-mail address, given with "my email" or as the correction of one ("argh typo, it's
 * gmail. priya@gmail.com"): one address in the message, not already read by another rule.
 */
function emailStatement(text: string, drafts: readonly Draft[]): Draft | null {
  if (drafts.some((d) => d.subject?.startsWith("contact.email"))) return null;
  const all = text.match(new RegExp(EMAIL.source, "gu")) ?? [];
  if (all.length !== 1) return null;
  const mine = /\bmy (?:e-?mail|mail|address)\b|\b(?:e-?mail|reach|contact) me (?:at|on)\b/i.test(text);
  const correction = /\b(?:typo|wrong|i meant|correction|actually|misspelt|misspelled)\b/i.test(text);
  if (!mine && !correction) return null;
  return { kind: "fact", text: asSentence(`User's email is ${all[0]}`), confidence: 0.9, subject: "contact.email", action: "add", ...(correction ? { correction: true } : {}) };
}

/** Drafts from one user message, in order, plus the memory requests it makes. */
export function draftsFromMessage(text: string, ctx: StatementContext): MessageDrafts {
  const drafts: Draft[] = [];
  const signals = new Set<RequestSignal>();
  // A lowercase "i" is the pronoun the rules read as "I" ("i live in …", "i'm …").
  const own = withPronounI(ownWords(text));
  if (/\b(?:off the record|between (?:you and me|us)|not for (?:your )?memory)\b/i.test(own)) signals.add("suppress-this");
  const all = sentences(own);
  // A kept message is stored as the user said it, asides and all.
  const kept = keptMessage(sentences(own, { keepAsides: true }));
  if (kept) return { drafts: [kept], signals };
  // A message that opens with a greeting introduces the user ("Hi! First time here. I'm Siobhán, by the way").
  const greeted = all.length > 0 && normaliseClause(all[0]).flags.greeting;
  let lastSubject: string | undefined;
  // A standing instruction earlier in the message makes the plain imperatives after it standing too.
  let standing = false;
  for (const [index, raw] of all.entries()) {
    const resolved = resolveMovePlace(resolvePersonPronoun(raw, [...all.slice(0, index), raw.split(/\b(?:him|her)\b/i)[0]]), all.slice(0, index));
    // "remember this: …" is a request, not a lead-in: requests are read before lead-ins are cut.
    const lead = /^(?:please\s+|pls\s+|can you\s+|could you\s+)?(?:(?:don't|do not|never)\s+)?(?:remember|memori[sz]e|keep in mind|note down|forget|store|save|keep)\b/i.test(normaliseClause(resolved).text)
      ? { text: resolved, correction: false, standing: false }
      : withoutLeadIn(resolved);
    const sentence = lead.text;
    const whole = normaliseClause(sentence);
    if (lead.correction) whole.flags.correction = true;
    if (greeted && index < 3) whole.flags.greeting = true;
    // Requests take the whole sentence: "remember that I live in Berlin and work at Acme" is one request.
    // One after a comma counts too ("I left the company, please wipe everything about Acme").
    const asked = /(?:[,;]\s*|\s+(?:so|and)\s+)((?:please|can you|could you)\s+(?:forget|wipe|erase|delete|remove|clear|remember|keep in mind)\b.+)$/i.exec(whole.text)?.[1];
    const keepTail = KEEP_TAIL.exec(whole.text);
    const request =
      parseForgetRequest(whole.text) ??
      parseRememberRequest(whole.text) ??
      (asked ? (parseForgetRequest(asked) ?? parseRememberRequest(asked)) : null) ??
      (keepTail ? parseRememberRequest(`remember that ${keepTail[1]}`) : null);
    if (request) {
      drafts.push(...request.drafts);
      if (request.signal) signals.add(request.signal);
      continue;
    }
    const instruction = parseInstruction(whole.text, whole.flags) ?? (standing || lead.standing ? parseContinuedInstruction(whole.text, whole.flags) : null);
    if (instruction) {
      drafts.push(...instruction);
      if (instruction.some((d) => d.explicit)) standing = true;
      continue;
    }
    // A sentence that opens as a hypothetical or a question; hypotheticals inside ("… I want to get used to it, so switch me to metric") are judged per clause.
    if (HYPOTHETICAL_START.test(whole.text) || QUESTION_START.test(whole.text)) {
      // "can you answer me in Spanish from now on?" asks for a standing instruction.
      const asked = parseRequestQuestion(whole.text, whole.flags);
      if (asked) drafts.push(...asked);
      if (asked?.some((d) => d.explicit)) standing = true;
      continue; // "If I lived in Paris, I'd …"
    }
    const role = lastSubject === "employer" || lastSubject === "occupation" ? parseRoleFragment(whole.text, whole.flags) : null;
    if (role) {
      drafts.push(...role);
      lastSubject = "occupation";
      continue;
    }
    const before = drafts.length;
    if (lead.standing) standing = true;
    // An outcome refers to the nearest problem: one described earlier in this message ("boiler
    // showed F.28 this morning. turned out the gas valve …") before one from an earlier message.
    const problemHere = [...all.slice(0, index)].reverse().find(describesProblem);
    const clauseCtx = problemHere ? { ...ctx, problem: problemHere } : ctx;
    for (const part of clauses(sentence)) {
      const { text: clause, flags } = normaliseClause(part);
      const merged = {
        ...flags,
        correction: flags.correction || whole.flags.correction,
        greeting: flags.greeting || whole.flags.greeting,
        polite: flags.polite || whole.flags.polite,
      };
      const found = parseInstruction(clause, merged) ?? parseRequestQuestion(clause, merged) ?? (standing ? parseContinuedInstruction(clause, merged) : null);
      drafts.push(...(found ?? parseStatement(clause, merged, clauseCtx)));
      if (found?.some((d) => d.explicit && (d.kind === "procedure" || d.kind === "preference"))) standing = true;
    }
    lastSubject = drafts.slice(before).find((d) => d.subject === "employer" || d.subject === "occupation")?.subject ?? (drafts.length > before ? undefined : lastSubject);
  }
  const email = emailStatement(own, drafts);
  if (email) drafts.push(email);
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
