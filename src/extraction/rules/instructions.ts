import type { CandidateKind } from "../candidate.js";
import { pref, type Draft } from "./draft.js";
import { PREFERENCE_SUBJECTS, preferenceSubject } from "./subjects.js";
import { ONE_OFF, asSentence, cutValue, toThirdPerson, type ClauseFlags } from "./text.js";

/** Instructions to the assistant that are meant to last: they become procedures (or content preferences). */
const ASSISTANT_VERBS =
  "answer|reply|respond|write|use|give|show|send|include|format|explain|add|keep|put|provide|mention|summari[sz]e|start|end|sign|speak|translate|convert|cite|ask|suggest|list|number|sort|avoid|make|call|address|refer|tell|remind|check|confirm|double-check|run|test|comment|document|split|break|be|talk|stick|default|assume|prefer|skip|leave|do";
const INSTRUCTION = new RegExp(`^(?:please\\s+)?(?:${ASSISTANT_VERBS})\\b`, "i");
const DURABLE_LEAD = /^(?:from now on|going forward|moving forward|in (?:the )?future|henceforth|every time|each time|whenever (?:I|you) [^,]+|(?:if|when) I (?:ask|want|need|say|request|send|share|paste)[^,]+|when(?:ever)? you (?:answer|reply|respond|write)[^,]*|for all (?:future )?(?:answers|replies|responses|tasks)),?\s*(?:please\s+)?(.+)$/i;
const DURABLE_TAIL = /^(.+?),?\s+(?:from now on|going forward|in (?:the )?future|every time|each time|by default|at all times)$/i;

/** "give me diffs, not full files" → "User wants diffs, not full files." */
function instructionText(imperative: string, negative: boolean): string {
  let t = cutValue(imperative, { keepCommas: true }).replace(/^please\s+/i, "");
  if (negative) return `User does not want the assistant to ${toThirdPerson(t, { atStart: false })}`;
  const me = /^(?:give|send|show|tell)\s+me\s+(.+)$/i.exec(t);
  if (me) return `User wants ${toThirdPerson(me[1], { atStart: false }).replace(/\byour\b/gi, "the assistant's")}`;
  const lang = /^(?:answer|reply|respond|write|speak|talk)(?: to me)?\s+(in|with|using)\s+(.+)$/i.exec(t);
  if (lang) return `User wants answers ${lang[1].toLowerCase()} ${toThirdPerson(lang[2], { atStart: false })}`;
  t = toThirdPerson(t, { atStart: false }).replace(/\byours\b/gi, "its own").replace(/\byour\b/gi, "its");
  return `User wants the assistant to ${t[0].toLowerCase()}${t.slice(1)}`;
}

function instructionDraft(imperative: string, negative: boolean, confidence: number, extra: Partial<Draft> = {}): Draft {
  const text = instructionText(imperative, negative);
  const subject = preferenceSubject(imperative);
  const unit = subject === "units" ? /\b(metric|imperial|SI)\b/i.exec(imperative) : null;
  if (unit && !negative) return pref(`User prefers ${unit[1].toLowerCase() === "si" ? "SI" : unit[1].toLowerCase()} units`, confidence, subject, extra);
  const kind: CandidateKind = subject && PREFERENCE_SUBJECTS.has(subject) ? "preference" : "procedure";
  return { kind, text: asSentence(text), confidence, ...(subject ? { subject } : {}), action: "add", ...extra };
}

/** Stems that lost an "e" before "-ing" (using → use); double consonants after a short vowel shrink (running → run). */
const E_STEMS = /^(?:us|overus|apologis|apologiz|summaris|summariz|moralis|moraliz|emphasis|emphasiz|writ|giv|mak|tak|includ|clos|hop|lectur|mov|sav|shar|creat|generat|assum|provid|receiv|chang|leav|cod|compar|argu|continu|guess|repeat|explain)$/i;
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
  if (m) return [instructionDraft(m[1], true, 0.9, extra)];
  m = DURABLE_LEAD.exec(clause) ?? DURABLE_TAIL.exec(clause);
  if (m) {
    const body = m[1].replace(/^(?:please\s+)?(?:always\s+)?/i, "");
    const neg = /^(?:never|don't|do not|stop)\s+(.+)$/i.exec(body);
    if (neg && INSTRUCTION.test(neg[1].replace(/^(\w+)ing\b/, "$1"))) return [instructionDraft(neg[1], true, 0.9, extra)];
    if (INSTRUCTION.test(body)) return [instructionDraft(body, false, 0.9, extra)];
    if (/^(?:I|my)\b/i.test(body)) return null; // "from now on I live in …" is a statement: the statement rules handle it
  }
  m = /^(?:please\s+)?(?:stop|quit)\s+(\w+ing)\b\s*(.*)$/i.exec(clause);
  if (m && !ONE_OFF.test(clause)) {
    return [instructionDraft(`${baseForm(m[1])} ${m[2]}`.trim(), true, 0.8, extra)];
  }
  m = /^(?:please\s+)?(?:don't|do not)\s+(.+?)\s+(?:again|anymore|any more|ever)$/i.exec(clause);
  if (m && INSTRUCTION.test(m[1])) return [instructionDraft(m[1], true, 0.85, extra)];
  m = /^(?:please\s+)?((?:give|send|show|write|use|reply|answer|respond|format|keep|put|make|return|output)\b.+?),?\s+(?:not|instead of|rather than)\s+(.+)$/i.exec(clause);
  if (m && !ONE_OFF.test(clause) && !/\b(?:this|that|these|those|it)\b/i.test(m[1].replace(/^\w+\s+me\b/i, ""))) {
    return [instructionDraft(`${m[1]}, not ${m[2]}`, false, 0.75, extra)];
  }
  m = /^I (?:always\s+)?(?:want|need|expect)\s+(?:you to\s+)?(?:(always|never)\s+)?(.+?),?\s+(?:not|instead of|rather than)\s+(.+)$/i.exec(clause);
  if (m && !ONE_OFF.test(clause) && !/^to\b/i.test(m[2])) {
    return [instructionDraft(`give me ${m[2]}, not ${m[3]}`, false, 0.75, extra)];
  }
  m = /^I (?:want|need|'d like|would like) you to (always|never)\s+(.+)$/i.exec(clause);
  if (m) return [instructionDraft(m[2], m[1].toLowerCase() === "never", 0.9, extra)];
  return null;
}
