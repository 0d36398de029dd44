import type { CandidateKind } from "../core/candidate.js";
import { pref, type Draft } from "./draft.js";
import { PREFERENCE_SUBJECTS, SETTING_SUBJECTS, preferenceSubject } from "./subjects.js";
import { DEICTIC_OBJECT, ONE_OFF, asSentence, cutValue, thirdPersonVerb, toThirdPerson, type ClauseFlags } from "./text.js";

/** Instructions to the assistant that are meant to last: they become procedures (or content preferences). */
const ASSISTANT_VERBS =
  "answer|reply|respond|write|use|give|show|send|include|format|explain|add|keep|put|provide|mention|summari[sz]e|start|end|sign|speak|translate|convert|cite|ask|suggest|list|number|sort|avoid|make|call|address|refer|tell|remind|check|confirm|double-check|run|test|comment|document|split|break|be|talk|stick|default|assume|prefer|skip|leave|do|switch|change|set|spell|drop";
const INSTRUCTION = new RegExp(`^(?:please\\s+)?(?:${ASSISTANT_VERBS})\\b`, "i");
const DURABLE_LEAD = /^(?:from now on|going forward|moving forward|in (?:the )?future|henceforth|every time|each time|whenever (?:I|you) [^,]+|(?:if|when) I (?:ask|want|need|say|request|send|share|paste)[^,]+|when(?:ever)? you (?:answer|reply|respond|write)[^,]*|for all (?:future )?(?:answers|replies|responses|tasks)),?\s*(?:please\s+)?(.+)$/i;
const DURABLE_TAIL = /^(.+?),?\s+(?:from now on|going forward|in (?:the )?future|every time|each time|by default|at all times)$/i;

/** "give me diffs, not full files" → "User wants diffs, not full files." */
function instructionText(imperative: string, negative: boolean): string {
  let t = cutValue(imperative, { keepCommas: true }).replace(/^please\s+/i, "");
  if (negative) return `User does not want the assistant to ${toThirdPerson(t, { atStart: false })}`;
  const me = /^(?:give|send|show|tell)\s+me\s+(.+)$/i.exec(t);
  if (me) return `User wants ${toThirdPerson(me[1], { atStart: false }).replace(/\byour\b/gi, "the assistant's")}`;
  const lang = /^(?:answer|reply|respond|write|speak|talk)(?: to)?(?: me)?\s+(in|with|using)\s+(.+)$/i.exec(t);
  if (lang) return `User wants answers ${lang[1].toLowerCase()} ${toThirdPerson(lang[2], { atStart: false })}`;
  t = toThirdPerson(t, { atStart: false }).replace(/\byours\b/gi, "its own").replace(/\byour\b/gi, "its");
  return `User wants the assistant to ${t[0].toLowerCase()}${t.slice(1)}`;
}

function instructionDraft(imperative: string, negative: boolean, confidence: number, extra: Partial<Draft> = {}): Draft {
  // A standing instruction in the user's own words is an explicit request to keep it (rules: approved at once).
  extra = { explicit: true, ...extra };
  if (extra.explicit === false) delete extra.explicit;
  const text = instructionText(imperative, negative);
  const subject = preferenceSubject(imperative);
  const unit = subject === "units" ? /\b(metric|imperial|SI)\b/i.exec(imperative) : null;
  if (unit && !negative) return pref(`User prefers ${unit[1].toLowerCase() === "si" ? "SI" : unit[1].toLowerCase()} units`, confidence, subject, extra);
  const kind: CandidateKind = subject && PREFERENCE_SUBJECTS.has(subject) ? "preference" : "procedure";
  return { kind, text: asSentence(text), confidence, ...(subject ? { subject } : {}), action: "add", ...extra };
}

/** Stems that lost an "e" before "-ing" (using → use); double consonants after a short vowel shrink (running → run). */
const E_STEMS = /^(?:us|past|overus|apologis|apologiz|summaris|summariz|moralis|moraliz|emphasis|emphasiz|writ|giv|mak|tak|includ|clos|hop|lectur|mov|sav|shar|creat|generat|assum|provid|receiv|chang|leav|cod|compar|argu|continu|guess|repeat|explain)$/i;
function baseForm(gerund: string): string {
  const stem = gerund.replace(/ing$/i, "");
  if (E_STEMS.test(stem)) return /^(?:guess|repeat|explain)$/i.test(stem) ? stem : `${stem}e`;
  const double = /^(.*[^aeiou][aeiou])([bdgmnpt])\2$/i.exec(stem);
  return double ? `${double[1]}${double[2]}` : stem;
}

/**
 * Durable instructions: "please always …", "never …", "from now on …", "… going forward",
 * "stop …ing", and contrastive requests ("give me diffs, not full files"). A plain imperative
 * ("book a table for tonight") is a one-off request and yields nothing.
 */
export function parseInstruction(clause: string, flags: ClauseFlags): Draft[] | null {
  if (/\?\s*$/.test(clause)) return null; // "always check the docs first?" asks, it does not instruct
  const extra = flags.correction ? { correction: true } : {};
  // A sentence that opens with "always"/"never" addresses the assistant ("never apologise for …").
  let m = /^(?:please\s+)?(?:always)\s+(?!mind\b|again\b|ever\b|before\b|once\b|the\b|a\b)([a-z]+\b.*)$/i.exec(clause);
  if (m) return [instructionDraft(m[1], false, 0.9, extra)];
  m = /^(?:please\s+)?(?:never|don't ever|do not ever)\s+(?!mind\b|again\b|ever\b|before\b|once\b|the\b|a\b)([a-z]+\b.*)$/i.exec(clause);
  // "never plain JS snippets": without a verb, it is what the assistant must not use.
  if (m) return [instructionDraft(INSTRUCTION.test(m[1]) ? m[1] : `use ${m[1]}`, true, 0.9, extra)];
  m = DURABLE_LEAD.exec(clause) ?? DURABLE_TAIL.exec(clause);
  if (m) {
    const body = m[1].replace(/^(?:please\s+)?(?:always\s+)?/i, "");
    const neg = /^(?:never|don't|do not|stop)\s+(.+)$/i.exec(body);
    if (neg && INSTRUCTION.test(neg[1].replace(/^(\w+)ing\b/, "$1"))) return [instructionDraft(neg[1], true, 0.9, extra)];
    if (INSTRUCTION.test(body)) return [instructionDraft(body, false, 0.9, extra)];
    if (/^(?:I|my)\b/i.test(body)) return null; // "from now on I live in …" is a statement: the statement rules handle it
  }
  m = /^(?:please\s+|just\s+)*drop\s+(?:the|your|all the|those)\s+(.+)$/i.exec(clause);
  if (m && !ONE_OFF.test(clause) && !/\b(?:file|link|code|table|column|section|paragraph|line|draft)s?\b/i.test(m[1])) return [instructionDraft(`use ${m[1]}`, true, 0.8, extra)];
  m = /^(?:please\s+)?(?:stop|quit)\s+(\w+ing)\b\s*(.*)$/i.exec(clause);
  if (m && !ONE_OFF.test(clause)) {
    return [instructionDraft(`${baseForm(m[1])} ${m[2]}`.trim(), true, 0.8, extra)];
  }
  m = /^(?:please\s+)?(?:don't|do not)\s+(.+?)\s+(?:again|anymore|any more|ever)$/i.exec(clause);
  if (m && INSTRUCTION.test(m[1])) return [instructionDraft(m[1], true, 0.85, extra)];
  m = /^(?:please\s+)?((?:give|send|show|write|use|reply|answer|respond|format|keep|put|make|return|output)\b.+?),?\s+(?:not|instead of|rather than)\s+(.+)$/i.exec(clause);
  if (m && !ONE_OFF.test(clause) && !/\b(?:this|that|these|those|it)\b/i.test(m[1].replace(/^\w+\s+me\b/i, ""))) {
    // A contrast without a word of duration may be for this answer only: proposed for review, not approved.
    return [instructionDraft(`${m[1]}, not ${m[2]}`, false, 0.75, { explicit: false, ...extra })];
  }
  m = /^I (?:always\s+)?(?:want|need|expect)\s+(?:you to\s+)?(?:(always|never)\s+)?(.+?),?\s+(?:not|instead of|rather than)\s+(.+)$/i.exec(clause);
  if (m && !ONE_OFF.test(clause) && !/^to\b/i.test(m[2])) {
    return [instructionDraft(`give me ${m[2]}, not ${m[3]}`, false, 0.75, { explicit: false, ...extra })];
  }
  m = /^I (?:want|need|'d like|would like) you to (always|never)\s+(.+)$/i.exec(clause);
  if (m) return [instructionDraft(m[2], m[1].toLowerCase() === "never", 0.9, extra)];
  return parseStandingRequest(clause, flags, extra);
}

/** "from now on", "going forward", … anywhere in the clause ("write commit messages going forward in Conventional Commits style"). */
const DURABLE_MARKER = /,?\s*\b(?:from now on|going forward|moving forward|from here on(?: out)?|in (?:the )?future|by default|at all times|for all (?:future )?(?:answers|replies|responses|tasks))\b,?/i;
/** Words that make a verbless request a standing one ("deliveries after 6pm only please", "no emojis please"). */
const STANDING_WORDS = /\b(?:only|always|never|no|every|everything|all|any|without)\b/i;

/**
 * Requests that are standing without "always": a durable marker in mid-clause; "whenever you …
 * <verb> …" without a comma; an imperative about a setting-like slot ("Please use metric units.",
 * "switch me to metric", "use British spelling with me"); "talk to me like a colleague";
 * "I want type hints on every function you write"; and verbless polite requests with a standing
 * word ("no emojis please", "24h clock please, no am/pm", "deliveries after 6pm only please").
 * Anything said for once ("just this once", "tonight") is not one.
 */
function parseStandingRequest(clause: string, flags: ClauseFlags, extra: Partial<Draft>): Draft[] | null {
  if (ONE_OFF.test(clause) || /\b(?:just this once|this one time|only this time|for this one)\b/i.test(clause)) return null;
  const marked = DURABLE_MARKER.exec(clause);
  if (marked && !/^(?:,?\s*(?:from now on|going forward|moving forward|in (?:the )?future),?\s*)(?:when|whenever|every time|each time|if) you\b/i.test(clause)) {
    const body = `${clause.slice(0, marked.index)} ${clause.slice(marked.index + marked[0].length)}`.replace(/\s+/g, " ").trim().replace(/^(?:please\s+)?/i, "");
    if (INSTRUCTION.test(body)) return [instructionDraft(body, false, 0.9, extra)];
  }
  let m = /^(?:when|whenever|every time|each time|if) you\s+(\w+)\s+([^,]*?),?\s+((?:please\s+)?(?:use|write|put|give|format|add|include|keep|make|start|end|sign|show|spell)\b.+)$/i.exec(clause.replace(DURABLE_MARKER, " ").trim());
  if (m) {
    const cond = `${thirdPersonVerb(m[1])} ${toThirdPerson(m[2], { atStart: false })}`.trim();
    const draft = instructionDraft(m[3], false, 0.9, extra);
    return [{ ...draft, text: asSentence(`${draft.text.replace(/\.$/, "")} whenever the assistant ${cond}`) }];
  }
  m = /^(?:please\s+|just\s+)*(?:talk|speak|write|reply|answer)\s+(?:to me\s+)?(?:like|as if you were|as)\s+(an?\s+.+)$/i.exec(clause);
  if (m) return [instructionDraft(`talk to me like ${cutValue(m[1], { keepCommas: true })}`, false, 0.8, extra)];
  m = /^I (?:always\s+)?(?:want|need|expect|'d like|would like)\s+(.+?)\s+(on|in|for|with)\s+(every|all|each|any)\s+(.+)$/i.exec(clause);
  if (m && !/^(?:to|you)\b/i.test(m[1])) {
    const what = toThirdPerson(m[1], { atStart: false });
    const where = toThirdPerson(cutValue(m[4], { keepCommas: true }), { atStart: false })
      .replace(/\byou\s+([a-z]+)/gi, (_all, verb: string) => `the assistant ${thirdPersonVerb(verb)}`)
      .replace(/\byou\b/gi, "the assistant");
    const subject = preferenceSubject(m[1]);
    const kind = subject && PREFERENCE_SUBJECTS.has(subject) ? "preference" : "procedure";
    return [{ kind, text: asSentence(`User wants ${what} ${m[2].toLowerCase()} ${m[3].toLowerCase()} ${where}`), confidence: 0.85, ...(subject ? { subject } : {}), action: "add", explicit: true, ...extra }];
  }
  const body = clause.replace(/^please\s+/i, "");
  const subject = preferenceSubject(body);
  if (INSTRUCTION.test(body)) {
    // An imperative about a setting ("use metric units", "switch me to metric") is meant to last.
    if (subject && SETTING_SUBJECTS.has(subject) && !/\b(?:this|that|these|those|it)\b/i.test(body.replace(/^\w+\s+me\b/i, ""))) {
      return [instructionDraft(body, false, 0.85, extra)];
    }
    return null;
  }
  if (!flags.polite) return null;
  // Verbless polite requests: what follows "please, they …" is a remark, not part of the request.
  const request = body
    .replace(/\s*\bplease\b,?\s*(?:(?:they|it|that|this|I|I'm|which)\b.*)?$/i, "")
    .replace(/\s*\bplease\b,?\s*/i, ", ")
    .replace(/^(?:(?:still|just|and|also)\s+)+|\s+(?:though|then|thanks|thank you)$/gi, "")
    .replace(/,\s*$/, "")
    .trim();
  if (request === "" || /^(?:I|I'm|we|my|our|you|it|this|that|thanks|thank)\b/i.test(request) || DEICTIC_OBJECT.test(request) || request.split(/\s+/).length > 10) return null;
  const reqSubject = preferenceSubject(request);
  if (!STANDING_WORDS.test(request) && !(reqSubject && SETTING_SUBJECTS.has(reqSubject))) return null;
  const no = /^no\s+(.+)$/i.exec(request);
  if (no) return [instructionDraft(`use ${no[1]}`, true, 0.8, extra)];
  return [instructionDraft(`give me ${request}`, false, 0.8, extra)];
}

/**
 * A plain imperative that continues a standing instruction of the same message ("please stop
 * pasting the whole file every time. just give me a unified diff"), or follows a lead-in that
 * announces a standing rule ("one standing rule for anything code related: write the tests
 * first"): standing too. Not when it is for once or points at something in this chat.
 */
export function parseContinuedInstruction(clause: string, flags: ClauseFlags): Draft[] | null {
  const body = clause.replace(/^(?:(?:just|and|also|plus|then|please)\s+)+/i, "");
  if (!INSTRUCTION.test(body) || ONE_OFF.test(body) || /\?\s*$/.test(body)) return null;
  if (/\b(?:this|that|these|those|it|here|above|below)\b/i.test(body.replace(/^\w+\s+me\b/i, ""))) return null;
  return [instructionDraft(body, false, 0.85, flags.correction ? { correction: true } : {})];
}

/**
 * A standing instruction asked as a question: "can you answer me in Spanish from now on?",
 * "could you always use metric?". A request for once ("can you book a table for tonight?") is not.
 */
export function parseRequestQuestion(clause: string, flags: ClauseFlags): Draft[] | null {
  const m = /^(?:hey\s+)?(?:(?:can|could|would|will) you|(?:can|could|may) I ask you to)(?: please)?\s+(.+?)[?.!\s]*$/i.exec(clause);
  if (!m) return null;
  const body = m[1];
  const parsed = parseInstruction(body, flags);
  if (parsed) return parsed;
  const subject = preferenceSubject(body);
  const durable = DURABLE_MARKER.test(body) || /^(?:always|never)\b/i.test(body);
  if (!durable && !(subject && SETTING_SUBJECTS.has(subject))) return null;
  return parseStandingRequest(body, flags, flags.correction ? { correction: true } : {});
}
