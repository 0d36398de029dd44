/**
 * The LoCoMo data set (Maharana et al., 2024; `../shared/data/locomo/`, read in place, never
 * copied) as typed conversations: sessions with their parsed dates, turns with their dialog ids,
 * the observation labels of each speaker, and the questions with their evidence, category and
 * the speaker each one is asked as. The split is by position: conversations 0–4 are train/dev,
 * 5 and later the test split (never tune on it). Every benchmark and training script on LoCoMo
 * reads the data through this module, so they all agree on labels and split.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { packageRoot } from "../../src/db/package-root.js";
import { ErrorCodes, MemoryError } from "../../src/errors.js";

/** The two splits, and `all`. */
export const LOCOMO_SPLITS = ["train", "test", "all"] as const;
export type LocomoSplit = (typeof LOCOMO_SPLITS)[number];
/** Conversations before this position are train/dev; this one and later are test. */
export const FIRST_TEST_CONVERSATION = 5;
/** Question categories: 1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop, 5 adversarial. */
export const LOCOMO_CATEGORIES = { 1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial" } as const;
/** Categories with an answer in the conversation (5 is adversarial: unanswerable by design). */
export const ANSWERABLE_CATEGORIES: readonly number[] = [1, 2, 3, 4];

/** One dialogue turn. */
export interface LocomoTurn {
  /** `D<session>:<turn>`, unique in its conversation. */
  diaId: string;
  speaker: string;
  text: string;
  /** The caption of a photo shared with the turn (BLIP), when there is one. */
  caption: string | null;
  /** 1-based session number and 0-based position in the session. */
  session: number;
  index: number;
}

/** One session: a thread at its own date. */
export interface LocomoSession {
  /** 1-based, as in `session_<n>`. */
  number: number;
  /** The data set's own text, e.g. "1:56 pm on 8 May, 2023". */
  dateTime: string;
  /** That time as a UTC instant (the data set gives no time zone). */
  date: Date;
  turns: LocomoTurn[];
}

/** One observation (the data set's generated fact list per session and speaker) and the turns it cites. */
export interface LocomoObservation {
  session: number;
  speaker: string;
  text: string;
  /** Cited dialog ids that are turns of this conversation (normalised). */
  evidence: string[];
}

/** How a question's speaker was chosen (see {@link questionSpeaker}). */
export type SpeakerRule = "named" | "evidence" | "first_speaker";

/** One question. */
export interface LocomoQuestion {
  /** 0-based position in the sample's `qa`. */
  index: number;
  question: string;
  /** The gold answer as text (null for adversarial questions without one). */
  answer: string | null;
  category: number;
  /** Cited dialog ids that are turns of this conversation (normalised, in order, no repeats). */
  evidence: string[];
  /** Cited ids that name no turn of the conversation (typos in the data set). */
  unknownEvidence: string[];
  /** The speaker the question is about: it is asked as this user. */
  speaker: string;
  speakerRule: SpeakerRule;
}

/** One conversation of the data set. */
export interface LocomoConversation {
  /** 0-based position in the file: what the split and `--conversations` refer to. */
  index: number;
  sampleId: string;
  split: Exclude<LocomoSplit, "all">;
  /** `speaker_a`, `speaker_b`. */
  speakers: [string, string];
  /** Sessions that have turns, in order. */
  sessions: LocomoSession[];
  /** Every turn by dialog id. */
  turns: Map<string, LocomoTurn>;
  observations: LocomoObservation[];
  questions: LocomoQuestion[];
}

const TurnSchema = z.looseObject({
  speaker: z.string().min(1),
  dia_id: z.string().min(1),
  text: z.string(),
  blip_caption: z.string().optional(),
});
const ObservationEntrySchema = z.tuple([z.string(), z.union([z.string(), z.array(z.string())])]).rest(z.unknown());
const QaSchema = z.looseObject({
  question: z.string().min(1),
  answer: z.union([z.string(), z.number()]).optional(),
  evidence: z.array(z.string()).optional(),
  category: z.number().int().min(1).max(5),
});
const SampleSchema = z.looseObject({
  sample_id: z.string().optional(),
  conversation: z.looseObject({ speaker_a: z.string().min(1), speaker_b: z.string().min(1) }),
  qa: z.array(QaSchema),
  observation: z.record(z.string(), z.record(z.string(), z.array(ObservationEntrySchema))).optional(),
});
const DatasetSchema = z.array(SampleSchema).min(1);

/** Default location of the data set: beside the repository (`LOCOMO_PATH` overrides), never inside it. */
export function defaultLocomoPath(): string {
  return process.env.LOCOMO_PATH ?? join(packageRoot(), "..", "shared", "data", "locomo", "locomo10.json");
}

/**
 * Read and validate a LoCoMo file (INVALID_INPUT naming the field at fault).
 *
 * @example
 * const conversations = loadLocomo(defaultLocomoPath());
 * const test = selectConversations(conversations, "test");
 */
export function loadLocomo(path: string = defaultLocomoPath()): LocomoConversation[] {
  if (!existsSync(path)) throw new MemoryError(ErrorCodes.INVALID_INPUT, `--data: ${path} does not exist; pass the path of locomo10.json`);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (err) {
    throw new MemoryError(ErrorCodes.INVALID_INPUT, `--data: ${path} is not JSON (${(err as Error).message})`);
  }
  return parseLocomo(raw);
}

/** Validate parsed LoCoMo JSON and build the conversations. */
export function parseLocomo(raw: unknown): LocomoConversation[] {
  const parsed = DatasetSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new MemoryError(ErrorCodes.INVALID_INPUT, `LoCoMo data: ${issue.path.join(".") || "(root)"}: ${issue.message}`);
  }
  return parsed.data.map((sample, index) => buildConversation(sample, index));
}

/** The split a conversation at this position belongs to. */
export function splitOf(index: number): Exclude<LocomoSplit, "all"> {
  return index < FIRST_TEST_CONVERSATION ? "train" : "test";
}

/**
 * The conversations of a split, optionally only those at the given positions (which must exist
 * and belong to the split).
 */
export function selectConversations(all: readonly LocomoConversation[], split: LocomoSplit, only?: readonly number[]): LocomoConversation[] {
  if (!LOCOMO_SPLITS.includes(split)) throw new MemoryError(ErrorCodes.INVALID_INPUT, `--split: train, test or all, got ${JSON.stringify(split)}`);
  const inSplit = all.filter((c) => split === "all" || c.split === split);
  if (!only) return inSplit;
  const missing = only.filter((i) => !inSplit.some((c) => c.index === i));
  if (missing.length > 0) throw new MemoryError(ErrorCodes.INVALID_INPUT, `--conversations: ${missing.join(", ")} not in the ${split} split (positions ${inSplit.map((c) => c.index).join(", ")})`);
  const wanted = new Set(only);
  return inSplit.filter((c) => wanted.has(c.index));
}

/** The turns of `speaker` their own observations cite: the turns worth remembering for that user. */
export function observedTurns(conversation: LocomoConversation, speaker: string): Set<string> {
  const out = new Set<string>();
  for (const o of conversation.observations) {
    if (o.speaker !== speaker) continue;
    for (const id of o.evidence) if (conversation.turns.get(id)?.speaker === speaker) out.add(id);
  }
  return out;
}

/** Answerable questions (categories 1–4) with at least one evidence turn: the ones the benchmarks ask. */
export function askedQuestions(conversation: LocomoConversation): LocomoQuestion[] {
  return conversation.questions.filter((q) => ANSWERABLE_CATEGORIES.includes(q.category) && q.evidence.length > 0);
}

/** A turn as its speaker sent it: the text, and a shared photo's caption in brackets. */
export function turnMessageText(turn: Pick<LocomoTurn, "text" | "caption">): string {
  return turn.caption ? `${turn.text} [shared a photo: ${turn.caption}]` : turn.text;
}

const MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];
const DATE_RE = /^(?:(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+)?(\d{1,2})\s+([a-z]+),?\s+(\d{4})$/i;

/**
 * A session's date as a UTC instant: "1:56 pm on 8 May, 2023", or a day alone ("8 May 2023").
 * Null when the text is not such a date.
 */
export function parseSessionDate(text: string): Date | null {
  const m = DATE_RE.exec(text.trim());
  if (!m) return null;
  const month = MONTHS.findIndex((name) => name === m[5].toLowerCase() || (m[5].length >= 3 && name.startsWith(m[5].toLowerCase())));
  const day = Number(m[4]);
  let hour = m[1] === undefined ? 0 : Number(m[1]);
  const minute = m[2] === undefined ? 0 : Number(m[2]);
  if (month < 0 || day < 1 || day > 31 || hour < 0 || hour > 12 || minute > 59) return null;
  if (m[3]) hour = (hour % 12) + (m[3].toLowerCase() === "pm" ? 12 : 0);
  const date = new Date(Date.UTC(Number(m[6]), month, day, hour, minute));
  return date.getUTCDate() === day ? date : null;
}

/**
 * Dialog ids from one cited string of the data set: several ids may share it ("D8:6; D9:17",
 * "D9:1 D4:4"), and a few are misspelt ("D:11:26", "D30:05"). Returns canonical `D<s>:<t>` ids and
 * the pieces that are no id at all.
 */
export function parseDiaIds(cited: string): { ids: string[]; invalid: string[] } {
  const ids: string[] = [];
  const invalid: string[] = [];
  for (const piece of cited.split(/[\s,;]+/).filter(Boolean)) {
    const m = /^D:?(\d+):(\d+)$/i.exec(piece);
    if (m) ids.push(`D${Number(m[1])}:${Number(m[2])}`);
    else invalid.push(piece);
  }
  return { ids, invalid };
}

/**
 * The speaker a question is about, who asks it: the one speaker the question names (by name, or by
 * a capitalised short form of at least three letters that begins only their name, as "Mel" for
 * Melanie); when it names both or neither, the one who said most of the evidence turns; on a tie,
 * the conversation's first speaker.
 */
export function questionSpeaker(question: string, speakers: readonly [string, string], evidenceSpeakers: readonly string[]): { speaker: string; rule: SpeakerRule } {
  const named = speakers.filter((s) => namesSpeaker(question, s, speakers));
  if (named.length === 1) return { speaker: named[0], rule: "named" };
  const counts = speakers.map((s) => evidenceSpeakers.filter((e) => e === s).length);
  if (counts[0] !== counts[1]) return { speaker: counts[0] > counts[1] ? speakers[0] : speakers[1], rule: "evidence" };
  return { speaker: speakers[0], rule: "first_speaker" };
}

function namesSpeaker(question: string, speaker: string, speakers: readonly string[]): boolean {
  const first = speaker.split(/\s+/)[0];
  for (const word of question.match(/\p{L}+/gu) ?? []) {
    if (word.toLowerCase() === first.toLowerCase()) return true;
    const shortForm = word.length >= 3 && /^\p{Lu}/u.test(word) && first.toLowerCase().startsWith(word.toLowerCase());
    if (shortForm && speakers.filter((s) => s.toLowerCase().startsWith(word.toLowerCase())).length === 1) return true;
  }
  return false;
}

type Sample = z.infer<typeof SampleSchema>;

function buildConversation(sample: Sample, index: number): LocomoConversation {
  const c = sample.conversation as Record<string, unknown> & { speaker_a: string; speaker_b: string };
  const where = `LoCoMo data: ${index}.conversation`;
  const speakers: [string, string] = [c.speaker_a, c.speaker_b];
  const sessionNumbers = Object.keys(c)
    .map((k) => /^session_(\d+)$/.exec(k))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => Number(m[1]))
    .sort((a, b) => a - b);
  const sessions: LocomoSession[] = [];
  const turns = new Map<string, LocomoTurn>();
  for (const n of sessionNumbers) {
    const list = z.array(TurnSchema).safeParse(c[`session_${n}`]);
    if (!list.success) throw new MemoryError(ErrorCodes.INVALID_INPUT, `${where}.session_${n}.${list.error.issues[0].path.join(".")}: ${list.error.issues[0].message}`);
    if (list.data.length === 0) continue;
    const dateTime = c[`session_${n}_date_time`];
    const date = typeof dateTime === "string" ? parseSessionDate(dateTime) : null;
    if (!date) throw new MemoryError(ErrorCodes.INVALID_INPUT, `${where}.session_${n}_date_time: expected a date such as "1:56 pm on 8 May, 2023", got ${JSON.stringify(dateTime)}`);
    const session: LocomoSession = { number: n, dateTime: dateTime as string, date, turns: [] };
    list.data.forEach((t, i) => {
      if (!speakers.includes(t.speaker)) throw new MemoryError(ErrorCodes.INVALID_INPUT, `${where}.session_${n}.${i}.speaker: ${JSON.stringify(t.speaker)} is neither speaker_a nor speaker_b`);
      if (turns.has(t.dia_id)) throw new MemoryError(ErrorCodes.INVALID_INPUT, `${where}.session_${n}.${i}.dia_id: ${JSON.stringify(t.dia_id)} appears twice`);
      const turn: LocomoTurn = { diaId: t.dia_id, speaker: t.speaker, text: t.text, caption: t.blip_caption?.trim() || null, session: n, index: i };
      turns.set(t.dia_id, turn);
      session.turns.push(turn);
    });
    sessions.push(session);
  }
  if (sessions.length === 0) throw new MemoryError(ErrorCodes.INVALID_INPUT, `${where}: no session_<n> with turns`);

  const known = (cited: readonly string[]) => {
    const ids: string[] = [];
    const unknown: string[] = [];
    for (const piece of cited) {
      const parsed = parseDiaIds(piece);
      unknown.push(...parsed.invalid);
      for (const id of parsed.ids) (turns.has(id) ? ids : unknown).push(id);
    }
    return { ids: [...new Set(ids)], unknown };
  };

  const observations: LocomoObservation[] = [];
  for (const [key, bySpeaker] of Object.entries(sample.observation ?? {})) {
    const session = Number(/^session_(\d+)_observation$/.exec(key)?.[1] ?? NaN);
    for (const [speaker, entries] of Object.entries(bySpeaker)) {
      for (const [text, cited] of entries) {
        observations.push({ session, speaker, text, evidence: known(Array.isArray(cited) ? cited : [cited]).ids });
      }
    }
  }

  const questions: LocomoQuestion[] = sample.qa.map((qa, i) => {
    const { ids, unknown } = known(qa.evidence ?? []);
    const who = questionSpeaker(qa.question, speakers, ids.map((id) => turns.get(id)!.speaker));
    return {
      index: i,
      question: qa.question,
      answer: qa.answer === undefined ? null : String(qa.answer),
      category: qa.category,
      evidence: ids,
      unknownEvidence: unknown,
      speaker: who.speaker,
      speakerRule: who.rule,
    };
  });

  return { index, sampleId: sample.sample_id ?? `sample-${index}`, split: splitOf(index), speakers, sessions, turns, observations, questions };
}
