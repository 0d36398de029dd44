/**
 * Part 2 of `bench summary`: each LoCoMo conversation (Maharana et al., 2024; nobody here wrote
 * them) as one long thread, session after session — speaker A as the user, speaker B as the
 * assistant, each session's first message prefixed with the session's date as the data set gives
 * it. At the end, for each answerable question (categories 1–4 with evidence), whether the prompt
 * holds an evidence turn verbatim and whether it holds all of the answer's content words. Train
 * (conversations 0–4) and test (5–9, the headline) are reported apart.
 */
import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { answerWords, contentWords } from "../locomo/content-words.js";
import { askedQuestions, turnMessageText, type LocomoConversation } from "../locomo/dataset.js";
import { normalizeForSearch, promptText } from "./prompt-text.js";
import { walkThread, type ThreadStrategy } from "./thread-strategies.js";

export const LOCOMO_SYSTEM = "You are a friend in a long chat. Answer as yourself, briefly.";

export interface LocomoThreadFigures {
  strategy: string;
  conversations: number[];
  questions: number;
  /** Questions where an evidence turn is in the prompt verbatim. */
  evidence_in_prompt: number;
  /** Questions where every content word of the answer is in the prompt. */
  answer_words_all: number;
  /** Either of the two: the headline share. */
  answer_visible: number;
  answer_visible_share: number;
  /** Prompt tokens at the end of each conversation, mean. */
  prompt_tokens_mean: number;
  summaries: number;
  fallbacks: number;
}

/** One conversation as turns for {@link walkThread}: each user message starts a turn. */
export function locomoThread(conversation: LocomoConversation): BaseMessage[][] {
  const [userSpeaker] = conversation.speakers;
  const turns: BaseMessage[][] = [];
  for (const session of conversation.sessions) {
    session.turns.forEach((turn, i) => {
      const text = i === 0 ? `[${session.dateTime}] ${turnMessageText(turn)}` : turnMessageText(turn);
      const id = `c${conversation.index}-${turn.diaId}`;
      if (turn.speaker === userSpeaker) turns.push([new HumanMessage({ content: text, id })]);
      else if (turns.length === 0) turns.push([new AIMessage({ content: text, id })]);
      else turns[turns.length - 1].push(new AIMessage({ content: text, id }));
    });
  }
  return turns;
}

/** Outcome of each question of one conversation against one final prompt. */
export function questionOutcomes(conversation: LocomoConversation, messages: readonly BaseMessage[]): Array<{ evidence: boolean; answerWords: boolean }> {
  const text = promptText(messages);
  const words = new Set(contentWords(text));
  return askedQuestions(conversation).map((q) => {
    const evidence = q.evidence.some((id) => {
      const turn = conversation.turns.get(id);
      return turn !== undefined && text.includes(normalizeForSearch(turn.text.trim()));
    });
    const wanted = q.answer === null ? [] : answerWords(q.answer);
    return { evidence, answerWords: wanted.length > 0 && wanted.every((w) => words.has(w)) };
  });
}

/** Walk each conversation through a fresh strategy and score its questions. */
export async function runLocomoThreads(conversations: readonly LocomoConversation[], make: (system: string) => ThreadStrategy, log?: (line: string) => void): Promise<LocomoThreadFigures> {
  let questions = 0;
  let evidence = 0;
  let words = 0;
  let either = 0;
  let tokens = 0;
  let summaries = 0;
  let fallbacks = 0;
  let name = "";
  for (const c of conversations) {
    const strategy = make(LOCOMO_SYSTEM);
    name = strategy.name;
    const prompt = await walkThread(locomoThread(c), strategy);
    for (const o of questionOutcomes(c, prompt.messages)) {
      questions++;
      if (o.evidence) evidence++;
      if (o.answerWords) words++;
      if (o.evidence || o.answerWords) either++;
    }
    tokens += prompt.tokens;
    summaries += prompt.summaries;
    fallbacks += prompt.fallbacks;
    log?.(`  ${name}: conversation ${c.index} done (${prompt.summaries} summaries, ${prompt.tokens} prompt tokens)\n`);
  }
  return {
    strategy: name,
    conversations: conversations.map((c) => c.index),
    questions,
    evidence_in_prompt: evidence,
    answer_words_all: words,
    answer_visible: either,
    answer_visible_share: questions === 0 ? 0 : Math.round((either / questions) * 1000) / 1000,
    prompt_tokens_mean: conversations.length === 0 ? 0 : Math.round(tokens / conversations.length),
    summaries,
    fallbacks,
  };
}
