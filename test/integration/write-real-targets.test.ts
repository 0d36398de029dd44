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
import { MemoryStore } from "../../src/store/memory-store.js";
import { openTestDatabase, testEngines } from "../helpers/db.js";
import { copycatModel } from "../helpers/extraction-models.js";

let seq = 0;

describe.each(testEngines())("the write path with the real profile, rule and settings stores on %s", (engine) => {
  let db: Database;
  let store: MemoryStore;
  let profiles: ProfileStore;
  let rules: RuleStore;
  let settings: MemorySettingsStore;
  let targets: WriteTargets;
  let user: { tenantId: string; userId: string };

  beforeAll(async () => {
    db = await openTestDatabase(engine);
    store = new MemoryStore(db);
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

  const say = (id: string, text: string) => extractAndStore([new HumanMessage({ id, content: text })], { store, scope: user, threadId: "t1", targets });

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

  it("an opted-out user's queued turn is not extracted and writes nothing", async () => {
    const node = createScheduleExtractionNode({ store, debounceMs: 0 });
    await node(
      { messages: [new HumanMessage({ id: "o1", content: "I live in Berlin and my timezone is Europe/Berlin." }), new AIMessage({ id: "o2", content: "Noted." })] },
      { configurable: { thread_id: "opt", tenant_id: user.tenantId, user_id: user.userId } },
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
    const report = await extractAndStore([new HumanMessage({ id: "g1", content: "I like opera." })], { store, scope: user, threadId: "t1" });
    expect(report.skipped).toBe("opted_out");
    await settings.setOptedOut(user, false);
    expect(await store.export(user)).toEqual([]);
  });
});
