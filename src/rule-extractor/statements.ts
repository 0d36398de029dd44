import { fact, pref, type Draft, type StatementContext } from "./draft.js";
import { parseOutcome } from "./outcomes.js";
import { ATTRIBUTE_NAMES, LANGUAGES, attributeSlot, preferenceSubject } from "./subjects.js";
import { DEICTIC_OBJECT, HYPOTHETICAL, ONE_OFF, QUESTION_START, cutValue, thirdPersonVerb, toThirdPerson, type ClauseFlags } from "./text.js";

/**
 * Durable first-person statements: who the user is, where they live and work, what they prefer,
 * and corrections of those. Anchored on "I …" / "my …", so statements about other people
 * ("my sister lives in Rome") never match.
 */
type Rule = (clause: string, flags: ClauseFlags, ctx: StatementContext) => Draft[] | null;

/** "my X is …" that says nothing lasting about the user ("my question is …", "my bad"). */
const NOT_AN_ATTRIBUTE =
  /^(?:problem|question|point|guess|idea|issue|concern|worry|fear|hope|bet|understanding|reasoning|excuse|answer|bad|pleasure|fault|mistake|thinking|thought|impression|plan|day|week|weekend|morning|evening|night|life|head|brain|code|build|test|tests|app|site|server|output|error|request|response|message|email|prompt|point of view|take|mood|schedule today|turn|go|understanding)$/i;
/** Values describing a momentary state rather than a lasting fact. */
const STATE_WORDS = /^(?:broken|slow|down|dead|fine|ok|okay|great|weird|off|on|busy|full|empty|late|early|missing|gone|here|there|done|ready|open|closed)\b/i;
const NOT_A_NAME = /^(?:not|no|a|an|the|none|nothing|secret|private|irrelevant|unknown|important|whatever|anonymous|hidden|is|was|also|still|on|in|at|here|there|weird|long|hard|complicated)$/i;
const NAME_PARTICLE = /^(?:van|von|de|da|di|del|della|der|den|le|la|du|dos|das|bin|ibn|al|el|ter|ten|zu)$/;

/**
 * Words that open or fill a common phrase rather than a name ("in fear of …", "at home", "at
 * night", "the new office"): in a clause typed without capitals, a value made with them is no name.
 */
const NOT_A_NAME_START =
  /^(?:a|an|the|my|our|your|his|her|their|its|this|that|these|those|some|any|no|every|each|all|one|other|another|home|work|night|nights|day|days|weekends?|shifts?|fear|hope|peace|denial|trouble|love|pain|debt|bed|school|college|hospital|town|time|mode|meeting|call|charge|touch|line|person|general|private|public|secret|silence|comfort|luxury|poverty|misery|style|theory|practice|reality|order|front|back|middle|place|least|most|lot|lots|bit|way|case|terms|part|first|last|next|same|different|various|several|many|few|much|more|less|it|them|me|you|us|him|here|there|now|then|what|which|who|where|when|how|why|if|not|very|too|also|just|really|still|mostly|lunch|dinner|breakfast|sea|advance|progress|remote|remotely|office|free|nothing|fun|money|cash|tips|peanuts|uni|university|work)$/i;
/** Words no name holds: pronouns, verbs and conjunctions ("berlin with my wife" is cut before, "love with it" is not a place). */
const NOT_IN_A_NAME = /^(?:I|me|my|you|your|we|our|us|it|its|they|them|their|he|him|his|she|her|is|are|was|were|be|been|am|do|does|did|and|or|but|so|because|if|when|while|with|without|for|from|to|in|on|at|by|as|than|like|about|into|onto|over|under|not|no)$/i;

/**
 * A name typed in lowercase ("berlin", "new york", "deutsche bahn", "st. mary's"), read only where
 * capitals say nothing (`ClauseFlags.caseless`): one to four words, none of them a pronoun, a verb
 * or a conjunction, and not opening like a common phrase ("fear of deadlines", "home", "the office").
 */
function lowercaseName(v: string): boolean {
  const tokens = v.split(/\s+/);
  if (tokens.length === 0 || tokens.length > 4 || !/^\p{Ll}/u.test(v)) return false;
  if (NOT_A_NAME_START.test(tokens[0]) || tokens.some((t) => NOT_IN_A_NAME.test(t))) return false;
  return tokens.every((t) => /^[\p{L}][\p{L}\p{N}'’.&-]*$/u.test(t));
}

/**
 * "Anna Schmidt", "anna", "Ludwig van Beethoven" — but not "not important" or "a secret". A name
 * is stored capitalised as names are ("anna schmidt", typed where capitals say nothing, → "Anna Schmidt").
 */
function personName(rawValue: string, caseless = false): string | undefined {
  const raw = cutValue(rawValue);
  if (!/^[\p{L}'’-]+(?:\s+[\p{L}'’-]+){0,3}$/u.test(raw)) return undefined;
  const tokens = raw.split(/\s+/);
  if (tokens.some((t) => NOT_A_NAME.test(t))) return undefined;
  if (!caseless && tokens.length > 1 && tokens.some((t) => /^\p{Ll}/u.test(t) && !NAME_PARTICLE.test(t))) return undefined;
  return tokens.map((t, i) => (i > 0 && NAME_PARTICLE.test(t) ? t : t.replace(/^(\p{Ll})/u, (x) => x.toUpperCase()))).join(" ");
}

/**
 * Words that say how the user is, not who ("hi, i'm tired", "hey i'm back", "call me later"): in a
 * lowercase introduction they are no name.
 */
const STATE_NOT_NAME =
  /^(?:back|new|tired|bored|stuck|lost|sorry|sure|ready|done|busy|sick|ill|free|late|early|happy|sad|glad|fine|good|great|ok|okay|alright|well|home|away|out|up|off|around|alone|hungry|thirsty|cold|hot|awake|confused|curious|stressed|excited|nervous|worried|scared|afraid|annoyed|upset|angry|frustrated|exhausted|sleepy|married|single|divorced|engaged|pregnant|retired|unemployed|old|young|just|so|very|really|only|almost|always|never|later|tomorrow|anytime|whatever|anything|crazy|again|in|there|here|over|through|finished|fed|sorted|set|fixed|vegan|vegetarian|right|wrong|serious|kidding|joking|interested|impressed|surprised|thankful|grateful|maybe|perhaps|sometime|soon|now|anything|whenever)$/i;

/** A name after an introduction or "call me": capitalised, or (where capitals say nothing) a lowercase name that is not a state. */
function introducedName(raw: string, caseless: boolean): string | undefined {
  const v = raw.trim();
  if (/^\p{Lu}/u.test(v)) return NOT_A_NAME.test(v.split(/\s+/)[0]) ? undefined : v;
  if (!caseless) return undefined;
  const tokens = v.split(/\s+/);
  if (tokens.some((t) => STATE_NOT_NAME.test(t) || NOT_A_NAME.test(t) || (t.length >= 5 && /ing$/i.test(t)) || (t.length >= 6 && /[^e]ed$/i.test(t) && !/med$/i.test(t)))) return undefined;
  return personName(v, true);
}

/** A place name: capitalised (or "the Netherlands"), at most six words; lowercase where capitals say nothing (kept as typed). */
function place(raw: string, caseless = false): string | undefined {
  const v = cutValue(raw).replace(/^the\s+(?=\p{Lu})/u, "the ");
  if (!/^(?:the\s+)?\p{Lu}/u.test(v) && !(caseless && lowercaseName(v))) return undefined;
  if (v.split(/\s+/).length > 6) return undefined;
  return v;
}

/** A company or organisation name: capitalised or a known form ("a startup"), at most six words; lowercase where capitals say nothing (kept as typed). */
function organisation(raw: string, caseless = false): string | undefined {
  // "Acme in Berlin": the place is where the user works, not part of the name.
  const v = cutValue(raw)
    .replace(/\s+(?:as an?|as the)\b.*$/i, "")
    .replace(caseless ? /\s+in\s+(?:the\s+)?\p{L}[\p{L}'’ -]*$/u : /\s+in\s+(?:the\s+)?\p{Lu}[\p{L}'’ -]*$/u, "");
  if (v.split(/\s+/).length > 6) return undefined;
  if (caseless && lowercaseName(v)) return v;
  if (/^(?:\p{Lu}|\d)/u.test(v) || /^(?:an?|the) (?:\w+ ){0,2}(?:startup|start-up|agency|bank|hospital|school|university|company|firm|consultancy|nonprofit|non-profit|NGO|government|ministry|lab)\b/i.test(v)) return v;
  return undefined;
}

const OCCUPATIONS =
  "engineer|developer|dev|interpreter|programmer|designer|teacher|nurse|doctor|physician|surgeon|dentist|pharmacist|lawyer|attorney|manager|student|consultant|architect|analyst|scientist|researcher|accountant|writer|journalist|founder|co-founder|cofounder|CTO|CEO|CFO|COO|CPO|VP|director|freelancer|contractor|intern|professor|lecturer|chef|cook|electrician|plumber|mechanic|pilot|farmer|artist|photographer|musician|editor|translator|recruiter|salesperson|marketer|administrator|admin|sysadmin|SRE|officer|paramedic|firefighter|entrepreneur|owner|lead|tester|librarian|economist|statistician|mathematician|physicist|chemist|biologist|veterinarian|vet|therapist|psychologist|social worker|caregiver|carer|driver|courier|barista|waiter|waitress|cashier|clerk|secretary|assistant|PhD student|postdoc|PM|product owner|scrum master|data scientist|illustrator|animator|copywriter|producer|director of \\w+|head of \\w+";
const OCCUPATION_RE = new RegExp(`\\b(?:${OCCUPATIONS})s?$`, "i");

/**
 * "a senior data engineer at Acme" → occupation "a senior data engineer", employer "Acme". A team
 * ("a backend dev on the checkout team at Zalando") stays in the occupation, so a new job replaces
 * it; a short detail after a comma ("…, mostly night shifts") is kept in brackets.
 */
function occupationDrafts(phrase: string, base: number, extra: Partial<Draft>, caseless = false): Draft[] | null {
  const m = /^(.+?)\s+(?:at|for|with)\s+(.+)$/i.exec(phrase);
  let role = cutValue(m ? m[1] : phrase);
  // "an editor in Edinburgh": the place is where the user works, not part of the role.
  const where = /\s+in\s+(\p{Lu}[\p{L}'’ -]*)$/u.exec(role);
  if (where) role = role.slice(0, where.index);
  const head = role.replace(/\s+(?:on|in)\s+(?:the\s+)?[\w&+ -]{1,40}?\s+(?:team|department|group|squad|unit|ward)$/i, "");
  if (!OCCUPATION_RE.test(head) || role.split(/\s+/).length > 10) return null;
  const detail = roleDetail(phrase);
  const drafts = [fact(`User is ${/^(?:an?|the)\s/i.test(role) ? role : `a ${role}`}${detail ? ` (${detail})` : ""}`, base, "occupation", extra)];
  const org = m ? organisation(m[2], caseless) : undefined;
  if (org) drafts.push(fact(`User works at ${org}`, base, "employer", extra));
  const workPlace = where ? place(where[1]) : undefined;
  if (workPlace) drafts.push(fact(`User works in ${workPlace}`, base, "location.work", extra));
  return drafts;
}

/** "Farfetch as a data analyst" → the role after "as", as an occupation draft (the organisation is read apart). */
function roleAfterAs(raw: string, base: number, extra: Partial<Draft>, caseless = false): Draft[] {
  const m = /\s+as\s+((?:an?|the)\s+.+)$/i.exec(raw);
  if (!m) return [];
  return (occupationDrafts(m[1], base, extra, caseless) ?? []).filter((d) => d.subject === "occupation");
}

/** Businesses a person runs for a living ("I run a small pottery studio"), as opposed to a book club or a team. */
const BUSINESS =
  /\b(?:studio|shop|store|boutique|business|company|startup|start-up|agency|bakery|caf[eé]|coffee shop|restaurant|bistro|bar|pub|brewery|winery|firm|practice|clinic|salon|consultancy|gallery|farm|hotel|guesthouse|B&B|garage|workshop|label|nursery|school|franchise|online shop|e-?shop|food truck)\b/i;

/** What follows the first comma of a role phrase, when it describes the work ("mostly night shifts", "Portuguese to English"). */
function roleDetail(phrase: string): string | undefined {
  const comma = phrase.indexOf(",");
  if (comma < 0) return undefined;
  const rest = phrase
    .slice(comma + 1)
    .replace(/\s*\([^)]*\)/g, "")
    .replace(/[.!?…\s]+$/u, "")
    .trim();
  if (rest === "" || /^(?:and|but|so|because|which|who|I|I'm|it|it's|that|this)\b/i.test(rest) || rest.split(/\s+/).length > 12) return undefined;
  return toThirdPerson(rest, { atStart: false });
}

/**
 * A role said on its own right after a job statement ("I started at Stripe on Monday!! Staff
 * engineer on payments infrastructure."): the user's new occupation.
 */
export function parseRoleFragment(text: string, flags: ClauseFlags): Draft[] | null {
  const v = cutValue(text).replace(/^(?:as\s+)?(?:an?\s+|the\s+)?/i, "");
  if (/^(?:I|I'm|we|my|it|it's|this|that|you)\b/i.test(v) || v.split(/\s+/).length > 8) return null;
  const head = v.replace(/\s+(?:on|in|for)\s+.+$/i, "");
  if (!OCCUPATION_RE.test(head)) return null;
  const role = v[0].toLowerCase() + v.slice(1);
  return [fact(`User is ${/^[aeiou]/i.test(role) ? "an" : "a"} ${role}`, flags.hedged ? 0.6 : 0.85, "occupation", { correction: true })];
}

function likeObject(raw: string): string | undefined {
  // Lists stay whole ("hiking and climbing"); a new clause ends the object ("…, but not raw fish").
  const stop = /,?\s+(?:but|because|so|since|although|though|which|when|while|if)\b|,\s*(?:it|that|they|I)\b|[;!?]|\s+\(/i.exec(raw);
  const v = cutValue(stop ? raw.slice(0, stop.index) : raw, { keepCommas: true });
  if (v === "" || DEICTIC_OBJECT.test(v) || v.split(/\s+/).length > 12) return undefined;
  return toThirdPerson(v, { atStart: false });
}

const DIETS = "vegetarian|vegan|pescatarian|pescetarian|flexitarian|keto|paleo|gluten-free|dairy-free|teetotal|teetotaller|teetotaler|halal|kosher";

/**
 * "I'm planning a week in Crete", "we're going to Lisbon in May", "my boyfriend Tobias and I are
 * flying to Kyoto": the user (alone, "we", or with a named companion) and the rest of the clause.
 */
const TRIP_PLAN =
  /^(?:(?:my\s+(?<rel>[a-z]+)\s+)?(?<name>\p{Lu}[\p{L}'’-]+)\s+and\s+I|I|we)(?:'re|'m|\s+are|\s+am)\s+(?:still\s+|also\s+|now\s+)?(?:planning|going|heading|flying|driving|travel(?:l)?ing|off)\s+(?<rest>.+)$/iu;
/** The destination: "to Crete", "in Crete", "a week in the Azores". */
const TRIP_PLACE = /\b(?:to|in)\s+((?:the\s+)?\p{Lu}[\p{L}'’-]+(?:\s+\p{Lu}[\p{L}'’-]+){0,2})/u;
const MONTH_OR_SEASON = /^(?:January|February|March|April|May|June|July|August|September|October|November|December|Spring|Summer|Autumn|Fall|Winter|Easter|Christmas)$/i;
const TRIP_WHEN = /\b(?:in|this|next)\s+((?:early\s+|late\s+|mid-)?(?:January|February|March|April|May|June|July|August|September|October|November|December|spring|summer|autumn|fall|winter))\b/i;
/** "with my friend Ana", "with Ana". */
const TRIP_COMPANION = /\bwith\s+(?:my\s+([a-z]+)\s+)?(\p{Lu}[\p{L}'’-]+)/u;

/** Statement rules, most specific first. Each returns drafts, or null when it does not apply. */
const STATEMENT_RULES: Rule[] = [
  // --- name
  (c, f) => {
    const m = /^my (?:full |first )?name(?:'s| is)\s+(.+)$/i.exec(c);
    if (!m) return null;
    const name = personName(m[1], f.caseless);
    return name ? [fact(`User's name is ${name}`, 0.9, "name")] : null;
  },
  (c, f) => {
    // An introduction: after a greeting, or with "by the way" ("I'm Siobhán, by the way").
    const intro = /,?\s*(?:by the way|btw)$/i.test(c);
    if (!f.greeting && !intro) return null;
    const m = /^(?:I'm|I am|this is|it's)\s+(\p{Lu}[\p{L}'’-]+(?:\s+\p{Lu}[\p{L}'’-]+)?)$/u.exec(c.replace(/,?\s*(?:by the way|btw)$/i, ""));
    if (m) return !NOT_A_NAME.test(m[1]) ? [fact(`User's name is ${m[1]}`, 0.85, "name")] : null;
    const lower = /^(?:I'm|I am|this is|it's)\s+(\p{Ll}[\p{L}'’-]+(?:\s+[\p{L}'’-]+)?)$/u.exec(c.replace(/,?\s*(?:by the way|btw)$/i, ""));
    const name = lower ? introducedName(lower[1], f.caseless ?? false) : undefined;
    return name ? [fact(`User's name is ${name}`, 0.85, "name")] : null;
  },
  (c, f) => {
    const m = /^(?:[Pp]lease\s+|[Yy]ou can\s+|[Jj]ust\s+)?[Cc]all me\s+(\p{Lu}[\p{L}'’-]*(?:\s+\p{Lu}[\p{L}'’-]*)?)/u.exec(c);
    if (m) return [pref(`User wants to be called ${m[1]}`, 0.9, "name.preferred")];
    const lower = /^(?:please\s+|you can\s+|just\s+)?call me\s+(\p{Ll}[\p{L}'’-]*(?:\s+[\p{L}'’-]+)?)$/iu.exec(c);
    const name = lower ? introducedName(lower[1], f.caseless ?? false) : undefined;
    return name ? [pref(`User wants to be called ${name}`, 0.9, "name.preferred")] : null;
  },
  // --- where the user lives / comes from
  (c, f) => {
    // A move is news about where the user lives now: stored in the current-location slot's words.
    const m = /^(?:I|we)(?:'ve| have)?\s*(?:just\s+|recently\s+|finally\s+|officially\s+)?(?:moved|relocated)\s+(?:back\s+|over\s+|up\s+|down\s+)?(?:to|into)\s+(.+)$/i.exec(c);
    const p = m && place(m[1], f.caseless);
    return p ? [fact(`User lives in ${p} (moved there)`, 0.9, "location.home", { correction: true })] : null;
  },
  (c) => {
    const m = /^I(?:'m| am)\s+(?:now\s+)?(?:on|in|part of)\s+the\s+(.{2,40}?)\s+team$/i.exec(c);
    return m && !DEICTIC_OBJECT.test(m[1]) ? [fact(`User is on the ${m[1]} team`, 0.85, "work.team")] : null;
  },
  (c) => {
    const m = /^I(?:'m| am)\s+(?:now\s+)?(?:in|on)\s+(?:the\s+)?((?:Eastern|Central|Mountain|Pacific|Atlantic|Alaska|Hawaii)(?:\s+(?:Standard|Daylight))?)\s+time\b/i.exec(c);
    return m ? [fact(`User's timezone is ${m[1][0].toUpperCase()}${m[1].slice(1)} time`, 0.85, "timezone")] : null;
  },
  (c) => {
    // "I'm in Toronto": where the user is based (not "I'm in London this week", not "I'm in a meeting").
    if (ONE_OFF.test(c)) return null;
    const m = /^I(?:'m| am)\s+(?:currently\s+|now\s+)?in\s+(.+)$/i.exec(c);
    const p = m && place(m[1]);
    return p && !/\b(?:time|mode|meeting|call|charge|love|trouble|town)\b/i.test(p) ? [fact(`User is based in ${p}`, 0.85, "location.home")] : null;
  },
  (c, f) => {
    const m = /^I(?:\s+(?:currently|now|still|actually))?\s+(?:live|reside)\s+in\s+(.+)$|^I(?:'m| am)\s+(?:currently\s+|now\s+)?(?:living|based|located)\s+in\s+(.+)$/i.exec(c);
    const p = m && place(m[1] ?? m[2], f.caseless);
    return p ? [fact(`User lives in ${p}`, 0.9, "location.home")] : null;
  },
  (c, f) => {
    const m = /^I (?:don't|do not|no longer) live in\s+(.+?)(?:\s+(?:anymore|any more))?$/i.exec(c);
    const p = m && place(m[1], f.caseless);
    return p ? [fact(`User no longer lives in ${p}`, 0.85, "location.home", { correction: true })] : null;
  },
  (c, f) => {
    const m = /^I(?:'m| am)\s+(?:originally\s+)?from\s+(.+)$|^I (?:grew up|was born and raised|was born) in\s+(.+)$/i.exec(c);
    const p = m && place(m[1] ?? m[2], f.caseless);
    return p ? [fact(`User is from ${p}`, 0.85, "location.origin")] : null;
  },
  // --- a trip the user is planning: durable for weeks ("a week in Crete in June"), unlike "this week"
  (c) => {
    if (ONE_OFF.test(c)) return null;
    const m = TRIP_PLAN.exec(c);
    if (!m?.groups) return null;
    const where = TRIP_PLACE.exec(m.groups.rest);
    const p = where && place(where[1]);
    if (!p || MONTH_OR_SEASON.test(p)) return null;
    const when = TRIP_WHEN.exec(m.groups.rest)?.[1];
    const companion = m.groups.name
      ? `${m.groups.rel ? `their ${m.groups.rel.toLowerCase()} ` : ""}${m.groups.name}`
      : (() => {
          const w = TRIP_COMPANION.exec(m.groups.rest);
          return w ? `${w[1] ? `their ${w[1].toLowerCase()} ` : ""}${w[2]}` : undefined;
        })();
    const text = `User is planning a trip to ${p}${when ? ` in ${when.replace(/\b(?:january|february|march|april|may|june|july|august|september|october|november|december)\b/i, (x) => x[0].toUpperCase() + x.slice(1).toLowerCase())}` : ""}${companion ? ` with ${companion}` : ""}`;
    return [fact(text, 0.8, `plan.trip.${p.toLowerCase()}`)];
  },
  // --- work
  (c, f) => {
    const m = /^I(?:\s+(?:currently|now|still))?\s+work\s+as\s+(.+)$/i.exec(c);
    if (!m) return null;
    return occupationDrafts(m[1], 0.9, f.correction ? { correction: true } : {}, f.caseless) ?? [fact(`User works as ${cutValue(m[1])}`, 0.8, "occupation")];
  },
  (c, f) => {
    const m = /^I(?:\s+(?:currently|now|still))?\s+work\s+(?:at|for)\s+(.+)$/i.exec(c);
    if (!m) return null;
    if (/^myself\b/i.test(m[1])) return [fact("User is self-employed", 0.9, "employer")];
    const org = organisation(m[1], f.caseless);
    if (!org) return null;
    const extra = f.correction ? { correction: true } : {};
    const where = /\s+in\s+((?:the\s+)?\p{Lu}[\p{L}'’ -]*)$/u.exec(cutValue(m[1]));
    const workPlace = where ? place(where[1]) : undefined;
    return [
      fact(`User works at ${org}`, 0.9, "employer", extra),
      ...roleAfterAs(m[1], 0.9, extra, f.caseless),
      ...(workPlace ? [fact(`User works in ${workPlace}`, 0.85, "location.work", extra)] : []),
    ];
  },
  (c) => {
    const m = /^I(?:\s+(?:currently|now|still))?\s+work\s+in\s+(.+)$/i.exec(c);
    if (!m) return null;
    const v = cutValue(m[1]);
    if (v === "" || v.split(/\s+/).length > 5 || DEICTIC_OBJECT.test(v)) return null;
    const isPlace = /^\p{Lu}\p{Ll}/u.test(v);
    return [fact(`User works in ${v}`, 0.85, isPlace ? "location.work" : "work.field")];
  },
  (c, f) => {
    const m = /^I(?:'ve| have)?\s*(?:just\s+|recently\s+)?(?:started|joined|started working|started a new job|got a (?:new )?job)\s+(?:at|with|for)?\s*(.+)$/i.exec(c);
    const org = m && organisation(m[1], f.caseless);
    if (!org || /^(?:the|a|an)\s+(?:meeting|call|project|team|course|class)\b/i.test(org)) return null;
    return [fact(`User works at ${org}`, 0.9, "employer", { correction: true }), ...roleAfterAs(m![1], 0.9, { correction: true }, f.caseless)];
  },
  (c, f) => {
    const m = /^I(?:'ve| have)?\s*(?:just\s+)?(?:quit|left)\s+my\s+(?:job|position|role)\s+(?:at|with)\s+(.+)$|^I no longer work (?:at|for)\s+(.+?)(?:\s+(?:anymore|any more))?$|^I (?:don't|do not) work (?:at|for)\s+(.+?)\s+(?:anymore|any more)$/i.exec(c);
    const raw = m && (m[1] ?? m[2] ?? m[3]);
    if (!raw || (!/^\p{Lu}/u.test(raw.trim()) && !f.caseless)) return null;
    const org = organisation(raw, f.caseless);
    return org ? [fact(`User no longer works at ${org}`, 0.85, "employer", { correction: true })] : null;
  },
  (c) => {
    const m = /^I(?:'m| am)\s+(retired|unemployed|self-employed|freelancing|between jobs|a freelancer)$/i.exec(c);
    return m ? [fact(`User is ${m[1]}`, 0.85, "occupation")] : null;
  },
  (c, f) => {
    const m = /^I(?:'m| am)\s+((?:an?|the)\s+.+)$/i.exec(c);
    return m ? occupationDrafts(m[1], 0.85, f.correction ? { correction: true } : {}, f.caseless) : null;
  },
  (c) => {
    const m = /^I(?:'m| am)?\s*(?:currently\s+)?(?:study|studying)\s+(.+)$/i.exec(c);
    if (!m) return null;
    const v = cutValue(m[1]);
    if (v === "" || DEICTIC_OBJECT.test(v) || /^(?:for|the docs|this|that)\b/i.test(v) || v.split(/\s+/).length > 8) return null;
    return [fact(`User studies ${v}`, 0.8, "education")];
  },
  // --- languages, timezone
  (c) => {
    const m = new RegExp(`^I speak\\s+((?:fluent\\s+|some\\s+|a (?:bit|little) of\\s+)?(?:${LANGUAGES})(?:(?:,\\s*|\\s+and\\s+|\\s+)(?:fluent\\s+|some\\s+)?(?:${LANGUAGES}))*)`, "i").exec(c);
    return m ? [fact(`User speaks ${m[1]}`, 0.85)] : null;
  },
  (c) => {
    const m = /^I(?:'m| am)\s+(?:in|on)\s+(?:the\s+)?((?:UTC|GMT)\s?[+-]\s?\d{1,2}(?::\d{2})?|UTC|GMT|[A-Z]{2,5}|[A-Z][a-z]+\/[A-Za-z_]+)(?:\s+time(?:\s?zone)?)?$/.exec(c);
    return m ? [fact(`User's timezone is ${m[1]}`, 0.85, "timezone")] : null;
  },
  // --- my <attribute> is …
  (c) => {
    const m = new RegExp(`^my\\s+(${ATTRIBUTE_NAMES})\\s+(?:is|are|=|:)\\s+(.+)$`, "i").exec(c);
    if (!m) return null;
    const slot = attributeSlot(m[1].replace(/time ?zone/i, "timezone"));
    if (!slot) return null;
    const keepCommas = /address/i.test(m[1]);
    const value = cutValue(m[2], { keepCommas });
    if (value === "" || DEICTIC_OBJECT.test(value) || value.split(/\s+/).length > 12) return null;
    if ((slot.subject === "name" || slot.subject === "name.preferred") && !personName(m[2])) return null;
    if (slot.subject === "occupation" && (/^\w+ing\b/i.test(value) || /\b(?:me|killing|boring|hard|stressful|fine|ok|okay|great|awful)\b/i.test(value))) return null;
    const text = `User's ${m[1].toLowerCase()} ${/s$/i.test(m[1]) && !/address/i.test(m[1]) ? "are" : "is"} ${toThirdPerson(value, { atStart: false })}`;
    return [slot.kind === "preference" ? pref(text, 0.9, slot.subject) : fact(text, 0.9, slot.subject)];
  },
  // --- my/our <anything> is <Value>: "my manager is Hiroshi", "our release day is Thursday", "my car is a 2019 Skoda"
  (c, f) => {
    const m = /^(my|our)\s+((?:[a-z]+(?:'s)?\s+){0,2}[a-z]+)\s+(?:is|are|=)\s+(.+)$/i.exec(c);
    if (!m || NOT_AN_ATTRIBUTE.test(m[2])) return null;
    // "my dog's name is biscuit", typed where capitals say nothing: a name, stored capitalised.
    const named = f.caseless && /\bname$/i.test(m[2]) ? personName(m[3], true) : undefined;
    const value = named ?? cutValue(m[3], { keepCommas: /\b(?:address|car|bike|setup)\b/i.test(m[2]) });
    // A value worth keeping names something: a capitalised word or a number ("my laptop is slow" is a mood).
    if (value === "" || DEICTIC_OBJECT.test(value) || value.split(/\s+/).length > 12 || !/[\p{Lu}\d]/u.test(value) || STATE_WORDS.test(value)) return null;
    const attribute = m[2].toLowerCase();
    const subject = attributeSlot(attribute)?.subject ?? `about.${attribute.replace(/'s\b/g, "").replace(/[^a-z0-9]+/g, "_")}`;
    return [fact(`User's ${attribute} ${/[^s']s$/.test(attribute) ? "are" : "is"} ${toThirdPerson(value, { atStart: false })}`, 0.85, subject)];
  },
  // --- plan and seats: "we're on the Growth plan, 12 seats", "I upgraded us to the Business plan, 12 seats now"
  (c) => {
    const on = /^(?:we(?:'re| are)|I(?:'m| am))\s+(?:currently\s+|still\s+|now\s+)?on\s+(?:the|a|an)\s+([\p{L}\d+-]+(?:\s[\p{L}\d+-]+)?)\s+(plan|tier|subscription)\b(.*)$/iu.exec(c);
    const up = on ? null : /^(?:I|we)(?:'ve| have)?\s*(?:just\s+)?(upgraded|downgraded|switched|moved|changed)\s+(?:us|our (?:account|team|workspace|company|org)|my (?:account|plan)|the (?:account|workspace))?\s*(?:over\s+)?to\s+(?:the|a|an)\s+([\p{L}\d+-]+(?:\s[\p{L}\d+-]+)?)\s+(plan|tier|subscription)\b(.*)$/iu.exec(c);
    if (!on && !up) return null;
    const name = on ? on[1] : up![2];
    const rest = on ? on[3] : up![4];
    const extra = up ? { correction: true } : {};
    // The seat count belongs to the plan: one value, so an upgrade replaces both ("Business (12 seats)").
    const seats = /\b(\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s+(seats?|users?|licen[cs]es?)\b/i.exec(rest);
    return [fact(`User is on the ${name} ${on ? on[2] : up![3]}${seats ? ` (${seats[1]} ${seats[2].toLowerCase()})` : ""}`, 0.9, "plan", extra)];
  },
  // --- diet, allergies, family, age
  (c) => {
    const m = new RegExp(`^I(?:'m| am)\\s+(?:an?\\s+)?(?:strict\\s+|mostly\\s+)?(${DIETS})\\b`, "i").exec(c);
    return m ? [fact(`User is ${m[1].toLowerCase()}`, 0.9, "diet")] : null;
  },
  (c) => {
    const m = new RegExp(`^I(?:'m| am)\\s+(?:no longer|not)\\s+(?:an?\\s+)?(${DIETS})(?:\\s+(?:anymore|any more))?$`, "i").exec(c);
    return m ? [fact(`User is no longer ${m[1].toLowerCase()}`, 0.85, "diet", { correction: true })] : null;
  },
  (c) => {
    const m = /^I (?:don't|do not|never|no longer)\s+(eat|drink)\s+(.+?)(?:\s+(?:anymore|any more))?$/i.exec(c);
    if (!m) return null;
    const what = cutValue(m[2]);
    if (what === "" || DEICTIC_OBJECT.test(what) || what.split(/\s+/).length > 5) return null;
    const no = /no longer|anymore|any more/i.test(c) ? "no longer" : "does not";
    const isDiet = /^(?:meat|any meat|animal products|fish|dairy)$/i.test(what);
    return [fact(`User ${no} ${no === "no longer" ? `${m[1].toLowerCase()}s` : m[1].toLowerCase()} ${what}`, 0.85, isDiet ? "diet" : undefined, no === "no longer" ? { correction: true } : {})];
  },
  (c) => {
    const m = /^I(?:'m| am)\s+(?:severely\s+|very\s+|mildly\s+)?allergic\s+to\s+(.+)$|^I have an?\s+(.+?)\s+allergy$/i.exec(c);
    if (!m) return null;
    const what = cutValue(m[1] ?? m[2]);
    return what && !DEICTIC_OBJECT.test(what) ? [fact(`User is allergic to ${what}`, 0.9)] : null;
  },
  (c) => {
    const m = /^I(?:'m| am)\s+(lactose|gluten|fructose)[- ]intolerant$/i.exec(c);
    return m ? [fact(`User is ${m[1].toLowerCase()} intolerant`, 0.9)] : null;
  },
  (c) => {
    const m = /^I have\s+(a|an|one|two|three|four|five|six|\d+)\s+(kids?|children|sons?|daughters?|dogs?|cats?|pets?)\b(.*)$/i.exec(c);
    if (!m) return null;
    const kids = /kid|child|son|daughter/i.test(m[2]);
    const rest = cutValue(m[3] ?? "");
    return [fact(`User has ${m[1]} ${m[2]}${rest ? ` ${toThirdPerson(rest, { atStart: false })}` : ""}`, 0.85, kids ? "family.children" : undefined)];
  },
  (c) => {
    const m = /^I(?:'m| am)\s+(married|single|divorced|engaged|widowed|separated)$/i.exec(c);
    return m ? [fact(`User is ${m[1].toLowerCase()}`, 0.85, "family.status")] : null;
  },
  (c) => {
    const m = /^I(?:'m| am)\s+(\d{1,3})(?:\s+years?\s+old|\s*yo|\s*y\/o)$/i.exec(c);
    return m ? [fact(`User is ${m[1]} years old`, 0.85, "age")] : null;
  },
  // --- what the user does: learning, training for, leading, playing, running a business
  (c) => {
    if (ONE_OFF.test(c)) return null;
    const m = /^I(?:'m| am)\s+(?:(?:now|also|currently|still)\s+)*(learning|training for|leading|organi[sz]ing|coaching|teaching|building|writing|doing|switching|moving|changing|transferring)\s+(.+)$/i.exec(c);
    if (!m) return null;
    const verb = m[1].toLowerCase();
    const what = cutValue(m[2], { keepCommas: true });
    if (what === "" || DEICTIC_OBJECT.test(what) || what.split(/\s+/).length > 16) return null;
    // "doing"/"switching" say little without a name: "I'm doing Spanish to English" yes, "I'm doing fine" no.
    if ((verb === "doing" || verb === "building" || verb === "writing") && !/\p{Lu}/u.test(what)) return null;
    if (/^(?:switching|moving|changing|transferring)$/.test(verb) && !/^(?:teams?|jobs?|roles?|departments?|to)\b/i.test(what)) return null;
    const also = /\balso\b/i.test(c.slice(0, m.index! + m[0].indexOf(m[1]))) ? "also " : "";
    return [fact(`User is ${also}${verb} ${toThirdPerson(what, { atStart: false })}`, 0.8)];
  },
  (c) => {
    const m = /^I(?:\s+(?:also|still|now))?\s+play\s+(.+)$/i.exec(c);
    if (!m || ONE_OFF.test(c)) return null;
    const what = cutValue(m[1], { keepCommas: true });
    return what && !DEICTIC_OBJECT.test(what) && what.split(/\s+/).length <= 14 ? [fact(`User plays ${toThirdPerson(what, { atStart: false })}`, 0.8)] : null;
  },
  (c) => {
    const m = /^(?:I|we)\s+(run|own|manage|co-own|founded|started|head|lead)\s+((?:an?|my|our)\s+.+|[a-z]+(?:\s+[a-z]+)?\s+(?:at|for|in)\s+\p{Lu}.+)$/iu.exec(c);
    if (!m || ONE_OFF.test(c)) return null;
    const what = cutValue(m[2]);
    if (!what || what.split(/\s+/).length > 10) return null;
    // "I run people ops at Eventco": a function at an organisation is the user's job, and their employer.
    const job = /^([a-z]+(?:\s+[a-z]+)?)\s+(?:at|for)\s+(\p{Lu}.+)$/u.exec(what);
    const org = job && organisation(job[2]);
    if (job && org && /^(?:run|head|lead|manage)$/i.test(m[1])) {
      return [fact(`User ${thirdPersonVerb(m[1].toLowerCase())} ${job[1]}`, 0.85, "occupation"), fact(`User works at ${org}`, 0.85, "employer")];
    }
    // Running or owning a business is what the user does for a living: their occupation.
    const living = /^(?:run|own|co-own|founded|started)$/i.test(m[1]) && /^(?:an?|my|our)\s/i.test(what) && BUSINESS.test(what);
    return [fact(`User runs ${toThirdPerson(what, { atStart: false }).replace(/^our\b/i, "their")}`, 0.85, living ? "occupation" : undefined)];
  },
  (c, f) => {
    const m = /^I(?:'ve| have)?\s*(?:just\s+)?(?:took|taken|got|accepted|started|landed)\s+(?:a|the|my|this)\s+(?:new\s+)?(?:job|position|role)\s+(in|at|with)\s+(.+)$/i.exec(c);
    if (!m) return null;
    if (m[1].toLowerCase() === "in") {
      const p = place(m[2], f.caseless);
      return p ? [fact(`User took a job in ${p}`, 0.85, "location.work", { correction: true })] : null;
    }
    const org = organisation(m[2], f.caseless);
    return org ? [fact(`User works at ${org}`, 0.9, "employer", { correction: true })] : null;
  },
  (c) => {
    const m = /^I (?:can't|cannot|can not|shouldn't|should not|mustn't)\s+(eat|drink|have)\s+(.+)$/i.exec(c);
    if (!m) return null;
    const what = cutValue(m[2]);
    return what && !DEICTIC_OBJECT.test(what) && what.split(/\s+/).length <= 8 ? [fact(`User cannot ${m[1].toLowerCase()} ${what}`, 0.85)] : null;
  },
  (c) => {
    // Habits: "I always take the window", "I usually fly economy".
    const m = /^I\s+(always|usually|normally|typically)\s+([a-z]+)\s+(.+)$/i.exec(c);
    if (!m || ONE_OFF.test(c) || /^(?:know|remember|forget|understand|get|think|thought|wonder|feel|mean|say|said|tell|mix|confuse|have to|need)$/i.test(m[2])) return null;
    const rest = cutValue(m[3]);
    if (rest === "" || DEICTIC_OBJECT.test(rest) && rest.split(/\s+/).length < 2) return null;
    return [pref(`User ${m[1].toLowerCase()} ${thirdPersonVerb(m[2])} ${toThirdPerson(rest, { atStart: false })}`, 0.8, preferenceSubject(rest))];
  },
  (c) => {
    const m = /^we(?:'re| are)\s+(an?\s+(?:[\w+#.-]+\s+){0,3}(?:shop|company|team|startup|agency|house|org|organi[sz]ation|school|family))$/i.exec(c);
    return m ? [fact(`User's team is ${cutValue(m[1])}`, 0.8, "work.stack")] : null;
  },
  // --- preferences
  (c, f) => {
    const m = /^I(?:\s+(?:really|strongly|generally|usually|always|definitely|much|mostly|still))?\s+prefer\s+(.+)$|^I(?:'d| would)\s+(?:much\s+)?(?:rather|prefer)\s+(.+)$|^my preference is\s+(.+)$/i.exec(c);
    if (!m) return null;
    const raw = m[1] ?? m[2] ?? m[3];
    const obj = likeObject(raw.replace(/,\s*(?:not|rather than|instead of|over)\s+/i, " over "));
    if (!obj || ONE_OFF.test(c)) return null;
    const confidence = m[2] ? 0.75 : 0.85;
    const verb = m[2] && /\brather\b/i.test(c) ? "would rather" : "prefers";
    return [pref(`User ${verb} ${obj}`, confidence, preferenceSubject(obj), f.correction ? { correction: true } : {})];
  },
  (c) => {
    const m = /^I(?:\s+(?:really|absolutely|just|honestly|truly|also))?\s+(like|love|enjoy|adore)\s+(.+)$/i.exec(c);
    if (!m || ONE_OFF.test(c)) return null;
    const obj = likeObject(m[2]);
    return obj ? [pref(`User ${m[1].toLowerCase() === "enjoy" ? "enjoys" : "likes"} ${obj}`, 0.75)] : null;
  },
  (c) => {
    const m = /^I(?:\s+(?:really|absolutely|just|honestly|truly))?\s+(?:hate|dislike|can't stand|cannot stand|don't like|do not like|loathe|detest)\s+(.+)$|^I(?:'m| am) not (?:a (?:big |huge )?fan of|into)\s+(.+)$/i.exec(c);
    if (!m || ONE_OFF.test(c)) return null;
    const obj = likeObject(m[1] ?? m[2]);
    return obj ? [pref(`User dislikes ${obj}`, 0.75)] : null;
  },
  (c) => {
    const m = /^I(?:'m| am)\s+(?:a\s+(?:big\s+|huge\s+)?fan of|really into|into|obsessed with|passionate about)\s+(.+)$/i.exec(c);
    if (!m || ONE_OFF.test(c)) return null;
    const obj = likeObject(m[1]);
    return obj ? [pref(`User likes ${obj}`, 0.75)] : null;
  },
  (c) => {
    const m = /^(?:I|we)(?:\s+(?:always|usually|mostly|mainly|only))?\s+use\s+(.+)$/i.exec(c);
    if (!m || ONE_OFF.test(c)) return null;
    const obj = likeObject(m[1]);
    if (!obj || /^(?:the|a|an)\s/i.test(obj) && !/\b(?:metric|imperial)\b/i.test(obj)) return null;
    return [fact(`User uses ${obj}`, 0.75, preferenceSubject(obj))];
  },
  // --- corrections without a more specific rule
  (c) => {
    const m = /^I no longer\s+([A-Za-z']+)\s*(.*)$/i.exec(c);
    if (!m) return null;
    const rest = cutValue(m[2]);
    return [fact(`User no longer ${thirdPersonVerb(m[1])}${rest ? ` ${toThirdPerson(rest, { atStart: false })}` : ""}`, 0.8, preferenceSubject(c), { correction: true })];
  },
  (c) => {
    const m = /^(?:I(?:'m| am)\s+)?(?:no longer|not)\s+(?:an?\s+)?(.+?)\s+(?:anymore|any more)$/i.exec(c);
    if (!m) return null;
    const v = cutValue(m[1]);
    if (v === "" || DEICTIC_OBJECT.test(v) || v.split(/\s+/).length > 5) return null;
    return [fact(`User is no longer ${toThirdPerson(v, { atStart: false })}`, 0.8, preferenceSubject(v), { correction: true })];
  },
  (c) => {
    const m = /^I (?:don't|do not)\s+([A-Za-z']+)\s+(.+?)\s+(?:anymore|any more)$/i.exec(c);
    if (!m) return null;
    return [fact(`User no longer ${thirdPersonVerb(m[1])} ${toThirdPerson(cutValue(m[2]), { atStart: false })}`, 0.8, preferenceSubject(m[2]), { correction: true })];
  },
];

/**
 * Durable statements, preferences and corrections in one clause. Questions, hypotheticals and
 * third-party statements yield nothing.
 */
export function parseStatement(clause: string, flags: ClauseFlags, ctx: StatementContext): Draft[] {
  if (clause === "" || /\?\s*$/.test(clause) || QUESTION_START.test(clause) || HYPOTHETICAL.test(clause)) return [];
  const outcome = parseOutcome(clause, ctx);
  if (outcome) return outcome;
  for (const rule of STATEMENT_RULES) {
    const drafts = rule(clause, flags, ctx);
    if (drafts && drafts.length > 0) {
      // Corrections are deliberate (at least 0.85); hedges ("I think …") cost 0.25, enough to fall below the floor.
      return drafts.map((d) => {
        const base = flags.correction ? Math.max(d.confidence, 0.85) : d.confidence;
        const confidence = Math.round(Math.max(0, base - (flags.hedged ? 0.25 : 0)) * 100) / 100;
        return { ...d, ...(flags.correction ? { correction: true } : {}), confidence };
      });
    }
  }
  return [];
}
