import { parseRealArray, selectCachedCandidates, tsvectorEntries, type CachedMemory } from "../../src/retrieval/cached-candidates.js";
import type { CandidateSqlParams } from "../../src/store/memory-queries.js";
import type { MemoryKind } from "../../src/state/types.js";

const NOW = new Date("2026-06-01T00:00:00Z");

function memory(id: string, kind: MemoryKind, fts: string, options: { vec?: number[]; createdDaysAgo?: number; usedDaysAgo?: number; archived?: boolean; expiresInDays?: number } = {}): CachedMemory {
  const created = NOW.getTime() - (options.createdDaysAgo ?? 1) * 86_400_000;
  const used = options.usedDaysAgo === undefined ? null : NOW.getTime() - options.usedDaysAgo * 86_400_000;
  return {
    row: {
      id, scope: "user", tenant_id: "t", user_id: "u", kind, text: id, context: null, source_thread_id: null, source_message_id: null, source_run_id: null,
      origin: "extracted", confidence: 1, created_at: new Date(created), updated_at: new Date(created), last_used_at: used === null ? null : new Date(used),
      access_count: 0, expires_at: null, superseded_by: null, deactivated_at: null, archived_at: options.archived ? NOW : null, metadata: {},
    },
    embedding: Float32Array.from(options.vec ?? [1, 0]),
    terms: tsvectorEntries(fts),
    docLen: 3,
    createdMs: created,
    lastUsedMs: used,
    expiresMs: options.expiresInDays === undefined ? null : NOW.getTime() + options.expiresInDays * 86_400_000,
    archived: options.archived ?? false,
  };
}

function params(overrides: Partial<CandidateSqlParams> = {}): CandidateSqlParams {
  return {
    scope: { level: "user", tenantId: "t", userId: "u" }, include: {}, query: "q", embedding: [1, 0], kinds: null, now: NOW, recencyDecayDays: 30,
    minVectorSimilarity: Number.POSITIVE_INFINITY, vectorOnlyLimit: 2, vectorOnlyWeight: 0.8, recencyWeight: 0.2, archivedMinVectorSimilarity: Number.POSITIVE_INFINITY,
    standingKinds: null, standingLimit: 0, bridgeTerms: null, ...overrides,
  };
}

describe("tsvector and real[] text", () => {
  it("keys entries by the unquoted lexeme and keeps each entry's text", () => {
    const t = tsvectorEntries(`'hike':2A,9 'it''s':4A 'back\\\\slash':1 'x'`);
    expect([...t.keys()]).toEqual(["hike", "it's", "back\\slash", "x"]);
    expect(t.get("it's")).toBe(`'it''s':4A`);
    expect(t.get("x")).toBe(`'x'`);
  });
  it("parses real[] text as float4 values", () => {
    expect([...parseRealArray("{0.5,-2e-05,3}")]).toEqual([0.5, Math.fround(-2e-5), 3]);
    expect(parseRealArray("{}")).toHaveLength(0);
  });
});

describe("selectCachedCandidates", () => {
  it("returns rows holding a query word with the matched entries, recency and the scope's stats", () => {
    const rows = [memory("a", "fact", `'jazz':1A 'lisbon':3A`), memory("b", "fact", `'oslo':2A`), memory("c", "episode", `'jazz':2D`, { usedDaysAgo: 0 })];
    const out = selectCachedCandidates(rows, params(), ["jazz"]);
    expect(out.map((r) => [r.id, r.matched]).sort()).toEqual([["a", `'jazz':1A`], ["c", `'jazz':2D`]]);
    expect(out.find((r) => r.id === "c")!.recency).toBe(1);
    expect(out.find((r) => r.id === "a")!.recency).toBeCloseTo(Math.exp(-1 / 30), 12);
    expect(out[0].scope_count).toBe(3);
  });
  it("leaves out expired rows and other kinds, also from the stats", () => {
    const rows = [memory("a", "fact", `'jazz':1A`, { expiresInDays: -1 }), memory("b", "fact", `'jazz':1A`, { expiresInDays: 1 }), memory("c", "episode", `'jazz':1A`)];
    const out = selectCachedCandidates(rows, params({ kinds: ["fact"] }), ["jazz"]);
    expect(out.map((r) => r.id)).toEqual(["b"]);
    expect(out[0].scope_count).toBe(1);
  });
  it("adds the newest standing rows (last use, else creation; ties by id), never archived ones", () => {
    const rows = [
      memory("d", "fact", `'x':1A`, { createdDaysAgo: 1 }),
      memory("c", "fact", `'x':1A`, { createdDaysAgo: 1 }),
      memory("b", "preference", `'x':1A`, { createdDaysAgo: 9, usedDaysAgo: 0 }),
      memory("a", "fact", `'x':1A`, { createdDaysAgo: 0, archived: true }),
      memory("e", "episode", `'x':1A`, { createdDaysAgo: 0 }),
    ];
    const out = selectCachedCandidates(rows, params({ standingKinds: ["fact", "preference"], standingLimit: 2 }), ["nothing"]);
    // b: used today; c and d: created the same day, c first by id; a: archived; e: not a standing kind.
    expect(out.map((r) => r.id).sort()).toEqual(["b", "c"]);
    expect(out.every((r) => r.matched === null && typeof r.vsim === "number")).toBe(true);
  });
  it("lets the best rows without a query word compete for vectorOnlyLimit places when they can pass the floor", () => {
    const rows = [memory("a", "fact", `'x':1A`, { vec: [1, 0] }), memory("b", "fact", `'x':1A`, { vec: [0.6, 0.8] }), memory("c", "fact", `'x':1A`, { vec: [0, 1] }), memory("d", "fact", `'x':1A`, { vec: [0.9, 0.1], archived: true })];
    const out = selectCachedCandidates(rows, params({ minVectorSimilarity: 0.5, archivedMinVectorSimilarity: 0.95, vectorOnlyLimit: 2 }), []);
    expect(out.map((r) => [r.id, r.vsim])).toEqual([["a", 1], ["b", Math.fround(0.6)]]);
  });
});
