/**
 * The user's own writes through the controls and the HTTP API get the write policy's secret and
 * sensitive-data filter: an edit of a memory or the profile that holds a secret (or, unless the app
 * allows it, special-category data) is SENSITIVE_CONTENT — HTTP 422 `{ error: { code, message } }`
 * naming the field and the kind of data, never the value — and changes nothing; an import leaves
 * such items out, counts them, and imports the rest. On PGlite and server Postgres.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import type { Database } from "../../src/db/database.js";
import { MemoryControls } from "../../src/controls/memory-controls.js";
import { RetentionSweep } from "../../src/retention/retention-sweep.js";
import { MemoryRepository } from "../../src/store/memory-store.js";
import { createMemoryServer } from "../../src/server/index.js";
import { openTestDatabase, testEngines } from "../helpers/db.js";

const PASSWORD = "Kr0kodil!2291";
const API_KEY = "sk-proj-4fJq9xLm2TzR8vWb1KdN6pYh";
const CARD = "4111 1111 1111 1111";
const IBAN = "DE89370400440532013000";

describe.each(testEngines())("sensitive data through the controls on %s", (engine) => {
  let db: Database;
  let store: MemoryRepository;
  let controls: MemoryControls;

  beforeAll(async () => {
    db = await openTestDatabase(engine);
    store = new MemoryRepository(db);
    controls = new MemoryControls(db, { store });
  });
  afterAll(async () => {
    await db?.close();
  });

  /** Every stored row of the tenant as text (memories, versions, profile, its history, rules). */
  async function storedText(tenantId: string): Promise<string> {
    const parts: string[] = [];
    for (const table of ["memories", "profiles", "profile_history", "procedural_rules"]) {
      const { rows } = await db.query<{ r: string }>(`SELECT t::text AS r FROM ${table} t WHERE tenant_id = $1`, [tenantId]);
      parts.push(...rows.map((r) => r.r));
    }
    return parts.join("\n");
  }

  it("editMemory refuses a secret with SENSITIVE_CONTENT naming the field and the kind, never the value, and changes nothing", async () => {
    const alice = { tenantId: "sens-edit", userId: "alice" };
    const m = await store.add(alice, { kind: "fact", text: "Has a cat named Miso." });
    const before = await controls.getMemory(alice, m.id);
    const cases: Array<[string, string]> = [
      [`my banking password is ${PASSWORD}`, "password"],
      [`here's my key ${API_KEY} for the staging app`, "api_key"],
      [`card ${CARD}, expires 09/28`, "card_number"],
      [`send the refund to ${IBAN}`, "iban"],
      ["User has type 1 diabetes and takes insulin.", "health"],
    ];
    for (const [text, category] of cases) {
      const err = await controls.editMemory(alice, m.id, { text }).then(
        () => null,
        (e: unknown) => e as { code: string; message: string; details: Record<string, unknown> },
      );
      expect(err).toMatchObject({ code: "SENSITIVE_CONTENT", details: { field: "text", category } });
      expect(err!.message).toMatch(/^text: holds .+ which memory never stores/);
      for (const value of [PASSWORD, API_KEY, CARD, IBAN, "diabetes", "insulin"]) expect(err!.message).not.toContain(value);
    }
    expect(await controls.getMemory(alice, m.id)).toEqual(before);
    expect(await storedText(alice.tenantId)).not.toMatch(/Kr0kodil|sk-proj|4111|DE89|diabetes/);
    // A benign edit goes through, a kind-only edit is not checked for text at all.
    expect((await controls.editMemory(alice, m.id, { text: "Has two cats, Miso and Tofu." })).text).toBe("Has two cats, Miso and Tofu.");
    expect((await controls.editMemory(alice, m.id, { kind: "preference" })).kind).toBe("preference");
  });

  it("special-category data is storable by an edit when the app allows it (writePolicy.allowSpecialCategory); secrets never are", async () => {
    const lenient = new MemoryRepository(db, { writePolicy: { allowSpecialCategory: true } });
    const lenientControls = new MemoryControls(db, { store: lenient });
    const bob = { tenantId: "sens-allowed", userId: "bob" };
    const m = await lenient.add(bob, { kind: "fact", text: "Likes tea." });
    expect((await lenientControls.editMemory(bob, m.id, { text: "User has type 1 diabetes." })).text).toBe("User has type 1 diabetes.");
    await expect(lenientControls.editMemory(bob, m.id, { text: `my password is ${PASSWORD}` })).rejects.toMatchObject({ code: "SENSITIVE_CONTENT" });
    await expect(lenientControls.updateProfile(bob, { notes: "Keeps kosher." })).resolves.toMatchObject({ changed: ["notes"] });
  });

  it("updateProfile refuses a sensitive value at any depth (and a field name that is one) and changes neither the profile nor its history", async () => {
    const carol = { tenantId: "sens-profile", userId: "carol" };
    await controls.updateProfile(carol, { name: "Carol", notes: "Prefers mornings." });
    const doc = await controls.profiles.getDocument(carol);
    const history = await controls.profiles.history(carol);
    for (const [patch, field] of [
      [{ notes: `wifi password is ${PASSWORD}` }, "patch.notes"],
      [{ name: "Carol", notes: `token: ${API_KEY}` }, "patch.notes"],
      [{ notes: { nested: [`IBAN ${IBAN}`] } }, "patch.notes"],
      [{ notes: "I'm bisexual and out to my family." }, "patch.notes"],
      [{ [API_KEY]: "x" }, "patch"],
    ] as const) {
      const err = await controls.updateProfile(carol, patch as Record<string, unknown>).then(
        () => null,
        (e: unknown) => e as { code: string; message: string; details: { field: string } },
      );
      expect(err).toMatchObject({ code: "SENSITIVE_CONTENT", details: { field } });
      expect(err!.message).not.toMatch(/Kr0kodil|sk-proj|DE89|bisexual/);
    }
    expect(await controls.profiles.getDocument(carol)).toEqual(doc);
    expect(await controls.profiles.history(carol)).toEqual(history);
    expect(await storedText(carol.tenantId)).not.toMatch(/Kr0kodil|sk-proj|DE89|bisexual/);
  });

  it("import leaves out each memory, profile field, history entry and rule holding such data, counts them, and imports the rest", async () => {
    const dave = { tenantId: "sens-import", userId: "dave" };
    const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
    const at = "2026-01-01T00:00:00.000Z";
    const source = { kind: "user_edit", threadId: null, messageId: null, runId: null };
    const doc = {
      format: "langgraph-memory/user-export",
      version: 1,
      exportedAt: at,
      tenantId: "elsewhere",
      userId: "someone",
      memories: [
        { id: id(1), kind: "fact", text: "Has a cat named Miso.", createdAt: at },
        { id: id(2), kind: "fact", text: `Wifi password is ${PASSWORD}.`, createdAt: at },
        { id: id(3), kind: "fact", text: "Staging access.", context: `key ${API_KEY}`, createdAt: at },
        { id: id(4), kind: "fact", text: "User is Catholic and goes to mass.", createdAt: at },
        { id: id(5), kind: "preference", text: "Prefers metric units.", createdAt: at, metadata: { note: `card ${CARD}` } },
      ],
      profile: {
        document: { name: "Dave", notes: `IBAN ${IBAN}` },
        sources: { name: source, notes: source },
        createdAt: at,
        updatedAt: at,
        history: [
          { id: id(11), field: "name", newValue: "Dave", source, createdAt: at },
          { id: id(12), field: "notes", newValue: `IBAN ${IBAN}`, source, createdAt: at },
        ],
      },
      rules: [
        { id: id(21), scope: "user", taskType: null, text: "Answer in bullet points.", source: "manual", priority: 0, active: true, state: "approved", origin: null, reviewedAt: null, reviewedBy: null, createdAt: at, updatedAt: at, metadata: {} },
        { id: id(22), scope: "user", taskType: null, text: `Always log in with password ${PASSWORD}.`, source: "manual", priority: 0, active: true, state: "approved", origin: null, reviewedAt: null, reviewedBy: null, createdAt: at, updatedAt: at, metadata: {} },
      ],
      settings: null,
    };
    const result = await controls.import(dave, doc);
    expect(result).toMatchObject({
      memories: { imported: 1, skipped: 0 },
      profile: true,
      profileHistory: 1,
      rules: { imported: 1, skipped: 0 },
      refused: { memories: 4, profileFields: 1, profileHistory: 1, rules: 1, byCategory: { password: 2, api_key: 1, religion: 1, card_number: 1, iban: 2 } },
    });
    expect((await store.export(dave)).map((m) => m.text)).toEqual(["Has a cat named Miso."]);
    expect(await controls.profiles.getDocument(dave)).toEqual({ name: "Dave" });
    expect((await controls.rules.list(dave)).map((r) => r.text)).toEqual(["Answer in bullet points."]);
    expect(await storedText(dave.tenantId)).not.toMatch(/Kr0kodil|sk-proj|4111|DE89|Catholic/);
  });

  it("over HTTP: 422 SENSITIVE_CONTENT in the API's error shape, nothing changed, nothing of the value in the response or the request log", async () => {
    const erin = { tenantId: "sens-http", userId: "erin" };
    const token = "erin-token-0123456789abcdef0123";
    const logs: string[] = [];
    const retention = new RetentionSweep(db, { controls });
    const server = await createMemoryServer({ memory: { controls, retention }, tokens: { [token]: erin }, logger: { level: "trace", stream: { write: (line: string) => void logs.push(line) } } });
    const base = (await server.listen({ port: 0 })).replace(/\/$/, "");
    try {
      const m = await store.add(erin, { kind: "fact", text: "Has a cat named Miso." });
      const call = async (method: string, path: string, body: unknown) => {
        const res = await fetch(`${base}${path}`, { method, headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: JSON.stringify(body) });
        return { status: res.status, text: await res.text() };
      };
      const edit = await call("PATCH", `/api/memories/${m.id}`, { text: `the alarm code is 5318 and my password is ${PASSWORD}` });
      expect(edit.status).toBe(422);
      expect(JSON.parse(edit.text)).toEqual({ error: { code: "SENSITIVE_CONTENT", message: expect.stringMatching(/^text: holds a password, PIN or access code/) } });
      const profile = await call("PATCH", "/api/profile", { notes: `my key is ${API_KEY}` });
      expect(profile.status).toBe(422);
      expect(JSON.parse(profile.text)).toEqual({ error: { code: "SENSITIVE_CONTENT", message: expect.stringMatching(/^patch\.notes: holds an API key/) } });
      for (const text of [edit.text, profile.text, logs.join("\n")]) expect(text).not.toMatch(/Kr0kodil|5318|sk-proj/);
      expect(logs.join("\n")).toMatch(/"statusCode":422/); // the log is on and saw the requests
      expect((await store.get(erin, m.id))!.text).toBe("Has a cat named Miso.");
      expect(await controls.profiles.getDocument(erin)).toBeNull();
      // A clean edit still works.
      expect((await call("PATCH", `/api/memories/${m.id}`, { text: "Has two cats." })).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
