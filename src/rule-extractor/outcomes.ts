import type { Draft, StatementContext } from "./draft.js";
import { DEICTIC_OBJECT, asSentence, cutValue, toThirdPerson } from "./text.js";

/** Task outcomes worth reusing: what fixed which problem. */
const TICKET = /\b(?:ticket|issue|case|incident|bug|PR|pull request)\s*#?\s*(\d{1,7})\b/i;
const PROBLEM_WORDS =
  /\b(?:error|fail(?:s|ed|ing)?|broken|break(?:s|ing)?|crash(?:es|ed|ing)?|bug|issue|problem|doesn't work|does not work|not working|won't|can't|cannot|stuck|timeout|timing out|exception|refus(?:es|ed)|denied|wrong|slow|hangs?|missing|acting up|playing up|leak(?:s|ed|ing)?|(?:keeps?|kept) (?:losing|dropping|crashing|failing|restarting)|(?:show(?:s|ed|ing)?|threw|throws|display(?:s|ed|ing)?|flash(?:es|ed|ing)?)\s+(?:an?\s+)?(?:error|fault|warning|code|[A-Z]{1,3}[.-]?\d{1,4}\b))/i;

/** Whether a user message describes a problem (what "that worked" refers to). */
export function describesProblem(text: string): boolean {
  return PROBLEM_WORDS.test(text);
}

function problemPhrase(problem: string | undefined): string | undefined {
  if (!problem) return undefined;
  const parts = problem.split(/(?<=[.!?])\s+|\n/).map((p) => p.trim()).filter(Boolean);
  const first = (parts.find((p) => PROBLEM_WORDS.test(p)) ?? parts[0] ?? "").replace(/[.!?]+$/, "");
  if (first === "") return undefined;
  return first.length > 100 ? `${first.slice(0, 97).replace(/\s+\S*$/, "")}…` : first;
}

function episode(text: string, confidence: number, ctxText?: string): Draft {
  const ticket = TICKET.exec(ctxText ?? text);
  return { kind: "episode", text: asSentence(text), confidence, ...(ticket ? { subject: `ticket.${ticket[1]}` } : {}), action: "add" };
}

/** "the fix was …", "X solved it", "ticket 812 solved by clearing cache", "that worked". */
export function parseOutcome(clause: string, ctx: StatementContext): Draft[] | null {
  const problem = problemPhrase(ctx.problem);
  const forProblem = problem ? ` for "${toThirdPerson(problem, { atStart: false })}"` : "";
  let m = /^(?:so\s+)?(?:the|my)\s+(fix|solution|workaround|trick|culprit|root cause|cause|problem|issue)\s+(?:was|turned out to be|is)\s+(.+)$/i.exec(clause);
  if (m) {
    const what = toThirdPerson(cutValue(m[2], { keepCommas: true }), { atStart: false });
    if (what === "" || DEICTIC_OBJECT.test(what) && what.split(/\s+/).length < 3) return null;
    return [episode(`The ${m[1].toLowerCase()}${forProblem} was ${what}`, 0.8, `${clause} ${problem ?? ""}`)];
  }
  m = /^(?:it\s+)?turned out (?:that\s+)?(.+)$/i.exec(clause);
  if (m) return [episode(`It turned out${forProblem ? ` (${forProblem.trim()})` : ""} that ${toThirdPerson(cutValue(m[1], { keepCommas: true }), { atStart: false })}`, 0.75, `${clause} ${problem ?? ""}`)];
  m = /^(.+?)\s+(?:was|got|has been|is|were|have been)?\s*(solved|fixed|resolved|closed)\s+(?:by|with|after)\s+(.+)$/i.exec(clause);
  if (m) {
    const what = m[1].trim();
    const how = toThirdPerson(cutValue(m[3], { keepCommas: true }), { atStart: false });
    if (/^(?:I|we)\b/i.test(what)) {
      const thing = what.replace(/^(?:I|we)\s+(?:finally\s+)?/i, "").trim();
      const target = thing === "" || /^(?:it|this|that)$/i.test(thing) ? (problem ? `"${problem}"` : "the problem") : toThirdPerson(thing, { atStart: false });
      return [episode(`User ${m[2].toLowerCase()} ${target} by ${how}`, problem || thing ? 0.8 : 0.6, `${clause} ${problem ?? ""}`)];
    }
    const subject = /^(?:it|this|that)$/i.test(what) ? (problem ? `"${problem}"` : undefined) : toThirdPerson(what, { atStart: false });
    if (!subject) return [episode(`The problem was ${m[2].toLowerCase()} by ${how}`, 0.6)];
    return [episode(`${subject} was ${m[2].toLowerCase()} by ${how}`, 0.8, `${clause} ${problem ?? ""}`)];
  }
  m = /^(.+?)\s+(fixed it|did the trick|solved it|solved the (?:problem|issue)|fixed the (?:problem|issue|build|bug)|worked|made it work)$/i.exec(clause);
  if (m && !/^(?:that|it|this|nothing|none of (?:it|that|them)|what)\b/i.test(m[1]) && !/\b(?:not|n't|never)\b/i.test(m[1])) {
    const how = toThirdPerson(m[1].trim(), { atStart: false });
    return [episode(`${how} ${/worked|made it work/i.test(m[2]) ? "worked" : "fixed the problem"}${forProblem}`, problem ? 0.8 : 0.7, `${clause} ${problem ?? ""}`)];
  }
  m = /^(?:that|it|this)(?:\s+(?:finally|totally|actually))?\s+(?:worked|works(?: now)?|did it|did the trick|fixed it|solved it)$/i.exec(clause);
  if (m && problem) {
    // The user confirms a suggested fix without saying what it was: too little to reuse on its own.
    return [episode(`The suggested fix${forProblem} worked`, 0.6, problem)];
  }
  return null;
}
