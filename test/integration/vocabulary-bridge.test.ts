import { HumanMessage } from "@langchain/core/messages";
import type { Database } from "../../src/db/database.js";
import { MemoryRepository } from "../../src/store/memory-store.js";
import { candidateCacheOf } from "../../src/retrieval/per-store.js";
import { hybridCandidatesSql, type CandidateRow } from "../../src/store/memory-queries.js";
import { readUserMemories } from "../../src/retrieval/candidate-cache-queries.js";
import { selectCachedCandidates } from "../../src/retrieval/cached-candidates.js";
import { createLoadMemoryNode } from "../../src/graph/load-memory-node.js";
import { openTestDatabase, testEngines } from "../helpers/db.js";

const NOW = new Date("2026-06-01T12:00:00Z");

// Each question shares no word (no lexeme) with its memory; WordNet relates one of its words to one of the memory's.
const PAIRS = [
  { memory: "Our beagle sleeps on the sofa all afternoon.", question: "Is a hound happy indoors?" },
  { memory: "Started a new job as an instructor at the college.", question: "Any advice for a first-year teacher?" },
  { memory: "My child adores the garden of her grandmother.", question: "What should the kids plant in spring?" },
];
const OTHERS = ["Prefers tea over coffee in the morning.", "Flies to Oslo for a conference in March.", "Keeps the thermostat at nineteen degrees."];


/** The bridge is off by default (its cost on the response path); these tests turn it on. */
const BRIDGE_ON = { enabled: true, weight: 0.3, maxTerms: 64, termsPerWord: 16 };
describe.each(testEngines())("vocabulary bridge on %s", (engine) => {
  let db: Database;
  const alice = { tenantId: "acme", userId: "alice" };
  const texts = [...PAIRS.map((p) => p.memory), ...OTHERS];

  beforeAll(async () => {
    db = await openTestDatabase(engine);
    await new MemoryRepository(db, { candidateCache: false }).addMany(
      alice,
      texts.map((text) => ({ kind: "fact" as const, text, createdAt: NOW, source: { origin: "user_stated" as const } })),
    );
  });
  afterAll(async () => {
    await db.close();
  });

  it("finds a memory by a question with no word in common, and only through the bridge", async () => {
    const bridged = new MemoryRepository(db, { candidateCache: false, retrieval: { vocabularyBridge: BRIDGE_ON } });
    const plain = new MemoryRepository(db, { candidateCache: false, retrieval: { vocabularyBridge: { enabled: false, weight: 0.3, maxTerms: 64, termsPerWord: 16 } } });
    for (const { memory, question } of PAIRS) {
      const found = await bridged.search(alice, question, { minSimilarity: 0, now: NOW });
      expect({ question, top: found[0]?.text }).toEqual({ question, top: memory });
      // Below what an exact word would bring: the match counts less than a shared word.
      expect(found[0].lexicalScore).toBeGreaterThan(0);
      const exact = await bridged.search(alice, memory, { minSimilarity: 0, now: NOW });
      expect(found[0].lexicalScore).toBeLessThan(exact[0].lexicalScore);
      // Without the bridge the memory has no lexical match at all (only the hashing vector's noise).
      const unbridged = (await plain.search(alice, question, { minSimilarity: 0, now: NOW })).find((m) => m.text === memory);
      expect(unbridged?.lexicalScore ?? 0).toBe(0);
    }
  });

  it("chooses and ranks the same in SQL and from cached rows", async () => {
    const store = new MemoryRepository(db, { candidateCache: false, retrieval: { vocabularyBridge: BRIDGE_ON } });
    const read = await db.transaction((tx) => readUserMemories(tx, alice.tenantId, alice.userId), { scope: alice });
    let compared = 0;
    for (const question of [...PAIRS.map((p) => p.question), "kids and a hound at the college", "tea", ""]) {
      const prepared = await store.prepareSearch(alice, question, { minSimilarity: 0, now: NOW });
      const params = (await store.candidateParams(db, prepared))!;
      const { sql, params: args } = hybridCandidatesSql(params);
      const fromSql = (await db.transaction((tx) => tx.query<CandidateRow>(sql, args), { scope: alice })).rows;
      const head = (
        await db.query<{ l: string[]; b: string | null }>("SELECT tsvector_to_array(to_tsvector('english', $1)) AS l, memory_bridge_lexemes($1, $2::text) AS b", [
          prepared.query,
          params.bridgeTerms?.join(" ") ?? null,
        ])
      ).rows[0];
      const fromCache = selectCachedCandidates(read.memories, params, head.l, head.b);
      const cached = new Map(fromCache.map((r) => [r.id, r]));
      expect([...cached.keys()].sort()).toEqual(fromSql.map((r) => r.id).sort());
      for (const r of fromSql) {
        expect(cached.get(r.id)!.bridged).toBe(r.bridged);
        expect(cached.get(r.id)!.bridge_lexemes).toBe(r.bridge_lexemes);
      }
      const a = store.rankCandidates(fromSql, prepared);
      const b = store.rankCandidates(fromCache, prepared);
      expect(b.map((m) => m.id)).toEqual(a.map((m) => m.id));
      for (const [i, m] of b.entries()) expect(m.lexicalScore).toBe(a[i].lexicalScore);
      compared += fromSql.filter((r) => r.bridged !== null).length;
    }
    expect(compared).toBeGreaterThan(3);
  });

  it("gives the load node the same memories from the cache as from its statement", async () => {
    const cachedStore = new MemoryRepository(db, { retrieval: { relevanceFloor: 0, standingKinds: [], vocabularyBridge: BRIDGE_ON } });
    const plainStore = new MemoryRepository(db, { candidateCache: false, retrieval: { relevanceFloor: 0, standingKinds: [], vocabularyBridge: BRIDGE_ON } });
    const cached = createLoadMemoryNode({ store: cachedStore, markUsed: false });
    const plain = createLoadMemoryNode({ store: plainStore, markUsed: false });
    const config = { configurable: { thread_id: "bridge-thread", tenant_id: "acme", user_id: "alice" } };
    // The first turn fills the cache; the others are answered from it (memory_load_head's lexemes).
    for (const question of [PAIRS[0].question, ...PAIRS.map((p) => p.question)]) {
      const state = { messages: [new HumanMessage(question)] };
      const a = await cached(state, config);
      const b = await plain(state, config);
      await candidateCacheOf(cachedStore)!.settle();
      expect(a.memories.map((m) => m.text)).toEqual(b.memories.map((m) => m.text));
    }
    expect(candidateCacheOf(cachedStore)!.stats.hits).toBeGreaterThanOrEqual(PAIRS.length);
    const last = await cached({ messages: [new HumanMessage(PAIRS[2].question)] }, config);
    expect(last.memories[0]?.text).toBe(PAIRS[2].memory);
  });
});
