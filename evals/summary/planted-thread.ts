/**
 * A generated long thread with facts planted at known turns: names, numbers, references, dates,
 * decisions, commitments and open tasks (some closed later), with chit-chat and tool rounds in
 * between. Seeded: the same seed gives the same thread. Every fact carries the strings ("needles")
 * that must be in a prompt for the fact to count as visible there. The wording is drawn from
 * several phrasings per kind and from name, place and item pools, so a summariser cannot pass by
 * matching one sentence shape.
 */
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { seededRandom } from "../../src/cli/bench/seeded-random.js";

export const FACT_KINDS = ["name", "number", "reference", "date", "decision", "commitment", "open_task"] as const;
export type FactKind = (typeof FACT_KINDS)[number];

/** One planted fact. */
export interface PlantedFact {
  kind: FactKind;
  /** 1-based turn of the user message that states it. */
  turn: number;
  /** The sentence that states it. */
  sentence: string;
  /** All of these (case-insensitive) must be in the prompt for the fact to be visible. */
  needles: string[];
  /** For an open task closed later: the turn that closes it. */
  closedAtTurn?: number;
}

export interface PlantedThread {
  seed: number;
  /** Messages per turn: the user message first, then tool rounds and the assistant's reply. */
  turns: BaseMessage[][];
  facts: PlantedFact[];
}

const FIRST = ["Ingrid", "Tomasz", "Amara", "Kenji", "Lucia", "Oluwaseun", "Mateo", "Freya", "Rohan", "Beatriz", "Dmitri", "Siobhan", "Yusuf", "Elodie", "Henrik", "Nadia", "Callum", "Ximena", "Arjun", "Greta"];
const LAST = ["Halvorsen", "Kowalczyk", "Okafor", "Watanabe", "Ferreira", "Adeyemi", "Castillo", "Lindqvist", "Mehta", "Sousa", "Volkov", "Gallagher", "Demir", "Marchand", "Brandt", "Haddad", "Fraser", "Ortega", "Iyer", "Schuster"];
const CITIES = ["Porto", "Bergen", "Ljubljana", "Valencia", "Gdansk", "Bologna", "Tromso", "Seville", "Dubrovnik", "Galway", "Tallinn", "Lyon"];
const HOTELS = ["Casa Alfama", "Hotel Nordlys", "the Vila Verde", "the Grand Aurelia", "the Harbour Loft", "Pension Maribor", "the Old Mill Inn", "Hotel Ostsee"];
const CARRIERS = ["Norwegian", "TAP", "Iberia", "Finnair", "Aer Lingus", "LOT", "Lufthansa", "Vueling"];
const RESTAURANTS = ["Taberna do Largo", "Bryggeloftet", "Osteria Bianchi", "Casa Montaña", "Le Petit Zinc", "Ribarnica Mare"];
const ITEMS = ["a travel adapter", "rain ponchos", "seasickness tablets", "a power bank", "hiking poles", "a spare phone charger", "thermal socks", "a dry bag"];
const DOCUMENTS = ["passport", "driving licence", "visa", "student card", "travel insurance card"];
const TRANSPORT = ["night train", "coastal ferry", "rental car", "overnight bus"];
const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

const CHITCHAT_USER = [
  "Thanks, that helps a lot.",
  "How long does the walk from the old town usually take?",
  "Is it worth getting a city card there?",
  "What's a good area for an evening stroll?",
  "Do people tip in restaurants there?",
  "Any tips for a rainy afternoon?",
  "Is the tap water fine to drink?",
  "What should I wear for the boat tour?",
  "Are the museums open on public holidays?",
  "Sounds good. Anything else I should know?",
  "Can you suggest a nice viewpoint?",
  "Is it easy to get around without a car?",
];
const CHITCHAT_ASSISTANT = [
  "Most visitors find the centre compact and walkable; allow about 25 minutes between the main sights and wear comfortable shoes because the streets are steep and cobbled.",
  "A city card is usually worth it if you plan three or more museums in a day; it also covers local buses, which saves time on the hills.",
  "The waterfront promenade is lovely in the evening, with small bars and a view of the bridges; it gets busy after sunset on weekends.",
  "Tipping is appreciated but not expected; rounding up or leaving around 5 to 10 percent for good service is common.",
  "On a rainy afternoon the covered market, the maritime museum and a long lunch in a tavern are the classic choices.",
  "Tap water is safe and good almost everywhere in the region; carry a refillable bottle.",
  "Layers work best on the water: a windproof jacket, a warm sweater and sunglasses, even in summer.",
  "Larger museums often open on holidays with shorter hours, but smaller galleries may close; check the day before.",
  "Keep some coins for small bakeries, book popular restaurants a day ahead, and expect shops to close early on Sundays.",
  "The hill above the old town has the best viewpoint, about a 20-minute climb; go an hour before sunset for the light.",
  "Public transport is reliable: trams and buses cover the centre, and regional trains run every hour to the coast.",
];

/** Pick from a pool with the generator. */
function pick<T>(rand: () => number, pool: readonly T[]): T {
  return pool[Math.floor(rand() * pool.length)];
}

/** One planted fact of a kind, in one of several phrasings; `used` keeps names and codes distinct. */
function makeFact(kind: FactKind, rand: () => number, used: Set<string>): Omit<PlantedFact, "turn"> {
  const fresh = (make: () => string): string => {
    for (let i = 0; i < 200; i++) {
      const v = make();
      if (!used.has(v)) {
        used.add(v);
        return v;
      }
    }
    return make();
  };
  const person = () => fresh(() => `${pick(rand, FIRST)} ${pick(rand, LAST)}`);
  const city = pick(rand, CITIES);
  switch (kind) {
    case "name": {
      const p = person();
      const forms = [
        `My colleague ${p} will join the trip from ${city}.`,
        `Please put ${p} down as the second traveller on everything.`,
        `Last year our guide was ${p}, so ask for them again if you can.`,
        `Oh, and my brother-in-law ${p} is coming too.`,
        `${p} from our finance team has to approve the costs first.`,
      ];
      return { kind, sentence: pick(rand, forms), needles: [p] };
    }
    case "number": {
      const amount = fresh(() => String(1200 + Math.floor(rand() * 8800)));
      const formatted = rand() < 0.5 ? amount : `${amount.slice(0, -3)},${amount.slice(-3)}`;
      const forms = [
        `Our total budget for the trip is €${formatted}, not a cent more.`,
        `The apartment quoted ${formatted} euros for the whole stay.`,
        `My employer reimburses up to $${formatted} for this trip.`,
        `The tour operator wants a deposit of ${formatted} EUR by the end of the month.`,
      ];
      return { kind, sentence: pick(rand, forms), needles: [formatted] };
    }
    case "reference": {
      const letters = "ABCDEFGHJKLMNPQRSTUVWXYZ";
      const code = fresh(() => {
        let s = "";
        for (let i = 0; i < 6; i++) s += i % 3 === 1 ? String(Math.floor(rand() * 10)) : letters[Math.floor(rand() * letters.length)];
        return s;
      });
      const forms = [
        `The booking reference for the flights is ${code}.`,
        `Write down the ferry confirmation: ${code}.`,
        `Our travel insurance policy number is ${code}.`,
        `The museum tickets came with the order code ${code}.`,
        `The car rental reservation is under ${code}.`,
      ];
      return { kind, sentence: pick(rand, forms), needles: [code] };
    }
    case "date": {
      const date = fresh(() => (rand() < 0.5 ? `${1 + Math.floor(rand() * 28)} ${pick(rand, MONTHS)} 2027` : `${pick(rand, MONTHS)} ${1 + Math.floor(rand() * 28)}`));
      const forms = [
        `We fly out on ${date}.`,
        `My cousin's wedding is on ${date}, so we must be back by then.`,
        `The visa appointment is on ${date} in the morning.`,
        `Check-out from the apartment is on ${date}.`,
        `The early-bird fares end on ${date}.`,
      ];
      return { kind, sentence: pick(rand, forms), needles: [date] };
    }
    case "decision": {
      const forms: Array<() => [string, string]> = [
        () => { const h = fresh(() => pick(rand, HOTELS)); return [`Let's go with ${h}, it is closer to the station.`, h.replace(/^the /, "")]; },
        () => { const t = fresh(() => pick(rand, TRANSPORT)); return [`OK, we decided to take the ${t} to ${city} instead of flying.`, t]; },
        () => { const c = fresh(() => pick(rand, CARRIERS)); return [`Final choice: we book ${c} for the return flight.`, c]; },
        () => { const c = fresh(() => pick(rand, CITIES)); return [`We agreed to spend the last two nights in ${c}.`, c]; },
      ];
      const [sentence, needle] = pick(rand, forms)();
      return { kind, sentence, needles: [needle] };
    }
    case "commitment": {
      const forms: Array<() => [string, string]> = [
        () => { const first = fresh(() => pick(rand, FIRST)); return [`I'll send you ${first}'s passport scan by ${pick(rand, WEEKDAYS)}.`, `${first}'s passport scan`]; },
        () => { const r = fresh(() => pick(rand, RESTAURANTS)); return [`I promised my mother I would book a table at ${r} for her birthday.`, r]; },
        () => { const first = fresh(() => pick(rand, FIRST)); return [`I told ${first} I will pick them up at the airport.`, first]; },
        () => { const c = fresh(() => pick(rand, CITIES)); return [`I'll email the hotel in ${c} about a late check-in tonight.`, c]; },
      ];
      const [sentence, needle] = pick(rand, forms)();
      return { kind, sentence, needles: [needle] };
    }
    case "open_task": {
      const forms: Array<() => [string, string]> = [
        () => { const item = fresh(() => pick(rand, ITEMS)); return [`Remind me to buy ${item} before we leave.`, item.replace(/^an? /, "")]; },
        () => { const first = fresh(() => pick(rand, FIRST)); const doc = pick(rand, DOCUMENTS); return [`I still need to renew ${first}'s ${doc}.`, `${first}'s ${doc}`]; },
        () => { const c = fresh(() => pick(rand, CITIES)); return [`We have to find a dog sitter for the week in ${c}.`, c]; },
        () => { const item = fresh(() => pick(rand, ITEMS)); return [`Don't let me forget to pack ${item}.`, item.replace(/^an? /, "")]; },
      ];
      const [sentence, needle] = pick(rand, forms)();
      return { kind, sentence, needles: [needle] };
    }
  }
}

/** A tool round: the assistant calls a tool, gets a result. */
function toolRound(turn: number, rand: () => number, id: () => string): BaseMessage[] {
  const city = pick(rand, CITIES);
  const callId = `call_${turn}`;
  if (rand() < 0.5) {
    return [
      new AIMessage({ content: "Let me check the forecast.", id: id(), tool_calls: [{ id: callId, name: "get_weather", args: { city } }] }),
      new ToolMessage({ content: `Weather in ${city}: ${8 + Math.floor(rand() * 15)}°C, ${pick(rand, ["cloudy", "sunny spells", "light rain", "windy"])}, wind ${5 + Math.floor(rand() * 20)} km/h.`, tool_call_id: callId, name: "get_weather", id: id() }),
    ];
  }
  return [
    new AIMessage({ content: "", id: id(), tool_calls: [{ id: callId, name: "search_hotels", args: { city, nights: 2 + Math.floor(rand() * 4) } }] }),
    new ToolMessage({
      content: `3 hotels in ${city}: ${pick(rand, HOTELS)} (€${90 + Math.floor(rand() * 120)}/night), ${pick(rand, HOTELS)} (€${70 + Math.floor(rand() * 100)}/night), a guesthouse (€${50 + Math.floor(rand() * 60)}/night).`,
      tool_call_id: callId,
      name: "search_hotels",
      id: id(),
    }),
  ];
}

/**
 * Generate the thread: `turns` user turns; facts planted on about every third turn up to
 * `turns − 10`, kinds in rotation; about one open task in three closed some turns later.
 *
 * @example
 * const { turns, facts } = plantedThread({ turns: 200, seed: 7 });
 */
export function plantedThread(options: { turns?: number; seed?: number } = {}): PlantedThread {
  const turnCount = options.turns ?? 200;
  const seed = options.seed ?? 7;
  const rand = seededRandom(seed);
  let n = 0;
  const id = () => `m${++n}`;
  const used = new Set<string>();
  const facts: PlantedFact[] = [];
  const closing = new Map<number, PlantedFact>();
  const lastPlant = Math.max(1, turnCount - 10);
  let kindIndex = Math.floor(rand() * FACT_KINDS.length);
  const turns: BaseMessage[][] = [];
  for (let t = 1; t <= turnCount; t++) {
    const msgs: BaseMessage[] = [];
    let userText: string;
    const closes = closing.get(t);
    if (closes) {
      userText = pick(rand, [`Good news: ${closes.needles[0]} is sorted, that task is done.`, `I took care of ${closes.needles[0]} yesterday, so you can cross it off.`]);
    } else if (t <= lastPlant && (t % 3 === 1 || rand() < 0.1)) {
      const kind = FACT_KINDS[kindIndex++ % FACT_KINDS.length];
      const fact: PlantedFact = { ...makeFact(kind, rand, used), turn: t };
      facts.push(fact);
      if (kind === "open_task" && rand() < 0.34) {
        const at = t + 8 + Math.floor(rand() * 20);
        if (at <= turnCount && !closing.has(at)) {
          fact.closedAtTurn = at;
          closing.set(at, fact);
        }
      }
      userText = rand() < 0.5 ? fact.sentence : `${pick(rand, CHITCHAT_USER)} ${fact.sentence}`;
    } else {
      userText = pick(rand, CHITCHAT_USER);
    }
    msgs.push(new HumanMessage({ content: userText, id: id() }));
    if (t % 5 === 0) msgs.push(...toolRound(t, rand, id));
    const reply = closes ? "Great, I have marked that as done." : pick(rand, CHITCHAT_ASSISTANT);
    msgs.push(new AIMessage({ content: reply, id: id() }));
    turns.push(msgs);
  }
  return { seed, turns, facts };
}
