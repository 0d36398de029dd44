import { Embeddings } from "@langchain/core/embeddings";
import type { Database } from "../../src/db/database.js";
import { MemoryRepository } from "../../src/store/memory-store.js";
import { LocalHashingEmbeddings } from "../../src/embeddings/hashing-embeddings.js";
import { isMemoryError } from "../../src/errors.js";
import { openTestDatabase, testEngines } from "../helpers/db.js";

/** Records every text it embeds, so a test can prove the embedder was (or was not) called. */
class RecordingEmbeddings extends Embeddings {
  calls: string[][] = [];
  private readonly inner = new LocalHashingEmbeddings({ dims: 64 });
  constructor(readonly embedderId = "recording/64") {
    super({});
  }
  async embedDocuments(texts: string[]): Promise<number[][]> {
    this.calls.push(texts);
    return this.inner.embedDocuments(texts);
  }
  async embedQuery(text: string): Promise<number[]> {
    this.calls.push([text]);
    return this.inner.embedQuery(text);
  }
}

const DAY = 86_400_000;

describe.each(testEngines())("MemoryRepository on %s", (engine) => {
  let db: Database;
  let store: MemoryRepository;
  const alice = { tenantId: "acme", userId: "alice" };
  const bob = { tenantId: "acme", userId: "bob" };

  beforeAll(async () => {
    db = await openTestDatabase(engine);
    store = new MemoryRepository(db);
  });
  afterAll(async () => {
    await db.close();
  });
  afterEach(async () => {
    await db.query("DELETE FROM memories");
  });

  it("adds and reads back a memory with its kind, source, confidence and dates", async () => {
    const added = await store.add(alice, {
      kind: "preference",
      text: "Prefers metric units.",
      source: { threadId: "t1", messageId: "m7", runId: "r1", origin: "extracted" },
      confidence: 0.85,
      metadata: { topic: "units" },
    });
    const got = await store.get(alice, added.id);
    expect(got).toMatchObject({
      id: added.id,
      scope: "user",
      tenantId: "acme",
      userId: "alice",
      kind: "preference",
      text: "Prefers metric units.",
      source: { threadId: "t1", messageId: "m7", runId: "r1", origin: "extracted" },
      metadata: { topic: "units" },
      accessCount: 0,
      lastUsedAt: null,
      supersededBy: null,
    });
    expect(got!.confidence).toBeCloseTo(0.85, 5);
    expect(got!.createdAt).toBeInstanceOf(Date);
    const { rows } = await db.query<{ embedder: string; dims: number }>("SELECT embedder, dims FROM embedding_settings WHERE vector_set = 'memories'");
    expect(rows).toEqual([{ embedder: "local-hash-v1/512", dims: 512 }]);
  });

  it("finds the relevant memory first, by words and by word forms", async () => {
    await store.addMany(alice, [
      { kind: "preference", text: "Prefers metric units for all measurements." },
      { kind: "fact", text: "Has a dog named Rex who loves hiking." },
      { kind: "fact", text: "Works as a nurse at the city hospital." },
    ]);
    const [top] = await store.search(alice, "which measurement units should I use?");
    expect(top.text).toBe("Prefers metric units for all measurements.");
    const hikes = await store.search(alice, "does she hike with her dogs?");
    expect(hikes[0].text).toContain("Rex");
    expect(hikes[0].similarity).toBeGreaterThanOrEqual(0.3);
    expect(hikes[0].score).toBeCloseTo(0.8 * hikes[0].similarity + 0.2 * hikes[0].recency, 6);
  });

  it("applies the relevance floor, top-k and kind filters", async () => {
    await store.addMany(alice, [
      { kind: "preference", text: "Likes green tea in the morning." },
      { kind: "fact", text: "Drinks green tea with lemon." },
      { kind: "episode", text: "Ordered green tea samples on Monday." },
    ]);
    expect(await store.search(alice, "quantum chromodynamics lecture")).toEqual([]);
    expect(await store.search(alice, "green tea", { limit: 2 })).toHaveLength(2);
    const facts = await store.search(alice, "green tea", { kinds: ["fact"] });
    expect(facts.map((m) => m.kind)).toEqual(["fact"]);
  });

  it("ranks a recently used memory above an equally relevant stale one", async () => {
    const now = new Date();
    const [old, fresh] = await store.addMany(alice, [
      { kind: "fact", text: "Keeps a sourdough starter in the fridge.", createdAt: new Date(now.getTime() - 90 * DAY) },
      { kind: "fact", text: "Keeps a sourdough starter on the counter.", createdAt: new Date(now.getTime() - 90 * DAY) },
    ]);
    await store.markUsed(alice, [fresh.id], { now });
    const hits = await store.search(alice, "sourdough starter", { now });
    expect(hits.map((h) => h.id)).toEqual([fresh.id, old.id]);
    expect(hits[0].recency).toBeCloseTo(1, 3);
    expect(hits[1].recency).toBeCloseTo(Math.exp(-3), 3);
    const marked = await store.get(alice, fresh.id);
    expect(marked!.accessCount).toBe(1);
    expect(marked!.lastUsedAt!.getTime()).toBe(now.getTime());
  });

  it("supersedes: the old memory stays (for audit) but is never retrieved again", async () => {
    const old = await store.add(alice, { kind: "preference", text: "Prefers metric units." });
    const { previous, current } = await store.supersede(alice, old.id, { kind: "preference", text: "Prefers imperial units now." });
    expect(previous.supersededBy).toBe(current.id);
    const hits = await store.search(alice, "units preference");
    expect(hits.map((h) => h.id)).toEqual([current.id]);
    expect((await store.list(alice)).map((m) => m.id)).toEqual([current.id]);
    expect((await store.list(alice, { includeInactive: true })).map((m) => m.id).sort()).toEqual([old.id, current.id].sort());
    await expect(store.supersede(alice, old.id, { kind: "preference", text: "again" })).rejects.toMatchObject({ code: "INVALID_INPUT" });
    await expect(store.supersede(bob, current.id, { kind: "preference", text: "Bob's take" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await store.list(bob))).toEqual([]);
  });

  it("excludes expired memories from search and list, keeps them in export", async () => {
    const gone = await store.add(alice, { kind: "episode", text: "Booked a hotel in Lisbon.", expiresAt: new Date(Date.now() - 1000) });
    const kept = await store.add(alice, { kind: "episode", text: "Booked a flight to Lisbon.", expiresAt: new Date(Date.now() + DAY) });
    expect((await store.search(alice, "Lisbon booking")).map((m) => m.id)).toEqual([kept.id]);
    expect((await store.list(alice)).map((m) => m.id)).toEqual([kept.id]);
    const exported = await store.export(alice);
    expect(exported.map((m) => m.id).sort()).toEqual([gone.id, kept.id].sort());
    expect(typeof exported[0].createdAt).toBe("string");
    expect(JSON.parse(JSON.stringify(exported))).toEqual(exported);
  });

  it("updates text (re-embedding it) and fields in place; NOT_FOUND from another scope", async () => {
    const m = await store.add(alice, { kind: "fact", text: "Lives in Berlin." });
    const updated = await store.update(alice, m.id, { text: "Lives in Munich.", confidence: 0.5, metadata: { moved: true } });
    expect(updated).toMatchObject({ id: m.id, text: "Lives in Munich.", metadata: { moved: true } });
    expect(updated.updatedAt.getTime()).toBeGreaterThanOrEqual(m.updatedAt.getTime());
    expect((await store.search(alice, "Munich"))[0].id).toBe(m.id);
    expect(await store.search(alice, "Berlin")).toEqual([]);
    await expect(store.update(bob, m.id, { text: "hijacked" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await store.get(alice, m.id))!.text).toBe("Lives in Munich.");
  });

  it("deletes one memory, or all of a scope, without touching other scopes", async () => {
    const a1 = await store.add(alice, { kind: "fact", text: "Plays the cello." });
    await store.add(alice, { kind: "preference", text: "Prefers email over calls." });
    const b1 = await store.add(bob, { kind: "fact", text: "Plays the cello." });
    expect(await store.delete(bob, a1.id)).toBe(false);
    expect(await store.delete(alice, a1.id)).toBe(true);
    expect(await store.get(alice, a1.id)).toBeNull();
    expect(await store.deleteAll(alice, { kinds: ["preference"] })).toBe(1);
    expect(await store.list(alice)).toEqual([]);
    expect((await store.get(bob, b1.id))!.text).toBe("Plays the cello.");
    expect(await store.deleteAll(bob)).toBe(1);
  });

  it("finds the nearest memories of a kind in a scope with their similarity (for dedupe)", async () => {
    const metric = await store.add(alice, { kind: "preference", text: "Prefers metric units." });
    await store.add(alice, { kind: "fact", text: "Prefers metric units." });
    await store.add(bob, { kind: "preference", text: "Prefers metric units." });
    const near = await store.nearest(alice, { kind: "preference", text: "Prefers metric units!" });
    expect(near).toHaveLength(1);
    expect(near[0].memory.id).toBe(metric.id);
    expect(near[0].similarity).toBeGreaterThan(0.9);
    const far = await store.nearest(alice, { kind: "preference", text: "Owns a red bicycle." });
    expect(far[0].similarity).toBeLessThan(0.5);
  });

  it("tenant knowledge is searchable by the tenant's users when asked; global likewise", async () => {
    const policy = await store.add({ level: "tenant", tenantId: "acme" }, { kind: "knowledge", text: "Our return policy is 30 days." });
    const globalFact = await store.add({ level: "global" }, { kind: "knowledge", text: "Return shipping labels are printable from the orders page." });
    await store.add({ level: "tenant", tenantId: "globex" }, { kind: "knowledge", text: "Our return policy is 90 days." });
    expect(await store.search(alice, "what is the return policy?")).toEqual([]);
    const withTenant = await store.search(alice, "what is the return policy?", { include: ["tenant"] });
    expect(withTenant.map((m) => m.id)).toEqual([policy.id]);
    expect(withTenant[0].scope).toBe("tenant");
    const withBoth = await store.search(alice, "return policy shipping labels", { include: ["tenant", "global"] });
    expect(withBoth.map((m) => m.id).sort()).toEqual([policy.id, globalFact.id].sort());
    expect(await store.get(alice, policy.id)).toBeNull();
  });

  describe("isolation", () => {
    it("user B never retrieves user A's memory, even with near-identical text", async () => {
      const secret = await store.add(alice, { kind: "fact", text: "My lucky number is 4471." });
      await store.add(bob, { kind: "fact", text: "My lucky number is 9902." });
      const bobHits = await store.search(bob, "my lucky number is 4471", { minSimilarity: 0, limit: 50, include: ["tenant", "global"] });
      expect(bobHits.map((m) => m.userId)).toEqual(["bob"]);
      expect(bobHits.some((m) => m.id === secret.id)).toBe(false);
      expect(await store.get(bob, secret.id)).toBeNull();
      expect(await store.markUsed(bob, [secret.id])).toBe(0);
      expect((await store.export(bob)).map((m) => m.text)).toEqual(["My lucky number is 9902."]);
    });

    it("the same user id in two tenants stays separate", async () => {
      const inAcme = await store.add({ tenantId: "acme", userId: "sam" }, { kind: "fact", text: "Sam drives a blue van." });
      const inGlobex = await store.add({ tenantId: "globex", userId: "sam" }, { kind: "fact", text: "Sam drives a blue truck." });
      const acmeHits = await store.search({ tenantId: "acme", userId: "sam" }, "blue van truck", { minSimilarity: 0 });
      expect(acmeHits.map((m) => m.id)).toEqual([inAcme.id]);
      const globexHits = await store.search({ tenantId: "globex", userId: "sam" }, "blue van truck", { minSimilarity: 0 });
      expect(globexHits.map((m) => m.id)).toEqual([inGlobex.id]);
      expect(await store.deleteAll({ tenantId: "acme", userId: "sam" })).toBe(1);
      expect(await store.get({ tenantId: "globex", userId: "sam" }, inGlobex.id)).not.toBeNull();
    });

    it("a tenant-scope deleteAll removes tenant knowledge only, not its users' memories", async () => {
      await store.add({ level: "tenant", tenantId: "acme" }, { kind: "knowledge", text: "Support hours are 9 to 5." });
      const mine = await store.add(alice, { kind: "fact", text: "Works 9 to 5." });
      expect(await store.deleteAll({ level: "tenant", tenantId: "acme" })).toBe(1);
      expect(await store.get(alice, mine.id)).not.toBeNull();
    });
  });

  describe("scope and bad input", () => {
    const countRows = async () => (await db.query<{ n: number }>("SELECT count(*)::int AS n FROM memories")).rows[0].n;

    it("a missing or empty scope is SCOPE_REQUIRED, never a wider read", async () => {
      await store.add(alice, { kind: "fact", text: "Has two cats." });
      for (const scope of [undefined, null, {}, { tenantId: "acme" }, { tenantId: "", userId: "alice" }, { tenantId: "acme", userId: "  " }, { userId: "alice" }]) {
        await expect(store.search(scope as never, "cats")).rejects.toMatchObject({ code: "SCOPE_REQUIRED" });
        await expect(store.add(scope as never, { kind: "fact", text: "x" })).rejects.toMatchObject({ code: "SCOPE_REQUIRED" });
        await expect(store.deleteAll(scope as never)).rejects.toMatchObject({ code: "SCOPE_REQUIRED" });
      }
      expect(await countRows()).toBe(1);
    });

    it("empty, oversized and NUL-bearing text is INVALID_INPUT and stores nothing", async () => {
      const small = new MemoryRepository(db, { writePolicy: { maxTextChars: 40 } });
      await small.add(alice, { kind: "fact", text: "Exactly forty characters of memory text." });
      for (const text of ["", "   ", "x".repeat(41), "nul\0byte", 42 as unknown as string]) {
        const err = await small.add(alice, { kind: "fact", text }).catch((e) => e);
        expect(isMemoryError(err, "INVALID_INPUT")).toBe(true);
      }
      await expect(small.addMany(alice, [{ kind: "fact", text: "fine" }, { kind: "fact", text: "" }])).rejects.toMatchObject({ code: "INVALID_INPUT", details: { field: "memories[1].text" } });
      await expect(small.add(alice, { kind: "secret" as never, text: "x" })).rejects.toMatchObject({ code: "INVALID_INPUT" });
      await expect(small.add(alice, { kind: "fact", text: "x", confidence: 1.5 })).rejects.toMatchObject({ code: "INVALID_INPUT" });
      expect(await countRows()).toBe(1);
    });

    it("NaN, Infinity and wrong-length vectors are refused; the dimension is checked against the database", async () => {
      await store.add(alice, { kind: "fact", text: "Speaks Portuguese." });
      const good = new LocalHashingEmbeddings().embedSync("x");
      const withNaN = [...good];
      withNaN[3] = NaN;
      const withInf = [...good];
      withInf[7] = Infinity;
      await expect(store.add(alice, { kind: "fact", text: "a", embedding: withNaN })).rejects.toMatchObject({ code: "INVALID_INPUT" });
      await expect(store.add(alice, { kind: "fact", text: "a", embedding: withInf })).rejects.toMatchObject({ code: "INVALID_INPUT" });
      await expect(store.add(alice, { kind: "fact", text: "a", embedding: good.slice(0, 100) })).rejects.toMatchObject({ code: "EMBEDDING_DIMENSION_MISMATCH" });
      await expect(store.search(alice, "x", { queryEmbedding: good.slice(0, 100) })).rejects.toMatchObject({ code: "EMBEDDING_DIMENSION_MISMATCH" });
      const other = new MemoryRepository(db, { embeddings: new LocalHashingEmbeddings({ dims: 256 }) });
      const err = await other.add(alice, { kind: "fact", text: "Speaks Spanish." }).catch((e) => e);
      expect(err).toMatchObject({ code: "EMBEDDING_DIMENSION_MISMATCH" });
      expect(err.message).toContain("langgraph-memory reembed");
      await expect(other.search(alice, "Portuguese")).rejects.toMatchObject({ code: "EMBEDDING_DIMENSION_MISMATCH" });
      expect(await countRows()).toBe(1);
    });

    it("a different embedder of the same dimension is refused too", async () => {
      await store.add(alice, { kind: "fact", text: "Speaks Portuguese." });
      // Same 512 dimensions, another model: its vectors are not comparable either.
      const same = new MemoryRepository(db, { embedderId: "other-model/512" });
      await expect(same.search(alice, "Portuguese")).rejects.toMatchObject({ code: "EMBEDDING_DIMENSION_MISMATCH" });
      await expect(same.add(alice, { kind: "fact", text: "Speaks Spanish." })).rejects.toMatchObject({ code: "EMBEDDING_DIMENSION_MISMATCH" });
    });

    it("SQL and quotes in content are stored verbatim and searchable", async () => {
      const nasty = `Robert'); DROP TABLE memories; -- "quoted" \\ back\\slash %_ $1 ::jsonb`;
      const m = await store.add(alice, { kind: "fact", text: nasty, metadata: { "odd'key": "v\"al", sql: "'; DELETE FROM memories; --" } });
      expect((await store.get(alice, m.id))!.text).toBe(nasty);
      expect((await store.get(alice, m.id))!.metadata).toEqual({ "odd'key": 'v"al', sql: "'; DELETE FROM memories; --" });
      const hits = await store.search(alice, "'; DROP TABLE memories; -- Robert", { minSimilarity: 0 });
      expect(hits[0].text).toBe(nasty);
      expect(await store.search(alice, "!!! & | <-> :* ''")).toEqual([]);
      expect(await countRows()).toBe(1);
    });

    it("malformed ids, unknown include values and bad limits are INVALID_INPUT", async () => {
      await expect(store.get(alice, "1; DROP TABLE memories")).rejects.toMatchObject({ code: "INVALID_INPUT" });
      await expect(store.search(alice, "x", { include: ["users" as never] })).rejects.toMatchObject({ code: "INVALID_INPUT" });
      await expect(store.search(alice, "x", { limit: 0 })).rejects.toMatchObject({ code: "INVALID_INPUT" });
      await expect(store.update(alice, "00000000-0000-0000-0000-000000000000", {})).rejects.toMatchObject({ code: "INVALID_INPUT" });
    });
  });

  it("embeds once per text on add and not at all when the embedding is given", async () => {
    const fresh = await openTestDatabase(engine);
    try {
      const embeddings = new RecordingEmbeddings();
      const s = new MemoryRepository(fresh, { embeddings });
      await s.add(alice, { kind: "fact", text: "Collects vinyl records.", context: "We talked about music." });
      expect(embeddings.calls).toEqual([["Collects vinyl records.", "We talked about music."]]);
      const given = await embeddings.embedQuery("Collects stamps.");
      embeddings.calls = [];
      await s.add(alice, { kind: "fact", text: "Collects stamps.", embedding: given });
      expect(embeddings.calls).toEqual([]);
      const hits = await s.search(alice, "stamps", { queryEmbedding: given, minSimilarity: 0 });
      expect(embeddings.calls).toEqual([]);
      expect(hits[0].text).toBe("Collects stamps.");
      expect(hits[0].vectorSimilarity).toBeCloseTo(1, 5);
    } finally {
      await fresh.close();
    }
  });
});
