import { sentencesOf } from "../summarization/extract-entities.js";
import { sentenceScore } from "../summarization/offline-summarizer.js";
import { countTextTokens, type TokenEncoding } from "../tokens/count-text.js";

/** Most sentences a gist keeps: a few that say what the session was about, not the session again. */
export const GIST_SENTENCES = 5;
/** What a session settled: its outcome ("the fix was …", "that was it") is what a later thread asks about. */
const OUTCOME = /\b(?:the fix was|fixed it|that was it|that worked|it worked|works now|solved|resolved|turned out|the problem was|the issue was|figured (?:it )?out|green now)\b/i;
/** A line that corrects what was said before: its value is the one that holds. */
const CORRECTION = /\b(?:wrong|i meant|typo|correction|actually|wait,? no|no,? wait|scratch that)\b/i;
/** A request for help says what was asked of the assistant, not what the session was about. */
const HELP_REQUEST = /^(?:(?:can|could|would) (?:you|u) (?:please )?(?:help|give|suggest)|any (?:ideas|tips|advice)|what do you think|thoughts)\b/i;
/** A speaker label of the offline summariser's prose lines ("User: …"). */
const LABEL = /^(User|Assistant):\s+/;

interface Sentence {
  speaker: string | null;
  text: string;
  at: number;
  score: number;
}

/**
 * The few sentences (at most {@link GIST_SENTENCES}) that say what a session was about, within `maxTokens` (counted JSON-quoted,
 * as prompts render memories): the session summary's sentences ranked by the offline
 * summariser's own score, the user's above the assistant's, the session's opening request (it
 * names the topic), its outcome ("the fix was …") and the user's corrections above the rest, kept
 * in their order. The offline summariser's labelled
 * lines come back as one line ("User: … Assistant: …"); a model's prose stays prose. Pure.
 *
 * @example
 * sessionGist("User: ok so we're doing lisbon on may 14!!\nAssistant: Lovely.\nUser: lol my cat", 40)
 * // "User: ok so we're doing lisbon on may 14!!"
 */
export function sessionGist(prose: string, maxTokens: number, encoding?: TokenEncoding): string {
  const sentences: Sentence[] = [];
  const unscored: Sentence[] = [];
  let openingSeen = false;
  for (const line of prose.split("\n")) {
    const label = LABEL.exec(line);
    const speaker = label ? label[1] : null;
    const correcting = speaker !== "Assistant" && CORRECTION.test(line);
    sentencesOf(line.slice(label ? label[0].length : 0)).forEach((text, i) => {
      let score = sentenceScore(text, i);
      // The assistant's questions ("When is your deadline?") say nothing the session decided.
      if (score <= 0 || (speaker === "Assistant" && /\?\s*$/.test(text))) {
        unscored.push({ speaker, text, at: unscored.length, score });
        return;
      }
      if (speaker !== "Assistant") score += 1;
      if (OUTCOME.test(text)) score += 3;
      if (correcting) score += 2;
      if (HELP_REQUEST.test(text)) score -= 2;
      // A gist of a few sentences has no room for fragments ("june 30.", "tried it, no luck.").
      const words = text.split(/\s+/).length;
      score += words >= 6 ? 1 : words < 5 ? -1 : 0;
      if (speaker === "User" && !openingSeen) {
        score += 2;
        openingSeen = true;
      }
      sentences.push({ speaker, text, at: sentences.length, score });
    });
  }
  const fits = (t: string) => countTextTokens(JSON.stringify(t), encoding) <= maxTokens;
  // A session of short sentences only ("User has diabetes.") still has a gist: its sentences.
  const pool = sentences.length > 0 ? sentences : unscored;
  const ranked = [...pool].sort((a, b) => b.score - a.score || a.at - b.at);
  let kept: Sentence[] = [];
  for (const s of ranked) {
    if (kept.length >= GIST_SENTENCES) break;
    const next = [...kept, s].sort((a, b) => a.at - b.at);
    if (fits(render(next))) kept = next;
  }
  if (kept.length > 0) return render(kept);
  // Not even the best sentence fits: its start, cut at a word.
  const best = ranked[0];
  if (!best) return "";
  let out = "";
  for (const w of best.text.split(/\s+/)) {
    const next = out ? `${out} ${w}` : w;
    if (!fits(render([{ ...best, text: `${next}…` }]))) break;
    out = next;
  }
  return out ? render([{ ...best, text: `${out}…` }]) : "";
}

/** Sentences in order on one line, a speaker's label where the speaker changes. */
function render(sentences: readonly Sentence[]): string {
  const parts: string[] = [];
  let speaker: string | null = null;
  for (const s of sentences) {
    // Lines typed without a full stop still end as sentences: withdrawal drops a sentence, not a line.
    const text = /[.!?…]$/.test(s.text) ? s.text : `${s.text}.`;
    parts.push(s.speaker && s.speaker !== speaker ? `${s.speaker}: ${text}` : text);
    speaker = s.speaker;
  }
  return parts.join(" ");
}
