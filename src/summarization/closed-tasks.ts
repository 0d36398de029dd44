import { sentencesOf } from "./extract-entities.js";

/**
 * Words that report a task as finished or dropped. General English, not any conversation's
 * wording: "done", "sorted", "took care of", "cross it off", "cancelled", "no longer need".
 */
const COMPLETION_CUE =
  /\b(?:done|finished|completed|complete now|sorted|taken care of|took care of|handled|cross(?:ed)? (?:it|that|this) off|tick(?:ed)? (?:it|that|this) off|no longer (?:need|needed|necessary)|don['’]t need (?:it|that|to) anymore|cancel(?:l)?ed|called off|all set)\b/i;

const STOP = new Set(
  "the a an and or but to of in on at by for with from into about that this these those it its is are was were be been being have has had do does did will would can could should must need needs needed still just also already yesterday today tomorrow me my we our you your i so then than there here some any all remind let forget don't not no yes please".split(" "),
);

function contentWords(text: string): string[] {
  return (text.match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? []).map((w) => w.toLowerCase().replace(/['’]s$/, "")).filter((w) => w.length >= 3 && !STOP.has(w));
}

/** Capitalised words and numbers of a text (a name or a code names the task more surely than a common word). */
function namingWords(text: string): Set<string> {
  const out = new Set<string>();
  const words = text.match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? [];
  words.forEach((w, i) => {
    if (i > 0 && /^\p{Lu}/u.test(w)) out.add(w.toLowerCase().replace(/['’]s$/, ""));
    if (/\d/.test(w)) out.add(w.toLowerCase());
  });
  return out;
}

/**
 * The open tasks that `text` reports finished or cancelled: for each sentence with a completion
 * cue, the task sharing the most content words with it — at least two, or one that names it (a
 * capitalised word or a number). At most one task per sentence. Pure.
 *
 * @example
 * closedTasksIn("I took care of the travel adapter, cross it off.", ["Remind me to buy a travel adapter."])
 * // → ["Remind me to buy a travel adapter."]
 */
export function closedTasksIn(text: string, openTasks: readonly string[]): string[] {
  if (openTasks.length === 0 || !COMPLETION_CUE.test(text)) return [];
  const tasks = openTasks.map((task) => ({ task, words: new Set(contentWords(task)), naming: namingWords(task) }));
  const closed = new Set<string>();
  for (const sentence of sentencesOf(text)) {
    if (!COMPLETION_CUE.test(sentence) || /\?\s*$/.test(sentence)) continue;
    const words = new Set(contentWords(sentence));
    let best: { task: string; score: number } | null = null;
    for (const t of tasks) {
      if (closed.has(t.task) || t.task.trim() === sentence.trim()) continue;
      let shared = 0;
      let naming = false;
      for (const w of words) {
        if (!t.words.has(w)) continue;
        shared++;
        if (t.naming.has(w)) naming = true;
      }
      const score = shared + (naming ? 1 : 0);
      if (score >= 2 && (!best || score > best.score)) best = { task: t.task, score };
    }
    if (best) closed.add(best.task);
  }
  return [...closed];
}
