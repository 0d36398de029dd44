import { InMemoryStore, type BaseStore } from "@langchain/langgraph-checkpoint";
import type { Database } from "../../src/db/database.js";
import { LangGraphStore } from "../../src/store/langgraph-store.js";
import { LocalHashingEmbeddings } from "../../src/embeddings/hashing-embeddings.js";
import { openTestDatabase, testEngines } from "../helpers/db.js";

const embeddings = new LocalHashingEmbeddings({ dims: 128 });

/** Strip timestamps (they differ between stores) and round scores (ours are float4). */
function shape(items: Array<{ namespace: string[]; key: string; value: unknown; score?: number }>) {
  return items.map((i) => ({ namespace: i.namespace, key: i.key, value: i.value, score: i.score === undefined ? undefined : Math.round(i.score * 1e4) / 1e4 }));
}

async function seed(store: BaseStore): Promise<void> {
  await store.put(["docs", "acme"], "a", { text: "Python tutorial for beginners", score: 4.5, tag: "py", lang: "en" });
  await store.put(["docs", "acme"], "b", { text: "TypeScript guide", score: 3, tag: "ts", lang: "en" });
  await store.put(["docs", "acme"], "c", { text: "Rust handbook", score: 5, tag: "rs", lang: null });
  await store.put(["docs", "acme-corp"], "d", { text: "Python cookbook", score: 4.9, tag: "py" });
  await store.put(["docs", "acme", "archive"], "e", { text: "Old Python notes", score: 1, tag: "py" });
  await store.put(["users", "alice", "prefs"], "units", { text: "metric units", score: 2 });
}

describe.each(testEngines())("LangGraphStore (BaseStore door) on %s, side by side with InMemoryStore", (engine) => {
  let db: Database;
  let ours: LangGraphStore;
  let reference: InMemoryStore;

  beforeAll(async () => {
    db = await openTestDatabase(engine);
  });
  afterAll(async () => {
    await db.close();
  });
  beforeEach(async () => {
    await db.query("DELETE FROM store_items");
    ours = new LangGraphStore(db, { tenantId: "t1", index: { dims: 128, embeddings, fields: ["text"] } });
    reference = new InMemoryStore({ index: { dims: 128, embeddings, fields: ["text"] } });
    await seed(ours);
    await seed(reference);
  });

  const searches: Array<[string, string[], Parameters<BaseStore["search"]>[1]]> = [
    ["everything", [], { limit: 100 }],
    ["a prefix (whole segments only)", ["docs", "acme"], {}],
    ["a deeper prefix", ["docs", "acme", "archive"], {}],
    ["an exact-value filter", ["docs"], { filter: { tag: "py" } }],
    ["$eq and $ne (missing field matches $ne)", ["docs"], { filter: { lang: { $ne: "en" } } }],
    ["$gt/$gte/$lt/$lte on numbers", ["docs"], { filter: { score: { $gte: 3, $lt: 5 } } }],
    ["$in and $nin", ["docs"], { filter: { tag: { $in: ["py", "rs"] }, score: { $nin: [1] } } }],
    ["null as a value", ["docs"], { filter: { lang: null } }],
    ["limit and offset", ["docs"], { limit: 2, offset: 1 }],
    ["a semantic query", ["docs"], { query: "python programming" }],
    ["a semantic query with filter and paging", [], { query: "python", filter: { tag: "py" }, limit: 2, offset: 1 }],
  ];

  it.each(searches)("search with %s returns what InMemoryStore returns", async (_name, prefix, options) => {
    const expected = shape(await reference.search(prefix, options));
    const got = shape(await ours.search(prefix, options));
    expect(got).toEqual(expected);
  });

  it("never returns a sibling namespace that merely starts with the same text", async () => {
    const got = await ours.search(["docs", "acme"], { limit: 100 });
    expect(got.map((i) => i.namespace.join("/"))).not.toContain("docs/acme-corp");
    expect(got.map((i) => i.key).sort()).toEqual(["a", "b", "c", "e"]);
  });

  it("get, overwrite and delete behave like InMemoryStore", async () => {
    for (const s of [ours, reference] as BaseStore[]) {
      await s.put(["docs", "acme"], "b", { text: "TypeScript guide, 2nd edition", score: 3.5 });
      await s.delete(["docs", "acme"], "c");
    }
    for (const [ns, key] of [[["docs", "acme"], "b"], [["docs", "acme"], "c"], [["nope"], "x"]] as const) {
      const a = await ours.get([...ns], key);
      const b = await reference.get([...ns], key);
      expect(a && { value: a.value, key: a.key, namespace: a.namespace }).toEqual(b && { value: b.value, key: b.key, namespace: b.namespace });
    }
    const item = await ours.get(["docs", "acme"], "b");
    expect(item!.createdAt.getTime()).toBeLessThanOrEqual(item!.updatedAt.getTime());
    expect(shape(await ours.search(["docs"], { query: "typescript edition" }))).toEqual(shape(await reference.search(["docs"], { query: "typescript edition" })));
  });

  it("listNamespaces with prefix, suffix, wildcards, maxDepth and paging matches InMemoryStore", async () => {
    const cases: Array<Parameters<BaseStore["listNamespaces"]>[0]> = [
      {},
      { prefix: ["docs"] },
      { prefix: ["docs", "acme"] },
      { suffix: ["prefs"] },
      { prefix: ["*", "acme"] },
      { maxDepth: 2 },
      { prefix: ["docs"], maxDepth: 2, limit: 1, offset: 1 },
    ];
    for (const c of cases) expect(await ours.listNamespaces(c)).toEqual(await reference.listNamespaces(c));
  });

  it("batch: reads see the state before the batch's writes, the last put to a key wins", async () => {
    const ops = [
      { namespace: ["docs", "acme"], key: "a" },
      { namespace: ["docs", "acme"], key: "a", value: { text: "first" } },
      { namespace: ["docs", "acme"], key: "a", value: { text: "second" } },
      { namespacePrefix: ["docs", "acme"], limit: 1, offset: 0 },
    ];
    const [gotA, , , gotSearch] = (await ours.batch(ops as never)) as unknown as [{ value: unknown }, null, null, Array<{ key: string }>];
    const [refA, , , refSearch] = (await reference.batch(ops as never)) as unknown as [{ value: unknown }, null, null, Array<{ key: string }>];
    // Ours returns the item as it was before the batch. (InMemoryStore hands out the stored object
    // itself, which its later put mutates, so its get result already shows "second".)
    expect(gotA.value).toMatchObject({ text: "Python tutorial for beginners" });
    expect(refA.value).toEqual({ text: "second" });
    expect(gotSearch.map((i) => i.key)).toEqual(refSearch.map((i) => i.key));
    expect((await ours.get(["docs", "acme"], "a"))!.value).toEqual({ text: "second" });
  });

  it("per-item TTL: an expired item disappears from get, search and listNamespaces; sweep deletes it", async () => {
    await ours.put(["tmp"], "short", { text: "soon gone" }, undefined, { ttl: 1 });
    await ours.put(["tmp"], "long", { text: "stays" }, undefined, { ttl: 60 });
    expect((await ours.get(["tmp"], "short"))!.value).toEqual({ text: "soon gone" });
    await db.query("UPDATE store_items SET expires_at = now() - interval '1 second' WHERE key = 'short'");
    expect(await ours.get(["tmp"], "short")).toBeNull();
    expect((await ours.search(["tmp"])).map((i) => i.key)).toEqual(["long"]);
    expect(await ours.sweepExpired()).toBe(1);
    const { rows } = await db.query<{ mins: number }>("SELECT extract(epoch FROM expires_at - now()) / 60 AS mins FROM store_items WHERE key = 'long'");
    expect(Number(rows[0].mins)).toBeGreaterThan(59);
  });

  it("reads refresh the TTL when refreshOnRead (the default)", async () => {
    await ours.put(["tmp"], "k", { text: "x" }, undefined, { ttl: 10 });
    await db.query("UPDATE store_items SET expires_at = now() + interval '1 minute' WHERE key = 'k'");
    await ours.get(["tmp"], "k");
    const { rows } = await db.query<{ mins: number }>("SELECT extract(epoch FROM expires_at - now()) / 60 AS mins FROM store_items WHERE key = 'k'");
    expect(Number(rows[0].mins)).toBeGreaterThan(9);
  });

  it("tenants are isolated: another tenant's store sees none of these items", async () => {
    const other = new LangGraphStore(db, { tenantId: "t2", index: { dims: 128, embeddings, fields: ["text"] } });
    expect(await other.search([], { limit: 100 })).toEqual([]);
    expect(await other.get(["docs", "acme"], "a")).toBeNull();
    expect(await other.listNamespaces()).toEqual([]);
  });

  describe("bad input", () => {
    const count = async () => (await db.query<{ n: number }>("SELECT count(*)::int AS n FROM store_items")).rows[0].n;

    it("labels with % and quotes are stored verbatim and matched exactly; a period is INVALID_INPUT", async () => {
      const ns = ["100%", `it's "quoted"`, "a_b", "back\\slash"];
      await ours.put(ns, "k", { v: 1 });
      expect((await ours.get(ns, "k"))!.namespace).toEqual(ns);
      expect(await ours.search(["100"], {})).toEqual([]);
      expect(await ours.search(["1%"], {})).toEqual([]);
      expect((await ours.search(["100%"], {})).map((i) => i.namespace)).toEqual([ns]);
      expect((await ours.search(["100%", `it's "quoted"`])).length).toBe(1);
      const before = await count();
      await expect(ours.put(["a.b"], "k", { v: 1 })).rejects.toMatchObject({ code: "INVALID_INPUT" });
      await expect(ours.put(["a:b"], "k", { v: 1 })).rejects.toMatchObject({ code: "INVALID_INPUT" });
      await expect(ours.put([], "k", { v: 1 })).rejects.toMatchObject({ code: "INVALID_INPUT" });
      await expect(ours.put(["ok", ""], "k", { v: 1 })).rejects.toMatchObject({ code: "INVALID_INPUT" });
      await expect(ours.search(["a.b"])).rejects.toMatchObject({ code: "INVALID_INPUT" });
      expect(await count()).toBe(before);
    });

    it("an unknown filter operator is INVALID_INPUT (InMemoryStore silently matches nothing)", async () => {
      await expect(ours.search(["docs"], { filter: { score: { $regex: ".*" } } })).rejects.toMatchObject({ code: "INVALID_INPUT" });
      await expect(ours.search(["docs"], { filter: { score: { $gt: 1, $like: "%" } } })).rejects.toMatchObject({ code: "INVALID_INPUT" });
      await expect(ours.search(["docs"], { filter: { tag: { $in: "py" } } })).rejects.toMatchObject({ code: "INVALID_INPUT" });
      expect(await reference.search(["docs"], { filter: { score: { $regex: ".*" } } })).toEqual([]);
    });

    it("$exists matches on presence of a field", async () => {
      expect((await ours.search(["docs"], { filter: { lang: { $exists: true } }, limit: 10 })).map((i) => i.key).sort()).toEqual(["a", "b", "c"]);
      expect((await ours.search(["docs"], { filter: { lang: { $exists: false } }, limit: 10 })).map((i) => i.key).sort()).toEqual(["d", "e"]);
    });

    it("SQL in keys, values and filter fields is data", async () => {
      const key = "k'); DROP TABLE store_items; --";
      await ours.put(["sql"], key, { "f'; --": "v'; DELETE FROM store_items; --" });
      expect((await ours.get(["sql"], key))!.value).toEqual({ "f'; --": "v'; DELETE FROM store_items; --" });
      expect((await ours.search(["sql"], { filter: { "f'; --": "v'; DELETE FROM store_items; --" } })).map((i) => i.key)).toEqual([key]);
      expect(await count()).toBe(7);
    });

    it("an embedder returning the wrong dimension is EMBEDDING_DIMENSION_MISMATCH and stores nothing", async () => {
      const wrong = new LangGraphStore(db, { tenantId: "t1", index: { dims: 64, embeddings, fields: ["text"] } });
      const before = await count();
      await expect(wrong.put(["docs"], "z", { text: "hello" })).rejects.toMatchObject({ code: "EMBEDDING_DIMENSION_MISMATCH" });
      expect(await count()).toBe(before);
      const nan = new LangGraphStore(db, { tenantId: "t1", index: { dims: 2, embed: async (texts) => texts.map(() => [NaN, 1]) } });
      await expect(nan.put(["docs"], "z", { text: "hello" })).rejects.toMatchObject({ code: "INVALID_INPUT" });
      expect(await count()).toBe(before);
    });
  });
});
