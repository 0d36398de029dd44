/**
 * The rule-based extractor on how people type: in lowercase (the pronoun "i", "i'm", "i've",
 * sentence starts and names without capitals), with mixed case, and with asides in brackets or
 * between dashes. A lowercase "i" that is not the pronoun (a roman numeral, a list marker, part of
 * a word) makes no statement. Phrasings are our own; the capitalised form of each must give the
 * same kind and subject.
 */
import { describe, expect, it } from "@jest/globals";
import { HumanMessage } from "@langchain/core/messages";
import type { MemoryCandidate } from "../../src/core/candidate.js";
import { extractMemories } from "../../src/extraction/extract-memories.js";

async function fromUtterance(text: string): Promise<MemoryCandidate[]> {
  const { memories } = await extractMemories([new HumanMessage({ id: "m1", content: text })]);
  return memories;
}

type Expected = { kind: MemoryCandidate["kind"]; subject?: string; text?: string; action?: "forget"; correction?: boolean; explicit?: boolean };

/** A stored statement reads as one clean sentence: capital first, one full stop, balanced brackets, no doubled punctuation. */
function expectCleanSentence(text: string): void {
  expect(text).toMatch(/^\p{Lu}/u);
  expect(text).toMatch(/[^.!?…]\.$/u);
  expect(text).not.toMatch(/[.,;:!?]\s*[.,;:!?]/);
  expect(text).not.toMatch(/\(\s*\)|\(\s|\s\)|\s[.,;:]/);
  let depth = 0;
  for (const ch of text) {
    if (ch === "(" || ch === "[") depth++;
    if (ch === ")" || ch === "]") depth--;
    expect(depth).toBeGreaterThanOrEqual(0);
  }
  expect(depth).toBe(0);
}

const LOWERCASE: Array<[string, Expected[]]> = [
  // where the user lives, comes from, moved to
  ["i live in berlin", [{ kind: "fact", subject: "location.home", text: "User lives in berlin." }]],
  ["i currently live in new york", [{ kind: "fact", subject: "location.home", text: "User lives in new york." }]],
  ["i'm based in leeds", [{ kind: "fact", subject: "location.home", text: "User lives in leeds." }]],
  ["i'm originally from porto", [{ kind: "fact", subject: "location.origin", text: "User is from porto." }]],
  ["i grew up in cork", [{ kind: "fact", subject: "location.origin", text: "User is from cork." }]],
  ["actually, i moved to lisbon", [{ kind: "fact", subject: "location.home", text: "User lives in lisbon (moved there).", correction: true }]],
  ["oh actually we moved to lisbon last month", [{ kind: "fact", subject: "location.home", text: "User lives in lisbon (moved there).", correction: true }]],
  ["i've just relocated to glasgow", [{ kind: "fact", subject: "location.home", text: "User lives in glasgow (moved there).", correction: true }]],
  // work
  ["i work at siemens", [{ kind: "fact", subject: "employer", text: "User works at siemens." }]],
  ["i work for deutsche bahn", [{ kind: "fact", subject: "employer", text: "User works at deutsche bahn." }]],
  ["i work as a nurse", [{ kind: "fact", subject: "occupation", text: "User is a nurse." }]],
  [
    "i'm a software engineer at spotify",
    [
      { kind: "fact", subject: "occupation", text: "User is a software engineer." },
      { kind: "fact", subject: "employer", text: "User works at spotify." },
    ],
  ],
  ["i just started at zalando", [{ kind: "fact", subject: "employer", text: "User works at zalando.", correction: true }]],
  ["i'm a freelancer", [{ kind: "fact", subject: "occupation" }]],
  // names: a person's name is capitalised as names are
  ["hi, i'm jonas", [{ kind: "fact", subject: "name", text: "User's name is Jonas." }]],
  ["hey there! i'm priya, by the way", [{ kind: "fact", subject: "name", text: "User's name is Priya." }]],
  ["my name is jonas weber", [{ kind: "fact", subject: "name", text: "User's name is Jonas Weber." }]],
  ["my name's ludwig van beethoven", [{ kind: "fact", subject: "name", text: "User's name is Ludwig van Beethoven." }]],
  ["please call me jo", [{ kind: "preference", subject: "name.preferred", text: "User wants to be called Jo." }]],
  // family and pets
  ["i have two kids", [{ kind: "fact", subject: "family.children", text: "User has two kids." }]],
  ["i have a cat and a dog", [{ kind: "fact", text: "User has a cat and a dog." }]],
  ["i'm married", [{ kind: "fact", subject: "family.status", text: "User is married." }]],
  ["my dog's name is biscuit", [{ kind: "fact", subject: "about.dog_name", text: "User's dog's name is Biscuit." }]],
  // preferences
  ["i prefer dark mode", [{ kind: "preference", subject: "ui.theme", text: "User prefers dark mode." }]],
  ["i really love hiking in the alps", [{ kind: "preference", text: "User likes hiking in the alps." }]],
  ["i hate long meetings", [{ kind: "preference", text: "User dislikes long meetings." }]],
  ["i'd rather have short answers", [{ kind: "preference", subject: "response.length" }]],
  ["i'm vegetarian", [{ kind: "fact", subject: "diet", text: "User is vegetarian." }]],
  ["i'm allergic to peanuts", [{ kind: "fact", text: "User is allergic to peanuts." }]],
  // corrections
  ["i don't live in berlin anymore", [{ kind: "fact", subject: "location.home", text: "User no longer lives in berlin.", correction: true }]],
  ["i no longer work at acme", [{ kind: "fact", subject: "employer", text: "User no longer works at acme.", correction: true }]],
  ["i quit my job at initech", [{ kind: "fact", subject: "employer", text: "User no longer works at initech.", correction: true }]],
  ["i'm not vegan anymore", [{ kind: "fact", subject: "diet", text: "User is no longer vegan.", correction: true }]],
  ["sorry i meant i live in bristol", [{ kind: "fact", subject: "location.home", text: "User lives in bristol.", correction: true }]],
  // forget and remember requests
  ["forget that i live in berlin", [{ kind: "fact", subject: "location.home", action: "forget", explicit: true }]],
  ["please forget that i work at siemens", [{ kind: "fact", subject: "employer", action: "forget", explicit: true }]],
  ["remember that i live in porto", [{ kind: "fact", subject: "location.home", text: "User lives in porto.", explicit: true }]],
  ["remember that i'm allergic to shellfish", [{ kind: "fact", text: "User is allergic to shellfish.", explicit: true }]],
  // several statements in one lowercase message
  [
    "hi! i'm marta. i live in valencia and work at telefonica",
    [
      { kind: "fact", subject: "name", text: "User's name is Marta." },
      { kind: "fact", subject: "location.home", text: "User lives in valencia." },
      { kind: "fact", subject: "employer", text: "User works at telefonica." },
    ],
  ],
  // curly apostrophes as phones type them
  ["i’m vegan", [{ kind: "fact", subject: "diet", text: "User is vegan." }]],
  ["I’ve moved to Oslo", [{ kind: "fact", subject: "location.home", text: "User lives in Oslo (moved there).", correction: true }]],
];

const MIXED_CASE: Array<[string, Expected[]]> = [
  ["I live in berlin", [{ kind: "fact", subject: "location.home", text: "User lives in berlin." }]],
  ["i live in Berlin", [{ kind: "fact", subject: "location.home", text: "User lives in Berlin." }]],
  [
    "hi! i'm Jonas and I live in Hamburg",
    [
      { kind: "fact", subject: "name", text: "User's name is Jonas." },
      { kind: "fact", subject: "location.home", text: "User lives in Hamburg." },
    ],
  ],
  ["Actually i moved to Lisbon.", [{ kind: "fact", subject: "location.home", text: "User lives in Lisbon (moved there).", correction: true }]],
  ["i work at Siemens", [{ kind: "fact", subject: "employer", text: "User works at Siemens." }]],
];

const ASIDES: Array<[string, Expected[]]> = [
  ["I work as a nurse (night shifts, ugh)", [{ kind: "fact", subject: "occupation", text: "User is a nurse." }]],
  [
    "I work as a nurse (night shifts, ugh) at St. Mary's.",
    [
      { kind: "fact", subject: "occupation", text: "User is a nurse." },
      { kind: "fact", subject: "employer", text: "User works at St. Mary's." },
    ],
  ],
  [
    "i work as a nurse (night shifts, ugh) at st. mary's",
    [
      { kind: "fact", subject: "occupation", text: "User is a nurse." },
      { kind: "fact", subject: "employer", text: "User works at st. mary's." },
    ],
  ],
  ["I live in Leeds (well, just outside it).", [{ kind: "fact", subject: "location.home", text: "User lives in Leeds." }]],
  [
    "i live in berlin (kreuzberg, if you care) and work at siemens",
    [
      { kind: "fact", subject: "location.home", text: "User lives in berlin." },
      { kind: "fact", subject: "employer", text: "User works at siemens." },
    ],
  ],
  [
    "I'm a teacher (year five, mostly maths) at a primary school",
    [
      { kind: "fact", subject: "occupation", text: "User is a teacher." },
      { kind: "fact", subject: "employer", text: "User works at a primary school." },
    ],
  ],
  ["I work at Siemens [the Munich office, not HQ]", [{ kind: "fact", subject: "employer", text: "User works at Siemens." }]],
  ["I prefer tea (green, no sugar!) over coffee", [{ kind: "preference", text: "User prefers tea over coffee." }]],
  // an aside that is a statement of its own is read on its own
  [
    "I moved to Porto last year (i work for farfetch now)",
    [
      { kind: "fact", subject: "location.home", text: "User lives in Porto (moved there).", correction: true },
      { kind: "fact", subject: "employer", text: "User works at farfetch." },
    ],
  ],
  // asides between dashes
  [
    "I work as a nurse – night shifts, ugh – at St. Mary's",
    [
      { kind: "fact", subject: "occupation", text: "User is a nurse." },
      { kind: "fact", subject: "employer", text: "User works at St. Mary's." },
    ],
  ],
  ["i live in leeds — rainy, but fine", [{ kind: "fact", subject: "location.home", text: "User lives in leeds." }]],
  ["I'm vegan - have been for years, honestly", [{ kind: "fact", subject: "diet", text: "User is vegan." }]],
  // emoticons close no aside and end no value
  ["i live in berlin :) (kreuzberg)", [{ kind: "fact", subject: "location.home", text: "User lives in berlin." }]],
  [
    "I work at Acme :D and I live in Leeds",
    [
      { kind: "fact", subject: "employer", text: "User works at Acme." },
      { kind: "fact", subject: "location.home", text: "User lives in Leeds." },
    ],
  ],
  // an aside that qualifies the statement is left out of it
  ["I have a cat (well, two)", [{ kind: "fact", text: "User has a cat." }]],
];

/** Lowercase and capitalised forms of one statement: same kinds and subjects. */
const PAIRS: Array<[string, string]> = [
  ["i live in berlin", "I live in Berlin"],
  ["hi, i'm jonas", "Hi, I'm Jonas"],
  ["actually, i moved to lisbon", "Actually, I moved to Lisbon"],
  ["oh actually we moved to lisbon last month", "Oh actually we moved to Lisbon last month"],
  ["i work at siemens", "I work at Siemens"],
  ["i'm a data analyst at farfetch", "I'm a data analyst at Farfetch"],
  ["my name is anna schmidt", "My name is Anna Schmidt"],
  ["call me jo", "Call me Jo"],
  ["i'm from porto", "I'm from Porto"],
  ["i don't live in berlin anymore", "I don't live in Berlin anymore"],
  ["i no longer work at acme", "I no longer work at Acme"],
  ["forget that i live in berlin", "Forget that I live in Berlin"],
  ["remember that i work at siemens", "Remember that I work at Siemens"],
  ["i have two kids", "I have two kids"],
  ["i prefer dark mode", "I prefer dark mode"],
  ["i'm vegan, have been for years", "I'm vegan, have been for years"],
];

/** A lowercase "i" that is not the pronoun, and lowercase phrases that name no place, employer or name. */
const NEGATIVE = [
  "part i of the report covers my findings",
  "see section i, then chapter ii",
  "i) buy milk ii) call the plumber",
  "world war i started in 1914",
  "option i is the cheapest one",
  "i.e. the usual suspects",
  "the wifi is down again",
  "my sister lives in rome",
  "i live in fear of deadlines",
  "i work at home",
  "i work at night",
  "i work for free",
  "call me maybe",
  "i'm in trouble",
  "we moved to the new office",
  "hi, i'm tired",
  "hey i'm back",
  "hi i'm new here",
  "hello, i'm confused",
  "i'm in a meeting",
];

function expectMatches(memories: MemoryCandidate[], expected: Expected[]): void {
  expect(memories).toHaveLength(expected.length);
  for (const [i, e] of expected.entries()) {
    const m = memories[i];
    expect(m).toMatchObject({ kind: e.kind, action: e.action ?? "add", sourceMessageId: "m1", extractor: "rules" });
    expect(m.subject).toBe(e.subject);
    if (e.text) expect(m.text).toBe(e.text);
    if (e.correction) expect(m.correction).toBe(true);
    if (e.explicit) expect(m.explicit).toBe(true);
    expectCleanSentence(m.text);
  }
}

describe("rule extractor: lowercase typing", () => {
  it.each(LOWERCASE)("%s", async (utterance, expected) => {
    expectMatches(await fromUtterance(utterance), expected);
  });
});

describe("rule extractor: mixed case", () => {
  it.each(MIXED_CASE)("%s", async (utterance, expected) => {
    expectMatches(await fromUtterance(utterance), expected);
  });
});

describe("rule extractor: asides in brackets and between dashes", () => {
  it.each(ASIDES)("%s", async (utterance, expected) => {
    expectMatches(await fromUtterance(utterance), expected);
  });
});

describe("rule extractor: lowercase and capitalised forms agree", () => {
  it.each(PAIRS)("%s ~ %s", async (lower, capitalised) => {
    const shape = (ms: MemoryCandidate[]) => ms.map((m) => ({ kind: m.kind, subject: m.subject, action: m.action }));
    const fromLower = await fromUtterance(lower);
    expect(fromLower.length).toBeGreaterThan(0);
    expect(shape(fromLower)).toEqual(shape(await fromUtterance(capitalised)));
    for (const m of fromLower) expectCleanSentence(m.text);
  });
});

describe("rule extractor: no statement without one", () => {
  it.each(NEGATIVE.map((n) => [n]))("nothing from %s", async (utterance) => {
    expect(await fromUtterance(utterance)).toEqual([]);
  });
});
