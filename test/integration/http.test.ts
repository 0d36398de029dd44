/**
 * The HTTP API, every route, over real HTTP (a listening server and fetch; Fastify's inject
 * needs an ESM-only dependency jest cannot load on Node 20) on a real database (PGlite, and server
 * Postgres when DATABASE_URL is set). Isolation is checked both ways: another user's ids answer
 * exactly like unknown ids, and the database shows nothing changed.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "@jest/globals";
import fastify from "fastify";
import type { Database } from "../../src/db/database.js";
import { MemoryRepository } from "../../src/store/memory-store.js";
import { MemoryControls } from "../../src/controls/memory-controls.js";
import { RetentionSweep } from "../../src/retention/retention-sweep.js";
import { ManualClock } from "../../src/jobs/clock.js";
import { createMemoryServer, memoryApi, ViewerSessions, type MemoryServer } from "../../src/server/index.js";
import { JobQueue, JobWorker } from "../../src/jobs/index.js";
import { openTestDatabase, testEngines } from "../helpers/db.js";

const ALICE_TOKEN = "alice-token-0123456789abcdef";
const BOB_TOKEN = "bob-token-0123456789abcdef";
const OTHER_TENANT_TOKEN = "carol-token-0123456789abcdef";
const START = Date.UTC(2026, 2, 1, 12);
const UNKNOWN_ID = "00000000-0000-4000-8000-000000000000";
const alice = { tenantId: "acme", userId: "alice" };
const bob = { tenantId: "acme", userId: "bob" };
const carol = { tenantId: "globex", userId: "alice" };
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const A = auth(ALICE_TOKEN);
const B = auth(BOB_TOKEN);

type Method = "GET" | "POST" | "PATCH" | "DELETE";
interface CallOptions {
  headers?: Record<string, string>;
  body?: unknown;
  raw?: string;
}

async function send(base: string, method: Method, url: string, options: CallOptions = {}) {
  const headers: Record<string, string> = { ...options.headers };
  let payload: string | undefined;
  if (options.raw !== undefined) payload = options.raw;
  else if (options.body !== undefined) {
    payload = JSON.stringify(options.body);
    headers["content-type"] ??= "application/json";
  }
  const res = await fetch(base.replace(/\/$/, "") + url, { method, headers, body: payload, redirect: "manual" });
  const body = await res.text();
  const responseHeaders = Object.fromEntries(res.headers.entries());
  const json = body && responseHeaders["content-type"]?.includes("json") ? JSON.parse(body) : undefined;
  return { status: res.status, headers: responseHeaders, body, json };
}

describe.each(testEngines())("HTTP API on %s", (engine) => {
  let db: Database;
  let store: MemoryRepository;
  let clock: ManualClock;
  let controls: MemoryControls;
  let retention: RetentionSweep;
  let server: MemoryServer;
  let ids: Record<string, string>;
  const count = async (sql: string, params: unknown[] = []) => Number((await db.query<{ n: number }>(sql, params)).rows[0].n);

  let base: string;
  const call = (method: Method, url: string, options: CallOptions = {}) => send(base, method, url, options);

  beforeAll(async () => {
    db = await openTestDatabase(engine);
    store = new MemoryRepository(db);
    clock = new ManualClock(START);
    controls = new MemoryControls(db, { store, clock });
    retention = new RetentionSweep(db, { controls, clock });
    server = await createMemoryServer({
      memory: { controls, retention },
      tokens: { [ALICE_TOKEN]: alice, [BOB_TOKEN]: bob, [OTHER_TENANT_TOKEN]: carol },
      bodyLimit: 4096,
    });
    base = await server.listen({ port: 0 });
  });
  afterAll(async () => {
    await server.close();
    await db.close();
  });
  beforeEach(async () => {
    clock.advance(START - clock.now().getTime()); // every test starts at the same time
    ids = await seed();
  });
  afterEach(async () => {
    await db.exec(
      "DELETE FROM memories; DELETE FROM profiles; DELETE FROM profile_history; DELETE FROM procedural_rules; DELETE FROM memory_settings; " +
        "DELETE FROM memory_confirmations; DELETE FROM memory_deletion_audit; DELETE FROM memory_jobs_inbox; DELETE FROM memory_jobs; DELETE FROM retention_runs; DELETE FROM threads;",
    );
  });

  async function seed(): Promise<Record<string, string>> {
    const lyon = await store.add(alice, { kind: "fact", text: "Lives in Lyon.", source: { threadId: "t1", messageId: "m1", origin: "extracted" }, confidence: 0.9, createdAt: "2026-01-02T10:00:00.000Z" });
    const { current: paris } = await store.supersede(alice, lyon.id, { kind: "fact", text: "Lives in Paris near the canal.", source: { threadId: "t2", messageId: "m5", origin: "extracted" }, confidence: 0.95, createdAt: "2026-02-03T10:00:00.000Z" });
    const { current: marseille } = await store.supersede(alice, paris.id, { kind: "fact", text: "Lives in Marseille by the sea.", source: { threadId: "t3", origin: "extracted" }, confidence: 0.95, createdAt: "2026-02-20T10:00:00.000Z" });
    const metric = await store.add(alice, { kind: "preference", text: "Prefers metric units.", createdAt: "2026-01-05T09:30:00.000Z" });
    const rex = await store.add(alice, { kind: "entity", text: "Has a dog named Rex.", source: { threadId: "t2", origin: "extracted" }, confidence: 0.9, createdAt: "2026-02-04T10:00:00.000Z" });
    const bobFact = await store.add(bob, { kind: "fact", text: "Bob lives in Berlin.", createdAt: "2026-01-03T10:00:00.000Z" });
    const carolFact = await store.add(carol, { kind: "fact", text: "Globex alice likes tea.", createdAt: "2026-01-03T10:00:00.000Z" });
    await controls.profiles.applyPatch(alice, { name: "Alice", units: "metric" }, { kind: "user_edit" });
    await controls.profiles.applyPatch(alice, { timezone: "Europe/Paris" }, { kind: "extraction", threadId: "t2", messageId: "m6" });
    await controls.profiles.applyPatch(bob, { name: "Bob" }, { kind: "user_edit" });
    const rule = await controls.rules.propose(alice, { text: "Answer with diffs, not full files.", source: "feedback", origin: { kind: "extraction", threadId: "t2" } });
    const bobRule = await controls.rules.propose(bob, { text: "Use British spelling.", source: "feedback", origin: { kind: "extraction", threadId: "tb" } });
    await db.query("INSERT INTO threads (thread_id, tenant_id, user_id) VALUES ('t2', 'acme', 'alice'), ('tb', 'acme', 'bob')");
    return { lyon: lyon.id, paris: paris.id, marseille: marseille.id, metric: metric.id, rex: rex.id, bobFact: bobFact.id, carolFact: carolFact.id, rule: rule.id, bobRule: bobRule.id };
  }

  describe("authentication and errors", () => {
    it("refuses requests without a valid bearer token with 401 and a JSON error", async () => {
      const variants: Array<Record<string, string>> = [{}, { authorization: "Bearer nope-nope-nope-nope" }, { authorization: `Basic ${ALICE_TOKEN}` }, { authorization: `Bearer ${ALICE_TOKEN} extra` }];
      for (const headers of variants) {
        const res = await call("GET", "/api/memories", { headers });
        expect(res.status).toBe(401);
        expect(res.json).toEqual({ error: { code: "UNAUTHENTICATED", message: "send Authorization: Bearer <token>; the token is missing, unknown or expired" } });
        expect(res.headers["www-authenticate"]).toBe('Bearer realm="langgraph-memory"');
      }
      // Unauthenticated bodies are not even parsed: the 401 comes first.
      expect((await call("POST", "/api/delete-all", { raw: "{not json", headers: { "content-type": "application/json" } })).status).toBe(401);
    });

    it("answers health without a token, and unknown routes with a JSON 404", async () => {
      expect((await call("GET", "/api/health")).json).toEqual({ status: "ok" });
      const res = await call("GET", "/api/nothing-here", { headers: A });
      expect(res.status).toBe(404);
      expect(res.json).toEqual({ error: { code: "NOT_FOUND", message: "no such route" } });
    });

    it("limits the body size (413), accepts only JSON (415), rejects malformed JSON (400) and unknown fields (400)", async () => {
      const big = await call("PATCH", `/api/memories/${ids.metric}`, { headers: A, body: { text: "x".repeat(5000) } });
      expect(big.status).toBe(413);
      expect(big.json.error.code).toBe("PAYLOAD_TOO_LARGE");
      const text = await call("POST", "/api/delete-all", { headers: { ...A, "content-type": "text/plain" }, raw: "token" });
      expect(text.status).toBe(415);
      expect(text.json.error.code).toBe("UNSUPPORTED_MEDIA_TYPE");
      const form = await call("POST", "/api/opt-out", { headers: { ...A, "content-type": "application/x-www-form-urlencoded" }, raw: "purge=true" });
      expect(form.status).toBe(415);
      const bad = await call("PATCH", `/api/memories/${ids.metric}`, { headers: { ...A, "content-type": "application/json" }, raw: "{\"text\": " });
      expect(bad.status).toBe(400);
      expect(bad.json).toEqual({ error: { code: "INVALID_INPUT", message: "the body is not valid JSON" } });
      const proto = await call("PATCH", "/api/profile", { headers: { ...A, "content-type": "application/json" }, raw: '{"__proto__": {"x": 1}}' });
      expect(proto.status).toBe(400);
      const extra = await call("PATCH", `/api/memories/${ids.metric}`, { headers: A, body: { text: "Prefers imperial units.", userId: "bob" } });
      expect(extra.status).toBe(400);
      expect(extra.json.error).toEqual({ code: "INVALID_INPUT", message: 'body: Unrecognized key: "userId"' });
      expect((await store.get(alice, ids.metric))!.text).toBe("Prefers metric units.");
      const query = await call("GET", "/api/memories?userId=bob", { headers: A });
      expect(query.status).toBe(400);
      expect(query.json.error.message).toContain("userId");
    });

    it("refuses state-changing requests a browser marks as cross-site (403)", async () => {
      const res = await call("POST", "/api/delete-all/request", { headers: { ...A, "sec-fetch-site": "cross-site" } });
      expect(res.status).toBe(403);
      expect(res.json.error.code).toBe("CROSS_SITE_REQUEST");
      expect(await count("SELECT count(*)::int AS n FROM memory_confirmations")).toBe(0);
      expect((await call("POST", "/api/delete-all/request", { headers: { ...A, "sec-fetch-site": "same-origin" } })).status).toBe(200);
      expect((await call("GET", "/api/me", { headers: { ...A, "sec-fetch-site": "cross-site" } })).status).toBe(200);
    });

    it("sets security headers on API responses and never caches them", async () => {
      const res = await call("GET", "/api/me", { headers: A });
      expect(res.headers).toMatchObject({
        "content-security-policy": "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
        "x-content-type-options": "nosniff",
        "x-frame-options": "DENY",
        "referrer-policy": "no-referrer",
        "cache-control": "no-store",
      });
      expect(res.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.headers["access-control-allow-origin"]).toBeUndefined();
    });

    it("hides unexpected failures behind INTERNAL_ERROR (no stack, no detail) and reports them to onError", async () => {
      const seen: unknown[] = [];
      const failing = await createMemoryServer({
        memory: { controls, retention },
        authenticate: () => {
          throw new Error("connection string postgres://admin:hunter2@db leaked");
        },
        onError: (err) => seen.push(err),
        viewer: false,
      });
      try {
        const url = await failing.listen({ port: 0 });
        const res = await send(url, "GET", "/api/me");
        expect(res.status).toBe(500);
        expect(res.json).toEqual({ error: { code: "INTERNAL_ERROR", message: "the server could not complete the request; its log has the details (look up the X-Request-Id)" } });
        expect(res.body).not.toMatch(/hunter2|at .*\.ts|stack/);
        expect(seen).toHaveLength(1);
        expect(String(seen[0])).toContain("hunter2");
        // The viewer is off: "/" is a 404.
        expect((await send(url, "GET", "/")).status).toBe(404);
      } finally {
        await failing.close();
      }
    });

    it("uses the app's authenticate hook; a malformed result is the app's bug (500), null is 401", async () => {
      const seen: unknown[] = [];
      const custom = await createMemoryServer({
        memory: { controls, retention },
        authenticate: (request) => {
          const who = request.headers["x-test-user"];
          if (who === "bob") return bob;
          if (who === "broken") return { tenantId: "acme" } as never;
          return null;
        },
        onError: (err) => seen.push(err),
      });
      try {
        const url = await custom.listen({ port: 0 });
        const ok = await send(url, "GET", "/api/memories", { headers: { "x-test-user": "bob" } });
        expect(ok.json.memories.map((m: { text: string }) => m.text)).toEqual(["Bob lives in Berlin."]);
        expect((await send(url, "GET", "/api/memories", { headers: { "x-test-user": "nobody" } })).status).toBe(401);
        expect((await send(url, "GET", "/api/memories", { headers: { "x-test-user": "broken" } })).status).toBe(500);
        expect(seen).toHaveLength(1);
        // Tokens of the other server mean nothing here.
        expect((await send(url, "GET", "/api/memories", { headers: A })).status).toBe(401);
      } finally {
        await custom.close();
      }
    });
  });

  describe("viewer sessions", () => {
    it("exchanges a one-time login code for a session token that acts for that user only, and signs out", async () => {
      const { code } = server.sessions.issueLoginCode(bob);
      const res = await call("POST", "/api/session", { body: { code } });
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({ tenantId: "acme", userId: "bob" });
      expect(res.json.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const again = await call("POST", "/api/session", { body: { code } });
      expect(again.status).toBe(401);
      expect(again.json.error.message).toContain("already used");
      expect((await call("POST", "/api/session", { body: { code: "made-up" } })).status).toBe(401);
      expect((await call("POST", "/api/session", { body: {} })).status).toBe(400);

      const session = auth(res.json.token);
      expect((await call("GET", "/api/me", { headers: session })).json).toMatchObject({ tenantId: "acme", userId: "bob" });
      expect((await call("DELETE", "/api/session", { headers: session })).json).toEqual({ signedOut: true });
      expect((await call("GET", "/api/me", { headers: session })).status).toBe(401);
      // A configured token is not a session: signing out with it changes nothing.
      expect((await call("DELETE", "/api/session", { headers: A })).json).toEqual({ signedOut: false });
      expect((await call("GET", "/api/me", { headers: A })).status).toBe(200);
    });

    it("expires login codes and sessions by the registry's clock", async () => {
      const sessionClock = new ManualClock(new Date("2026-03-01T12:00:00.000Z"));
      const sessions = new ViewerSessions({ clock: sessionClock, loginCodeTtlMs: 60_000, sessionTtlMs: 3_600_000 });
      const late = sessions.issueLoginCode(alice);
      sessionClock.advance(61_000);
      expect(sessions.exchange(late.code)).toBeNull();
      const fresh = sessions.exchange(sessions.issueLoginCode(alice).code)!;
      expect(sessions.authenticate(fresh.token)).toEqual(alice);
      sessionClock.advance(3_600_001);
      expect(sessions.authenticate(fresh.token)).toBeNull();
    });
  });

  describe("memories", () => {
    it("lists the user's memories, newest first, with kind, source thread, dates, confidence and the superseded chain", async () => {
      const res = await call("GET", "/api/memories", { headers: A });
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({ tenantId: "acme", userId: "alice", optedOut: false, total: 5 });
      expect(res.json.memories.map((m: { text: string }) => m.text)).toEqual(["Lives in Marseille by the sea.", "Has a dog named Rex.", "Lives in Paris near the canal.", "Prefers metric units.", "Lives in Lyon."]);
      const paris = res.json.memories.find((m: { id: string }) => m.id === ids.paris);
      expect(paris).toEqual({
        id: ids.paris,
        kind: "fact",
        text: "Lives in Paris near the canal.",
        status: "superseded",
        origin: "extracted",
        confidence: 0.95,
        source: { threadId: "t2", messageId: "m5", runId: null },
        createdAt: "2026-02-03T10:00:00.000Z",
        updatedAt: expect.any(String),
        lastUsedAt: null,
        expiresAt: null,
        deactivatedAt: null,
        archivedAt: null,
        supersededBy: ids.marseille,
        supersedes: [ids.lyon],
        score: null,
      });
    });

    it("filters by kind and status, pages, and validates the query", async () => {
      const facts = await call("GET", "/api/memories?kind=fact&status=active", { headers: A });
      expect(facts.json.memories.map((m: { id: string }) => m.id)).toEqual([ids.marseille]);
      const two = await call("GET", "/api/memories?kind=fact,preference&status=superseded&status=active", { headers: A });
      expect(two.json.total).toBe(4);
      const page = await call("GET", "/api/memories?limit=2&offset=1", { headers: A });
      expect(page.json.total).toBe(5);
      expect(page.json.memories.map((m: { text: string }) => m.text)).toEqual(["Has a dog named Rex.", "Lives in Paris near the canal."]);
      const badKind = await call("GET", "/api/memories?kind=secret", { headers: A });
      expect(badKind.status).toBe(400);
      expect(badKind.json.error.message).toMatch(/^query\.kind\.0: /);
      expect((await call("GET", "/api/memories?limit=0", { headers: A })).status).toBe(400);
    });

    it("searches with ranked retrieval first, then any memory whose text contains the query", async () => {
      const res = await call("GET", `/api/memories?q=${encodeURIComponent("metric units")}`, { headers: A });
      expect(res.json.memories[0]).toMatchObject({ id: ids.metric });
      expect(res.json.memories[0].score).toBeGreaterThan(0);
      // "Lyon" is only in a replaced wording: retrieval never returns it, the text match does.
      const lyon = await call("GET", "/api/memories?q=lyon", { headers: A });
      expect(lyon.json.memories.map((m: { id: string; score: number | null }) => [m.id, m.score])).toEqual([[ids.lyon, null]]);
      // Bob's and the other tenant's memories are never found.
      const berlin = await call("GET", "/api/memories?q=berlin", { headers: A });
      expect(berlin.json.memories).toEqual([]);
      expect((await call("GET", "/api/memories?q=tea", { headers: A })).json.memories).toEqual([]);
    });

    it("shows one memory with its earlier and later versions", async () => {
      const res = await call("GET", `/api/memories/${ids.paris}`, { headers: A });
      expect(res.status).toBe(200);
      expect(res.json.memory).toMatchObject({ id: ids.paris, supersedes: [ids.lyon], supersededBy: ids.marseille });
      expect(res.json.previousVersions.map((m: { id: string }) => m.id)).toEqual([ids.lyon]);
      expect(res.json.newerVersions.map((m: { id: string }) => m.id)).toEqual([ids.marseille]);
      const newest = await call("GET", `/api/memories/${ids.marseille}`, { headers: A });
      expect(newest.json.previousVersions.map((m: { id: string }) => m.id)).toEqual([ids.paris, ids.lyon]);
    });

    it("edits text (re-embedded; becomes user-stated) and kind; validates the body", async () => {
      const before = (await db.query<{ e: string }>("SELECT embedding::text AS e FROM memories WHERE id = $1", [ids.rex])).rows[0].e;
      const res = await call("PATCH", `/api/memories/${ids.rex}`, { headers: A, body: { text: "Has two dogs, Rex and Fido.", kind: "fact" } });
      expect(res.status).toBe(200);
      expect(res.json.memory).toMatchObject({ id: ids.rex, text: "Has two dogs, Rex and Fido.", kind: "fact", origin: "user_stated", confidence: 1 });
      const row = (await db.query<{ text: string; kind: string; e: string }>("SELECT text, kind, embedding::text AS e FROM memories WHERE id = $1", [ids.rex])).rows[0];
      expect(row).toMatchObject({ text: "Has two dogs, Rex and Fido.", kind: "fact" });
      expect(row.e).not.toBe(before);
      // The new text is what search finds now.
      expect((await call("GET", "/api/memories?q=fido", { headers: A })).json.memories[0].id).toBe(ids.rex);

      expect((await call("PATCH", `/api/memories/${ids.rex}`, { headers: A, body: {} })).json.error).toEqual({ code: "INVALID_INPUT", message: "body: give a new text and/or kind" });
      expect((await call("PATCH", `/api/memories/${ids.rex}`, { headers: A, body: { kind: "secret" } })).status).toBe(400);
      const blank = await call("PATCH", `/api/memories/${ids.rex}`, { headers: A, body: { text: "   " } });
      expect(blank.status).toBe(422);
      expect(blank.json.error.code).toBe("INVALID_INPUT");
      expect((await call("PATCH", `/api/memories/${ids.rex}`, { headers: A })).status).toBe(400);
    });

    it("deletes one memory with the versions it replaced, or only itself", async () => {
      const only = await call("DELETE", `/api/memories/${ids.paris}?includePrevious=false`, { headers: A });
      expect(only.json).toEqual({ deleted: 1 });
      expect(await count("SELECT count(*)::int AS n FROM memories WHERE id = $1", [ids.lyon])).toBe(1);
      const all = await call("DELETE", `/api/memories/${ids.marseille}`, { headers: A });
      expect(all.json).toEqual({ deleted: 1 });
      const lyon = await call("DELETE", `/api/memories/${ids.lyon}`, { headers: A });
      expect(lyon.json).toEqual({ deleted: 1 });
      expect(await count("SELECT count(*)::int AS n FROM memories WHERE tenant_id = 'acme' AND user_id = 'alice' AND kind = 'fact'")).toBe(0);
      expect(await count("SELECT count(*)::int AS n FROM memory_deletion_audit WHERE tenant_id = 'acme' AND user_id = 'alice' AND via = 'controls.deleteMemory' AND actor = 'user'")).toBe(3);
      expect((await call("DELETE", `/api/memories/${ids.lyon}`, { headers: A })).status).toBe(404);
      expect((await call("DELETE", `/api/memories/${ids.metric}?includePrevious=maybe`, { headers: A })).status).toBe(400);
    });

    it("with the chain: deleting the newest version removes every earlier wording", async () => {
      const res = await call("DELETE", `/api/memories/${ids.marseille}`, { headers: A });
      expect(res.json).toEqual({ deleted: 3 });
      expect(await count("SELECT count(*)::int AS n FROM memories WHERE id = ANY($1::uuid[])", [[ids.lyon, ids.paris, ids.marseille]])).toBe(0);
    });
  });

  describe("isolation", () => {
    it("another user's (or tenant's) ids answer exactly like unknown ids, and nothing changes", async () => {
      const unknownMemory = await call("GET", `/api/memories/${UNKNOWN_ID}`, { headers: B });
      expect(unknownMemory.status).toBe(404);
      expect(unknownMemory.json).toEqual({ error: { code: "NOT_FOUND", message: "no such memory for this user" } });
      const unknownRule = await call("POST", `/api/rules/${UNKNOWN_ID}/approve`, { headers: B });
      expect(unknownRule.json).toEqual({ error: { code: "NOT_FOUND", message: "no such rule for this user" } });

      const attempts: Array<[string, "GET" | "PATCH" | "DELETE" | "POST", string, unknown?]> = [
        ["memory", "GET", `/api/memories/${ids.paris}`],
        ["memory", "PATCH", `/api/memories/${ids.paris}`, { text: "Hacked." }],
        ["memory", "DELETE", `/api/memories/${ids.paris}`],
        ["memory", "DELETE", `/api/memories/${ids.marseille}?includePrevious=true`],
        ["memory", "GET", "/api/memories/not-a-uuid"],
        ["memory", "PATCH", "/api/memories/..%2F..%2Fapi%2Fme", { text: "x" }],
        ["rule", "POST", `/api/rules/${ids.rule}/approve`],
        ["rule", "POST", `/api/rules/${ids.rule}/revoke`],
        ["rule", "DELETE", `/api/rules/${ids.rule}`],
        ["rule", "POST", "/api/rules/1/approve"],
      ];
      for (const headers of [B, auth(OTHER_TENANT_TOKEN)]) {
        for (const [what, method, url, body] of attempts) {
          const res = await call(method, url, { headers, body });
          expect([method, url, res.status, res.body]).toEqual([method, url, 404, JSON.stringify({ error: { code: "NOT_FOUND", message: `no such ${what} for this user` } })]);
        }
      }
      // Alice's data is exactly as seeded.
      expect((await db.query<{ text: string }>("SELECT text FROM memories WHERE tenant_id = 'acme' AND user_id = 'alice' AND tenant_id = 'acme' ORDER BY created_at")).rows.map((r) => r.text)).toEqual([
        "Lives in Lyon.",
        "Prefers metric units.",
        "Lives in Paris near the canal.",
        "Has a dog named Rex.",
        "Lives in Marseille by the sea.",
      ]);
      expect((await db.query<{ review_state: string }>("SELECT review_state FROM procedural_rules WHERE id = $1", [ids.rule])).rows[0].review_state).toBe("proposed");
      expect(await count("SELECT count(*)::int AS n FROM memory_deletion_audit")).toBe(0);
    });

    it("lists, profile, rules and export of one user never contain another's data", async () => {
      const bobMemories = await call("GET", "/api/memories", { headers: B });
      expect(bobMemories.json.memories.map((m: { text: string }) => m.text)).toEqual(["Bob lives in Berlin."]);
      const carolMemories = await call("GET", "/api/memories", { headers: auth(OTHER_TENANT_TOKEN) });
      expect(carolMemories.json.memories.map((m: { text: string }) => m.text)).toEqual(["Globex alice likes tea."]);
      expect((await call("GET", "/api/profile", { headers: auth(OTHER_TENANT_TOKEN) })).json.profile).toBeNull();
      expect((await call("GET", "/api/rules", { headers: B })).json.rules.map((r: { text: string }) => r.text)).toEqual(["Use British spelling."]);
      const exported = await call("GET", "/api/export", { headers: B });
      expect(exported.body).not.toContain("Alice");
      expect(exported.body).not.toContain("Lyon");
    });

    it("one user's delete-all token cannot delete another user's data", async () => {
      const { token } = (await call("POST", "/api/delete-all/request", { headers: A })).json;
      const res = await call("POST", "/api/delete-all", { headers: B, body: { token } });
      expect(res.status).toBe(409);
      expect(res.json.error.code).toBe("CONFIRMATION_INVALID");
      expect(await count("SELECT count(*)::int AS n FROM memories WHERE user_id = 'bob'")).toBe(1);
      expect(await count("SELECT count(*)::int AS n FROM memories WHERE tenant_id = 'acme' AND user_id = 'alice'")).toBe(5);
      // Alice's token still works for alice.
      expect((await call("POST", "/api/delete-all", { headers: A, body: { token } })).status).toBe(200);
    });
  });

  describe("profile", () => {
    it("shows the profile with who set each field, its schema and field order", async () => {
      const res = await call("GET", "/api/profile", { headers: A });
      expect(res.json.optedOut).toBe(false);
      expect(res.json.profile.document).toEqual({ name: "Alice", units: "metric", timezone: "Europe/Paris" });
      expect(res.json.profile.fields.find((f: { field: string }) => f.field === "timezone").source).toMatchObject({ kind: "extraction", threadId: "t2", messageId: "m6" });
      expect(res.json.fields).toEqual(["name", "language", "timezone", "units", "location", "occupation", "employer", "plan", "notes"]);
      expect(res.json.schema.properties.units).toEqual({ type: "string", enum: ["metric", "imperial"] });
    });

    it("edits by merge patch as the user's own edit; invalid values are 422 and change nothing", async () => {
      const res = await call("PATCH", "/api/profile", { headers: { ...A, "content-type": "application/merge-patch+json" }, body: { timezone: "Europe/Berlin", units: null } });
      expect(res.status).toBe(200);
      expect(res.json.changed.sort()).toEqual(["timezone", "units"]);
      expect(res.json.profile.document).toEqual({ name: "Alice", timezone: "Europe/Berlin" });
      expect(res.json.profile.fields.find((f: { field: string }) => f.field === "timezone").source.kind).toBe("user_edit");
      const bad = await call("PATCH", "/api/profile", { headers: A, body: { timezone: "Mars/Olympus" } });
      expect(bad.status).toBe(422);
      expect(bad.json.error.code).toBe("INVALID_INPUT");
      expect(bad.json.error.message).toContain("timezone: must be an IANA time zone");
      const unknown = await call("PATCH", "/api/profile", { headers: A, body: { shoeSize: 38 } });
      expect([unknown.status, unknown.json.error.code]).toEqual([422, "INVALID_INPUT"]);
      expect(unknown.json.error.message).toContain("shoeSize");
      expect((await call("PATCH", "/api/profile", { headers: A, body: ["not", "an", "object"] })).status).toBe(400);
      expect((await controls.profiles.get(alice))!.document).toEqual({ name: "Alice", timezone: "Europe/Berlin" });

      const history = await call("GET", "/api/profile/history?field=timezone", { headers: A });
      expect(history.json.changes.map((c: { oldValue: unknown; newValue: unknown; source: { kind: string } }) => [c.oldValue, c.newValue, c.source.kind])).toEqual([
        // The replaced value is withdrawn from the history (docs/controls.md, "Forgetting"): the
        // entry that set it is gone, the change keeps who made it.
        [{ withdrawn: true }, "Europe/Berlin", "user_edit"],
      ]);
    });

    it("deletes the profile and its history; a second delete is 404", async () => {
      expect((await call("DELETE", "/api/profile", { headers: A })).json).toEqual({ deleted: true });
      expect(await count("SELECT count(*)::int AS n FROM profiles WHERE tenant_id = 'acme' AND user_id = 'alice'")).toBe(0);
      expect(await count("SELECT count(*)::int AS n FROM profile_history WHERE tenant_id = 'acme' AND user_id = 'alice'")).toBe(0);
      const again = await call("DELETE", "/api/profile", { headers: A });
      expect(again.status).toBe(404);
      expect(again.json.error).toEqual({ code: "NOT_FOUND", message: "no such profile for this user" });
      expect((await call("GET", "/api/profile", { headers: A })).json.profile).toBeNull();
      expect(await count("SELECT count(*)::int AS n FROM profiles WHERE user_id = 'bob'")).toBe(1);
    });
  });

  describe("rules", () => {
    it("lists, approves, revokes and deletes the user's own rules", async () => {
      expect((await call("GET", "/api/rules?state=proposed", { headers: A })).json.rules.map((r: { id: string }) => r.id)).toEqual([ids.rule]);
      expect((await call("GET", "/api/rules?state=approved", { headers: A })).json.rules).toEqual([]);
      expect((await call("GET", "/api/rules?state=maybe", { headers: A })).status).toBe(400);
      const approved = await call("POST", `/api/rules/${ids.rule}/approve`, { headers: A });
      expect(approved.json.rule).toMatchObject({ id: ids.rule, state: "approved", reviewedBy: "user" });
      expect((await controls.rules.activeFor(alice)).map((r) => r.text)).toEqual(["Answer with diffs, not full files."]);
      const revoked = await call("POST", `/api/rules/${ids.rule}/revoke`, { headers: A });
      expect(revoked.json.rule.state).toBe("revoked");
      expect(await controls.rules.activeFor(alice)).toEqual([]);
      expect((await call("DELETE", `/api/rules/${ids.rule}`, { headers: A })).json).toEqual({ deleted: 1 });
      expect(await count("SELECT count(*)::int AS n FROM procedural_rules WHERE id = $1", [ids.rule])).toBe(0);
    });
  });

  describe("delete everything (two steps)", () => {
    it("needs a token from step one; wrong, reused and expired tokens delete nothing", async () => {
      const wrong = await call("POST", "/api/delete-all", { headers: A, body: { token: "x".repeat(32) } });
      expect(wrong.status).toBe(409);
      expect(wrong.json.error.code).toBe("CONFIRMATION_INVALID");
      expect((await call("POST", "/api/delete-all", { headers: A, body: {} })).status).toBe(400);
      expect((await call("POST", "/api/delete-all", { headers: A })).status).toBe(400);

      const step1 = await call("POST", "/api/delete-all/request", { headers: A });
      expect(step1.status).toBe(200);
      expect(step1.json.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
      expect(step1.json.expiresAt).toBe("2026-03-01T12:10:00.000Z");
      expect(await count("SELECT count(*)::int AS n FROM memories WHERE tenant_id = 'acme' AND user_id = 'alice'")).toBe(5);

      const step2 = await call("POST", "/api/delete-all", { headers: A, body: { token: step1.json.token } });
      expect(step2.status).toBe(200);
      expect(step2.json.deleted).toEqual({ memories: 5, profile: 1, profileHistory: 3, rules: 1, jobs: 0, threads: 1, confirmations: 0, storeItems: 0 });
      for (const table of ["memories", "profiles", "profile_history", "procedural_rules", "memory_confirmations", "threads"]) {
        expect([table, await count(`SELECT count(*)::int AS n FROM ${table} WHERE tenant_id = 'acme' AND user_id = 'alice'`)]).toEqual([table, 0]);
      }
      expect(await count("SELECT count(*)::int AS n FROM memories WHERE user_id = 'bob'")).toBe(1);
      expect(await count("SELECT count(*)::int AS n FROM threads WHERE user_id = 'bob'")).toBe(1);
      expect(await count("SELECT count(*)::int AS n FROM memory_deletion_audit WHERE tenant_id = 'acme' AND user_id = 'alice' AND via = 'controls.deleteAll' AND actor = 'user'")).toBeGreaterThan(0);

      const reused = await call("POST", "/api/delete-all", { headers: A, body: { token: step1.json.token } });
      expect(reused.status).toBe(409);

      await store.add(alice, { kind: "fact", text: "Started again." });
      const late = await call("POST", "/api/delete-all/request", { headers: A });
      clock.advance(10 * 60_000 + 1);
      const expired = await call("POST", "/api/delete-all", { headers: A, body: { token: late.json.token } });
      expect(expired.status).toBe(409);
      expect(await count("SELECT count(*)::int AS n FROM memories WHERE tenant_id = 'acme' AND user_id = 'alice'")).toBe(1);
    });
  });

  describe("export, opt-out, deletion log, retention", () => {
    it("exports everything as a JSON download", async () => {
      const res = await call("GET", "/api/export", { headers: A });
      expect(res.status).toBe(200);
      expect(res.headers["content-disposition"]).toBe('attachment; filename="memory-export-acme-alice-2026-03-01.json"');
      expect(res.json).toMatchObject({ format: "langgraph-memory/user-export", version: 1, tenantId: "acme", userId: "alice", exportedAt: "2026-03-01T12:00:00.000Z" });
      expect(res.json.memories).toHaveLength(5);
      expect(res.json.rules).toHaveLength(1);
      expect(res.json.profile.document).toEqual({ name: "Alice", units: "metric", timezone: "Europe/Paris" });
    });

    it("opts out (reads empty, writes 409, export 409, deletes allowed) and back in", async () => {
      const off = await call("POST", "/api/opt-out", { headers: A });
      expect(off.json).toEqual({ optedOut: true, changed: true, purged: null });
      expect((await call("GET", "/api/me", { headers: A })).json.optedOut).toBe(true);
      const list = await call("GET", "/api/memories?q=metric", { headers: A });
      expect(list.json).toMatchObject({ optedOut: true, total: 0, memories: [] });
      expect((await call("GET", "/api/profile", { headers: A })).json).toMatchObject({ optedOut: true, profile: null });
      const edit = await call("PATCH", `/api/memories/${ids.metric}`, { headers: A, body: { text: "Prefers imperial." } });
      expect([edit.status, edit.json.error.code]).toEqual([409, "OPTED_OUT"]);
      const profile = await call("PATCH", "/api/profile", { headers: A, body: { name: "Al" } });
      expect(profile.status).toBe(409);
      expect(profile.json.error.code).toBe("OPTED_OUT");
      expect((await call("GET", "/api/export", { headers: A })).status).toBe(409);
      expect((await call("POST", `/api/rules/${ids.rule}/approve`, { headers: A })).status).toBe(409);
      expect((await call("DELETE", `/api/memories/${ids.metric}`, { headers: A })).json).toEqual({ deleted: 1 });
      expect((await call("POST", "/api/opt-out", { headers: A })).json.changed).toBe(false);
      expect((await call("POST", "/api/opt-in", { headers: A })).json).toEqual({ optedOut: false, changed: true });
      expect((await call("GET", "/api/memories", { headers: A })).json.total).toBe(4);
      // Bob was never affected.
      expect((await call("GET", "/api/me", { headers: B })).json.optedOut).toBe(false);
    });

    it("opts out with purge: everything deleted in the same step", async () => {
      const res = await call("POST", "/api/opt-out", { headers: A, body: { purge: true } });
      expect(res.json).toMatchObject({ optedOut: true, changed: true, purged: { memories: 5, profile: 1, rules: 1, threads: 1 } });
      expect(await count("SELECT count(*)::int AS n FROM memories WHERE tenant_id = 'acme' AND user_id = 'alice'")).toBe(0);
      expect((await call("POST", "/api/opt-out", { headers: A, body: { purge: "yes" } })).status).toBe(400);
    });

    it("shows the pending forget-everything request and the deletion log (no content)", async () => {
      await controls.recordDeleteAllRequest(alice, { kind: "extraction", threadId: "t9", messageId: "m1" });
      expect((await call("GET", "/api/me", { headers: A })).json.deleteAllRequest).toMatchObject({ source: { kind: "extraction", threadId: "t9" } });
      expect((await call("GET", "/api/me", { headers: B })).json.deleteAllRequest).toBeNull();
      await call("DELETE", `/api/memories/${ids.metric}`, { headers: A });
      const log = await call("GET", "/api/deletions", { headers: A });
      expect(log.json.deletions).toEqual([{ operationId: expect.any(String), itemKind: "memory", itemCount: 1, via: "controls.deleteMemory", actor: "user", createdAt: expect.any(String) }]);
      expect((await call("GET", "/api/deletions", { headers: B })).json.deletions).toEqual([]);
      expect((await call("GET", "/api/deletions?limit=5000", { headers: A })).status).toBe(400);
    });

    it("reports the retention sweep's last run and next due, without other users' counts", async () => {
      const before = await call("GET", "/api/retention", { headers: A });
      expect(before.json).toEqual({
        lastRun: null,
        nextDueAt: null,
        overdue: null,
        policy: { episodeTtlDays: 180, unusedDays: 30, decayAfterDays: 30, decayHalfLifeDays: 90, minConfidence: 0.3, intervalHours: 24 },
      });
      await retention.run();
      const after = await call("GET", "/api/retention", { headers: B });
      expect(after.json.lastRun).toEqual({ startedAt: "2026-03-01T12:00:00.000Z", finishedAt: "2026-03-01T12:00:00.000Z", status: "done" });
      expect(after.json.nextDueAt).toBe("2026-03-02T12:00:00.000Z");
      expect(after.body).not.toMatch(/expired|batches|purged/);
    });
  });

  describe("status line", () => {
    it("GET /api/status: the user's own queued turns and whether a worker polls — nothing of other users, no worker ids", async () => {
      const jobs = new JobQueue(db, { notify: false });
      await jobs.enqueue({ queue: "memory-extraction", scope: alice, groupKey: "t1", idempotencyKey: "t1:m1", payload: { v: 1 } });
      await jobs.submit({ queue: "memory-extraction", scope: alice, groupKey: "t2", idempotencyKey: "t2:m1", payload: { v: 1 } });
      await jobs.enqueue({ queue: "memory-extraction", scope: bob, groupKey: "tb", idempotencyKey: "tb:m1", payload: { v: 1 } });
      const a = await call("GET", "/api/status", { headers: A });
      expect(a.status).toBe(200);
      expect(a.json).toEqual({ queue: { waiting: 2, oldestAgeMs: expect.any(Number) }, worker: { live: false, lastHeartbeatAgeMs: null } });
      await new JobWorker(db, { handlers: { other: async () => undefined }, workerId: "host:1:secret-worker-id", listen: false }).drain();
      const b = await call("GET", "/api/status", { headers: B });
      expect(b.json).toEqual({ queue: { waiting: 1, oldestAgeMs: expect.any(Number) }, worker: { live: true, lastHeartbeatAgeMs: expect.any(Number) } });
      expect(b.body).not.toContain("secret-worker-id");
      expect((await call("GET", "/api/status")).status).toBe(401);
      expect((await call("GET", "/api/status?x=1", { headers: A })).status).toBe(400);
      await db.query("DELETE FROM memory_workers");
    });
  });

  describe("viewer files", () => {
    it("serves the page and its assets with the viewer CSP and ETags", async () => {
      const page = await call("GET", "/");
      expect(page.status).toBe(200);
      expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
      expect(page.headers["content-security-policy"]).toContain("script-src 'self'");
      expect(page.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
      expect(page.headers["content-security-policy"]).toContain("require-trusted-types-for 'script'");
      expect(page.headers["content-security-policy"]).not.toContain("unsafe-inline");
      expect(page.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
      expect(page.body).not.toMatch(/\sstyle=|\son[a-z]+=/i);
      const again = await call("GET", "/", { headers: { "if-none-match": page.headers.etag } });
      expect(again.status).toBe(304);
      const js = await call("GET", "/viewer.js");
      expect(js.headers["content-type"]).toBe("text/javascript; charset=utf-8");
      expect(js.body).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(/);
      expect((await call("GET", "/viewer.css")).headers["content-type"]).toBe("text/css; charset=utf-8");
      expect((await call("GET", "/%2e%2e/package.json")).status).toBe(404);
      expect((await call("GET", "/static/viewer.js")).status).toBe(404);
      const total = ["/", "/viewer.js", "/viewer.css", "/favicon.svg"];
      let bytes = 0;
      for (const path of total) bytes += Buffer.byteLength((await call("GET", path)).body);
      expect(bytes).toBeLessThan(64 * 1024);
    });
  });

  describe("as a plugin of the app's own Fastify server", () => {
    it("mounts under a prefix without touching the app's other routes", async () => {
      const app = fastify();
      app.post("/echo", async (request) => ({ got: request.body }));
      await app.register(memoryApi, { prefix: "/memory", memory: { controls, retention }, tokens: { [ALICE_TOKEN]: alice } });
      try {
        const url = await app.listen({ port: 0, host: "127.0.0.1" });
        const redirect = await send(url, "GET", "/memory");
        expect([redirect.status, redirect.headers.location]).toEqual([308, "/memory/"]);
        expect((await send(url, "GET", "/memory/")).status).toBe(200);
        const list = await send(url, "GET", "/memory/api/memories", { headers: A });
        expect(list.json.total).toBe(5);
        // The app's own parsers, error handling and headers are untouched.
        const echo = await send(url, "POST", "/echo", { headers: { "content-type": "text/plain" }, raw: "hello" });
        expect(echo.json).toEqual({ got: "hello" });
        expect(echo.headers["content-security-policy"]).toBeUndefined();
      } finally {
        await app.close();
      }
    });
  });
});
