/**
 * The rule-based extractor on how people actually talk: lead-ins before a colon, "pls", requests
 * asked as questions, settings without "always", verbless requests, moves said with "we", roles
 * with teams and details, "my X is Y" for any X, plans and seats, activities, habits, "keep that in
 * mind", pronouns in forget requests, and standing instructions that continue in the next clause.
 * Utterances differ from the eval scenarios' wording on purpose.
 */
import { describe, expect, it } from "@jest/globals";
import { HumanMessage } from "@langchain/core/messages";
import type { MemoryCandidate } from "../../src/core/candidate.js";
import { extractMemories } from "../../src/extraction/extract-memories.js";

async function fromUtterance(text: string): Promise<MemoryCandidate[]> {
  const { memories } = await extractMemories([new HumanMessage({ id: "m1", content: text })]);
  return memories;
}

type Expected = { kind: MemoryCandidate["kind"]; text: string; subject?: string; action?: "forget"; explicit?: boolean; correction?: boolean };

const POSITIVE: Array<[string, Expected[]]> = [
  // trips being planned (weeks ahead): destination, when and with whom
  ["we're flying out to Lisbon in May for a friend's wedding", [{ kind: "fact", text: "User is planning a trip to Lisbon in May.", subject: "plan.trip.lisbon" }]],
  ["I'm still heading to Kyoto, but with my sister Emi", [{ kind: "fact", text: "User is planning a trip to Kyoto with their sister Emi.", subject: "plan.trip.kyoto" }]],
  // lead-ins before a colon, and "you should know"
  ["Big news: I moved to Porto last week!", [{ kind: "fact", text: "User lives in Porto (moved there).", subject: "location.home", correction: true }]],
  ["some background: I work at Siemens.", [{ kind: "fact", text: "User works at Siemens.", subject: "employer" }]],
  ["for the trip planning you should know I'm vegan", [{ kind: "fact", text: "User is vegan.", subject: "diet" }]],
  // moves said with "we", normalised to where the user lives now
  ["so we relocated to Utrecht over the weekend", [{ kind: "fact", text: "User lives in Utrecht (moved there).", subject: "location.home", correction: true }]],
  // settings without "always": standing, explicit
  ["Please use the metric system.", [{ kind: "preference", text: "User prefers metric units.", subject: "units", explicit: true }]],
  ["pls switch me to imperial", [{ kind: "preference", text: "User prefers imperial units.", subject: "units", explicit: true }]],
  ["could you reply in German from now on?", [{ kind: "preference", text: "User wants answers in German.", subject: "language.response", explicit: true }]],
  ["please spell things the British way", [{ kind: "preference", text: "User wants the assistant to spell things the British way.", subject: "language.spelling", explicit: true }]],
  // verbless polite requests with a standing word
  ["no exclamation marks please, they feel shouty", [{ kind: "procedure", text: "User does not want the assistant to use exclamation marks.", explicit: true }]],
  ["weekday deliveries only please", [{ kind: "procedure", text: "User wants weekday deliveries only.", explicit: true }]],
  ["DD/MM dates please", [{ kind: "preference", text: "User wants DD/MM dates.", subject: "format.date", explicit: true }]],
  // "whenever you … <verb>" without a comma, and markers in mid-clause
  ["whenever you quote prices add the VAT", [{ kind: "procedure", text: "User wants the assistant to add the VAT whenever the assistant quotes prices.", explicit: true }]],
  ["can you write SQL keywords in caps going forward?", [{ kind: "procedure", text: "User wants the assistant to write SQL keywords in caps.", explicit: true }]],
  ["talk to me like a friend would, relaxed", [{ kind: "procedure", text: "User wants the assistant to talk to them like a friend would, relaxed.", explicit: true }]],
  ["I want docstrings on every class you write", [{ kind: "procedure", text: "User wants docstrings on every class the assistant writes.", explicit: true }]],
  // roles: team kept in the occupation, details in brackets, a bare role after a job change
  [
    "I'm a frontend dev on the growth team at Shopify, mostly React",
    [
      { kind: "fact", text: "User is a frontend dev on the growth team (mostly React).", subject: "occupation" },
      { kind: "fact", text: "User works at Shopify.", subject: "employer" },
    ],
  ],
  [
    "I joined Spotify last month. Senior designer on the podcasts squad.",
    [
      { kind: "fact", text: "User works at Spotify.", subject: "employer", correction: true },
      { kind: "fact", text: "User is a senior designer on the podcasts squad.", subject: "occupation", correction: true },
    ],
  ],
  // The place a role is done in is where the user works, kept apart from the role (the profile's occupation).
  [
    "I'm a court interpreter in Vienna and I love it",
    [
      { kind: "fact", text: "User is a court interpreter.", subject: "occupation" },
      { kind: "fact", text: "User works in Vienna.", subject: "location.work" },
    ],
  ],
  ["I work at Acme in Berlin", [{ kind: "fact", text: "User works at Acme.", subject: "employer" }, { kind: "fact", text: "User works in Berlin.", subject: "location.work" }]],
  // my/our X is Y
  ["my landlord is Mr. Okafor", [{ kind: "fact", text: "User's landlord is Mr. Okafor.", subject: "about.landlord" }]],
  ["our standup is at 9:15 every day", [{ kind: "fact", text: "User's standup is at 9:15 every day.", subject: "about.standup" }]],
  ["my delivery address is 3 Mill Lane, York YO1 7HH, please use it", [{ kind: "fact", text: "User's delivery address is 3 Mill Lane, York YO1 7HH.", subject: "about.delivery_address" }]],
  // plans and seats: one value (an upgrade replaces both)
  ["we're on the Team plan with 5 seats", [{ kind: "fact", text: "User is on the Team plan (5 seats).", subject: "plan" }]],
  ["I downgraded us to the Free tier, 2 users now", [{ kind: "fact", text: "User is on the Free tier (2 users).", subject: "plan", correction: true }]],
  // teams, places, time zones
  ["I'm on the data platform team", [{ kind: "fact", text: "User is on the data platform team.", subject: "work.team" }]],
  ["I'm in Montreal", [{ kind: "fact", text: "User is based in Montreal.", subject: "location.home" }]],
  ["I'm on Pacific time", [{ kind: "fact", text: "User's timezone is Pacific time.", subject: "timezone" }]],
  // activities, hobbies, businesses, habits, what the user cannot eat
  ["I'm learning Japanese", [{ kind: "fact", text: "User is learning Japanese." }]],
  ["I'm training for a triathlon in August", [{ kind: "fact", text: "User is training for a triathlon." }]],
  ["I play bass in a ska band", [{ kind: "fact", text: "User plays bass in a ska band." }]],
  // running a business is what the user does for a living (the profile's occupation); a book club is not
  ["I run a tiny bakery in Leith", [{ kind: "fact", text: "User runs a tiny bakery in Leith.", subject: "occupation" }]],
  ["I run a book club on Thursdays", [{ kind: "fact", text: "User runs a book club on Thursdays." }]],
  [
    "I head data engineering at Monzo, so pipelines are my whole life",
    [
      { kind: "fact", text: "User heads data engineering.", subject: "occupation" },
      { kind: "fact", text: "User works at Monzo.", subject: "employer" },
    ],
  ],
  ["I always book the aisle seat", [{ kind: "preference", text: "User always books the aisle seat." }]],
  ["I can't eat raw onion", [{ kind: "fact", text: "User cannot eat raw onion." }]],
  // a name after a greeting in an earlier sentence, or with "by the way"
  ["Hello! New here. I'm Aoife, by the way", [{ kind: "fact", text: "User's name is Aoife.", subject: "name" }]],
  // "keep that in mind", "in case I ask again", "note to self:"
  ["I'm colour-blind, so please keep that in mind for charts", [{ kind: "fact", text: "User is colour-blind.", explicit: true }]],
  ["the router is a Fritz!Box 7590, in case I ask again", [{ kind: "fact", text: "The router is a Fritz!Box 7590.", explicit: true }]],
  [
    "note to self: the nightly export failed because the disk was full. fixed by rotating the logs",
    [{ kind: "episode", text: "The nightly export failed because the disk was full. fixed by rotating the logs.", explicit: true }],
  ],
  // remember requests with several items: what no rule reads is kept as said
  [
    "please remember two things: my locker is 114 and Sam's birthday is in May",
    [
      { kind: "fact", text: "User's locker is 114.", explicit: true },
      { kind: "fact", text: "Sam's birthday is in May.", explicit: true },
    ],
  ],
  // "remember this for me: …" keeps what follows the colon
  ["quick one. can you remember this for me: my bike is a 2021 Brompton C Line in racing green", [{ kind: "fact", text: "User's bike is a 2021 Brompton C Line in racing green.", subject: "about.bike", explicit: true }]],
  // "moved here" after naming one place: the move is to that place
  [
    "I took a position in Rotterdam and we moved over here in June",
    [
      { kind: "fact", text: "User took a job in Rotterdam.", subject: "location.work" },
      { kind: "fact", text: "User lives in Rotterdam (moved there).", subject: "location.home" },
    ],
  ],
  // an outcome takes its problem from an earlier sentence of the same message
  [
    "the dishwasher flashed E24 after dinner. turned out the drain hose was kinked behind the cabinet",
    [{ kind: "episode", text: 'It turned out (for "the dishwasher flashed E24 after dinner") that the drain hose was kinked behind the cabinet.' }],
  ],
  // forget requests: a pronoun resolves to the person named before it; "wipe everything about X"
  ["Marek and I split up. please forget everything about him", [{ kind: "fact", text: "Marek.", action: "forget" }]],
  ["I changed jobs, please wipe everything about Initech", [{ kind: "fact", text: "Initech.", action: "forget" }]],
];

/** A standing instruction makes the plain imperatives after it in the same message standing too. */
const CONTINUED: Array<[string, string[]]> = [
  ["from now on always cite sources. and keep each answer under 200 words", ["User wants the assistant to cite sources.", "User wants the assistant to keep each answer under 200 words."]],
  ["one standing rule for anything SQL: format queries with uppercase keywords", ["User wants the assistant to format queries with uppercase keywords."]],
];

/** What must still yield nothing. */
const NEGATIVE = [
  "I'm going to Paris tomorrow",
  "I'm heading to the gym",
  "I'm planning to learn Spanish",
  "Use a formal tone.",
  "Book me a train to Leeds tonight.",
  "just this once can you convert it to Fahrenheit?",
  "a coffee please",
  "my laptop is slow",
  "my question is whether it scales",
  "I'm in a meeting",
  "I'm in Madrid this week.",
  "I'm doing fine",
  "I always forget the password",
  "If I moved to Berlin, would I need a car?",
  "quick question: what's the capital of Chile?",
  "please stop storing stuff about me for a while",
];

describe("rule-based extractor: how people talk", () => {
  it.each(POSITIVE)("%s", async (utterance, expected) => {
    const memories = await fromUtterance(utterance);
    expect(memories.map((m) => m.text)).toEqual(expected.map((e) => e.text));
    expected.forEach((e, i) => {
      const m = memories[i];
      expect(m).toMatchObject({ kind: e.kind, action: e.action ?? "add", sourceMessageId: "m1", extractor: "rules" });
      if (e.subject !== undefined) expect(m.subject).toBe(e.subject);
      if (e.explicit) expect(m.explicit).toBe(true);
      if (e.correction) expect(m.correction).toBe(true);
      expect(m.confidence).toBeGreaterThanOrEqual(0.7);
    });
  });

  it.each(CONTINUED)("%s", async (utterance, texts) => {
    const memories = await fromUtterance(utterance);
    expect(memories.map((m) => m.text)).toEqual(texts);
    for (const m of memories) expect(m.explicit).toBe(true);
  });

  it.each(NEGATIVE.map((n) => [n]))("nothing from %s", async (utterance) => {
    expect(await fromUtterance(utterance)).toEqual([]);
  });

  it("a club or a team the user runs is not their occupation (no slot)", async () => {
    const [club] = await fromUtterance("I run a book club on Thursdays");
    expect(club.subject).toBeUndefined();
    const [team] = await fromUtterance("I lead a small design team at Figma");
    expect(team.subject).not.toBe("occupation");
  });

  it("a contrast without a word of duration stays a proposal (not explicit)", async () => {
    const [m] = await fromUtterance("give me bullet points, not paragraphs");
    expect(m).toMatchObject({ kind: "procedure" });
    expect(m.explicit).toBeUndefined();
  });
});
