import pg from "pg";
import type { Database } from "../../src/db/database.js";
import { quoteIdent } from "../../src/db/identifier.js";
import { MemoryRepository } from "../../src/store/memory-store.js";
import { MemoryControls } from "../../src/controls/memory-controls.js";
import { RetentionSweep } from "../../src/retention/retention-sweep.js";
import { ManualClock } from "../../src/jobs/clock.js";
import { openTestDatabase, testEngines } from "../helpers/db.js";

const DAY = 86_400_000;

describe.each(testEngines())("RetentionSweep on %s", (engine) => {
  let db: Database;
  let store: MemoryRepository;
  let controls: MemoryControls;
  const alice = { tenantId: "acme", userId: "alice" };
  const bob = { tenantId: "acme", userId: "bob" };
  const count = async (sql: string, params: unknown[] = []) => (await db.query<{ n: number }>(sql, params)).rows[0].n;

  beforeAll(async () => {
    db = await openTestDatabase(engine);
    store = new MemoryRepository(db);
    controls = new MemoryControls(db, { store });
  });
  afterAll(async () => {
    await db.close();
  });
  afterEach(async () => {
    await db.exec(
      "DELETE FROM memories; DELETE FROM memory_settings; DELETE FROM memory_deletion_audit; DELETE FROM retention_runs; DELETE FROM profiles; DELETE FROM profile_history; DELETE FROM memory_confirmations;",
    );
  });

  /** Memories at ages relative to the clock, each named for what the sweep must do to it. */
  async function seed(clock: ManualClock) {
    const at = (days: number) => new Date(clock.now().getTime() - days * DAY);
    const add = (text: string, kind: "episode" | "fact" | "preference", origin: "user_stated" | "extracted" | "inferred", createdDaysAgo: number, extra: Record<string, unknown> = {}) =>
      store.add(alice, { kind, text, source: { origin }, createdAt: at(createdDaysAgo), ...extra });
    const m = {
      oldEpisode: await add("Old episode past the TTL.", "episode", "extracted", 200),
      expiredFact: await add("Fact that asked to expire.", "fact", "user_stated", 5, { expiresAt: at(1) }),
      freshEpisode: await add("Recent user-stated episode.", "episode", "user_stated", 10),
      unusedEpisode: await add("Extracted episode nobody ever needed.", "episode", "extracted", 40),
      usedEpisode: await add("Extracted episode that was used.", "episode", "extracted", 40),
      unusedUserEpisode: await add("User-stated episode never used.", "episode", "user_stated", 40),
      extractedFact: await add("Extracted fact never used.", "fact", "extracted", 100),
      statedPreference: await add("Stated preference never used.", "preference", "user_stated", 100),
      youngInference: await add("Young inference.", "fact", "inferred", 10, { confidence: 0.8 }),
      idleInference: await add("Inference idle for 120 days.", "preference", "inferred", 200, { confidence: 0.9 }),
      staleInference: await add("Inference idle for 300 days.", "fact", "inferred", 400, { confidence: 0.9 }),
    };
    await store.markUsed(alice, [m.usedEpisode.id], { now: at(5) });
    await store.markUsed(alice, [m.idleInference.id], { now: at(120) });
    await store.markUsed(alice, [m.staleInference.id], { now: at(300) });
    return m;
  }

  /** active: not deactivated; archived: set aside for going unused. */
  const stateOf = async (id: string) => {
    const m = await store.get(alice, id);
    return m ? { active: m.deactivatedAt === null, archived: m.archivedAt !== null, confidence: Math.round(m.confidence * 1000) / 1000 } : "deleted";
  };
  const ids = (found: Array<{ id: string }>) => found.map((x) => x.id);

  it("expires, archives and decays by the moved clock; a second run at the same time changes nothing", async () => {
    const clock = new ManualClock(Date.UTC(2030, 0, 1));
    const m = await seed(clock);
    const sweep = new RetentionSweep(db, { clock });
    const summary = await sweep.run();
    expect(summary).toMatchObject({ expired: 2, archivedUnused: 3, decayed: 2, deactivatedLowConfidence: 1, purgedUsers: 0 });
    expect(await stateOf(m.oldEpisode.id)).toBe("deleted");
    expect(await stateOf(m.expiredFact.id)).toBe("deleted");
    // Unused for 30 days (since creation, or since last use): archived, not deactivated.
    expect(await stateOf(m.unusedEpisode.id)).toEqual({ active: true, archived: true, confidence: 1 });
    for (const kept of [m.freshEpisode, m.usedEpisode, m.unusedUserEpisode, m.extractedFact, m.statedPreference]) {
      expect(await stateOf(kept.id)).toEqual({ active: true, archived: false, confidence: 1 });
    }
    expect(await stateOf(m.youngInference.id)).toEqual({ active: true, archived: false, confidence: 0.8 });
    expect(await stateOf(m.idleInference.id)).toEqual({ active: true, archived: true, confidence: 0.5 }); // 0.5^((120−30)/90)
    expect(await stateOf(m.staleInference.id)).toEqual({ active: false, archived: true, confidence: 0.125 }); // below 0.3: deactivated
    // Archived memories stay listed (they are alive) and exported; deactivated ones only with includeInactive.
    expect(ids(await store.list(alice))).toContain(m.unusedEpisode.id);
    expect(ids(await store.list(alice))).not.toContain(m.staleInference.id);
    expect(ids(await store.list(alice, { includeInactive: true }))).toContain(m.staleInference.id);
    // A deactivated memory is never retrieved, however relevant.
    expect(ids(await store.search(alice, "inference idle for 300 days", { minSimilarity: 0 }))).not.toContain(m.staleInference.id);
    // Deletions are audited per user, without content.
    const audit = await db.query<{ item_kind: string; item_count: number; via: string; user_id: string }>("SELECT item_kind, item_count, via, user_id FROM memory_deletion_audit");
    expect(audit.rows).toEqual([{ item_kind: "memory", item_count: 2, via: "retention.expire", user_id: "alice" }]);

    const again = await sweep.run();
    expect(again).toMatchObject({ expired: 0, archivedUnused: 0, decayed: 0, deactivatedLowConfidence: 0 });
    expect(await count("SELECT count(*)::int AS n FROM memory_deletion_audit")).toBe(1);

    // 90 days later the idle inference has decayed below the floor, the young inference and the
    // episode used 5 days before the first run have gone unused for 30 days and more; nothing
    // user-stated is touched.
    clock.advance(90 * DAY);
    const later = await sweep.run();
    expect(later).toMatchObject({ expired: 0, archivedUnused: 2, decayed: 2, deactivatedLowConfidence: 1 });
    expect(await stateOf(m.idleInference.id)).toEqual({ active: false, archived: true, confidence: 0.25 });
    expect(await stateOf(m.youngInference.id)).toEqual({ active: true, archived: true, confidence: 0.583 }); // 0.5^((100−30)/90)
    expect(await stateOf(m.usedEpisode.id)).toEqual({ active: true, archived: true, confidence: 1 });
    expect(await stateOf(m.statedPreference.id)).toEqual({ active: true, archived: false, confidence: 1 });
    // And at 180 days after creation every episode has expired, used or not.
    clock.advance(100 * DAY);
    expect((await sweep.run()).expired).toBe(4);
    expect(await count("SELECT count(*)::int AS n FROM memories WHERE kind = 'episode'")).toBe(0);
  });

  it("an archived memory is retrieved only when strongly relevant, and using it brings it back", async () => {
    const clock = new ManualClock(Date.UTC(2030, 0, 1));
    const m = await seed(clock);
    const twin = await store.add(alice, { kind: "episode", text: "Extracted episode about the nobody-needed report.", source: { origin: "extracted" }, createdAt: clock.now() });
    await new RetentionSweep(db, { clock }).run();
    expect(await stateOf(m.unusedEpisode.id)).toMatchObject({ archived: true });
    expect(await stateOf(twin.id)).toMatchObject({ archived: false });
    const floor = store.retrieval.archivedRelevanceFloor;
    expect(floor).toBe(0.5);
    // Every candidate the search ranks: an archived one only at or above the archived floor, the others above the ordinary one.
    const loose = await store.search(alice, "extracted episode nobody ever needed", { minSimilarity: 0, limit: 50, now: clock.now() });
    const archivedFound = loose.filter((x) => x.archivedAt !== null);
    expect(archivedFound.length).toBeGreaterThan(0);
    for (const x of archivedFound) expect(x.similarity).toBeGreaterThanOrEqual(floor);
    expect(loose.some((x) => x.archivedAt === null && x.similarity < floor)).toBe(true);
    // A weak match finds the active twin but not the archived episode…
    const weak = await store.search(alice, "episode report", { now: clock.now() });
    expect(ids(weak)).toContain(twin.id);
    expect(ids(weak)).not.toContain(m.unusedEpisode.id);
    // …a strong one finds the archived episode too.
    const strong = await store.search(alice, "extracted episode nobody ever needed", { now: clock.now() });
    const hit = strong.find((x) => x.id === m.unusedEpisode.id);
    expect(hit?.archivedAt).not.toBeNull();
    expect(hit!.similarity).toBeGreaterThanOrEqual(floor);
    // Used again (it was injected): no longer archived, so the weak match finds it as well.
    await store.markUsed(alice, [m.unusedEpisode.id], { now: clock.now() });
    expect(await stateOf(m.unusedEpisode.id)).toMatchObject({ archived: false });
    expect(ids(await store.search(alice, "episode report", { now: clock.now() }))).toContain(m.unusedEpisode.id);
    // The batched marks of the load node clear it too; `update` archives and un-archives explicitly.
    await store.update(alice, twin.id, { archived: true });
    expect(await stateOf(twin.id)).toMatchObject({ archived: true });
    store.markUsedLater(alice, [twin.id], { now: clock.now() });
    await store.flushUsage();
    expect(await stateOf(twin.id)).toMatchObject({ archived: false });
  });

  it("reactivating a deactivated memory makes it retrievable again; a user's edit protects an inference from decay", async () => {
    const clock = new ManualClock(Date.UTC(2030, 0, 1));
    const m = await seed(clock);
    await controls.editMemory(alice, m.staleInference.id, { text: "Confirmed by the user: inference idle for 300 days." });
    await new RetentionSweep(db, { clock }).run();
    expect(await stateOf(m.staleInference.id)).toMatchObject({ active: true, confidence: 1 });
    await store.update(alice, m.freshEpisode.id, { deactivated: true });
    expect(ids(await store.search(alice, "recent user-stated episode", { now: clock.now() }))).not.toContain(m.freshEpisode.id);
    await store.update(alice, m.freshEpisode.id, { deactivated: false });
    expect(ids(await store.search(alice, "recent user-stated episode", { now: clock.now() }))).toContain(m.freshEpisode.id);
  });

  it("works in small batches with the same result, and records the last run and when the next is due", async () => {
    const clock = new ManualClock(Date.UTC(2030, 0, 1));
    await seed(clock);
    const sweep = new RetentionSweep(db, { clock, retention: { batchSize: 1, intervalHours: 6 } });
    expect(await sweep.lastRun()).toBeNull();
    const summary = await sweep.run();
    expect(summary).toMatchObject({ expired: 2, archivedUnused: 3, decayed: 2, deactivatedLowConfidence: 1 });
    // One row per batch, and one more (short) batch per action to see it is done.
    expect(summary.batches).toBe(2 + 1 + (3 + 1) + (2 + 1) + 1);
    const last = await sweep.lastRun();
    expect(last).toMatchObject({ runId: summary.runId, status: "done", error: null });
    expect(last!.startedAt.toISOString()).toBe("2030-01-01T00:00:00.000Z");
    expect(last!.nextDueAt!.toISOString()).toBe("2030-01-01T06:00:00.000Z");
    expect(last!.summary).toMatchObject({ expired: 2, archivedUnused: 3 });
    await expect(sweep.run({ maxBatches: 0 })).rejects.toMatchObject({ code: "INVALID_INPUT" });
    await expect(sweep.run({ purgeOptedOut: { olderThanDays: -1 } })).rejects.toMatchObject({ code: "INVALID_INPUT" });
    expect(() => new RetentionSweep(db, { retention: { batchSize: 0 } })).toThrow(/batchSize/);
  });

  it("purges opted-out users only when asked (and only those opted out long enough), keeping them opted out", async () => {
    const clock = new ManualClock(new Date());
    await store.add(bob, { kind: "fact", text: "Bob's fact." });
    await controls.profiles.applyPatch(bob, { name: "Bob" }, { kind: "user_edit" });
    await store.add(alice, { kind: "fact", text: "Alice's fact." });
    await controls.optOut(bob);
    const sweep = new RetentionSweep(db, { clock });
    expect((await sweep.run()).purgedUsers).toBe(0);
    expect((await sweep.run({ purgeOptedOut: { olderThanDays: 30 } })).purgedUsers).toBe(0);
    expect(await count("SELECT count(*)::int AS n FROM memories WHERE user_id = 'bob'")).toBe(1);
    clock.advance(31 * DAY);
    const summary = await sweep.run({ purgeOptedOut: { olderThanDays: 30 } });
    expect(summary).toMatchObject({ purgedUsers: 1, purged: expect.objectContaining({ memories: 1, profile: 1 }) });
    expect(await count("SELECT count(*)::int AS n FROM memories WHERE user_id = 'bob'")).toBe(0);
    expect(await count("SELECT count(*)::int AS n FROM profiles WHERE user_id = 'bob'")).toBe(0);
    expect(await count("SELECT count(*)::int AS n FROM memories WHERE user_id = 'alice'")).toBe(1);
    expect(await controls.isOptedOut(bob)).toBe(true);
    expect((await controls.deletionLog(bob)).map((e) => [e.itemKind, e.via, e.actor])).toEqual(
      expect.arrayContaining([["memory", "retention.purgeOptedOut", "retention"], ["profile", "retention.purgeOptedOut", "retention"]]),
    );
    expect((await sweep.run({ purgeOptedOut: true })).purgedUsers).toBe(0); // already purged
  });

  it("reports each action as it starts, purge included only when asked", async () => {
    const sweep = new RetentionSweep(db, { controls });
    const seen: string[] = [];
    await sweep.run({ onStep: (step, index, total) => seen.push(`${index + 1}/${total} ${step}`) });
    expect(seen).toEqual(["1/4 expire", "2/4 archive unused", "3/4 decay", "4/4 expired confirmations"]);
    seen.length = 0;
    await sweep.run({ purgeOptedOut: true, onStep: (step, index, total) => seen.push(`${index + 1}/${total} ${step}`) });
    expect(seen).toEqual(["1/5 expire", "2/5 archive unused", "3/5 decay", "4/5 purge opted-out users", "5/5 expired confirmations"]);
  });

  it("removes expired delete-all confirmations", async () => {
    const clock = new ManualClock(new Date());
    const c = new MemoryControls(db, { store, clock });
    await c.requestDeleteAll(alice);
    await c.requestDeleteAll(bob);
    const sweep = new RetentionSweep(db, { clock });
    expect((await sweep.run()).confirmationsRemoved).toBe(0);
    clock.advance(11 * 60_000);
    expect((await sweep.run()).confirmationsRemoved).toBe(2);
  });

  if (engine === "postgres") {
    it("runs while an agent holds a row: skips the locked row without waiting, takes it next time", async () => {
      const clock = new ManualClock(Date.UTC(2030, 0, 1));
      const locked = await store.add(alice, { kind: "episode", text: "Being edited right now.", createdAt: new Date(clock.now().getTime() - 200 * DAY) });
      await store.add(alice, { kind: "episode", text: "Nobody holds this one.", createdAt: new Date(clock.now().getTime() - 200 * DAY) });
      const agent = new pg.Client({ connectionString: process.env.DATABASE_URL, options: `-c search_path=${quoteIdent(db.schema)},public` });
      await agent.connect();
      try {
        await agent.query("BEGIN");
        await agent.query("SELECT 1 FROM memories WHERE id = $1 FOR UPDATE", [locked.id]);
        const sweep = new RetentionSweep(db, { clock });
        const first = await sweep.run();
        expect(first.expired).toBe(1);
        expect(await count("SELECT count(*)::int AS n FROM memories WHERE id = $1", [locked.id])).toBe(1);
        await agent.query("COMMIT");
        expect((await sweep.run()).expired).toBe(1);
        expect(await count("SELECT count(*)::int AS n FROM memories")).toBe(0);
      } finally {
        await agent.end();
      }
    });
  }
});
