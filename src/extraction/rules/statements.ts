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

const NOT_A_NAME = /^(?:not|no|a|an|the|none|nothing|secret|private|irrelevant|unknown|important|whatever|anonymous|hidden|is|was|also|still|on|in|at|here|there|weird|long|hard|complicated)$/i;
const NAME_PARTICLE = /^(?:van|von|de|da|di|del|della|der|den|le|la|du|dos|das|bin|ibn|al|el|ter|ten|zu)$/;

/** "Anna Schmidt", "anna", "Ludwig van Beethoven" — but not "not important" or "a secret". */
function personName(rawValue: string): string | undefined {
  const raw = cutValue(rawValue);
  if (!/^[\p{L}'’-]+(?:\s+[\p{L}'’-]+){0,3}$/u.test(raw)) return undefined;
  const tokens = raw.split(/\s+/);
  if (tokens.some((t) => NOT_A_NAME.test(t))) return undefined;
  if (tokens.length > 1 && tokens.some((t) => /^\p{Ll}/u.test(t) && !NAME_PARTICLE.test(t))) return undefined;
  return raw.replace(/^(\p{Ll})/u, (x) => x.toUpperCase());
}

/** A place name: capitalised (or "the Netherlands"), at most six words. */
function place(raw: string): string | undefined {
  const v = cutValue(raw).replace(/^the\s+(?=\p{Lu})/u, "the ");
  if (!/^(?:the\s+)?\p{Lu}/u.test(v)) return undefined;
  if (v.split(/\s+/).length > 6) return undefined;
  return v;
}

/** A company or organisation name: capitalised or a known form ("a startup"), at most six words. */
function organisation(raw: string): string | undefined {
  const v = cutValue(raw).replace(/\s+(?:as an?|as the)\b.*$/i, "");
  if (v.split(/\s+/).length > 6) return undefined;
  if (/^(?:\p{Lu}|\d)/u.test(v) || /^(?:an?|the) (?:\w+ ){0,2}(?:startup|start-up|agency|bank|hospital|school|university|company|firm|consultancy|nonprofit|non-profit|NGO|government|ministry|lab)\b/i.test(v)) return v;
  return undefined;
}

const OCCUPATIONS =
  "engineer|developer|programmer|designer|teacher|nurse|doctor|physician|surgeon|dentist|pharmacist|lawyer|attorney|manager|student|consultant|architect|analyst|scientist|researcher|accountant|writer|journalist|founder|co-founder|cofounder|CTO|CEO|CFO|COO|CPO|VP|director|freelancer|contractor|intern|professor|lecturer|chef|cook|electrician|plumber|mechanic|pilot|farmer|artist|photographer|musician|editor|translator|recruiter|salesperson|marketer|administrator|admin|sysadmin|SRE|officer|paramedic|firefighter|entrepreneur|owner|lead|tester|librarian|economist|statistician|mathematician|physicist|chemist|biologist|veterinarian|vet|therapist|psychologist|social worker|caregiver|carer|driver|courier|barista|waiter|waitress|cashier|clerk|secretary|assistant|PhD student|postdoc|PM|product owner|scrum master|data scientist|illustrator|animator|copywriter|producer|director of \\w+|head of \\w+";
const OCCUPATION_RE = new RegExp(`\\b(?:${OCCUPATIONS})s?$`, "i");

/** "a senior data engineer at Acme" → occupation "a senior data engineer", employer "Acme". */
function occupationDrafts(phrase: string, base: number, extra: Partial<Draft>): Draft[] | null {
  const m = /^(.+?)\s+(?:at|for|with)\s+(.+)$/i.exec(phrase);
  const role = cutValue(m ? m[1] : phrase);
  if (!OCCUPATION_RE.test(role) || role.split(/\s+/).length > 7) return null;
  const drafts = [fact(`User is ${/^(?:an?|the)\s/i.test(role) ? role : `a ${role}`}`, base, "occupation", extra)];
  const org = m ? organisation(m[2]) : undefined;
  if (org) drafts.push(fact(`User works at ${org}`, base, "employer", extra));
  return drafts;
}

function likeObject(raw: string): string | undefined {
  // Lists stay whole ("hiking and climbing"); a new clause ends the object ("…, but not raw fish").
  const stop = /,?\s+(?:but|because|so|since|although|though|which|when|while|if)\b|,\s*(?:it|that|they|I)\b|[;!?]|\s+\(/i.exec(raw);
  const v = cutValue(stop ? raw.slice(0, stop.index) : raw, { keepCommas: true });
  if (v === "" || DEICTIC_OBJECT.test(v) || v.split(/\s+/).length > 12) return undefined;
  return toThirdPerson(v, { atStart: false });
}

const DIETS = "vegetarian|vegan|pescatarian|pescetarian|flexitarian|keto|paleo|gluten-free|dairy-free|teetotal|teetotaller|teetotaler|halal|kosher";

/** Statement rules, most specific first. Each returns drafts, or null when it does not apply. */
const STATEMENT_RULES: Rule[] = [
  // --- name
  (c) => {
    const m = /^my (?:full |first )?name(?:'s| is)\s+(.+)$/i.exec(c);
    if (!m) return null;
    const name = personName(m[1]);
    return name ? [fact(`User's name is ${name}`, 0.9, "name")] : null;
  },
  (c, f) => {
    if (!f.greeting) return null;
    const m = /^(?:I'm|I am|this is|it's)\s+(\p{Lu}[\p{L}'’-]+(?:\s+\p{Lu}[\p{L}'’-]+)?)$/u.exec(c);
    return m ? [fact(`User's name is ${m[1]}`, 0.85, "name")] : null;
  },
  (c) => {
    const m = /^(?:[Pp]lease\s+|[Yy]ou can\s+|[Jj]ust\s+)?[Cc]all me\s+(\p{Lu}[\p{L}'’-]*(?:\s+\p{Lu}[\p{L}'’-]*)?)/u.exec(c);
    return m ? [pref(`User wants to be called ${m[1]}`, 0.9, "name.preferred")] : null;
  },
  // --- where the user lives / comes from
  (c) => {
    const m = /^I(?:'ve| have)?\s*(?:just\s+|recently\s+|finally\s+)?(?:moved|relocated)\s+(?:back\s+)?(?:to|into)\s+(.+)$/i.exec(c);
    const p = m && place(m[1]);
    return p ? [fact(`User moved to ${p}`, 0.9, "location.home", { correction: true })] : null;
  },
  (c) => {
    const m = /^I(?:\s+(?:currently|now|still|actually))?\s+(?:live|reside)\s+in\s+(.+)$|^I(?:'m| am)\s+(?:currently\s+|now\s+)?(?:living|based|located)\s+in\s+(.+)$/i.exec(c);
    const p = m && place(m[1] ?? m[2]);
    return p ? [fact(`User lives in ${p}`, 0.9, "location.home")] : null;
  },
  (c) => {
    const m = /^I (?:don't|do not|no longer) live in\s+(.+?)(?:\s+(?:anymore|any more))?$/i.exec(c);
    const p = m && place(m[1]);
    return p ? [fact(`User no longer lives in ${p}`, 0.85, "location.home", { correction: true })] : null;
  },
  (c) => {
    const m = /^I(?:'m| am)\s+(?:originally\s+)?from\s+(.+)$|^I (?:grew up|was born and raised|was born) in\s+(.+)$/i.exec(c);
    const p = m && place(m[1] ?? m[2]);
    return p ? [fact(`User is from ${p}`, 0.85, "location.origin")] : null;
  },
  // --- work
  (c, f) => {
    const m = /^I(?:\s+(?:currently|now|still))?\s+work\s+as\s+(.+)$/i.exec(c);
    if (!m) return null;
    return occupationDrafts(m[1], 0.9, f.correction ? { correction: true } : {}) ?? [fact(`User works as ${cutValue(m[1])}`, 0.8, "occupation")];
  },
  (c, f) => {
    const m = /^I(?:\s+(?:currently|now|still))?\s+work\s+(?:at|for)\s+(.+)$/i.exec(c);
    if (!m) return null;
    if (/^myself\b/i.test(m[1])) return [fact("User is self-employed", 0.9, "employer")];
    const org = organisation(m[1]);
    return org ? [fact(`User works at ${org}`, 0.9, "employer", f.correction ? { correction: true } : {})] : null;
  },
  (c) => {
    const m = /^I(?:\s+(?:currently|now|still))?\s+work\s+in\s+(.+)$/i.exec(c);
    if (!m) return null;
    const v = cutValue(m[1]);
    if (v === "" || v.split(/\s+/).length > 5 || DEICTIC_OBJECT.test(v)) return null;
    const isPlace = /^\p{Lu}\p{Ll}/u.test(v);
    return [fact(`User works in ${v}`, 0.85, isPlace ? "location.work" : "work.field")];
  },
  (c) => {
    const m = /^I(?:'ve| have)?\s*(?:just\s+|recently\s+)?(?:started|joined|started working|started a new job|got a (?:new )?job)\s+(?:at|with|for)?\s*(.+)$/i.exec(c);
    const org = m && organisation(m[1]);
    return org && !/^(?:the|a|an)\s+(?:meeting|call|project|team|course|class)\b/i.test(org) ? [fact(`User works at ${org}`, 0.9, "employer", { correction: true })] : null;
  },
  (c) => {
    const m = /^I(?:'ve| have)?\s*(?:just\s+)?(?:quit|left)\s+my\s+(?:job|position|role)\s+(?:at|with)\s+(.+)$|^I no longer work (?:at|for)\s+(.+?)(?:\s+(?:anymore|any more))?$|^I (?:don't|do not) work (?:at|for)\s+(.+?)\s+(?:anymore|any more)$/i.exec(c);
    const raw = m && (m[1] ?? m[2] ?? m[3]);
    if (!raw || !/^\p{Lu}/u.test(raw.trim())) return null;
    const org = organisation(raw);
    return org ? [fact(`User no longer works at ${org}`, 0.85, "employer", { correction: true })] : null;
  },
  (c) => {
    const m = /^I(?:'m| am)\s+(retired|unemployed|self-employed|freelancing|between jobs|a freelancer)$/i.exec(c);
    return m ? [fact(`User is ${m[1]}`, 0.85, "occupation")] : null;
  },
  (c, f) => {
    const m = /^I(?:'m| am)\s+((?:an?|the)\s+.+)$/i.exec(c);
    return m ? occupationDrafts(m[1], 0.85, f.correction ? { correction: true } : {}) : null;
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
    const m = /^I(?:\s+(?:always|usually|mostly|mainly|only))?\s+use\s+(.+)$/i.exec(c);
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
