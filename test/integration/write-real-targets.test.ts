/**
 * The write path with the real database-backed targets (ProfileStore, RuleStore,
 * MemorySettingsStore) instead of the in-memory ports, on both engines: profile fields land in the
 * profile with their source, procedures become proposed rules, forgetting removes the field, and an
 * opted-out user (the settings row) gets no extraction call and no writes — through the job path.
 */
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { MemorySettingsStore } from "../../src/controls/settings-store.js";
import type { Database } from "../../src/db/database.js";
import { createScheduleExtractionNode, extractionJobHandlers } from "../../src/extraction/node/index.js";
import { extractAndStore, type WriteTargets } from "../../src/extraction/write/index.js";
import { JobWorker } from "../../src/jobs/index.js";
import { RuleStore } from "../../src/procedural/rule-store.js";
import { ProfileStore } from "../../src/profile/profile-store.js";
import { MemoryRepository } from "../../src/store/memory-store.js";
import { openTestDatabase, testEngines } from "../helpers/db.js";
import { copycatModel } from "../helpers/extraction-models.js";

let seq = 0;

describe.each(testEngines())("the write path with the real profile, rule and settings stores on %s", (engine) => {
  let db: Database;
  let store: MemoryRepository;
  let profiles: ProfileStore;
  let rules: RuleStore;
  let settings: MemorySettingsStore;
  let targets: WriteTargets;
  let user: { tenantId: string; userId: string };

  beforeAll(async () => {
    db = await openTestDatabase(engine);
    store = new MemoryRepository(db);
    profiles = new ProfileStore(db);
    rules = new RuleStore(db);
    settings = new MemorySettingsStore(db);
    targets = { profile: profiles, rules, settings };
  });
  afterAll(async () => {
    await db.close();
  });
  beforeEach(() => {
    user = { tenantId: "acme", userId: `real-${++seq}` };
  });

  /** The user's own thread of that name (a thread belongs to the user who first used it). */
  const own = (name: string) => `${name}@${user.userId}`;
  const say = (id: string, text: string) => extractAndStore([new HumanMessage({ id, content: text })], { store, scope: user, threadId: own("t1"), targets });

  it("profile fields, proposed rules and memories each land in their store", async () => {
    expect(await say("m1", "my timezone is Europe/Lisbon")).toMatchObject({ profileFieldsChanged: 1, added: 0 });
    expect(await say("m2", "I prefer metric units")).toMatchObject({ profileFieldsChanged: 1 });
    expect(await say("m3", "give me diffs, not full files")).toMatchObject({ rulesProposed: 1 });
    expect(await say("m4", "I like jazz")).toMatchObject({ added: 1 });
    expect(await profiles.getDocument(user)).toMatchObject({ timezone: "Europe/Lisbon", units: "metric" });
    const proposed = await rules.list({ tenantId: user.tenantId, userId: user.userId });
    expect(proposed.map((r) => [r.text, r.state, r.source, r.origin?.messageId])).toEqual([["User wants diffs, not full files.", "proposed", "learned", "m3"]]);
    // Proposed rules never reach the prompt until approved.
    expect(await rules.activeFor(user)).toEqual([]);
    expect((await store.list(user)).map((m) => m.text)).toEqual(["User likes jazz."]);
    expect(await say("m5", "forget my timezone")).toMatchObject({ profileFieldsChanged: 1 });
    expect(await profiles.getDocument(user)).not.toHaveProperty("timezone");
  });

  it("who the user is lands in the profile: occupation, employer and home city, replaced by newer values and removed when denied", async () => {
    expect(await say("p1", "I'm a paediatric nurse at St. Mary's, mostly night shifts")).toMatchObject({ profileFieldsChanged: 2, added: 0 });
    expect(await say("p2", "I live in Leeds")).toMatchObject({ profileFieldsChanged: 1, added: 0 });
    expect(await profiles.getDocument(user)).toEqual({ occupation: "paediatric nurse (mostly night shifts)", employer: "St. Mary's", location: "Leeds" });
    expect(await say("p3", "big news: I moved to Lisbon! and I started at Farfetch as a data analyst")).toMatchObject({ profileFieldsChanged: 3 });
    expect(await profiles.getDocument(user)).toEqual({ occupation: "data analyst", employer: "Farfetch", location: "Lisbon" });
    // Who wrote each field, with the message it came from (newest first).
    const history = await profiles.history(user);
    expect(history.filter((h) => h.field === "location").map((h) => [h.oldValue, h.newValue, h.source.messageId])).toEqual([
      // The superseded value is withdrawn from the history (docs/controls.md, "Forgetting"): the
      // entry that set it is gone, the change keeps its source.
      [{ withdrawn: true }, "Lisbon", "p3"],
    ]);
    // "no longer" removes the field only when it holds that value; the statement itself stays a memory.
    expect(await say("p4", "I don't work at Zalando anymore")).toMatchObject({ profileFieldsChanged: 0 });
    expect(await say("p5", "I no longer work at Farfetch")).toMatchObject({ profileFieldsChanged: 1, added: 1 });
    expect(await profiles.getDocument(user)).toEqual({ occupation: "data analyst", location: "Lisbon" });
    expect((await store.list(user)).map((m) => m.text)).toContain("User no longer works at Farfetch.");
  });

  it("a stated standing instruction is proposed for review and kept meanwhile as a preference, which goes once the rule is reviewed", async () => {
    expect(await say("s1", "from now on always write the tests first")).toMatchObject({ rulesProposed: 1, rulesApproved: 0, added: 1 });
    const [rule] = await rules.list(user);
    expect(rule).toMatchObject({ text: "User wants the assistant to write the tests first.", state: "proposed", source: "feedback" });
    expect(await rules.activeFor(user)).toEqual([]);
    const [standIn] = await store.list(user);
    expect(standIn).toMatchObject({ kind: "preference", text: "User wants the assistant to write the tests first.", metadata: expect.objectContaining({ ruleId: rule.id, explicit: true }) });
    // Said again: the same rule and the same stand-in, nothing new.
    expect(await say("s2", "From now on always write the tests first.")).toMatchObject({ rulesProposed: 0, added: 0 });
    expect((await store.list(user)).map((m) => m.id)).toEqual([standIn.id]);
    // Approved: the rule carries it, the stand-in is gone (never rendered twice); said again, nothing is added.
    await rules.approve(user, rule.id, { reviewer: "user" });
    expect(await store.list(user, { includeInactive: true })).toEqual([]);
    expect(await say("s3", "from now on always write the tests first")).toMatchObject({ rulesProposed: 0, added: 0 });
    expect(await store.list(user, { includeInactive: true })).toEqual([]);
    // An instruction that may be for this answer only ("…, not …" without a word of duration) waits for review without a stand-in.
    expect(await say("s4", "give me bullet points, not paragraphs")).toMatchObject({ rulesProposed: 1, added: 0 });
    expect(await store.list(user)).toEqual([]);
  });

  it("with approveStatedRules the user is the reviewer of what they stated: approved at once, no stand-in", async () => {
    const report = await extractAndStore([new HumanMessage({ id: "a1", content: "from now on always write the tests first" })], {
      store,
      scope: user,
      threadId: own("t1"),
      targets,
      policy: { approveStatedRules: true },
    });
    expect(report).toMatchObject({ rulesProposed: 1, rulesApproved: 1, added: 0 });
    expect((await rules.activeFor(user)).map((r) => r.text)).toEqual(["User wants the assistant to write the tests first."]);
    expect(await store.list(user)).toEqual([]);
  });

  it("an opted-out user's queued turn is not extracted and writes nothing", async () => {
    const node = createScheduleExtractionNode({ store, debounceMs: 0 });
    await node(
      { messages: [new HumanMessage({ id: "o1", content: "I live in Berlin and my timezone is Europe/Berlin." }), new AIMessage({ id: "o2", content: "Noted." })] },
      { configurable: { thread_id: own("opt"), tenant_id: user.tenantId, user_id: user.userId } },
    );
    await settings.setOptedOut(user, true);
    const model = copycatModel();
    expect(await new JobWorker(db, { handlers: extractionJobHandlers({ store, model, targets }) }).drain()).toMatchObject({ completed: 1, failed: 0 });
    expect(model.calls).toHaveLength(0);
    await settings.setOptedOut(user, false);
    expect(await store.export(user)).toEqual([]);
    expect(await profiles.getDocument(user)).toBeNull();
  });

  it("without a settings target the store's own opt-out gate still stops the pass (skipped, nothing written)", async () => {
    await settings.setOptedOut(user, true);
    const report = await extractAndStore([new HumanMessage({ id: "g1", content: "I like opera." })], { store, scope: user, threadId: own("t1") });
    expect(report.skipped).toBe("opted_out");
    await settings.setOptedOut(user, false);
    expect(await store.export(user)).toEqual([]);
  });
});
