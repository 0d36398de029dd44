import type { Database } from "../../src/db/database.js";
import { MemoryRepository } from "../../src/store/memory-store.js";
import { MemorySettingsStore } from "../../src/controls/settings-store.js";
import { ProfileStore } from "../../src/profile/profile-store.js";
import { CachedContextReader, StatementContextReader } from "../../src/retrieval/context-readers.js";
import { candidateCacheOf, contextReaderOf } from "../../src/retrieval/per-store.js";
import type { ContextRead, ContextReadRequest } from "../../src/retrieval/context-reader.js";
import { createMemory } from "../../src/memory.js";
import { openTestDatabase, testEngines } from "../helpers/db.js";

const alice = { tenantId: "acme", userId: "alice" };
const NOW = new Date("2026-06-01T12:00:00Z");
const TOPICS = ["jazz", "climbing", "sourdough", "chess", "cycling", "orchids", "pottery", "sailing"];
const QUERIES = ["any jazz clubs near me?", "what should i pack for climbing and sailing", "chess or pottery this weekend", "hello", ""];

function request(query: string, over: Partial<ContextReadRequest> = {}): ContextReadRequest {
  return { scope: alice, threadId: null, query, search: { limit: 6 }, profile: true, rules: { taskType: null, limit: 10 }, ...over };
}

function summary(read: ContextRead) {
  return { optedOut: read.optedOut, profile: read.profile, rules: read.rules.map((r) => r.id), memories: read.memories.map((m) => [m.id, m.score.toFixed(6)]) };
}

describe.each(testEngines())("context readers on %s", (engine) => {
  let db: Database;
  let store: MemoryRepository;
  let statement: StatementContextReader;
  let cached: CachedContextReader;

  beforeAll(async () => {
    db = await openTestDatabase(engine);
    // One fixed "now": recency is part of each score, and both readers must see the same instant.
    store = new MemoryRepository(db, { clock: { now: () => NOW } });
    await store.addMany(
      alice,
      Array.from({ length: 40 }, (_, i) => ({ kind: i % 2 ? ("preference" as const) : ("fact" as const), text: `Alice ${i % 3 ? "likes" : "tried"} ${TOPICS[i % TOPICS.length]} with friend ${i}.` })),
    );
    await new ProfileStore(db).applyPatch(alice, { name: "Alice" }, { kind: "api", threadId: null, messageId: null, runId: null });
    statement = new StatementContextReader(store);
    cached = new CachedContextReader(store, candidateCacheOf(store)!);
  });
  afterAll(async () => {
    await db.close();
  });

  it("both readers read the same context for every query, before and after the memories change", async () => {
    let nonEmpty = 0;
    const hitsBefore = candidateCacheOf(store)!.stats.hits;
    for (const round of [0, 1, 2]) {
      if (round === 2) await store.add(alice, { kind: "fact", text: "Alice took up jazz piano lessons." });
      for (const q of QUERIES) {
        const a = await statement.read(request(q));
        // Twice: the first read fills the cache, the second ranks the cached rows.
        const b1 = await cached.read(request(q));
        await candidateCacheOf(store)!.settle();
        const b2 = await cached.read(request(q));
        expect(summary(b1)).toEqual(summary(a));
        expect(summary(b2)).toEqual(summary(a));
        expect(a.profile).toEqual({ name: "Alice" });
        if (a.memories.length > 0) nonEmpty++;
      }
    }
    expect(nonEmpty).toBeGreaterThanOrEqual(9);
    // The cached reader ranked held rows (not only fell back to the SQL search).
    expect(candidateCacheOf(store)!.stats.hits - hitsBefore).toBeGreaterThanOrEqual(8);
    // The jazz lesson written in round 2 is found by both.
    const jazz = await cached.read(request("jazz lessons?"));
    expect(jazz.memories.map((m) => m.text)).toContain("Alice took up jazz piano lessons.");
  });

  it("an opted-out user reads nothing, and their invalid search raises nothing", async () => {
    const settings = new MemorySettingsStore(db);
    await expect(statement.read(request("jazz", { search: { limit: 0 } }))).rejects.toMatchObject({ code: "INVALID_INPUT" });
    await expect(cached.read(request("jazz", { search: { limit: 0 } }))).rejects.toMatchObject({ code: "INVALID_INPUT" });
    await settings.setOptedOut(alice, true);
    try {
      for (const reader of [statement, cached]) {
        expect(await reader.read(request("jazz", { search: { limit: 0 } }))).toEqual({ optedOut: true, profile: null, rules: [], memories: [] });
      }
    } finally {
      await settings.setOptedOut(alice, false);
    }
  });

  it("a store's reader is chosen once: cached with a candidate cache, the statement reader without", async () => {
    expect(contextReaderOf(store)).toBeInstanceOf(CachedContextReader);
    expect(contextReaderOf(store)).toBe(contextReaderOf(store));
    const uncached = new MemoryRepository(db, { candidateCache: false });
    const reader = contextReaderOf(uncached);
    expect(reader).toBeInstanceOf(StatementContextReader);
    expect(reader).not.toBeInstanceOf(CachedContextReader);
    const memory = await createMemory({ db, retrieval: { candidateCacheMemories: 0 } });
    try {
      expect(memory.contextReader).not.toBeInstanceOf(CachedContextReader);
    } finally {
      await memory.close();
    }
    const cachedMemory = await createMemory({ db });
    try {
      expect(cachedMemory.contextReader).toBeInstanceOf(CachedContextReader);
      expect(cachedMemory.contextReader).toBe(contextReaderOf(cachedMemory.store));
    } finally {
      await cachedMemory.close();
    }
  });
});
