/**
 * The BaseStore door and the plugin's memory are one: `["memories", tenant, user]` items are the
 * memory table's rows, other namespaces' items a user's store wrote are covered by that user's
 * export, opt-out and delete-all, and tenants never see each other — on both engines.
 */
import { HumanMessage } from "@langchain/core/messages";
import { Annotation, START, StateGraph } from "@langchain/langgraph";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { Database } from "../../src/db/database.js";
import { extractAndStore } from "../../src/extraction/write/index.js";
import { MemoryRepository } from "../../src/store/memory-store.js";
import { LangGraphStore } from "../../src/store/langgraph-store.js";
import { MemoryControls } from "../../src/controls/memory-controls.js";
import { LocalHashingEmbeddings } from "../../src/embeddings/hashing-embeddings.js";
import { isMemoryError } from "../../src/errors.js";
import { openTestDatabase, testEngines } from "../helpers/db.js";

let seq = 0;

describe.each(testEngines())("the BaseStore door onto the memory table on %s", (engine) => {
  let db: Database;
  let repository: MemoryRepository;
  let store: LangGraphStore;
  let controls: MemoryControls;

  beforeAll(async () => {
    db = await openTestDatabase(engine);
    repository = new MemoryRepository(db, { candidateCache: false });
    store = new LangGraphStore(db, { memories: repository, index: { dims: 512, embeddings: new LocalHashingEmbeddings() } });
    controls = new MemoryControls(db, { store: repository, threads: false });
  });
  afterAll(async () => {
    await db.close();
  });

  /** A fresh user id (tests share the database). */
  const newUser = () => `user-${++seq}`;
  const code = (err: unknown) => (isMemoryError(err) ? err.code : String(err));

  it("an extracted memory is an item of ['memories', tenant, user]: search, get, put and delete act on its row", async () => {
    const alice = { tenantId: "acme", userId: newUser() };
    const ns = ["memories", alice.tenantId, alice.userId];
    await extractAndStore([new HumanMessage({ id: "m1", content: "I prefer metric units" })], { store: repository, scope: alice, threadId: `t-${alice.userId}` });
    const [row] = await repository.list(alice);
    expect(row.text).toBe("User prefers metric units.");

    const listed = await store.search(ns);
    expect(listed.map((i) => [i.key, i.namespace, i.value.text, i.value.origin])).toEqual([[row.id, ns, "User prefers metric units.", "extracted"]]);
    const ranked = await store.search(ns, { query: "which units should I use?" });
    expect(ranked[0].key).toBe(row.id);
    expect(ranked[0].score).toBeGreaterThan(0);
    expect(await store.search(ns, { filter: { kind: row.kind } })).toHaveLength(1);
    expect(await store.search(ns, { filter: { kind: "episode" } })).toHaveLength(0);

    const item = await store.get(ns, row.id);
    expect(item).toMatchObject({ key: row.id, value: { text: row.text, kind: row.kind, source: { threadId: `t-${alice.userId}` } } });
    await store.put(ns, row.id, { ...item!.value, text: "Prefers metric units, except for body height." });
    expect((await repository.get(alice, row.id))?.text).toBe("Prefers metric units, except for body height.");
    expect(await repository.list(alice)).toHaveLength(1);

    await store.delete(ns, row.id);
    expect(await repository.get(alice, row.id)).toBeNull();
    const log = await controls.deletionLog(alice);
    expect(log[0]).toMatchObject({ itemKind: "memory", itemCount: 1, via: "store.basestore.delete" });
  });

  it("a put under a key of the app's is a memory of the user: listed by the repository, the key kept", async () => {
    const bob = { tenantId: "acme", userId: newUser() };
    const ns = ["memories", bob.tenantId, bob.userId];
    await store.put(ns, "diet", { text: "Is vegetarian.", kind: "preference" });
    const [row] = await repository.list(bob);
    expect(row).toMatchObject({ text: "Is vegetarian.", kind: "preference" });
    expect((await store.get(ns, "diet"))?.value).toMatchObject({ text: "Is vegetarian.", metadata: {} });
    await store.put(ns, "diet", { text: "Is vegan." });
    expect((await repository.list(bob)).map((m) => [m.id, m.text])).toEqual([[row.id, "Is vegan."]]);
    expect((await store.search(ns)).map((i) => i.key)).toEqual(["diet"]);
    await store.delete(ns, "diet");
    expect(await repository.list(bob)).toEqual([]);
  });

  it("validates as the memory door does: fields, secrets, and namespaces without a tenant and user", async () => {
    const carol = { tenantId: "acme", userId: newUser() };
    const ns = ["memories", carol.tenantId, carol.userId];
    expect(code(await store.put(ns, "k", { text: "x", colour: "red" }).catch((e) => e))).toBe("INVALID_INPUT");
    expect(code(await store.put(ns, "k", { kind: "fact" }).catch((e) => e))).toBe("INVALID_INPUT");
    expect(code(await store.put(ns, "k", { text: "My password is hunter2-Secret!" }).catch((e) => e))).toBe("SENSITIVE_CONTENT");
    expect(code(await store.put(ns, "k", { text: "ok", kind: "mood" }).catch((e) => e))).toBe("INVALID_INPUT");
    expect(await repository.list(carol)).toEqual([]);
    for (const partial of [["memories"], ["memories", "acme"]]) {
      expect(code(await store.search(partial).catch((e) => e))).toBe("SCOPE_REQUIRED");
      expect(code(await store.get(partial, "k").catch((e) => e))).toBe("SCOPE_REQUIRED");
      expect(code(await store.put(partial, "k", { text: "x" }).catch((e) => e))).toBe("SCOPE_REQUIRED");
      expect(code(await store.delete(partial, "k").catch((e) => e))).toBe("SCOPE_REQUIRED");
    }
    expect(code(await store.search([...ns, "deeper"]).catch((e) => e))).toBe("INVALID_INPUT");
    // The batch refuses as a whole: nothing of it is written.
    const bad = store.batch([
      { namespace: ["notes"], key: "n", value: { text: "fine" } },
      { namespace: ns, key: "k", value: { text: "x", colour: "red" } },
    ]);
    expect(code(await bad.catch((e) => e))).toBe("INVALID_INPUT");
    expect(await store.get(["notes"], "n")).toBeNull();
  });

  it("two tenants with the same user id never see each other's memories or items", async () => {
    const userId = newUser();
    const acme = { tenantId: "acme", userId };
    const globex = { tenantId: "globex", userId };
    const [acmeRow] = await repository.addMany(acme, [{ kind: "fact", text: "Works on the rocket engine." }]);
    const [globexRow] = await repository.addMany(globex, [{ kind: "fact", text: "Works on the rocket fuel." }]);
    const acmeNs = ["memories", "acme", userId];
    const globexNs = ["memories", "globex", userId];
    expect((await store.search(acmeNs, { query: "rocket" })).map((i) => i.key)).toEqual([acmeRow.id]);
    expect((await store.search(globexNs, { query: "rocket" })).map((i) => i.key)).toEqual([globexRow.id]);
    expect(await store.get(acmeNs, globexRow.id)).toBeNull();
    // Another tenant's id as a key is only a key: it makes the user's own memory, and deletes nothing else.
    await store.put(acmeNs, globexRow.id, { text: "Likes launch days." });
    await store.delete(acmeNs, globexRow.id);
    expect((await repository.get(globex, globexRow.id))?.text).toBe("Works on the rocket fuel.");
    expect((await repository.list(acme)).map((m) => m.id)).toEqual([acmeRow.id]);

    // Other namespaces: a store per tenant.
    await store.forScope(acme).put(["notes"], "n1", { text: "acme note" });
    await store.forScope(globex).put(["notes"], "n1", { text: "globex note" });
    expect((await store.forScope(acme).search(["notes"])).map((i) => i.value.text)).toEqual(["acme note"]);
    expect((await store.forScope(globex).get(["notes"], "n1"))?.value.text).toBe("globex note");
    // A store bound to one tenant or user refuses another's memories namespace.
    expect(code(await store.forScope(acme).search(globexNs).catch((e) => e))).toBe("SCOPE_MISMATCH");
    expect(code(await store.forScope({ tenantId: "acme", userId: "someone-else" }).search(acmeNs).catch((e) => e))).toBe("SCOPE_MISMATCH");
    expect(code(await new LangGraphStore(db, { tenantId: "acme", memories: repository }).get(globexNs, globexRow.id).catch((e) => e))).toBe("SCOPE_MISMATCH");
  });

  it("inside a graph, a node's store for its run keeps tenants apart, and reads the user's memories", async () => {
    const userId = newUser();
    await repository.add({ tenantId: "initech", userId }, { kind: "preference", text: "Prefers short answers." });
    const State = Annotation.Root({ note: Annotation<string>, seen: Annotation<string[]> });
    const graph = new StateGraph(State)
      .addNode("remember", async (state, config: LangGraphRunnableConfig) => {
        // LangGraph hands the store no run config: the node takes the store of its run.
        await store.forConfig(config).put(["notes"], "last", { text: state.note });
        const { tenant_id, user_id } = config.configurable ?? {};
        const memories = await config.store!.search(["memories", tenant_id, user_id], { query: "answers" });
        return { seen: memories.map((m) => String(m.value.text)) };
      })
      .addEdge(START, "remember")
      .compile({ store });
    const [initech, umbrella] = await Promise.all([
      graph.invoke({ note: "initech's", seen: [] }, { configurable: { tenant_id: "initech", user_id: userId } }),
      graph.invoke({ note: "umbrella's", seen: [] }, { configurable: { tenant_id: "umbrella", user_id: userId } }),
    ]);
    expect(initech.seen).toEqual(["Prefers short answers."]);
    expect(umbrella.seen).toEqual([]);
    expect((await store.forScope({ tenantId: "initech" }).get(["notes"], "last"))?.value.text).toBe("initech's");
    expect((await store.forScope({ tenantId: "umbrella" }).get(["notes"], "last"))?.value.text).toBe("umbrella's");
    // The items are the run's user's: their export carries them.
    const exported = await controls.export({ tenantId: "initech", userId });
    expect(exported.storeItems?.map((i) => [i.namespace, i.key, i.value])).toEqual([[["notes"], "last", { text: "initech's" }]]);
  });

  it("export, opt-out and delete-all cover the BaseStore: the user's items in every namespace and their memories", async () => {
    const dana = { tenantId: "acme", userId: newUser() };
    const erin = { tenantId: "acme", userId: newUser() };
    const danas = store.forScope(dana);
    const shared = store.forScope({ tenantId: "acme" });
    await danas.put(["notes", dana.userId], "n1", { text: "Dentist on Friday" });
    await danas.put(["prefs"], `theme-${dana.userId}`, { theme: "dark" });
    await danas.put(["memories", "acme", dana.userId], "pet", { text: "Has a cat named Miso." });
    await store.forScope(erin).put(["notes", erin.userId], "n1", { text: "Erin's note" });
    await shared.put(["handbook"], `h-${dana.userId}`, { text: "Shared by the tenant" });

    const doc = await controls.export(dana);
    expect(doc.storeItems?.map((i) => i.key).sort()).toEqual(["n1", `theme-${dana.userId}`].sort());
    expect(doc.memories.map((m) => m.text)).toEqual(["Has a cat named Miso."]);

    // Opted out: nothing of the user is read, through any store, and nothing is written.
    await controls.optOut(dana);
    expect(await shared.search(["notes", dana.userId])).toEqual([]);
    expect(await shared.get(["prefs"], `theme-${dana.userId}`)).toBeNull();
    expect(await store.search(["memories", "acme", dana.userId])).toEqual([]);
    expect(code(await danas.put(["notes", dana.userId], "n2", { text: "x" }).catch((e) => e))).toBe("OPTED_OUT");
    expect(code(await store.put(["memories", "acme", dana.userId], "k", { text: "x" }).catch((e) => e))).toBe("OPTED_OUT");
    // Deleting still works while opted out, through the BaseStore too.
    await store.delete(["memories", "acme", dana.userId], "pet");
    await controls.optIn(dana);
    expect((await shared.search(["notes", dana.userId])).map((i) => i.key)).toEqual(["n1"]);
    expect(await store.get(["memories", "acme", dana.userId], "pet")).toBeNull();
    await danas.put(["memories", "acme", dana.userId], "pet", { text: "Has a cat named Miso." });

    const { token } = await controls.requestDeleteAll(dana);
    const counts = await controls.deleteAll(dana, token);
    expect(counts).toMatchObject({ storeItems: 2, memories: 1 });
    expect(await shared.search(["notes", dana.userId])).toEqual([]);
    expect(await shared.get(["prefs"], `theme-${dana.userId}`)).toBeNull();
    expect(await store.search(["memories", "acme", dana.userId])).toEqual([]);
    // Nobody else's items go: another user's, and the tenant's shared ones.
    expect((await shared.get(["notes", erin.userId], "n1"))?.value.text).toBe("Erin's note");
    expect((await shared.get(["handbook"], `h-${dana.userId}`))?.value.text).toBe("Shared by the tenant");
    expect((await controls.deletionLog(dana)).map((e) => e.itemKind)).toContain("store_item");

    // Import restores the exported items as the user's (memories as memories), skipping what the
    // tenant already holds and items holding secrets.
    const secret = { namespace: ["notes", dana.userId], key: "pw", value: { text: "my password is Hunter2-Secret!" }, createdAt: doc.exportedAt, updatedAt: doc.exportedAt, expiresAt: null, ttlMinutes: null };
    const taken = { ...doc.storeItems![0], namespace: ["handbook"], key: `h-${dana.userId}`, value: { text: "squatted" } };
    const result = await controls.import(dana, { ...doc, storeItems: [...doc.storeItems!, secret, taken] });
    expect(result.storeItems).toEqual({ imported: 2, skipped: 1 });
    expect(result.refused).toMatchObject({ storeItems: 1 });
    expect((await controls.export(dana)).storeItems?.map((i) => [i.namespace, i.key, i.value])).toEqual(doc.storeItems!.map((i) => [i.namespace, i.key, i.value]));
    expect((await shared.get(["handbook"], `h-${dana.userId}`))?.value.text).toBe("Shared by the tenant");
    expect((await store.search(["memories", "acme", dana.userId])).map((i) => i.value.text)).toEqual(["Has a cat named Miso."]);
    const bad = await controls.import(dana, { ...doc, storeItems: [{ ...doc.storeItems![0], namespace: ["memories", "acme", dana.userId] }] }).catch((e) => e);
    expect(code(bad)).toBe("INVALID_INPUT");

    // Opt-out with purge deletes them too.
    await store.forScope(erin).put(["notes", erin.userId], "n2", { text: "Erin's second note" });
    const { purged } = await controls.optOut(erin, { purge: true });
    expect(purged?.storeItems).toBe(2);
    expect(await shared.search(["notes", erin.userId])).toEqual([]);
  });
});
