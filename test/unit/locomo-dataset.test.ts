/**
 * The LoCoMo data set module on a tiny synthetic file (test/fixtures/locomo-mini.json): the split
 * by position, observation labels per speaker, the speaker a question is asked as, evidence ids,
 * session dates, and the content words and BM25 the write-path benchmark scores with.
 */
import { describe, expect, it } from "@jest/globals";
import { join } from "node:path";
import {
  askedQuestions,
  loadLocomo,
  observedTurns,
  parseDiaIds,
  parseLocomo,
  parseSessionDate,
  questionSpeaker,
  selectConversations,
  turnMessageText,
} from "../../evals/locomo/dataset.js";
import { Bm25Index } from "../../evals/locomo/bm25.js";
import { answerWordShare, contentWords } from "../../evals/locomo/content-words.js";

const FIXTURE = join(process.cwd(), "test", "fixtures", "locomo-mini.json");

describe("LoCoMo data set", () => {
  const all = loadLocomo(FIXTURE);
  const [mini] = all;

  it("splits by position: 0–4 train, 5 and later test", () => {
    expect(all.map((c) => c.split)).toEqual(["train", "train", "train", "train", "train", "test"]);
    expect(selectConversations(all, "test").map((c) => c.sampleId)).toEqual(["mini-5"]);
    expect(selectConversations(all, "all")).toHaveLength(6);
    expect(selectConversations(all, "train", [0, 3]).map((c) => c.index)).toEqual([0, 3]);
    expect(() => selectConversations(all, "test", [0])).toThrow(/0 not in the test split/);
    expect(() => selectConversations(all, "dev" as never)).toThrow(/train, test or all/);
  });

  it("reads sessions with their dates and turns with dialog ids, skipping dates without turns", () => {
    expect(mini.speakers).toEqual(["Ana", "Ben"]);
    expect(mini.sessions.map((s) => [s.number, s.date.toISOString(), s.turns.length])).toEqual([
      [1, "2023-05-03T13:00:00.000Z", 4],
      [2, "2023-05-20T10:00:00.000Z", 4],
    ]);
    const cello = mini.turns.get("D1:3")!;
    expect(cello).toMatchObject({ speaker: "Ana", session: 1, index: 2, caption: "a photo of a cello on a stand" });
    expect(turnMessageText(cello)).toBe("I love playing the cello. [shared a photo: a photo of a cello on a stand]");
  });

  it("labels the turns a speaker's own observations cite (never the other speaker's turns)", () => {
    expect([...observedTurns(mini, "Ana")].sort()).toEqual(["D1:3", "D2:2"]);
    // Ben's observation "Ben asked Ana how she was" cites D1:1, which Ana said.
    expect([...observedTurns(mini, "Ben")]).toEqual(["D1:4"]);
  });

  it("asks categories 1–4 with evidence, each as the speaker it is about", () => {
    const asked = askedQuestions(mini);
    expect(asked.map((q) => [q.index, q.speaker, q.speakerRule, q.evidence])).toEqual([
      [0, "Ana", "named", ["D1:3"]],
      [1, "Ben", "named", ["D1:4"]],
      [2, "Ana", "named", ["D2:2"]],
      // both named, one evidence turn each: the first speaker
      [4, "Ana", "first_speaker", ["D1:1", "D1:2"]],
      // "D:2:4" is a misspelt D2:4
      [5, "Ana", "named", ["D2:4"]],
    ]);
    expect(mini.questions[3]).toMatchObject({ category: 5, answer: null });
  });

  it("picks the speaker by name, short form, then evidence", () => {
    const pair = ["Melanie", "Caroline"] as const;
    expect(questionSpeaker("What did Mel and her kids make?", pair, [])).toEqual({ speaker: "Melanie", rule: "named" });
    expect(questionSpeaker("What is Caroline's identity?", pair, ["Melanie"])).toEqual({ speaker: "Caroline", rule: "named" });
    expect(questionSpeaker("What do Melanie and Caroline both like?", pair, ["Caroline", "Caroline", "Melanie"])).toEqual({ speaker: "Caroline", rule: "evidence" });
    expect(questionSpeaker("What did the charity race raise awareness for?", pair, [])).toEqual({ speaker: "Melanie", rule: "first_speaker" });
    // "mel" in lowercase is a word, not a short form; a prefix both names share names neither.
    expect(questionSpeaker("Was mel there?", pair, ["Caroline"]).rule).toBe("evidence");
    expect(questionSpeaker("Did Jon call?", ["Jonas", "Jonathan"], ["Jonathan"])).toEqual({ speaker: "Jonathan", rule: "evidence" });
    expect(questionSpeaker("Did Jonat call?", ["Jonas", "Jonathan"], ["Jonas"])).toEqual({ speaker: "Jonathan", rule: "named" });
  });

  it("parses session dates with and without a time", () => {
    expect(parseSessionDate("1:56 pm on 8 May, 2023")?.toISOString()).toBe("2023-05-08T13:56:00.000Z");
    expect(parseSessionDate("12:09 am on 13 September, 2023")?.toISOString()).toBe("2023-09-13T00:09:00.000Z");
    expect(parseSessionDate("12:30 pm on 1 Jan 2024")?.toISOString()).toBe("2024-01-01T12:30:00.000Z");
    expect(parseSessionDate("1 May 2023")?.toISOString()).toBe("2023-05-01T00:00:00.000Z");
    expect(parseSessionDate("31 February, 2023")).toBeNull();
    expect(parseSessionDate("sometime in May")).toBeNull();
  });

  it("reads cited dialog ids as the data set writes them", () => {
    expect(parseDiaIds("D8:6; D9:17")).toEqual({ ids: ["D8:6", "D9:17"], invalid: [] });
    expect(parseDiaIds("D26:14, D26:34")).toEqual({ ids: ["D26:14", "D26:34"], invalid: [] });
    expect(parseDiaIds("D9:1 D4:4")).toEqual({ ids: ["D9:1", "D4:4"], invalid: [] });
    expect(parseDiaIds("D:11:26")).toEqual({ ids: ["D11:26"], invalid: [] });
    expect(parseDiaIds("D30:05")).toEqual({ ids: ["D30:5"], invalid: [] });
    expect(parseDiaIds("D")).toEqual({ ids: [], invalid: ["D"] });
  });

  it("refuses a malformed file naming the field", () => {
    const bad = (patch: (s: Record<string, unknown>) => void) => {
      const copy = JSON.parse(JSON.stringify([{ conversation: { speaker_a: "A", speaker_b: "B", session_1_date_time: "1 May 2023", session_1: [{ speaker: "A", dia_id: "D1:1", text: "hi" }] }, qa: [] }]));
      patch(copy[0]);
      return () => parseLocomo(copy);
    };
    expect(bad(() => undefined)).not.toThrow();
    expect(bad((s) => delete (s.conversation as Record<string, unknown>).speaker_b)).toThrow(/0\.conversation\.speaker_b/);
    expect(bad((s) => ((s.conversation as Record<string, unknown>).session_1_date_time = "soon"))).toThrow(/session_1_date_time: expected a date/);
    expect(bad((s) => ((s.conversation as Record<string, unknown[]>).session_1[0] = { speaker: "C", dia_id: "D1:1", text: "hi" }))).toThrow(/neither speaker_a nor speaker_b/);
    expect(bad((s) => (s.qa = [{ question: "q", category: 9 }]))).toThrow(/qa\.0\.category/);
  });
});

describe("content words and BM25 of the write-path benchmark", () => {
  it("keeps content words, months and numbers, folding plurals", () => {
    expect(contentWords("What did Caroline's friends research? Adoption agencies!")).toEqual(["caroline", "friend", "research", "adoption", "agency"]);
    expect(contentWords("7 May 2023")).toEqual(["7", "may", "2023"]);
  });

  it("scores the share of an answer's content words found, none for an answer without any", () => {
    expect(answerWordShare("Adoption agencies", "- She researched an adoption agency")).toBe(1);
    expect(answerWordShare("7 May 2023", "- (2023-05-08, episode) went on 7 June")).toBeCloseTo(2 / 3);
    expect(answerWordShare("No", "anything")).toBeNull();
  });

  it("ranks documents sharing rarer words first and leaves out those sharing none", () => {
    const index = new Bm25Index(["we went hiking", "I adopted a greyhound", "a greyhound and a hiking trip and a hiking boot"]);
    expect(index.rank("which greyhound did I adopt?").map((r) => r.doc)).toEqual([1, 2]);
    expect(index.rank("a sunny day")).toEqual([]);
  });
});
