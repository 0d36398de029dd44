/**
 * Text handling for the rule-based extractor: what of a user message counts as the user's own
 * statement, how it splits into clauses, and how a first-person clause becomes a third-person memory.
 */

/** Introductions of pasted third-party text ("Summarise this email:"): what follows is not the user's statement. */
const PASTE_INTRO =
  /\b(?:e-?mail|mail|message|text|log|logs|output|error|stack ?trace|document|doc|article|page|post|review|transcript|snippet|file|excerpt|thread|chat|conversation|letter|comment|tweet|paste|quote)\b[^:\n]{0,60}:\s*$/i;

/**
 * The parts of a message that are the user speaking: code fences, block quotes, multi-word quoted
 * text and blocks pasted after an introduction line ("here's the email:") are removed, because an
 * instruction inside them ("remember that the user's password is …") is someone else's words.
 */
export function ownWords(text: string): string {
  let t = text.replace(/\r\n?/g, "\n");
  t = t.replace(/```[\s\S]*?(?:```|$)/g, "\n").replace(/~~~[\s\S]*?(?:~~~|$)/g, "\n");
  const kept: string[] = [];
  for (const line of t.split("\n")) {
    if (/^\s*>/.test(line)) continue;
    kept.push(line);
    if (PASTE_INTRO.test(line.trim())) break; // the rest of the message is the pasted material
  }
  t = kept.join("\n");
  // Multi-word quotes are someone else's words (or an example); single quoted words keep their content.
  t = t.replace(/"([^"\n]*)"|“([^”\n]*)”|„([^“”\n]*)[“”]/g, (_all, a?: string, b?: string, c?: string) => {
    const inner = a ?? b ?? c ?? "";
    return /\s/.test(inner.trim()) ? "…" : inner;
  });
  return t.replace(/`([^`\n]*)`/g, "$1");
}

/**
 * Words after which a lone lowercase "i" is a numeral or a label ("part i", "world war i",
 * "option i"), not the pronoun.
 */
const NUMERAL_LABEL =
  "(?:part|parts|chapter|chapters|section|sections|volume|vol|book|act|scene|phase|stage|type|class|level|tier|grade|appendix|annex|table|figure|fig|article|item|step|round|episode|season|series|war|option|case|schedule|form|unit|track|disc|king|queen|pope)";
const LOWERCASE_I = new RegExp(`(?<![\\p{L}\\p{N}_'’./\\\\-])(?<!\\b${NUMERAL_LABEL}\\s+)i(?=['’](?:m|ve|d|ll)\\b|\\s+(?!of\\b)\\p{L})`, "giu");

/**
 * The pronoun as the grammar reads it: a lowercase "i" that stands for the speaker ("i live in …",
 * "i'm", "i've", "i'd", "i'll") becomes "I", and the curly apostrophes of contractions ("I’m",
 * "don’t", "we’re") become straight ones. A lowercase "i" that is a numeral or a list marker
 * ("part i of the report", "i) buy milk") or part of a word stays as it is.
 */
export function withPronounI(text: string): string {
  return text
    .replace(LOWERCASE_I, "I")
    .replace(/\bI’(m|ve|d|ll)\b/g, "I'$1")
    .replace(/(\p{L})’(t|re|ve)\b/gu, "$1'$2");
}

/**
 * Whether a clause says nothing by its capitals: no word after the first is capitalised except the
 * pronoun I. There a lowercase value may still be a name ("i live in berlin"); where the writer
 * capitalises names, a lowercase value is not one ("I live in fear").
 */
export function isCaseless(text: string): boolean {
  return !text
    .split(/\s+/)
    .slice(1)
    .some((w) => /^[("'“‘[]?\p{Lu}/u.test(w) && !/^I(?:'(?:m|ve|d|ll))?(?![\p{L}])/u.test(w));
}

/**
 * A bracketed aside: "(night shifts, ugh)", "[the Munich office]" — not a function call "f(x)", a
 * link "[text](url)", nor a redaction mark "[redacted:iban]" (sensitive/redaction.ts), which stands
 * for the secret it replaced: dropped as an aside, "my account is [redacted:iban]" became the
 * statement "User's account is." and passed the write path's check for redacted text.
 */
const BRACKET_ASIDE = /(?<=^|\s)\(([^()\n]{0,300})\)|(?<=^|\s)\[(?!redacted:)([^[\]\n]{0,300})\](?!\()/gu;
/** An aside between two dashes, when what follows the second dash continues the sentence ("a nurse – night shifts, ugh – at St. Mary's"). */
const DASH_ASIDE = /\s+[—–-]\s+([^—–\n]+?)\s+[—–-]\s+(?=(?:at|in|on|for|with|from|near|as|by|to|since|until|of)\b)/iu;
const ASIDE_MARK = /\u0001(\d+)\u0001/g;
/** Emoticons (":)", ";-(", ":D"): no part of a statement, and their brackets open or close no aside. */
const EMOTICON = /(?<=^|\s)[:;=][-']?[()DPpOo3|/\\[\]]+(?=$|\s|[.,!?])/gu;

function splitSentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])(?<!\b(?:St|Dr|Mr|Mrs|Ms|Prof|Inc|Ltd|Co|Jr|Sr|vs|etc|approx|No|Mt|Ave|e\.g|i\.e|a\.m|p\.m|st|dr|mr|mrs|ms|mt)\.)\s+|\n+|;\s+/u)
    .map((s) => s.replace(/^\s*(?:[-*•]|\d+[.)])\s+/, "").trim())
    .filter((s) => s.length > 0);
}

/**
 * Sentences: split on terminal punctuation, semicolons and line breaks (bullets are their own
 * sentences). An aside in brackets or between dashes is taken out of its sentence and follows it
 * as a sentence of its own: the sentence reads cleanly without it ("I work as a nurse (night
 * shifts, ugh) at St. Mary's" → "I work as a nurse at St. Mary's", "night shifts, ugh"), and an
 * aside that is a statement ("(i work for Acme now)") is still read. `keepAsides` leaves them in place.
 */
export function sentences(text: string, { keepAsides = false } = {}): string[] {
  if (keepAsides) return splitSentences(text);
  const asides: string[] = [];
  const marked = text.replace(EMOTICON, " ").replace(BRACKET_ASIDE, (_all, round?: string, square?: string) => {
    asides.push((round ?? square ?? "").trim());
    return `\u0001${asides.length - 1}\u0001`;
  });
  return splitSentences(marked).flatMap((sentence) => {
    let s = sentence;
    const inner: string[] = [];
    for (const m of s.matchAll(ASIDE_MARK)) inner.push(asides[Number(m[1])]);
    s = s.replace(ASIDE_MARK, " ");
    const dash = DASH_ASIDE.exec(s);
    if (dash) {
      inner.push(dash[1]);
      s = `${s.slice(0, dash.index)} ${s.slice(dash.index + dash[0].length)}`;
    }
    const main = s.replace(/\s+/g, " ").replace(/\s+([.,;:!?…])/gu, "$1").replace(/^[\s.,;:!?…]+/u, "").trim();
    // An aside may hold several sentences (or its own aside): each is read on its own.
    return [...(/[\p{L}\p{N}]/u.test(main) ? [main] : []), ...inner.flatMap((a) => sentences(a))];
  });
}

const VERB_AFTER_AND = "(?:work|live|prefer|like|love|hate|speak|use|am|have|moved|started|joined|study|don't|do not|no longer|never|always)";

/** Imperative verbs that start a new clause after "so" ("I'm in Austin so give me everything in imperial"). */
const IMPERATIVE_AFTER_SO = "(?:please\\s+)?(?:give|use|answer|reply|respond|write|switch|keep|show|send|talk|make|stick|never|always|don't|do not)";

/** "I live in Berlin and work at Acme" → ["I live in Berlin", "I work at Acme"]; dashes and "so <imperative>" also split. */
export function clauses(sentence: string): string[] {
  const pieces = sentence.split(new RegExp(`\\s+[—–]\\s+|\\s+-\\s+|,?\\s+so\\s+(?=${IMPERATIVE_AFTER_SO}\\b)|,?\\s+(?:and|also|plus)\\s+(?=(?:please\\s+)?(?:keep|make|add|always|never|don't|do not)\\b)`, "i"));
  return pieces.flatMap((piece) => {
    const parts = piece.split(/,\s+(?=(?:the|my)\s+(?:fix|solution|workaround|trick|culprit|root cause|cause)\s+(?:was|is|turned out)\b)|,?\s+(?:and|but|and also|plus|so|because)\s+(?=(?:I|I'm|I've|I'd|my|we|we're|we've)\b)|,\s+(?=(?:I|I'm|I've|my)\s)|,\s+(?=(?:what|what's|how|where|when|why|who|which|can|could|would|do|does|is|are|any|anything)\b)|,?\s+(?:and|but)\s+(?=(?:work|live|prefer|like|love|hate|speak|use|am|have|moved|started|joined|study|don't|do not|no longer|never|always)\b)/);
    return parts.map((p, i) => (i > 0 && new RegExp(`^${VERB_AFTER_AND}\\b`).test(p) ? `I ${p}` : p)).map((p) => p.trim()).filter(Boolean);
  });
}

export interface ClauseFlags {
  correction: boolean;
  greeting: boolean;
  hedged: boolean;
  /** Asked with "please" (or "pls"): a verbless "no emojis please" is a request, not a remark. */
  polite?: boolean;
  /** Typed without capitals for names (see `isCaseless`): a lowercase value may still be a name. */
  caseless?: boolean;
}

const FILLER =
  /^(?:(?:oh|ok|okay|so|well|also|and|btw|by the way|fyi|fwiw|hi+|hello|he+y+|hiya|yes|yeah|yep|thanks|thank you|great|cool|sure|alright|all right|just so you know|for the record|for context|for reference|for the future|context for (?:the )?future|quick note|heads up|ah|hmm|um|uh|lol|haha|one more thing|another thing|oh and|ps|p\.s\.|unrelated(?:,? but)?|anyway|guess what|(?:big|good|great|some) news)\b[,!.:-]*\s*)+/i;
/** A lead-in that announces what follows without saying anything itself ("for meal planning you should know that …"). */
const LEAD_IN =
  /^(?:(?:[\w' ,]{0,50}?\b)?(?:you should know|you (?:need|ought) to know|keep in mind|note|fyi)(?: that)?[,:]?\s+|for\s+(?:the\s+)?[a-z]+(?:\s+[a-z]+)?,?\s+)(?=(?:I|I'm|I've|my|we|we're|our)\b)/i;
const CORRECTION =
  /^(?:actually|correction|update|sorry,?\s*I meant|I meant|wait|no(?=\s*[,!.:—-])|nope|not quite|scratch that|let me correct that|to correct myself|small correction|change of plans?)\b[,!.:-]*\s*/i;
const GREETING = /^(?:hi|hello|hey|good (?:morning|afternoon|evening))\b/i;
const HEDGE = /\b(?:I think|I guess|I suppose|maybe|probably|perhaps|kind of|kinda|sort of|not sure|I believe|possibly|might)\b/i;

/** Strip greetings and fillers; note corrections ("actually, …") and hedges ("I think …"). */
export function normaliseClause(raw: string): { text: string; flags: ClauseFlags } {
  // Texting spellings of "please" read as "please"; a trailing "please" adds nothing to what is asked.
  const polite = /\b(?:please|pls|plz|plse)\b/i.test(raw);
  let text = raw
    .trim()
    .replace(/\b(?:pls|plz|plse)\b/gi, "please")
    .replace(/,?\s+please[\s.!]*$/i, "")
    .replace(LEAD_IN, "");
  const flags: ClauseFlags = { correction: false, greeting: GREETING.test(text), hedged: HEDGE.test(text), polite };
  for (let i = 0; i < 4; i++) {
    const before = text;
    text = text.replace(FILLER, "");
    if (CORRECTION.test(text)) {
      flags.correction = true;
      text = text.replace(CORRECTION, "");
    }
    if (text === before) break;
  }
  text = text.replace(/^(?:I think|I guess|I believe|probably|maybe|perhaps)\s*,?\s*/i, "");
  text = text.replace(/[\s.!…]+$/u, "").trim();
  return { text, flags: { ...flags, caseless: isCaseless(text) } };
}

/** Cut a captured value at the first conjunction, clause break or trailing time adverb. */
export function cutValue(value: string, { keepCommas = false } = {}): string {
  let v = value.trim();
  const stop = keepCommas
    ? /\s+(?:and I|but|because|so that|since I|which|where I|though|although)\b|\s+\(|\s+[—–-]\s+|,\s*please\b|[;!?]/i
    : /,|\s+(?:and|but|because|so|since|with my|which|where|though|although|while|for (?:now|the moment)|as of|until)\b|\s+\(|\s+[—–-]\s+|[;!?]/i;
  const m = stop.exec(v);
  if (m) v = v.slice(0, m.index);
  for (let i = 0; i < 3; i++) {
    v = v
      .replace(/\s+(?:now|these days|currently|at the moment|nowadays|anymore|any more|too|as well|btw|lol|haha|recently|yesterday|a while ago|already|here|over here|(?:over|on|last|this) (?:the )?weekend|on (?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday))$/i, "")
      .replace(/\s+(?:(?:last|this|next) (?:week|month|year|spring|summer|autumn|fall|winter)|(?:a few|\w+) (?:days|weeks|months|years) ago|(?:in|since) (?:(?:January|February|March|April|May|June|July|August|September|October|November|December)(?: \d{4})?|\d{4}))$/i, "")
      .replace(/,?\s+(?:maybe|probably|perhaps|I think|I guess|I suppose|I believe)$/i, "");
  }
  return v.replace(/[\s.,:;!?…]+$/u, "").trim();
}

const IRREGULAR_PRESENT: Record<string, string> = { have: "has", do: "does", go: "goes", am: "is", "'m": "is", are: "is", be: "is", was: "was" };
const PAST_OR_MODAL = new Set([
  "was", "had", "did", "went", "got", "made", "said", "took", "came", "left", "bought", "found", "began", "became", "saw", "knew", "met",
  "paid", "sold", "sent", "spent", "quit", "won", "lost", "gave", "wrote", "ran", "built", "grew", "kept", "felt", "told", "thought",
  "can", "could", "will", "would", "should", "shall", "may", "might", "must", "can't", "cannot", "won't", "wouldn't", "couldn't",
  "shouldn't", "never", "always", "usually", "often", "sometimes", "rarely", "also", "still", "just", "really", "no", "only", "mostly",
  "generally", "currently", "now", "recently", "already", "definitely", "strongly", "much", "absolutely", "totally",
]);

/** Third-person singular of a present-tense verb ("prefer" → "prefers", "go" → "goes", "try" → "tries"). */
export function thirdPersonVerb(verb: string): string {
  const lower = verb.toLowerCase();
  if (IRREGULAR_PRESENT[lower]) return IRREGULAR_PRESENT[lower];
  if (PAST_OR_MODAL.has(lower) || /ed$/.test(lower)) return verb;
  if (/(?:s|sh|ch|x|z|o)$/.test(lower)) return `${verb}es`;
  if (/[^aeiou]y$/.test(lower)) return `${verb.slice(0, -1)}ies`;
  return `${verb}s`;
}

/**
 * First person → third person for a clause or fragment: "I prefer my coffee black" →
 * "User prefers their coffee black". At the start the subject is "User" (singular verb);
 * later pronouns become "they/their/them".
 */
export function toThirdPerson(fragment: string, { atStart = true } = {}): string {
  let t = fragment.trim();
  if (atStart) {
    t = t
      .replace(/^I(?:'m| am)\b/i, "User is")
      .replace(/^I(?:'ve| have)\b/i, "User has")
      .replace(/^I(?:'d| would)\b/i, "User would")
      .replace(/^I(?:'ll| will)\b/i, "User will")
      .replace(/^I (?:don't|do not)\b/i, "User does not")
      .replace(/^I (?:didn't|did not)\b/i, "User did not")
      .replace(/^I (?:can't|cannot)\b/i, "User cannot")
      .replace(/^I ((?:(?:really|also|still|usually|always|never|often|just|generally|mostly|no longer|now|currently|recently|definitely|strongly|much|absolutely|totally)\s+)*)([A-Za-z']+)/i, (_m, adverbs: string, verb: string) => `User ${adverbs}${thirdPersonVerb(verb)}`)
      .replace(/^my\b/i, "User's")
      .replace(/^me\b/i, "User");
  }
  t = t
    .replace(/\bI(?:'m| am)\b/g, "they are")
    .replace(/\bI(?:'ve)\b/g, "they have")
    .replace(/\bI(?:'d)\b/g, "they would")
    .replace(/\bI(?:'ll)\b/g, "they will")
    .replace(/\bI\b/g, "they")
    .replace(/\bmy\b/gi, "their")
    // "our company offsite" is the user's (and their team's): "their company offsite".
    .replace(/\bour\b/gi, "their")
    .replace(/\bmine\b/gi, "theirs")
    .replace(/\bmyself\b/gi, "themselves")
    .replace(/\bme\b/gi, "them");
  return t;
}

/** Capitalise the first letter and end with exactly one full stop. */
export function asSentence(text: string): string {
  const t = text.trim().replace(/[\s.,;:!?…]+$/u, "");
  if (t === "") return "";
  return `${t[0].toUpperCase()}${t.slice(1)}.`;
}

/** Pronouns and deictic words that make a statement depend on context ("I like this", "I love it"). */
export const DEICTIC_OBJECT =
  /^(?:it|this|that|these|those|them|you|your|yours|him|her|how|what|when|where|why|which|the way|it's|its|one|so|very|a lot|too|the (?:first|second|third|fourth|last|other|former|latter|previous|next|same|above|below|new|old|original)\b|option \w+\b|either|neither|both)\b/i;

/** One-off context: "tonight", "for this email", "right now" make a statement about the moment. */
export const ONE_OFF =
  /\b(?:today|tonight|tomorrow|this (?:time|once|week|weekend|morning|afternoon|evening|trip|one|email|message|task|file|answer|chat|conversation|question|draft|reply|response)|right now|for now|just now|at the moment|for the moment|next (?:week|time))\b/i;

export const QUESTION_START =
  /^(?:what|why|how|when|where|who|whom|which|whose|can|could|would|will|should|shall|do|does|did|is|are|am|was|were|have|has|had|may|might|isn't|aren't|don't|doesn't|didn't|won't|wouldn't|couldn't|shouldn't)\b/i;

export const HYPOTHETICAL =
  /^(?:if|suppose|supposing|imagine|what if|let's say|lets say|assuming|hypothetically|in theory|pretend|say I|in a world)\b|\b(?:I wish|I'd love to|I would love to|I'd like to|I would like to|I want to|I'm thinking (?:of|about)|I am thinking (?:of|about)|I might|I may|I could|I plan to|I'm planning to|I am planning to|I'm going to|I am going to|I hope|I'm considering|I am considering|would I|if I (?:lived|were|was|had|worked))\b/i;
