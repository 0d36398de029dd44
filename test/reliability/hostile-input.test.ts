/**
 * Hostile input, property-based (fast-check), against the store's typed door, its LangGraph
 * `BaseStore` door, the profile and rule stores, and the controls API — on PGlite and on server
 * Postgres. Random unicode, huge strings, NUL bytes, SQL and LIKE metacharacters, namespace labels
 * with separators, deep JSON, NaN/Infinity vectors, wrong dimensions, forged ids and tokens.
 *
 * The schedule node (where a turn's messages enter the job queue) takes any hostile text.
 *
 * Every call either succeeds and reads back exactly what was written, or fails with a typed
 * `MemoryError`; and the rows of the other tenants (checksummed in SQL) never change. The hostile
 * caller acts for its own tenants and users only (scope ids are themselves hostile strings).
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import fc from "fast-check";
import type { Database } from "../../src/db/database.js";
import { isMemoryError } from "../../src/errors.js";
import { LocalHashingEmbeddings } from "../../src/embeddings/hashing-embeddings.js";
import { MemoryControls } from "../../src/controls/memory-controls.js";
import { JobQueue } from "../../src/jobs/job-queue.js";
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { createScheduleExtractionNode } from "../../src/extraction/node/schedule-extraction-node.js";
import { isWellFormedText } from "../../src/core/well-formed-text.js";
import { MEMORY_KINDS } from "../../src/state/types.js";
import { LangGraphStore } from "../../src/store/langgraph-store.js";
import { MemoryRepository } from "../../src/store/memory-store.js";
import { resolveUserScope } from "../../src/core/scope.js";
import { openTestDatabase, testEngines } from "../helpers/db.js";
import { protectedRowsChecksum } from "./helpers/checksum.js";
import { deepJson, hostileId, hostileJson, hostileText, hostileVector, nastyString } from "./helpers/hostile.js";
import { report, size } from "./helpers/sizes.js";

const VICTIM_TENANTS = ["acme", "globex"];
const RUNS = size(25, 50);
const DIMS = 64;

/** Codes a bad input may legitimately produce. Anything else (or a non-MemoryError) fails. */
const INPUT_CODES = new Set(["INVALID_INPUT", "SENSITIVE_CONTENT", "SCOPE_REQUIRED", "NOT_FOUND", "EMBEDDING_DIMENSION_MISMATCH", "CONFIRMATION_INVALID", "OPTED_OUT", "DB_QUERY_FAILED"]);

/** Calls tried and their outcomes, per engine (reset by each engine's beforeAll). */
let tried: Record<string, number> = {};
let outcomes: Record<string, number> = {};

/** Run a call: its value, or its typed error (anything untyped fails the property). */
async function attempt<T>(label: string, fn: () => Promise<T>): Promise<{ ok: true; value: T } | { ok: false; code: string }> {
  tried[label] = (tried[label] ?? 0) + 1;
  try {
    const value = await fn();
    outcomes[`${label}:ok`] = (outcomes[`${label}:ok`] ?? 0) + 1;
    return { ok: true, value };
  } catch (err) {
    if (!isMemoryError(err)) throw new Error(`${label}: untyped ${(err as Error)?.constructor?.name}: ${String((err as Error)?.message ?? err).slice(0, 300)}`);
    if (!INPUT_CODES.has(err.code)) throw new Error(`${label}: unexpected code ${err.code}: ${err.message.slice(0, 300)}`);
    outcomes[`${label}:${err.code}`] = (outcomes[`${label}:${err.code}`] ?? 0) + 1;
    return { ok: false, code: err.code };
  }
}

/** JSON semantics: what a value reads back as after a JSON round trip. */
const asJson = (v: unknown) => {
  const text = JSON.stringify(v);
  return text === undefined ? undefined : (JSON.parse(text) as unknown);
};
/** JSON text with object keys sorted (jsonb reorders keys); compares deep values without deep recursion in JS. */
const canonical = (v: unknown) => {
  try {
    return JSON.stringify(v, (_k, x: unknown) =>
      x && typeof x === "object" && !Array.isArray(x) ? Object.fromEntries(Object.entries(x as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : x,
    );
  } catch {
    // Too deep for the replacer's recursion: the deep fixtures have one key per object, so the
    // plain text (which the store itself produced) compares as well.
    return JSON.stringify(v);
  }
};
/** Profile patch values: hostile text and JSON-like values (NaN, Infinity, BigInt, functions, deep nesting included). */
const profileValue = fc.oneof(hostileText, hostileJson, fc.constant(null));
/** Scope ids: mostly unusual but valid (so calls get past the scope check), sometimes invalid. */
const attackerTenant = fc
  .oneof({ weight: 4, arbitrary: nastyString(30).map((t) => `m${t}`.replace(/\0/g, "0")) }, { weight: 1, arbitrary: nastyString(30) }, { weight: 1, arbitrary: fc.constant("t".repeat(300)) })
  .filter((t) => !VICTIM_TENANTS.includes(t));
const attackerUser = fc.oneof({ weight: 4, arbitrary: nastyString(30).map((u) => `u${u}`.replace(/\0/g, "0")) }, { weight: 1, arbitrary: nastyString(30) }, { weight: 1, arbitrary: fc.constant("u".repeat(300)) });
const kindArb = fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...MEMORY_KINDS) }, { weight: 1, arbitrary: nastyString(10) });
/** Whether the library accepts this as a user scope (if not, every call must fail with a typed error). */
const isValidScope = (scope: { tenantId: string; userId: string }) => {
  try {
    resolveUserScope(scope);
    return true;
  } catch {
    return false;
  }
};

describe.each(testEngines())("hostile input on %s", (engine) => {
  let db: Database;
  let store: MemoryRepository;
  let controls: MemoryControls;
  let baseline: Record<string, string>;
  const embeddings = new LocalHashingEmbeddings({ dims: DIMS });

  beforeAll(async () => {
    tried = {};
    outcomes = {};
    db = await openTestDatabase(engine);
    store = new MemoryRepository(db, { embeddings });
    controls = new MemoryControls(db, { store });
    // The victims: two tenants with users, shared knowledge, profiles, rules, jobs, BaseStore items.
    for (const tenantId of VICTIM_TENANTS) {
      for (const userId of ["alice", "bob"]) {
        const scope = { tenantId, userId };
        const m = await store.add(scope, { kind: "fact", text: `${tenantId}/${userId}: lives in Berlin; 100% sure_` });
        await store.supersede(scope, m.id, { kind: "fact", text: `${tenantId}/${userId}: lives in Lisbon` });
        await store.add(scope, { kind: "preference", text: "Prefers metric units.", metadata: { note: "it's \\ %_ fine" } });
        await controls.profiles.update(scope, { name: `${userId} of ${tenantId}`, notes: "O'Brien; DROP TABLE" }, { kind: "user_edit" });
        await controls.rules.add(scope, { text: `Answer ${userId} in bullet points.` });
        await new JobQueue(db, { notify: false }).enqueue({ queue: "victim", scope, groupKey: "t", idempotencyKey: `k-${tenantId}-${userId}`, payload: { text: "victim job" } });
      }
      await store.add({ level: "tenant", tenantId }, { kind: "knowledge", text: `${tenantId} office opens at nine.` });
      await controls.rules.add({ level: "tenant", tenantId }, { text: `${tenantId} tenant rule.` });
      const items = new LangGraphStore(db, { tenantId, index: { dims: DIMS, embeddings } });
      await items.put(["users", "alice"], "prefs", { text: "metric", "%": "_" });
      await items.put(["docs"], "d1", { text: `${tenantId} handbook` });
      items.stop();
    }
    await store.add({ level: "global" }, { kind: "knowledge", text: "The year has twelve months." });
    baseline = await protectedRowsChecksum(db, VICTIM_TENANTS);
  });

  afterAll(async () => {
    if (db) expect(await protectedRowsChecksum(db, VICTIM_TENANTS)).toEqual(baseline);
    await db?.close();
    report(`hostile input (${engine})`, { calls: Object.values(tried).reduce((a, b) => a + b, 0), byCall: tried, outcomes });
  });

  /** Other tenants' rows are exactly as before (checked after every run). */
  const othersUnchanged = async () => expect(await protectedRowsChecksum(db, VICTIM_TENANTS)).toEqual(baseline);

  it("typed door add/get/list/export: exact round trip or a typed error", async () => {
    await fc.assert(
      fc.asyncProperty(
        attackerTenant,
        attackerUser,
        fc.record(
          {
            kind: kindArb,
            text: hostileText,
            context: fc.oneof(fc.constant(undefined), fc.constant(null), hostileText),
            metadata: fc.oneof(fc.constant(undefined), hostileJson),
            confidence: fc.oneof(fc.constant(undefined), fc.double()),
            source: fc.oneof(fc.constant(undefined), fc.record({ threadId: fc.oneof(nastyString(), fc.constant("x".repeat(2000))), messageId: nastyString(), runId: nastyString() })),
            expiresAt: fc.oneof(fc.constant(undefined), fc.date({ noInvalidDate: false }), nastyString(20)),
            embedding: fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: hostileVector(DIMS) }),
          },
          { requiredKeys: ["kind", "text"] },
        ),
        async (tenantId, userId, input) => {
          const scope = { tenantId, userId };
          const r = await attempt("store.add", () => store.add(scope, input as never));
          if (r.ok) {
            const got = await store.get(scope, r.value.id);
            expect(got).not.toBeNull();
            expect(got!.text).toBe(input.text);
            expect(got!.kind).toBe(input.kind);
            expect(got!.context).toBe(input.context ? input.context : null);
            expect(canonical(got!.metadata)).toBe(canonical(input.metadata === undefined || input.metadata === null ? {} : input.metadata));
            // Stored as real (float4): the same float32 value. (+ 0: a confidence of -0 reads back as
            // 0 on PGlite; the same number, which toBe's Object.is would call different.)
            if (typeof input.confidence === "number") expect(Math.fround(got!.confidence) + 0).toBe(Math.fround(input.confidence) + 0);
            expect(got!.tenantId).toBe(tenantId);
            expect(got!.userId).toBe(userId);
            const exported = await store.export(scope);
            expect(exported.find((m) => m.id === r.value.id)?.text).toBe(input.text);
          }
          await othersUnchanged();
        },
      ),
      { numRuns: RUNS },
    );
  }, 300_000);

  it("typed door search/nearest/update/supersede/delete/markUsed with hostile queries, ids and options", async () => {
    await fc.assert(
      fc.asyncProperty(
        attackerTenant,
        attackerUser,
        hostileText,
        hostileId,
        fc.record({
          limit: fc.oneof(fc.constant(undefined), fc.integer({ min: -5, max: 2000 }), fc.double()),
          kinds: fc.oneof(fc.constant(undefined), fc.array(fc.oneof(fc.constantFrom(...MEMORY_KINDS), nastyString(8)), { maxLength: 3 })),
          include: fc.oneof(fc.constant(undefined), fc.array(fc.oneof(fc.constantFrom("tenant", "global"), nastyString(8)), { maxLength: 3 })),
          minSimilarity: fc.oneof(fc.constant(undefined), fc.double()),
          queryEmbedding: fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: hostileVector(DIMS) }),
        }),
        async (tenantId, userId, query, id, options) => {
          const scope = { tenantId, userId };
          await attempt("store.add", () => store.add(scope, { kind: "fact", text: "attacker's own fact about Berlin" }));
          const found = await attempt("store.search", () => store.search(scope, query, options as never));
          if (found.ok) {
            for (const m of found.value) {
              // Own memories, the own tenant's knowledge or global knowledge: never a victim's.
              expect(VICTIM_TENANTS.includes(m.tenantId ?? "")).toBe(false);
              if (m.scope === "user") expect([m.tenantId, m.userId]).toEqual([tenantId, userId]);
            }
          }
          const near = await attempt("store.nearest", () => store.nearest(scope, { kind: "fact", text: query }));
          if (near.ok) for (const n of near.value) expect([n.memory.tenantId, n.memory.userId]).toEqual([tenantId, userId]);
          await attempt("store.get", () => store.get(scope, id));
          await attempt("store.update", () => store.update(scope, id, { text: query, metadata: { q: query } }));
          await attempt("store.supersede", () => store.supersede(scope, id, { kind: "fact", text: query }));
          await attempt("store.markUsed", () => store.markUsed(scope, [id]));
          await attempt("store.delete", () => store.delete(scope, id));
          await othersUnchanged();
        },
      ),
      { numRuns: RUNS },
    );
  }, 300_000);

  it("victims' real ids through the attacker's scope: NOT_FOUND or nothing, never their data", async () => {
    const { rows } = await db.query<{ id: string }>("SELECT id FROM memories WHERE tenant_id = ANY($1::text[])", [VICTIM_TENANTS]);
    const ruleIds = (await db.query<{ id: string }>("SELECT id FROM procedural_rules WHERE tenant_id = ANY($1::text[])", [VICTIM_TENANTS])).rows.map((r) => r.id);
    await fc.assert(
      fc.asyncProperty(attackerTenant, attackerUser, fc.constantFrom(...rows.map((r) => r.id)), fc.constantFrom(...ruleIds), hostileText, async (tenantId, userId, id, ruleId, text) => {
        const scope = { tenantId, userId };
        const got = await attempt("store.get(victim id)", () => store.get(scope, id));
        if (got.ok) expect(got.value).toBeNull();
        for (const [label, call] of [
          ["store.update", () => store.update(scope, id, { text })],
          ["store.supersede", () => store.supersede(scope, id, { kind: "fact", text })],
          ["controls.getMemory", () => controls.getMemory(scope, id)],
          ["controls.editMemory", () => controls.editMemory(scope, id, { text })],
          ["controls.deleteMemory", () => controls.deleteMemory(scope, id)],
          ["controls.approveRule", () => controls.approveRule(scope, ruleId)],
          ["controls.revokeRule", () => controls.revokeRule(scope, ruleId)],
          ["controls.deleteRule", () => controls.deleteRule(scope, ruleId)],
        ] as const) {
          const r = await attempt(label, call as () => Promise<unknown>);
          expect([label, r.ok]).toEqual([label, false]);
        }
        const deleted = await attempt("store.delete(victim id)", () => store.delete(scope, id));
        if (deleted.ok) expect(deleted.value).toBe(false);
        const used = await attempt("store.markUsed(victim id)", () => store.markUsed(scope, [id], { include: ["tenant", "global"] }));
        if (used.ok) expect(used.value).toBe(0);
        await othersUnchanged();
      }),
      { numRuns: RUNS },
    );
  }, 300_000);

  it("BaseStore door put/get/search/list/delete with hostile namespaces, keys, values and filters", async () => {
    await fc.assert(
      fc.asyncProperty(
        attackerTenant,
        fc.array(nastyString(20), { minLength: 0, maxLength: 4 }),
        nastyString(40),
        hostileJson,
        fc.record({
          query: fc.oneof(fc.constant(undefined), hostileText),
          filter: fc.oneof(fc.constant(undefined), fc.dictionary(nastyString(10), fc.oneof(hostileJson, fc.record({ $gt: fc.oneof(fc.double(), nastyString(5)) }), fc.record({ $in: fc.array(nastyString(5)) }), fc.record({ [`$${"x"}`]: fc.constant(1) })), { maxKeys: 3 })),
          limit: fc.oneof(fc.constant(undefined), fc.integer({ min: -3, max: 20_000 })),
          offset: fc.oneof(fc.constant(undefined), fc.integer({ min: -3, max: 100 })),
        }),
        async (tenantId, namespace, key, value, searchOptions) => {
          const opened = await attempt("lgstore.new", async () => new LangGraphStore(db, { tenantId, index: { dims: DIMS, embeddings } }));
          if (!opened.ok) return;
          const items = opened.value;
          try {
            const put = await attempt("lgstore.put", () => items.put(namespace, key, value as Record<string, unknown>));
            if (put.ok) {
              const got = await items.get(namespace, key);
              if (value === null) expect(got).toBeNull(); // BaseStore: a null value deletes
              else {
                expect(canonical(got?.value)).toBe(canonical(value));
                expect(got?.namespace).toEqual(namespace);
                expect(got?.key).toBe(key);
              }
            }
            const found = await attempt("lgstore.search", () => items.search(namespace.slice(0, 1), searchOptions as never));
            const prefix = namespace.slice(0, 1);
            if (found.ok) for (const item of found.value) expect(item.namespace.slice(0, prefix.length)).toEqual(prefix);
            await attempt("lgstore.listNamespaces", () => items.listNamespaces({ prefix: namespace.slice(0, 2), maxDepth: searchOptions.limit, limit: searchOptions.offset }));
            await attempt("lgstore.delete", () => items.delete(namespace, key));
            if (put.ok) expect(await items.get(namespace, key)).toBeNull();
          } finally {
            items.stop();
          }
          await othersUnchanged();
        },
      ),
      { numRuns: RUNS },
    );
  }, 300_000);

  it("profile, rules and the controls API: exact round trip or a typed error", async () => {
    await fc.assert(
      fc.asyncProperty(
        attackerTenant,
        attackerUser,
        fc.dictionary(fc.oneof(fc.constantFrom("name", "timezone", "units", "language", "plan", "notes"), nastyString(10)), profileValue, { maxKeys: 4 }),
        hostileText,
        fc.oneof(fc.constant(undefined), fc.integer({ min: -1_000_000, max: 1_000_000 }), fc.double()),
        hostileId,
        async (tenantId, userId, patch, ruleText, priority, token) => {
          const scope = { tenantId, userId };
          const before = isValidScope(scope) ? await controls.profiles.getDocument(scope) : null;
          const updated = await attempt("controls.updateProfile", () => controls.updateProfile(scope, patch as Record<string, unknown>));
          if (updated.ok) {
            const doc = (await controls.profiles.getDocument(scope)) ?? {};
            for (const [field, value] of Object.entries(patch)) {
              if (value === null) expect(field in doc).toBe(false);
              else expect([field, doc[field]]).toEqual([field, typeof value === "string" && (field === "name" || field === "plan") ? value.trim() : asJson(value)]);
            }
          } else if (before) {
            expect(await controls.profiles.getDocument(scope)).toEqual(before);
          }
          const rule = await attempt("rules.add", () => controls.rules.add(scope, { text: ruleText, priority: priority as number }));
          // Rule text is stored trimmed (documented normalisation), otherwise exactly.
          if (rule.ok) expect((await controls.rules.get(scope, rule.value.id))?.text).toBe(ruleText.trim());
          await attempt("controls.deleteAll(bad token)", () => controls.deleteAll(scope, token));
          await attempt("controls.inspect", () => controls.inspect(scope));
          await attempt("controls.deletionLog", () => controls.deletionLog(scope, { limit: priority as number }));
          await othersUnchanged();
        },
      ),
      { numRuns: RUNS },
    );
  }, 300_000);

  it("controls.import of hostile export documents: all or nothing, in the caller's scope only", async () => {
    const memoryArb = fc.record(
      {
        id: fc.oneof(fc.uuid(), hostileId),
        kind: kindArb,
        text: hostileText,
        context: fc.oneof(fc.constant(null), nastyString()),
        tenantId: fc.constantFrom("acme", "globex", null),
        userId: fc.constantFrom("alice", "bob", null),
        scope: fc.constantFrom("user", "tenant", "global", "weird"),
        confidence: fc.oneof(fc.double(), nastyString(4)),
        createdAt: fc.oneof(fc.date({ noInvalidDate: false }).map((d) => (Number.isNaN(d.getTime()) ? "not a date" : d.toISOString())), nastyString(10)),
        supersededBy: fc.oneof(fc.constant(null), fc.uuid(), nastyString(10)),
        accessCount: fc.oneof(fc.integer({ min: -5, max: 5 }), fc.double()),
        metadata: fc.oneof(fc.constant({}), hostileJson),
        source: fc.oneof(fc.constant({}), fc.record({ threadId: nastyString(), origin: fc.oneof(fc.constantFrom("user_stated", "extracted", "inferred"), nastyString(6)) })),
      },
      { requiredKeys: ["id", "kind", "text"] },
    );
    await fc.assert(
      fc.asyncProperty(
        attackerTenant,
        attackerUser,
        fc.record({
          format: fc.oneof({ weight: 5, arbitrary: fc.constant("langgraph-memory/user-export") }, { weight: 1, arbitrary: nastyString(10) }),
          version: fc.oneof({ weight: 5, arbitrary: fc.constant(1) }, { weight: 1, arbitrary: fc.anything() }),
          exportedAt: fc.constant("2026-01-01T00:00:00Z"),
          tenantId: fc.constantFrom("acme", "globex"),
          userId: fc.constantFrom("alice", "bob"),
          memories: fc.array(memoryArb, { maxLength: 4 }),
          profile: fc.oneof(fc.constant(null), fc.record({ document: hostileJson, sources: hostileJson, history: fc.array(hostileJson, { maxLength: 2 }) })),
          rules: fc.array(fc.record({ id: fc.oneof(fc.uuid(), hostileId), text: hostileText, state: fc.constantFrom("proposed", "approved", "revoked", "nope"), scope: fc.constantFrom("user", "tenant", "global") }), { maxLength: 2 }),
          settings: fc.oneof(fc.constant(null), hostileJson),
        }),
        async (tenantId, userId, doc) => {
          const scope = { tenantId, userId };
          const valid = isValidScope(scope);
          const before = valid ? await store.export(scope) : [];
          const r = await attempt("controls.import", () => controls.import(scope, doc));
          const after = valid ? await store.export(scope) : [];
          if (r.ok) {
            // Everything imported lands in the caller's scope, with the text as given.
            for (const m of after) expect([m.tenantId, m.userId]).toEqual([tenantId, userId]);
            const byId = new Map(after.map((m) => [m.id, m.text]));
            for (const m of doc.memories) if (!before.some((b) => b.id === m.id) && byId.has(m.id)) expect(byId.get(m.id)).toBe(m.text);
          } else {
            expect(after).toEqual(before); // nothing imported
          }
          await othersUnchanged();
        },
      ),
      { numRuns: RUNS },
    );
  }, 300_000);

  it("the schedule node queues any hostile message text (NUL, half surrogates, huge, SQL) and the job reads back, never losing the turn", async () => {
    const node = createScheduleExtractionNode({ store, queue: new JobQueue(db, { notify: false }), debounceMs: 0 });
    let turn = 0;
    await fc.assert(
      // Hostile text, and text with a NUL or half a surrogate pair inside (not in hostileText, which is well-formed).
      fc.asyncProperty(fc.oneof(hostileText, fc.tuple(hostileText, fc.constantFrom("\uD800", "\uDFFF", "\u0000"), hostileText).map(([a, b, c]) => a + b + c)), hostileText, async (text, id) => {
        const thread = `hostile-thread-${++turn}`;
        const scope = { tenantId: "known-co", userId: "turns" };
        const messages = [new HumanMessage({ id: `h-${turn}-${id.slice(0, 40)}`, content: text }), new AIMessage({ id: `a-${turn}`, content: "Noted." })];
        const r = await attempt("schedule_extraction(hostile message)", () => node({ messages }, { configurable: { thread_id: thread, tenant_id: scope.tenantId, user_id: scope.userId } }));
        // A turn with any text is queued (the update names its last message).
        expect(r.ok).toBe(true);
        await new JobQueue(db, { notify: false }).foldInbox();
        const jobs = (await new JobQueue(db, { notify: false }).list(scope, { groupKey: thread })).map((j) => j.payload as { messages: Array<{ text: string }> });
        expect(jobs).toHaveLength(1);
        expect(isWellFormedText(jobs[0].messages.map((m) => m.text).join(""))).toBe(true);
        await othersUnchanged();
      }),
      { numRuns: RUNS },
    );
  }, 300_000);

  // Inputs that once escaped as untyped errors or silent changes (fixed with these tests; kept as
  // fixed cases beside the properties, which also generate them).
  it("BaseStore door: an undefined, function or Date value, a BigInt in a filter, nesting 20,000 levels deep fail with INVALID_INPUT, and nothing is stored", async () => {
    const items = new LangGraphStore(db, { tenantId: "known-co", index: { dims: DIMS, embeddings } });
    try {
      const results: Record<string, string> = {};
      const code = async (label: string, fn: () => Promise<unknown>) => {
        try {
          await fn();
          results[label] = "ok";
        } catch (err) {
          results[label] = isMemoryError(err) ? err.code : `untyped ${(err as Error).constructor.name}`;
        }
      };
      await code("put(undefined)", () => items.put(["ns"], "k", undefined as never));
      await code("put(function)", () => items.put(["ns"], "k", (() => 1) as never));
      // A Date passed the "is an object" check, was stored as a JSON string, and then every read
      // of the namespace failed (JSON.parse of the parsed string).
      await code("put(Date)", () => items.put(["poisoned"], "k", new Date(0) as never));
      await code("search after put(Date)", () => items.search(["poisoned"]));
      await code("search(filter BigInt)", () => items.search(["ns"], { filter: { n: 10n } }));
      await code("put(20,000 levels)", () => items.put(["ns"], "deep", deepJson(20_000)));
      expect(results).toEqual({
        "put(undefined)": "INVALID_INPUT",
        "put(function)": "INVALID_INPUT",
        "put(Date)": "INVALID_INPUT",
        "search after put(Date)": "ok",
        "search(filter BigInt)": "INVALID_INPUT",
        "put(20,000 levels)": "INVALID_INPUT",
      });
      const { rows } = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM store_items WHERE tenant_id = 'known-co'");
      expect(rows[0].n).toBe(0);
    } finally {
      items.stop();
    }
    await othersUnchanged();
  });

  it("typed door: metadata that is a Date (not a plain object) is INVALID_INPUT before anything is written", async () => {
    const scope = { tenantId: "known-co", userId: "date" };
    const r = await attempt("store.add(metadata Date)", () => store.add(scope, { kind: "fact", text: "dated", metadata: new Date(0) as never })).catch((e: Error) => ({ ok: false as const, code: e.message }));
    expect(r).toEqual({ ok: false, code: "INVALID_INPUT" });
    expect(await store.list(scope)).toEqual([]);
  });

  it("a profile patch { name: NaN } or { name: Infinity } is INVALID_INPUT and keeps the name (NaN used to become JSON null, which deletes the field); { name: undefined } changes nothing", async () => {
    const scope = { tenantId: "known-co", userId: "nan" };
    await controls.updateProfile(scope, { name: "Ada", timezone: "Europe/Paris" });
    const results: string[] = [];
    for (const value of [NaN, Infinity, -Infinity, { nested: NaN }, undefined]) {
      const r = await attempt("controls.updateProfile(non-JSON)", () => controls.updateProfile(scope, { name: value }));
      results.push(r.ok ? "ok" : r.code);
    }
    expect({ results, doc: await controls.profiles.getDocument(scope) }).toEqual({
      results: ["INVALID_INPUT", "INVALID_INPUT", "INVALID_INPUT", "INVALID_INPUT", "ok"],
      doc: { name: "Ada", timezone: "Europe/Paris" },
    });
  });

  it("wrong types, a BigInt kind, a 10 MB profile patch, a 10 MB text for the secret filter: typed INVALID_INPUT saying what to fix, and nothing stored", async () => {
    const scope = { tenantId: "known-co", userId: "types" };
    const kept = await store.add(scope, { kind: "fact", text: "User keeps bees." });
    await controls.updateProfile(scope, { name: "Ada" });
    const results: Record<string, string> = {};
    const messages: Record<string, string> = {};
    const code = async (label: string, fn: () => unknown) => {
      try {
        await fn();
        results[label] = "ok";
      } catch (err) {
        results[label] = isMemoryError(err) ? err.code : `untyped ${(err as Error).constructor.name}`;
        messages[label] = String((err as Error).message);
      }
    };
    await code("markUsed(a string)", () => store.markUsed(scope, kept.id as never));
    await code("markUsed(null)", () => store.markUsed(scope, null as never));
    await code("nearest(null)", () => store.nearest(scope, null as never));
    await code("add(kind 10n)", () => store.add(scope, { kind: 10n as never, text: "bigint kind" }));
    await code("list(kinds [10n])", () => store.list(scope, { kinds: [10n as never] }));
    await code("search(kinds [10n])", () => store.search(scope, "bees", { kinds: [10n as never] }));
    await code("updateProfile(10 MB notes)", () => controls.updateProfile(scope, { notes: "a".repeat(10_000_000) }));
    await code("editMemory(10 MB text)", () => controls.editMemory(scope, kept.id, { text: "1".repeat(10_000_000) }));
    const { detectSensitive } = await import("../../src/sensitive/detect-sensitive.js");
    await code("detectSensitive(10 MB)", () => detectSensitive("a".repeat(10_000_000)));
    await code("profile patch with a million-element array", () => controls.updateProfile(scope, { notes: new Array(1_000_000).fill("x") as never }));
    expect(results).toEqual({
      "markUsed(a string)": "INVALID_INPUT",
      "markUsed(null)": "INVALID_INPUT",
      "nearest(null)": "INVALID_INPUT",
      "add(kind 10n)": "INVALID_INPUT",
      "list(kinds [10n])": "INVALID_INPUT",
      "search(kinds [10n])": "INVALID_INPUT",
      "updateProfile(10 MB notes)": "INVALID_INPUT",
      "editMemory(10 MB text)": "INVALID_INPUT",
      "detectSensitive(10 MB)": "INVALID_INPUT",
      "profile patch with a million-element array": "INVALID_INPUT",
    });
    // Each message names the field and what to do (an id list, a query object, a kind, a size).
    expect(messages["markUsed(a string)"]).toMatch(/^ids: .*array/);
    expect(messages["nearest(null)"]).toMatch(/^query: /);
    expect(messages["add(kind 10n)"]).toMatch(/kind: must be one of .* got 10n/);
    expect(messages["updateProfile(10 MB notes)"]).toMatch(/^patch: .*64 KiB/);
    expect(messages["detectSensitive(10 MB)"]).toMatch(/characters.*split/);
    expect((await store.list(scope)).map((m) => m.text)).toEqual(["User keeps bees."]);
    expect(await controls.profiles.getDocument(scope)).toEqual({ name: "Ada" });
  });

  it("NaN and ±Infinity in a memory's metadata (add and update), a BaseStore item or a rule's metadata are INVALID_INPUT (they used to be stored as null)", async () => {
    const scope = { tenantId: "known-co", userId: "nan-metadata" };
    const m = await store.add(scope, { kind: "fact", text: "User keeps bees.", metadata: { score: 1 } });
    const results: string[] = [];
    for (const metadata of [{ score: NaN }, { nested: { score: Infinity } }, { list: [-Infinity] }]) {
      results.push((await attempt("store.add(NaN metadata)", () => store.add(scope, { kind: "fact", text: "planted", metadata }))).ok ? "stored" : "refused");
      results.push((await attempt("store.update(NaN metadata)", () => store.update(scope, m.id, { metadata }))).ok ? "stored" : "refused");
    }
    expect(results).toEqual(new Array(6).fill("refused"));
    expect((await store.list(scope)).map((x) => [x.text, x.metadata])).toEqual([["User keeps bees.", { score: 1 }]]);
    // The other JSON doors too: a BaseStore item and a rule's metadata.
    const items = new LangGraphStore(db, { tenantId: "known-co", index: { dims: DIMS, embeddings } });
    try {
      expect(await attempt("lgstore.put(NaN)", () => items.put(["nan"], "k", { score: NaN }))).toEqual({ ok: false, code: "INVALID_INPUT" });
      expect(await items.get(["nan"], "k")).toBeNull();
    } finally {
      items.stop();
    }
    expect(await attempt("rules.add(NaN metadata)", () => controls.rules.add(scope, { text: "Answer briefly.", metadata: { weight: Infinity } }))).toEqual({ ok: false, code: "INVALID_INPUT" });
    expect(await attempt("rules.add(BigInt metadata)", () => controls.rules.add(scope, { text: "Answer briefly.", metadata: { weight: 1n } as never }))).toEqual({ ok: false, code: "INVALID_INPUT" });
    expect(await controls.rules.list(scope)).toEqual([]);
  });

  // Known problem (upstream, docs/security.md): `it.failing` passes while the problem exists and
  // fails once it is fixed — then make it a plain `it`. Its input is left out of the properties
  // above (see helpers/hostile.ts) so those keep exploring. Unpaired surrogates, once a known
  // problem too, are refused now and have their own test below.
  // Upstream (PGlite 0.5.14): its protocol reader decodes each text value with a TextDecoder that
  // strips a leading BOM; the value is stored whole (server Postgres returns it whole). Passes on
  // PGlite while that holds — then make it a plain `it`.
  (engine === "pglite" ? it.failing : it)("a text starting with U+FEFF reads back whole (known problem on PGlite 0.5.14: its result decoding drops a leading BOM)", async () => {
    const scope = { tenantId: "bom-text-co", userId: "u" };
    const r = await attempt("store.add(BOM)", () => store.add(scope, { kind: "fact", text: "\ufeffstarts with a byte-order mark", context: "\ufeffso does its context" }));
    expect(r.ok).toBe(true);
    const got = r.ok ? await store.get(scope, r.value.id) : null;
    expect({ text: got?.text, context: got?.context }).toEqual({ text: "\ufeffstarts with a byte-order mark", context: "\ufeffso does its context" });
  });

  it("ids starting with U+FEFF are refused with INVALID_INPUT on every engine (PGlite would read them back as another id); a BOM inside an id round-trips", async () => {
    const results: Record<string, string> = {};
    for (const [label, call] of [
      ["tenant id", () => store.add({ tenantId: "\ufeffbom-co", userId: "u" }, { kind: "fact", text: "planted" })],
      ["user id", () => store.add({ tenantId: "bom-co", userId: "\ufeffu" }, { kind: "fact", text: "planted" })],
      ["BaseStore tenant", async () => new LangGraphStore(db, { tenantId: "\ufeffbom-co" })],
      ["BaseStore key", () => new LangGraphStore(db, { tenantId: "bom-co" }).put(["ns"], "\ufeffk", { a: 1 })],
    ] as const) {
      const r = await attempt(`BOM ${label}`, call as () => Promise<unknown>);
      results[label] = r.ok ? "stored" : r.code;
    }
    expect(results).toEqual({ "tenant id": "INVALID_INPUT", "user id": "INVALID_INPUT", "BaseStore tenant": "INVALID_INPUT", "BaseStore key": "INVALID_INPUT" });
    const inside = { tenantId: "bom\ufeff-co", userId: "u\ufeff" };
    const m = await store.add(inside, { kind: "fact", text: "a BOM inside an id is kept" });
    expect(await store.get(inside, m.id)).toMatchObject({ tenantId: "bom\ufeff-co", userId: "u\ufeff" });
    expect(await store.list({ tenantId: "bom-co", userId: "u" })).toEqual([]);
  });

  it("unpaired UTF-16 surrogates are refused with INVALID_INPUT naming the field, before anything is written — two tenant ids never become one", async () => {
    // Both drivers encode strings as UTF-8, which would replace an unpaired surrogate with U+FFFD:
    // "t\uD800" and "t\uDBFF" would be stored as the same tenant "t\uFFFD". They are refused instead.
    const existing = await store.add({ tenantId: "surrogate-co", userId: "u" }, { kind: "fact", text: "a whole 😀 emoji is fine" });
    expect((await store.get({ tenantId: "surrogate-co", userId: "u" }, existing.id))?.text).toBe("a whole 😀 emoji is fine");
    const cases: Array<[string, string, () => Promise<unknown>]> = [
      ["memory text", "memory.text", () => store.add({ tenantId: "surrogate-co", userId: "u" }, { kind: "fact", text: "half \uD83D of an emoji" })],
      ["memory context", "memory.context", () => store.add({ tenantId: "surrogate-co", userId: "u" }, { kind: "fact", text: "ok", context: "a trailing \uDE00" })],
      ["memory edit", "patch.text", () => store.update({ tenantId: "surrogate-co", userId: "u" }, existing.id, { text: "\uDBFF" })],
      ["tenant id", "scope.tenantId", () => store.add({ tenantId: "tenant-\uD800", userId: "u" }, { kind: "fact", text: "planted by tenant-\\uD800" })],
      ["user id", "scope.userId", () => store.add({ tenantId: "surrogate-co", userId: "\uDC00u" }, { kind: "fact", text: "planted" })],
      ["tenant id, read", "scope.tenantId", () => store.list({ tenantId: "tenant-\uDBFF", userId: "u" })],
      ["profile scope", "scope.userId", () => controls.updateProfile({ tenantId: "surrogate-co", userId: "u\uD800" }, { name: "x" })],
      ["BaseStore tenant", "tenantId", async () => new LangGraphStore(db, { tenantId: "t\uD800" })],
      ["namespace label", "namespace label", () => new LangGraphStore(db, { tenantId: "surrogate-co" }).put(["ns\uDC00"], "k", { a: 1 })],
      ["BaseStore key", "key", () => new LangGraphStore(db, { tenantId: "surrogate-co" }).put(["ns"], "k\uD800", { a: 1 })],
    ];
    const results: Record<string, string> = {};
    for (const [label, field, call] of cases) {
      const r = await attempt(`surrogate ${label}`, call).catch((e: Error) => ({ ok: false as const, code: `untyped: ${e.message}` }));
      results[label] = r.ok ? "stored" : r.code;
      if (!r.ok && r.code === "INVALID_INPUT") {
        const err = await call().catch((e: { details?: { field?: string } }) => e);
        expect([label, (err as { details?: { field?: string } }).details?.field]).toEqual([label, field]);
      }
    }
    expect(results).toEqual(Object.fromEntries(cases.map(([label]) => [label, "INVALID_INPUT"])));
    // Nothing of theirs was written: the tenant has only its one well-formed memory, no item.
    expect((await store.list({ tenantId: "surrogate-co", userId: "u" })).map((m) => m.text)).toEqual(["a whole 😀 emoji is fine"]);
    expect(await new LangGraphStore(db, { tenantId: "surrogate-co" }).listNamespaces()).toEqual([]);
    const { rows } = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM memories WHERE tenant_id LIKE 'tenant-%'");
    expect(rows[0].n).toBe(0);
  });
});
