import { z } from "zod";
import type { Database } from "../../src/db/database.js";
import { ProfileStore } from "../../src/profile/profile-store.js";
import { DEFAULT_PROFILE_PRIORITIES } from "../../src/profile/profile-schema.js";
import { mergePatch } from "../../src/core/json.js";
import { MemorySettingsStore } from "../../src/controls/settings-store.js";
import { fitProfile, formatProfile } from "../../src/context/format-profile.js";
import { countTextTokens } from "../../src/tokens/count-text.js";
import { openTestDatabase, testEngines } from "../helpers/db.js";

describe("mergePatch (RFC 7396)", () => {
  it("merges objects, removes on null, replaces arrays and scalars, never mutates", () => {
    const target = { a: "b", c: { d: "e", f: "g" }, list: [1, 2] };
    const patch = { a: "z", c: { f: null, h: 1 }, list: [3], n: null };
    expect(mergePatch(target, patch)).toEqual({ a: "z", c: { d: "e", h: 1 }, list: [3] });
    expect(target).toEqual({ a: "b", c: { d: "e", f: "g" }, list: [1, 2] });
    // The RFC's own examples.
    expect(mergePatch({ a: "b" }, { a: "c" })).toEqual({ a: "c" });
    expect(mergePatch({ a: "b" }, { b: "c" })).toEqual({ a: "b", b: "c" });
    expect(mergePatch({ a: "b" }, { a: null })).toEqual({});
    expect(mergePatch({ a: [{ b: "c" }] }, { a: [1] })).toEqual({ a: [1] });
    expect(mergePatch(["a", "b"], ["c", "d"])).toEqual(["c", "d"]);
    expect(mergePatch({ a: "foo" }, "bar")).toBe("bar");
    expect(mergePatch({}, { a: { bb: { ccc: null } } })).toEqual({ a: { bb: {} } });
  });
});

describe("fitProfile / formatProfile", () => {
  const doc = { notes: "Long free-form notes about the user. ".repeat(20), name: "Ada Lovelace", plan: "pro", timezone: "Europe/London", units: "metric", language: "en" };

  it("renders in priority order and drops the lowest-priority fields first, whole", () => {
    const all = fitProfile(doc, { priorities: DEFAULT_PROFILE_PRIORITIES });
    expect(Object.keys(all.profile!)).toEqual(["name", "language", "timezone", "units", "plan", "notes"]);
    const withoutNotes = countTextTokens(formatProfile({ ...doc, notes: undefined }, { priorities: DEFAULT_PROFILE_PRIORITIES }).text);
    const tight = fitProfile(doc, { maxTokens: withoutNotes, priorities: DEFAULT_PROFILE_PRIORITIES });
    expect(Object.keys(tight.profile!)).toEqual(["name", "language", "timezone", "units", "plan"]);
    expect(tight.section.tokens).toBe(withoutNotes);
    expect(tight.section.text).not.toContain("Long free-form");
    // Tighter still: plan goes next, then units…; the name stays longest.
    const tighter = fitProfile(doc, { maxTokens: withoutNotes - 4, priorities: DEFAULT_PROFILE_PRIORITIES });
    expect(Object.keys(tighter.profile!)).not.toContain("plan");
    expect(Object.keys(tighter.profile!)[0]).toBe("name");
    // What is kept renders to exactly the same text.
    expect(formatProfile(tight.profile).text).toBe(tight.section.text);
  });

  it("spells out a unit system (the bare word says nothing about temperatures) and keeps other values as stored", () => {
    const text = (units: string) => formatProfile({ units }).text.split("\n").slice(1);
    expect(text("metric")).toEqual(['- units: "metric (km, kg, °C)"']);
    expect(text("imperial")).toEqual(['- units: "imperial (miles, lb, °F)"']);
    // A value an app's own schema allows is rendered as it is stored.
    expect(text("nautical")).toEqual(['- units: "nautical"']);
    // The fitted document keeps the stored value, so rendering it again gives the same text.
    const fitted = fitProfile({ units: "metric" }, { priorities: DEFAULT_PROFILE_PRIORITIES });
    expect(fitted.profile).toEqual({ units: "metric" });
    expect(formatProfile(fitted.profile).text).toBe(fitted.section.text);
  });

  it("orders who the user is (home city, occupation, employer) after the settings and before the plan", () => {
    const full = { plan: "Growth (12 seats)", employer: "Stripe", occupation: "staff engineer", location: "Dublin", units: "metric", name: "Ada" };
    expect(Object.keys(fitProfile(full, { priorities: DEFAULT_PROFILE_PRIORITIES }).profile!)).toEqual(["name", "units", "location", "occupation", "employer", "plan"]);
  });

  it("never cuts a value: a budget below the smallest line yields nothing", () => {
    const fitted = fitProfile({ name: "Ada" }, { maxTokens: 5 });
    expect(fitted.profile).toBeNull();
    expect(fitted.section.tokens).toBe(0);
  });
});

describe.each(testEngines())("ProfileStore on %s", (engine) => {
  let db: Database;
  let profiles: ProfileStore;
  let settings: MemorySettingsStore;
  const alice = { tenantId: "acme", userId: "alice" };
  const bob = { tenantId: "acme", userId: "bob" };

  beforeAll(async () => {
    db = await openTestDatabase(engine);
    profiles = new ProfileStore(db);
    settings = new MemorySettingsStore(db);
  });
  afterAll(async () => {
    await db.close();
  });
  afterEach(async () => {
    await db.exec("DELETE FROM profiles; DELETE FROM profile_history; DELETE FROM memory_settings;");
  });

  it("merge-patches one document per user, recording who wrote each field", async () => {
    await profiles.applyPatch(alice, { name: "Alice", timezone: "Europe/Paris", units: "metric" }, { kind: "user_edit" });
    await profiles.applyPatch(alice, { units: "imperial", language: "fr" }, { kind: "extraction", threadId: "t9", messageId: "m3", runId: "r1" });
    const p = await profiles.get(alice);
    expect(p!.document).toEqual({ name: "Alice", timezone: "Europe/Paris", units: "imperial", language: "fr" });
    expect(p!.sources.name).toMatchObject({ kind: "user_edit", threadId: null });
    expect(p!.sources.units).toMatchObject({ kind: "extraction", threadId: "t9", messageId: "m3", runId: "r1" });
    expect(await profiles.get(bob)).toBeNull();

    await profiles.applyPatch(alice, { timezone: null }, { kind: "user_edit" });
    const after = await profiles.get(alice);
    expect(after!.document).not.toHaveProperty("timezone");
    expect(after!.sources).not.toHaveProperty("timezone");

    const history = await profiles.history(alice);
    expect(history.map((h) => [h.field, h.oldValue, h.newValue, h.source.kind])).toEqual(
      expect.arrayContaining([
        ["timezone", "Europe/Paris", undefined, "user_edit"],
        ["units", "metric", "imperial", "extraction"],
        ["units", undefined, "metric", "user_edit"],
        ["name", undefined, "Alice", "user_edit"],
      ]),
    );
    expect(history).toHaveLength(6);
    expect(history[0].field).toBe("timezone"); // newest first
    expect((await profiles.history(alice, { field: "units" })).map((h) => h.newValue)).toEqual(["imperial", "metric"]);
  });

  it("a patch that changes nothing writes no history and leaves no empty profile", async () => {
    await profiles.applyPatch(bob, { name: null }, { kind: "user_edit" });
    expect(await profiles.get(bob)).toBeNull();
    await profiles.applyPatch(alice, { name: "Alice" }, { kind: "user_edit" });
    const { changed } = await profiles.update(alice, { name: "Alice" }, { kind: "extraction" });
    expect(changed).toEqual([]);
    expect(await profiles.history(alice)).toHaveLength(1);
  });

  it("validates against the schema: unknown fields and bad values are INVALID_INPUT and change nothing", async () => {
    await profiles.applyPatch(alice, { name: "Alice", units: "metric" }, { kind: "user_edit" });
    await expect(profiles.applyPatch(alice, { favouriteColour: "blue" }, { kind: "extraction" })).rejects.toMatchObject({
      code: "INVALID_INPUT",
      message: expect.stringContaining("favouriteColour"),
    });
    await expect(profiles.applyPatch(alice, { timezone: "Mars/Olympus_Mons" }, { kind: "extraction" })).rejects.toMatchObject({
      code: "INVALID_INPUT",
      message: expect.stringContaining("IANA time zone"),
    });
    await expect(profiles.applyPatch(alice, { units: "furlongs", name: "Mallory" }, { kind: "extraction" })).rejects.toMatchObject({ code: "INVALID_INPUT" });
    await expect(profiles.applyPatch(alice, { language: "not a tag!" }, { kind: "extraction" })).rejects.toMatchObject({ code: "INVALID_INPUT" });
    await expect(profiles.applyPatch(alice, [] as never, { kind: "extraction" })).rejects.toMatchObject({ code: "INVALID_INPUT" });
    await expect(profiles.applyPatch(alice, { name: "X" }, { kind: "robot" } as never)).rejects.toMatchObject({ code: "INVALID_INPUT" });
    await expect(profiles.applyPatch({ tenantId: "acme" } as never, { name: "X" }, { kind: "user_edit" })).rejects.toMatchObject({ code: "SCOPE_REQUIRED" });
    expect((await profiles.get(alice))!.document).toEqual({ name: "Alice", units: "metric" });
    expect(await profiles.history(alice)).toHaveLength(2);
  });

  it("takes the app's own zod schema and field priorities", async () => {
    const custom = new ProfileStore(db, {
      profile: {
        schema: z.strictObject({ nickname: z.string().max(40).optional(), shoeSize: z.number().min(20).max(60).optional(), bio: z.string().optional() }),
        priorities: ["shoeSize", "nickname"],
      },
    });
    expect(custom.fields).toEqual(["nickname", "shoeSize", "bio"]);
    await custom.applyPatch(alice, { nickname: "Ali", shoeSize: 38, bio: "x" }, { kind: "api" });
    await expect(custom.applyPatch(alice, { shoeSize: 200 }, { kind: "api" })).rejects.toMatchObject({ code: "INVALID_INPUT" });
    await expect(custom.applyPatch(alice, { name: "Alice" }, { kind: "api" })).rejects.toMatchObject({ code: "INVALID_INPUT" });
    const doc = (await custom.getDocument(alice))!;
    expect(Object.keys(custom.fit(doc).profile!)).toEqual(["shoeSize", "nickname", "bio"]);
    expect(() => new ProfileStore(db, { profile: { schema: z.string() as never } })).toThrow(/zod object/);
    expect(() => new ProfileStore(db, { profile: { schema: z.object({ a: z.string() }), priorities: ["b"] } })).toThrow(/b/);
  });

  it("opted out: reads return nothing, writes are OPTED_OUT, delete still works", async () => {
    await profiles.applyPatch(alice, { name: "Alice" }, { kind: "user_edit" });
    await settings.setOptedOut(alice, true);
    expect(await profiles.get(alice)).toBeNull();
    expect(await profiles.history(alice)).toEqual([]);
    await expect(profiles.applyPatch(alice, { name: "Eve" }, { kind: "extraction" })).rejects.toMatchObject({ code: "OPTED_OUT" });
    expect(await profiles.get(bob)).toBeNull();
    await profiles.applyPatch(bob, { name: "Bob" }, { kind: "user_edit" }); // other users unaffected
    await settings.setOptedOut(alice, false);
    expect((await profiles.get(alice))!.document).toEqual({ name: "Alice" });
    await settings.setOptedOut(alice, true);
    expect(await profiles.delete(alice, { actor: "alice" })).toBe(true);
    const { rows } = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM profiles WHERE tenant_id = 'acme' AND user_id = 'alice'");
    expect(rows[0].n).toBe(0);
    expect((await db.query<{ n: number }>("SELECT count(*)::int AS n FROM profile_history WHERE user_id = 'alice'")).rows[0].n).toBe(0);
  });

  it("two first patches at once both land (the row is created once and locked)", async () => {
    await Promise.all([
      profiles.applyPatch(alice, { name: "Alice" }, { kind: "user_edit" }),
      profiles.applyPatch(alice, { units: "metric" }, { kind: "extraction" }),
      profiles.applyPatch(alice, { plan: "pro" }, { kind: "api" }),
    ]);
    expect((await profiles.get(alice))!.document).toEqual({ name: "Alice", units: "metric", plan: "pro" });
    expect(await profiles.history(alice)).toHaveLength(3);
  });
});
