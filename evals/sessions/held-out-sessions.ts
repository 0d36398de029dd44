/**
 * A small held-out set of past sessions, written before the session memory was rebuilt and never
 * tuned on: one user's six threads typed the way people type (lowercase, asides, a correction
 * later, a "forget that"), and questions asked later in new threads, each naming the thread that
 * answers it. Some questions share no word with their session (`bridged`): only the vocabulary
 * bridge (WordNet) can match them. `gone` lists values a session must no longer say (corrected or
 * forgotten in the thread); `kept` the values its shown text must still hold.
 */

export type Turn = readonly ["user" | "assistant", string];

export interface HeldOutSession {
  threadId: string;
  /** Days before the questions are asked. */
  daysAgo: number;
  turns: readonly Turn[];
  kept: readonly string[];
  gone: readonly string[];
}

export interface HeldOutQuestion {
  question: string;
  threadId: string;
  /** No content word in common with the session: found only through the vocabulary bridge. */
  bridged?: boolean;
}

export const HELD_OUT_SESSIONS: readonly HeldOutSession[] = [
  {
    threadId: "lisbon-trip",
    daysAgo: 20,
    turns: [
      ["user", "ok so my sister ana and i are finally doing lisbon!! flights are on may 12, can u help me plan"],
      ["assistant", "Lovely! How many nights are you staying, and do you have a neighbourhood in mind?"],
      ["user", "5 nights. she wants alfama bc of the views, i kinda wanted somewhere flatter lol"],
      ["assistant", "Alfama is hilly but central. Baixa is flat and close by, a good compromise."],
      ["user", "hmm ok lets go with alfama, she'll never forgive me otherwise. budget is like 1800 eur total for the hotel"],
      ["user", "(sorry my cat just walked across the keyboard)"],
      ["assistant", "No problem! I'll look for Alfama hotels under 1800 EUR for 5 nights."],
      ["user", "wait no, we fly on may 14 not may 12, ana moved her shift"],
      ["assistant", "Got it, arriving May 14 then."],
      ["user", "also remind me to book the tram 28 tickets before we go"],
    ],
    kept: ["Alfama", "Ana"],
    gone: ["may 12"],
  },
  {
    threadId: "bike-repair",
    daysAgo: 14,
    turns: [
      ["user", "my road bike's rear derailleur keeps skipping gears on hills, super annoying on the commute"],
      ["assistant", "That is often cable stretch. Have you tried turning the barrel adjuster a quarter turn?"],
      ["user", "tried it, no luck. took it to joaquim at the shop on rua da prata, he says new cable + chain"],
      ["user", "he quoted 65 euros, ready to pick up thursday"],
      ["assistant", "That price sounds fair for a cable and chain. Ask him to check the cassette wear too."],
      ["user", "good call, will ask"],
    ],
    kept: ["Joaquim", "65 euros"],
    gone: [],
  },
  {
    threadId: "tax-return",
    daysAgo: 10,
    turns: [
      ["user", "ugh tax season. my freelance income this year was around 42k and i have receipts everywhere"],
      ["assistant", "Let's get organised. When is your filing deadline?"],
      ["user", "june 30. my accountant priya nair wants everything by june 15"],
      ["user", "btw my old landlord greg still owes me the deposit, 900 euros"],
      ["assistant", "That is worth chasing separately. For the taxes, group receipts by month first."],
      ["user", "actually forget everything about greg, i dont want that stored anywhere"],
      ["assistant", "Understood."],
      ["user", "ok we decided: i'll scan the receipts this weekend and send priya a folder"],
    ],
    kept: ["Priya Nair", "june 15"],
    gone: ["Greg", "900 euros"],
  },
  {
    threadId: "sourdough",
    daysAgo: 7,
    turns: [
      ["user", "started a sourdough starter, named it bubbles 🙂 its on day 4 and smells kinda like nail polish??"],
      ["assistant", "That acetone smell is normal early on. Feed it twice a day at a 1:1:1 ratio."],
      ["user", "ok. what hydration should i go for on my first bake"],
      ["assistant", "Start around 70 percent; it is easier to shape."],
      ["user", "i'll do 70 then, and bake at 250c in my dutch oven"],
      ["user", "next time i want to try a rye version"],
    ],
    kept: ["bubbles", "70"],
    gone: [],
  },
  {
    threadId: "interview",
    daysAgo: 4,
    turns: [
      ["user", "i have an interview at northwind labs on june 3 for a data engineer role, kinda nervous"],
      ["assistant", "Congratulations! What format is it?"],
      ["user", "the recruiter sam okafor said 1 hr system design + 30 min behavioral"],
      ["assistant", "Let's practise a system design question: design a pipeline that ingests clickstream events."],
      ["user", "ok lets do that tomorrow, i need to finish work stuff first"],
    ],
    kept: ["Northwind Labs", "Sam Okafor"],
    gone: [],
  },
  {
    threadId: "balcony-garden",
    daysAgo: 2,
    turns: [
      ["user", "my balcony tomatoes have aphids all over the new growth"],
      ["assistant", "Spray them off with water, then use neem oil every few days."],
      ["user", "where do i even buy neem oil"],
      ["assistant", "Garden centres and most hardware stores carry it."],
      ["user", "cool, i'll grab some at leroy merlin on saturday"],
    ],
    kept: ["neem oil"],
    gone: [],
  },
];

export const HELD_OUT_QUESTIONS: readonly HeldOutQuestion[] = [
  { question: "when are we flying out to lisbon again?", threadId: "lisbon-trip" },
  { question: "which neighbourhood did we pick for the hotel?", threadId: "lisbon-trip" },
  { question: "what did the mechanic quote me for the derailleur?", threadId: "bike-repair" },
  { question: "did i ever collect my bicycle", threadId: "bike-repair", bridged: true },
  { question: "who's my accountant and when does she need my stuff", threadId: "tax-return" },
  { question: "how much did i earn freelancing", threadId: "tax-return" },
  { question: "what was my starter called again", threadId: "sourdough" },
  { question: "how is the leaven doing", threadId: "sourdough", bridged: true },
  { question: "when is the northwind interview", threadId: "interview" },
  { question: "can we do the system design practice now", threadId: "interview" },
  { question: "the aphids are back on my tomatoes, what was the plan", threadId: "balcony-garden" },
  { question: "how do i get rid of the greenfly", threadId: "balcony-garden", bridged: true },
];
