import { ATTRIBUTE_NAMES, attributeSlot } from "./subjects.js";
import type { Draft } from "./draft.js";
import { parseInstruction } from "./instructions.js";
import { parseStatement } from "./statements.js";
import { ONE_OFF, asSentence, clauses, normaliseClause, toThirdPerson } from "./text.js";

/** What an explicit memory request asks for besides (or instead of) drafts. */
export type RequestSignal =
  /** "don't remember this", "off the record": nothing from this message is kept. */
  | "suppress-this"
  /** "forget that", "don't save that", "forget what I just said": the previous message is not kept (and forgotten if it was). */
  | "suppress-previous"
  /** "remember that!" with nothing after it: the previous message's statements are explicit. */
  | "remember-previous";

export interface RequestResult {
  drafts: Draft[];
  signal?: RequestSignal;
}

const REMEMBER =
  /^(?:please\s+|pls\s+|can you\s+|could you\s+|would you\s+|will you\s+|i want you to\s+|i'd like you to\s+)?(?:remember|memori[sz]e|keep in mind|bear in mind|make a note(?: of)?|take note(?: of)?|note down|don't forget|do not forget|never forget|(?:save|store|keep|put)(?:\s+(?:this|that|it))?\s+(?:in|to|into)\s+(?:your\s+|long-term\s+)?memory)\b(?:\s+(?:that|this|the fact that))?\s*[:,-]?\s*(.*)$/i;
const FORGET = /^(?:please\s+|can you\s+|could you\s+|i want you to\s+)?(?:forget|unlearn|stop remembering|(?:wipe|erase|delete|remove|clear)(?=\s+(?:everything|anything|all)\s+(?:about|regarding|concerning|on)\b))\b\s*(.*)$/i;
const DELETE_FROM_MEMORY =
  /^(?:please\s+|can you\s+|could you\s+)?(?:delete|erase|remove|wipe|clear|drop)\s+(.*?)\s*(?:from|in|out of)\s+(?:your\s+|the\s+)?(?:memory|memories)$/i;
const DELETE_ALL = /^(?:please\s+|can you\s+|could you\s+)?(?:delete|erase|remove|wipe|clear|forget)\s+(?:everything|all(?:\s+of)?(?:\s+(?:my data|your memories|the memories|memories))?)(?:\s+(?:you know|you remember|you have|you've (?:stored|saved)|stored))?(?:\s+about me)?$/i;
const DONT_KEEP = /^(?:please\s+)?(?:don't|do not|never)\s+(remember|memori[sz]e|store|save|keep|record|write down|note)\b\s*(.*)$/i;
/** "please stop storing stuff", "stop remembering things about me": the same request as "don't remember". */
const STOP_KEEPING = /^(?:please\s+)?(?:stop|quit)\s+(remembering|memori[sz]ing|storing|saving|keeping|recording|noting)\b\s*(.*)$/i;
/** What "don't store stuff" covers: everything said (in this message), not one statement. */
const ANYTHING = /^(?:stuff|things|anything|everything|any of (?:it|this|that)|(?:stuff|things|anything|everything)\s+(?:about me|I (?:say|tell you)))(?:\s+(?:about me|for (?:a|the) (?:while|bit|moment)|for now))*$/i;
const OFF_THE_RECORD = /\b(?:off the record|between (?:you and me|us)|don't keep (?:this|that)|not for (?:your )?memory)\b/i;

const THIS = /^(?:this|this one|this message|this conversation|this chat|any of (?:this|that)|it|anything(?: (?:from|in) (?:this|here))?|in (?:your )?memory)?$/i;
const THAT = /^(?:that|that one|that last (?:bit|part|one|message)|what I (?:just )?(?:said|wrote|told you)|my last message|the last (?:thing|message|part|bit)(?: I (?:said|wrote))?)$/i;

function clean(inner: string): string {
  return (
    inner
      .replace(/\s*\b(?:please|for me|for later|for next time|for the future|going forward|in (?:your )?memory)\b\s*/gi, " ")
      .replace(/[?.!\s]+$/, "")
      // "remember this for me: my car is …" leaves ": my car is …" once "for me" is gone.
      .replace(/^[\s:,;–—-]+/u, "")
      .trim()
  );
}

const explicit = (d: Draft): Draft => ({ ...d, explicit: true, confidence: Math.max(d.confidence, 0.95) });

/** A clause's content as drafts: an instruction, a statement, or (for explicit requests) the clause itself in third person. */
function contentDrafts(inner: string): Draft[] {
  const whole = normaliseClause(inner);
  const instruction = parseInstruction(whole.text, whole.flags);
  if (instruction) return instruction;
  // "remember that I live in Berlin and work at Acme": each clause on its own.
  return clauses(inner).flatMap((part) => {
    const { text, flags } = normaliseClause(part);
    return parseInstruction(text, flags) ?? parseStatement(text, { ...flags, hedged: false }, {});
  });
}

function genericDraft(inner: string): Draft | undefined {
  const { text } = normaliseClause(inner);
  if (text.split(/\s+/).length < (/^I(?:'m| am)\s/i.test(text) ? 2 : 3)) return undefined;
  // A question or a request to the assistant is not something to remember ("here's the key, can you check it?").
  if (/\?|\b(?:can|could|would|will) you\b|^here(?:'s| is| are)\b/i.test(text)) return undefined;
  if (!/\b(?:is|are|was|were|has|have|had|will|am|'s|'m|'re|'ve|can't|cannot|doesn't|don't|does|do)\b|^(?:I|we)\s+\w+/i.test(text)) return undefined;
  const sentence = asSentence(toThirdPerson(text));
  const kind = /\b(?:prefer|like|love|hate|favou?rite|want)s?\b/i.test(text) ? "preference" : "fact";
  return { kind, text: sentence, confidence: 0.9, action: "add" };
}

/** "remember that I'm vegan", "keep in mind: …", "remember to always …". */
export function parseRememberRequest(clause: string): RequestResult | null {
  const m = REMEMBER.exec(clause);
  if (!m) return null;
  const inner = clean(m[1] ?? "");
  if (inner === "" || THIS.test(inner) || THAT.test(inner)) return { drafts: [], signal: "remember-previous" };
  const toAlways = /^to\s+((?:always|never)\s+.+)$/i.exec(inner);
  if (toAlways) return { drafts: (parseInstruction(toAlways[1], { correction: false, greeting: false, hedged: false }) ?? []).map(explicit) };
  if (/^to\b/i.test(inner)) return { drafts: [] }; // a reminder ("remember to call mom"), not a memory
  if (/^(?:what|when|where|how|who|whom|why|if|whether|which)\b/i.test(inner)) return { drafts: [] };
  const items = inner.replace(/^(?:(?:two|three|four|a few|some|a couple of) things?|this|these)\s*[:,-]\s*/i, "");
  const drafts = contentDrafts(items);
  if (drafts.length > 0) {
    // "our anniversary is June 9th and Lena's favourite flowers are peonies": what no rule reads is kept as said.
    const rest = clauses(items)
      .flatMap((part) => part.split(/\s+and\s+(?=\p{Lu})/u))
      .filter((part) => contentDrafts(part).length === 0)
      .map(genericDraft)
      .filter((d): d is Draft => d !== undefined);
    return { drafts: [...drafts, ...rest].map(explicit) };
  }
  const generic = genericDraft(items);
  return { drafts: generic ? [explicit(generic)] : [] };
}

const forgetAll = (): Draft => ({ kind: "fact", text: "All memories about the user.", subject: "*", confidence: 0.95, action: "forget", explicit: true });
const asForget = (d: Draft): Draft => ({ ...d, action: "forget", explicit: true, confidence: Math.max(d.confidence, 0.95), correction: undefined });

function forgetDrafts(rawInner: string): RequestResult {
  const inner = clean(rawInner).replace(/^(?:about\s+|the fact that\s+|that\s+|what I (?:said|told you|wrote) about\s+|all about\s+)/i, "");
  if (THAT.test(inner) || /^that$/i.test(rawInner.trim())) return { drafts: [], signal: "suppress-previous" };
  if (inner === "" || /^(?:it|about it|it,? never ?mind)$/i.test(inner)) return { drafts: [] }; // "forget it" = never mind
  if (/^(?:everything|all of it|all)(?:\s+(?:you know\s+)?about me)?$/i.test(inner)) return { drafts: [forgetAll()] };
  // "everything about Tobias": every memory naming them (a name, not "me").
  const about = /^(?:everything|anything|all)(?:\s+you know)?\s+(?:about|regarding|concerning|on)\s+(.+)$/i.exec(inner);
  const named = about ? about[1].split(/[,;]|\s+(?:and|but|because|since|so)\s+(?=I\b|I'm|I've|my\b)/)[0].trim() : "";
  if (about && /^\p{Lu}/u.test(named) && !/\b(?:me|my|I)\b/i.test(named) && named.split(/\s+/).length <= 6) {
    return { drafts: [{ kind: "fact", text: asSentence(named), confidence: 0.95, action: "forget", explicit: true }], signal: "suppress-this" };
  }
  const drafts = contentDrafts(inner);
  if (drafts.length > 0) return { drafts: drafts.map(asForget), signal: "suppress-this" };
  const attr = new RegExp(`^my\\s+(${ATTRIBUTE_NAMES})$`, "i").exec(inner);
  const slot = attr && attributeSlot(attr[1].replace(/time ?zone/i, "timezone"));
  if (attr && slot) {
    return { drafts: [{ kind: slot.kind, text: asSentence(`User's ${attr[1].toLowerCase()}`), subject: slot.subject, confidence: 0.95, action: "forget", explicit: true }], signal: "suppress-this" };
  }
  // Without a first-person reference it is about the task, not about a memory ("forget about the tests for now").
  if (inner.split(/\s+/).length > 20 || ONE_OFF.test(inner) || !/\b(?:I|I'm|I've|my|me|mine)\b/i.test(inner)) return { drafts: [] };
  return { drafts: [{ kind: "fact", text: asSentence(toThirdPerson(inner)), confidence: 0.9, action: "forget", explicit: true }], signal: "suppress-this" };
}

/** "forget that I live in Berlin", "delete my address from your memory", "don't remember this", "forget everything". */
export function parseForgetRequest(clause: string): RequestResult | null {
  if (DELETE_ALL.test(clause)) return { drafts: [forgetAll()] };
  let m = FORGET.exec(clause);
  if (m) return forgetDrafts(m[1] ?? "");
  m = DELETE_FROM_MEMORY.exec(clause);
  if (m) return forgetDrafts(m[1] ?? "");
  m = DONT_KEEP.exec(clause) ?? STOP_KEEPING.exec(clause);
  if (m) {
    const inner = clean(m[2] ?? "");
    if (THIS.test(inner) || ANYTHING.test(inner) || /^(?:this|it|any of this)\s*[,:-]/i.test(inner)) return { drafts: [], signal: "suppress-this" };
    if (THAT.test(inner)) return { drafts: [], signal: "suppress-previous" };
    // "don't save the file yet" is about files, not memory: only remember/memorise take content.
    if (!/^(?:remember|memori[sz])/i.test(m[1])) return null;
    const content = forgetDrafts(inner);
    return { drafts: content.drafts, signal: content.signal ?? "suppress-this" };
  }
  if (OFF_THE_RECORD.test(clause)) return { drafts: [], signal: "suppress-this" };
  return null;
}
