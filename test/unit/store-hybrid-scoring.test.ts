import { parseTsvector, rankHybrid, type HybridWeights } from "../../src/store/hybrid-scoring.js";

const W: HybridWeights = {
  lexicalWeight: 0.7, lexicalSaturation: 6, bm25K1: 0.9, bm25B: 0.4, bm25PriorDocs: 100, contextWeight: 0.3,
  similarityWeight: 0.8, recencyWeight: 0.2, floor: 0, limit: 10,
};

describe("parseTsvector", () => {
  it("splits body (weight A) and context positions, unquotes lexemes", () => {
    const t = parseTsvector(`'hike':2A,9 'it''s':4A 'dog':3,5C,7D 'x'`);
    expect(t.get("hike")).toEqual({ body: 1, context: 1 });
    expect(t.get("it's")).toEqual({ body: 1, context: 0 });
    expect(t.get("dog")).toEqual({ body: 0, context: 3 });
    expect(t.get("x")).toEqual({ body: 1, context: 0 });
  });
});

describe("rankHybrid", () => {
  const base = { vsim: 0, recency: 1, docLen: 5 };

  it("a rare word outweighs a common one (IDF from the scope)", () => {
    const candidates = [
      { id: "common", ...base, matched: "'prefer':1A" },
      { id: "rare", ...base, matched: "'sourdough':1A" },
      ...Array.from({ length: 30 }, (_, i) => ({ id: `c${i}`, ...base, matched: "'prefer':1A" })),
    ];
    const ranked = rankHybrid(candidates, { count: 40, avgDocLen: 5 }, W);
    expect(ranked[0].id).toBe("rare");
  });

  it("an archived candidate must reach the archived floor; the others only the floor", () => {
    const two = [
      { id: "active", ...base, vsim: 0.4, matched: null },
      { id: "archived", ...base, vsim: 0.4, matched: null, archived: true },
    ];
    const both = rankHybrid(two, { count: 2, avgDocLen: 5 }, { ...W, lexicalWeight: 0, floor: 0.3, archivedFloor: 0.5 });
    expect(both.map((r) => r.id)).toEqual(["active"]);
    expect(both[0].similarity).toBeCloseTo(0.4);
    // Strong enough, the archived one ranks like any other.
    const strong = rankHybrid(two.map((c) => ({ ...c, vsim: 0.6 })), { count: 2, avgDocLen: 5 }, { ...W, lexicalWeight: 0, floor: 0.3, archivedFloor: 0.5 });
    expect(strong.map((r) => r.id).sort()).toEqual(["active", "archived"]);
    // Without an archived floor the ordinary one applies to every candidate.
    expect(rankHybrid(two, { count: 2, avgDocLen: 5 }, { ...W, lexicalWeight: 0, floor: 0.3 }).map((r) => r.id).sort()).toEqual(["active", "archived"]);
  });

  it("context words count less than body words", () => {
    const ranked = rankHybrid(
      [
        { id: "ctx", ...base, matched: "'tea':3" },
        { id: "body", ...base, matched: "'tea':3A" },
      ],
      { count: 2, avgDocLen: 5 },
      W,
    );
    expect(ranked.map((r) => r.id)).toEqual(["body", "ctx"]);
  });

  it("score = w_s·similarity + w_r·recency; floor on similarity; top k", () => {
    const ranked = rankHybrid(
      [
        { id: "a", vsim: 0.5, recency: 0.1, docLen: 5, matched: null },
        { id: "b", vsim: -0.2, recency: 1, docLen: 5, matched: null },
      ],
      { count: 2, avgDocLen: 5 },
      { ...W, floor: 0.1 },
    );
    expect(ranked.map((r) => r.id)).toEqual(["a"]);
    expect(ranked[0].similarity).toBeCloseTo(0.3 * 0.5, 10);
    expect(ranked[0].score).toBeCloseTo(0.8 * 0.15 + 0.2 * 0.1, 10);
    expect(rankHybrid([{ id: "a", vsim: 0.9, recency: 1, docLen: 1, matched: null }, { id: "b", vsim: 0.8, recency: 1, docLen: 1, matched: null }], { count: 2, avgDocLen: 1 }, { ...W, limit: 1 }).map((r) => r.id)).toEqual(["a"]);
  });
});
