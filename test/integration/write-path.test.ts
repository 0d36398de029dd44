/**
 * The write path against the real store, on both engines: dedupe, supersede, forget, profile,
 * rules, opt-out, attribution, idempotent retries and the per-user write lock.
 */
import { HumanMessage } from "@langchain/core/messages";
import type { Database } from "../../src/db/database.js";
import type { MemoryCandidate } from "../../src/core/candidate.js";
import { extractAndStore, writeCandidates, type WriteReport } from "../../src/extraction/write/index.js";
import { MemoryRepository } from "../../src/store/memory-store.js";
import { openTestDatabase, testEngines } from "../helpers/db.js";
import { RecordingChatModel } from "../helpers/fake-chat-model.js";
import { InMemoryProfileTarget, InMemoryRuleTarget, InMemorySettingsTarget, StoreControlsTarget } from "../helpers/ports.js";

const DAY = 86_400_000;
let userSeq = 0;

function candidate(text: string, extra: Partial<MemoryCandidate> = {}): MemoryCandidate {
  return { kind: "fact", text, confidence: 0.9, action: "add", sourceMessageId: `m-${Math.random().toString(36).slice(2)}`, source: "user", extractor: "rules", ...extra };
}

describe.each(testEngines())("the write path on %s", (engine) => {
  let db: Database;
  let store: MemoryRepository;
  let user: { tenantId: string; userId: string };

  beforeAll(async () => {
    db = await openTestDatabase(engine);
    store = new MemoryRepository(db);
  });
  afterAll(async () => {
    await db.close();
  });
  beforeEach(() => {
    user = { tenantId: "acme", userId: `user-${++userSeq}` };
  });

  /** The user's own thread of that name (a thread belongs to the user who first used it). */
  const own = (name: string) => `${name}@${user.userId}`;

  /** Say something as the user (rule-based extraction) in thread t1. */
  const say = (id: string, text: string, extra: Partial<Parameters<typeof extractAndStore>[1]> = {}) =>
    extractAndStore([new HumanMessage({ id, content: text })], { store, scope: user, threadId: own("t1"), ...extra });

  const active = async () => (await store.list(user)).map((m) => m.text).sort();
  const all = () => store.export(user);

  it("duplicates collapse into one memory whose confidence and last-seen are refreshed", async () => {
    expect(await say("m1", "I prefer metric units")).toMatchObject({ added: 1 });
    const again = await say("m2", "I prefer metric units.");
    expect(again).toMatchObject({ added: 0, deduped: 1, superseded: 0 });
    // A near-identical wording (cosine ≥ 0.9 within the kind) collapses too.
    const near = await writeCandidates([candidate("The user prefers metric units!", { kind: "preference", confidence: 0.97 })], { store, scope: user, writer: "extraction" });
    expect(near).toMatchObject({ added: 0, deduped: 1 });
    const rows = await all();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ text: "User prefers metric units.", confidence: expect.closeTo(0.97, 5), supersededBy: null });
    expect(rows[0].metadata).toMatchObject({ subject: "units", seenCount: 3 });
    expect(typeof rows[0].metadata.lastSeenAt).toBe("string");
  });

  it("different statements of a multi-valued kind stay separate (likes sushi, likes ramen)", async () => {
    await say("m1", "I like sushi");
    await say("m2", "I like ramen");
    expect(await active()).toEqual(["User likes ramen.", "User likes sushi."]);
  });

  it("a contradiction of a subject slot supersedes the old value; reads return the newest only", async () => {
    const first = await say("m1", "I live in Berlin");
    const second = await say("m2", "Actually, I moved to Lisbon");
    expect(second).toMatchObject({ added: 0, superseded: 1 });
    const rows = await all();
    const berlin = rows.find((m) => m.text === "User lives in Berlin.")!;
    const lisbon = rows.find((m) => m.text === "User lives in Lisbon (moved there).")!;
    expect(berlin.id).toBe(first.memoryIds[0]);
    expect(berlin.supersededBy).toBe(lisbon.id);
    expect(lisbon.supersededBy).toBeNull();
    expect(await active()).toEqual(["User lives in Lisbon (moved there)."]);
    const hits = await store.search(user, "where does the user live?", { minSimilarity: 0 });
    expect(hits.map((h) => h.text)).toEqual(["User lives in Lisbon (moved there)."]);
  });

  it("a correction without a slot: the negation of a stored statement supersedes it", async () => {
    await say("m1", "I like ramen");
    await say("m2", "I like sushi");
    expect(await say("m3", "I don't like ramen anymore")).toMatchObject({ superseded: 1, added: 0 });
    expect(await active()).toEqual(["User dislikes ramen.", "User likes sushi."]);
  });

  it("a negation replaces only the value it negates: 'no longer at Acme' leaves 'works at Spotify'", async () => {
    await say("m1", "I work at Spotify");
    const r = await say("m2", "I no longer work at Acme");
    expect(r).toMatchObject({ superseded: 0, added: 1 });
    expect(await active()).toEqual(["User no longer works at Acme.", "User works at Spotify."]);
    // …while a negation of the stored value does replace it.
    expect(await say("m3", "I no longer work at Spotify")).toMatchObject({ superseded: 1 });
    expect(await active()).toEqual(["User no longer works at Acme.", "User no longer works at Spotify."]);
  });

  it("records thread, message and run id on every write, and extraction as the origin", async () => {
    const runs = new Map([["m9", "run-42"]]);
    await extractAndStore([new HumanMessage({ id: "m9", content: "I'm vegetarian" })], { store, scope: user, threadId: own("thread-7"), runIdOf: (id) => runs.get(id) });
    await writeCandidates([candidate("User's favourite colour is teal.", { kind: "preference", explicit: true, sourceMessageId: "m10" })], { store, scope: user, writer: "tool", threadId: own("thread-7"), runId: "run-43" });
    const rows = await all();
    expect(rows.find((m) => m.text === "User is vegetarian.")!.source).toEqual({ threadId: own("thread-7"), messageId: "m9", runId: "run-42", origin: "extracted" });
    expect(rows.find((m) => m.text === "User's favourite colour is teal.")!).toMatchObject({
      source: { threadId: own("thread-7"), messageId: "m10", runId: "run-43", origin: "user_stated" },
      metadata: { writer: "tool", extractor: "rules", explicit: true },
    });
  });

  it("episodes expire after writePolicy.episodeTtlDays; a repeat renews them", async () => {
    const t0 = new Date("2026-01-10T12:00:00Z");
    await say("m1", "ticket 812 solved by clearing cache", { now: () => t0, policy: { episodeTtlDays: 30 } });
    const [episode] = await all();
    expect(episode.kind).toBe("episode");
    expect(episode.expiresAt).toBe(new Date(t0.getTime() + 30 * DAY).toISOString());
    expect((await all()).filter((m) => m.kind === "fact")).toEqual([]);
    const t1 = new Date(t0.getTime() + 10 * DAY);
    await say("m2", "Ticket 812 solved by clearing cache", { now: () => t1, policy: { episodeTtlDays: 30 } });
    const [renewed] = await all();
    expect(renewed.id).toBe(episode.id);
    expect(renewed.expiresAt).toBe(new Date(t1.getTime() + 30 * DAY).toISOString());
  });

  it("an archived episode said again is in use again: collapsed into, no longer archived", async () => {
    await say("m1", "ticket 812 solved by clearing cache");
    const [episode] = await all();
    await store.update(user, episode.id, { archived: true });
    expect((await all())[0].archivedAt).not.toBeNull();
    expect(await say("m2", "Ticket 812 solved by clearing cache")).toMatchObject({ added: 0, deduped: 1 });
    const [again] = await all();
    expect(again.id).toBe(episode.id);
    expect(again.archivedAt).toBeNull();
  });

  it("a retried pass (same messages again) writes each memory once", async () => {
    const messages = [new HumanMessage({ id: "m1", content: "I live in Berlin. I prefer metric units. I like jazz." })];
    const first = await extractAndStore(messages, { store, scope: user, threadId: own("t1") });
    const retry = await extractAndStore(messages, { store, scope: user, threadId: own("t1") });
    expect(first.added).toBe(3);
    expect(retry).toMatchObject({ added: 0, superseded: 0, deduped: 3 });
    expect(retry.memoryIds.sort()).toEqual(first.memoryIds.sort());
    expect(await all()).toHaveLength(3);
  });

  it("two concurrent passes for one user (two threads) store one memory, not two", async () => {
    const pass = (thread: string) => writeCandidates([candidate("User keeps bees on the roof.", { sourceMessageId: `${thread}-m1` })], { store, scope: user, writer: "extraction", threadId: own(thread) });
    const reports = await Promise.all([pass("t1"), pass("t2"), pass("t3")]);
    expect(reports.map((r) => r.added).reduce((a, b) => a + b)).toBe(1);
    expect(reports.map((r) => r.deduped).reduce((a, b) => a + b)).toBe(2);
    expect(await all()).toHaveLength(1);
  });

  describe("forget requests", () => {
    it("delete the memory they name, with its superseded history, and nothing unrelated", async () => {
      await writeCandidates(
        [
          candidate("User lives in Berlin.", { subject: "location.home" }),
          candidate("User's office is in Berlin."),
          candidate("User likes Berlin techno."),
        ],
        { store, scope: user, writer: "extraction", threadId: own("t1") },
      );
      await writeCandidates([candidate("User moved to Lisbon.", { subject: "location.home" })], { store, scope: user, writer: "extraction" });
      const r = await say("m5", "forget that I live in Berlin");
      expect(r).toMatchObject({ deleted: 1, forgetUnmatched: 0 });
      expect((await all()).map((m) => m.text).sort()).toEqual(["User likes Berlin techno.", "User moved to Lisbon.", "User's office is in Berlin."]);
    });

    it("a slot-wide request ('forget my phone number') removes every value of the slot", async () => {
      await say("m1", "my phone number is +49 151 23456789");
      await say("m2", "my phone number is +49 151 98765432");
      await say("m3", "I like jazz");
      expect((await all()).length).toBe(3);
      const r = await say("m4", "please forget my phone number");
      expect(r.deleted).toBe(2);
      expect((await all()).map((m) => m.text)).toEqual(["User likes jazz."]);
    });

    it("match nothing when nothing says it (a different value, the opposite, a different thing)", async () => {
      await say("m1", "I like sushi");
      await say("m2", "I live in Lisbon");
      for (const [id, text] of [["m3", "forget that I like ramen"], ["m4", "forget that I live in Berlin"], ["m5", "forget that I don't like sushi"]]) {
        expect(await say(id, text)).toMatchObject({ deleted: 0, forgetUnmatched: 1 });
      }
      expect(await active()).toEqual(["User likes sushi.", "User lives in Lisbon."]);
    });

    it("'forget everything' deletes nothing: it is recorded and handed to the confirmed delete-all", async () => {
      const controls = new StoreControlsTarget(store);
      await say("m1", "I like sushi");
      await say("m2", "I live in Lisbon");
      const r = await say("m3", "forget everything about me", { targets: { controls } });
      expect(r).toMatchObject({ forgetAllRequested: 1, deleted: 0 });
      expect(controls.deleteAllRequests).toEqual([{ scope: user, source: { kind: "extraction", threadId: own("t1"), messageId: "m3", runId: null } }]);
      expect(await active()).toHaveLength(2);
      // Without controls it is still only recorded.
      expect(await say("m4", "delete everything you know about me")).toMatchObject({ forgetAllRequested: 1, deleted: 0 });
      expect(await active()).toHaveLength(2);
    });

    it("go through the controls when present: each deletion is audited without content", async () => {
      const controls = new StoreControlsTarget(store);
      await say("m1", "I like sushi");
      const r = await say("m2", "forget that I like sushi", { targets: { controls } });
      expect(r.deleted).toBe(1);
      expect(controls.audit).toEqual([{ scope: user, memoryId: r.deletedIds[0], source: { kind: "extraction", threadId: own("t1"), messageId: "m2", runId: null } }]);
      expect((await db.query("SELECT count(*)::int AS n FROM memories WHERE id = $1", [r.deletedIds[0]])).rows[0]).toEqual({ n: 0 });
    });
  });

  describe("profile fields and procedures", () => {
    it("a fact that is a profile field patches the profile instead of adding a memory, and retires the old memory of its slot", async () => {
      await say("m1", "my timezone is CET");
      expect(await active()).toEqual(["User's timezone is CET."]);
      const profile = new InMemoryProfileTarget();
      const r = await say("m2", "my timezone is Europe/Lisbon", { targets: { profile } });
      expect(r).toMatchObject({ profileFieldsChanged: 1, added: 0, superseded: 1 });
      expect(profile.get(user)).toEqual({ timezone: "Europe/Lisbon" });
      expect(profile.history).toEqual([{ scope: user, field: "timezone", value: "Europe/Lisbon", source: { kind: "extraction", threadId: own("t1"), messageId: "m2", runId: null } }]);
      expect(await active()).toEqual([]);
      expect(await say("m3", "I prefer metric units", { targets: { profile } })).toMatchObject({ profileFieldsChanged: 1 });
      expect(await say("m4", "My name is Priya.", { targets: { profile } })).toMatchObject({ profileFieldsChanged: 1 });
      expect(profile.get(user)).toEqual({ timezone: "Europe/Lisbon", units: "metric", name: "Priya" });
      expect(await say("m5", "forget my timezone", { targets: { profile } })).toMatchObject({ profileFieldsChanged: 1 });
      expect(profile.get(user)).toEqual({ units: "metric", name: "Priya" });
    });

    it("a value the profile schema refuses, or a field it does not have, stays a memory", async () => {
      const profile = new InMemoryProfileTarget(["name", "units"], (field, value) => field !== "name" || String(value).length <= 3);
      expect(await say("m1", "My name is Priya.", { targets: { profile } })).toMatchObject({ profileFieldsChanged: 0, added: 1 });
      expect(await say("m2", "my timezone is Europe/Berlin", { targets: { profile } })).toMatchObject({ profileFieldsChanged: 0, added: 1 });
      expect(profile.get(user)).toEqual({});
      expect(await active()).toEqual(["User's name is Priya.", "User's timezone is Europe/Berlin."]);
    });

    it("procedures become proposed rules (once), or procedure memories without a rule target", async () => {
      const rules = new InMemoryRuleTarget();
      expect(await say("m1", "give me diffs, not full files", { targets: { rules } })).toMatchObject({ rulesProposed: 1, added: 0 });
      expect(await say("m2", "Give me diffs, not full files.", { targets: { rules } })).toMatchObject({ rulesProposed: 0, deduped: 1 });
      expect(rules.rules).toEqual([
        { id: "rule-1", scope: user, text: "User wants diffs, not full files.", state: "proposed", source: "learned", origin: { kind: "extraction", threadId: own("t1"), messageId: "m1", runId: null } },
      ]);
      expect(await active()).toEqual([]);
      expect(await say("m3", "give me diffs, not full files")).toMatchObject({ added: 1 });
      expect((await all()).map((m) => m.kind)).toEqual(["procedure"]);
    });
  });

  it("an opted-out user gets no writes: nothing stored, no profile, no rule, no model call", async () => {
    const settings = new InMemorySettingsTarget();
    const profile = new InMemoryProfileTarget();
    const rules = new InMemoryRuleTarget();
    const model = new RecordingChatModel({ defaultResponse: { structured: { memories: [] } } });
    settings.optOut(user);
    const messages = [new HumanMessage({ id: "m1", content: "I live in Berlin, my timezone is CET, and give me diffs, not full files" })];
    const report = await extractAndStore(messages, { store, model, scope: user, threadId: own("t1"), targets: { settings, profile, rules } });
    expect(report).toMatchObject({ skipped: "opted_out", added: 0, candidates: 0 });
    expect(model.calls).toHaveLength(0);
    const direct = await writeCandidates([candidate("User lives in Berlin.")], { store, scope: user, writer: "tool", targets: { settings } });
    expect(direct.skipped).toBe("opted_out");
    expect(await all()).toEqual([]);
    expect(profile.history).toEqual([]);
    expect(rules.rules).toEqual([]);
    // Opting back in restores writes.
    settings.optIn(user);
    expect((await extractAndStore(messages, { store, scope: user, threadId: own("t1"), targets: { settings } })).added).toBeGreaterThan(0);
  });

  it("the report counts refusals by reason and category, without text", async () => {
    const r: WriteReport = await writeCandidates(
      [
        candidate("User's API key is sk-proj-RHtUVQcDMpg0TMkxpdzPaEMM1ZA7V0FhHVJWDBt2hWdQZUm1."),
        candidate("User has type 1 diabetes."),
        candidate("User might like opera.", { confidence: 0.4 }),
        candidate("User's key is [redacted:api_key]."),
        candidate("User likes opera."),
      ],
      { store, scope: user, writer: "extraction" },
    );
    expect(r).toMatchObject({ added: 1, refused: 4, refusedByReason: { sensitive: 3, below_confidence: 1 }, refusedByCategory: { api_key: 2, health: 1 } });
    expect(JSON.stringify(r)).not.toMatch(/diabetes|sk-proj|opera/);
    expect(await active()).toEqual(["User likes opera."]);
  });
});
