/**
 * Hostile input against the HTTP API (property-based, fast-check), over real HTTP, on PGlite and
 * server Postgres: hostile ids in paths, query strings, JSON bodies (unicode, NUL, SQL and LIKE
 * metacharacters, huge, deep, wrong types, extra keys), raw non-JSON bodies, odd content types and
 * authorization headers. Every response is either a success that reads back exactly what was
 * written, or a 4xx with the JSON error shape `{ error: { code, message } }` — never a 5xx — and
 * the other tenants' and users' rows (checksummed in SQL) never change.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import fc from "fast-check";
import type { Database } from "../../src/db/database.js";
import { createMemory, type LangGraphMemory } from "../../src/memory.js";
import { createMemoryServer, type MemoryServer } from "../../src/server/index.js";
import { openTestDatabase, testEngines } from "../helpers/db.js";
import { protectedRowsChecksum } from "./helpers/checksum.js";
import { hostileId, hostileItemJson, hostileText, nastyString } from "./helpers/hostile.js";
import { report, size } from "./helpers/sizes.js";

const RUNS = size(25, 50);
const VICTIM_TENANTS = ["acme", "globex"];
const TOKEN = "mallory-token-0123456789abcdef0123";
const VICTIM_TOKEN = "alice-token-0123456789abcdef01234";
const mallory = { tenantId: "mallory-co", userId: "mallory" };
const alice = { tenantId: "acme", userId: "alice" };

interface Response {
  status: number;
  json: unknown;
  text: string;
}

describe.each(testEngines())("hostile input against the HTTP API on %s", (engine) => {
  let db: Database;
  let memory: LangGraphMemory;
  let server: MemoryServer;
  let base: string;
  let baseline: Record<string, string>;
  let ownId: string;
  let victimIds: string[];
  const statuses: Record<string, number> = {};

  async function send(method: string, path: string, init: { body?: unknown; raw?: string; contentType?: string; authorization?: string | null } = {}): Promise<Response> {
    const headers: Record<string, string> = {};
    if (init.authorization !== null) headers.authorization = init.authorization ?? `Bearer ${TOKEN}`;
    let body: string | undefined;
    if (init.raw !== undefined) body = init.raw;
    else if (init.body !== undefined) body = JSON.stringify(init.body);
    if (body !== undefined) headers["content-type"] = init.contentType ?? "application/json";
    const res = await fetch(`${base}${path}`, { method, headers, body, redirect: "manual" });
    const text = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    const route = `${method} ${path.split("?")[0].replace(/\/api\/(memories|rules)\/[^/]+/, "/api/$1/:id")}`;
    statuses[`${route} ${res.status}`] = (statuses[`${route} ${res.status}`] ?? 0) + 1;
    return { status: res.status, json, text };
  }

  /** Not a 5xx; a 4xx has the JSON error shape. */
  function expectHandled(res: Response, what: string): void {
    expect({ what, status: res.status < 500 ? "handled" : res.status, body: res.status < 500 ? undefined : res.text.slice(0, 300) }).toEqual({ what, status: "handled", body: undefined });
    // 431 (a URL beyond Node's header limit) is answered by Fastify's client-error handler before
    // any route runs, in Fastify's own shape — noted in docs/security.md, not the API's format.
    if (res.status >= 400 && res.status !== 431) {
      expect(res.json).toMatchObject({ error: { code: expect.any(String), message: expect.any(String) } });
    }
  }

  const path = (s: string) => encodeURIComponent(s);

  beforeAll(async () => {
    db = await openTestDatabase(engine);
    memory = await createMemory({ db });
    for (const tenantId of VICTIM_TENANTS) {
      for (const userId of ["alice", "bob"]) {
        const scope = { tenantId, userId };
        const m = await memory.store.add(scope, { kind: "fact", text: `${tenantId}/${userId} lives in Berlin.` });
        await memory.store.supersede(scope, m.id, { kind: "fact", text: `${tenantId}/${userId} lives in Lisbon.` });
        await memory.profiles.update(scope, { name: `${userId} of ${tenantId}` }, { kind: "user_edit" });
        await memory.rules.propose(scope, { text: `Answer ${userId} briefly.`, source: "feedback", origin: { kind: "extraction", threadId: "t" } });
      }
    }
    // The victim alice of acme is also a user of the same server (her token is valid, not used by the attacker).
    victimIds = (await db.query<{ id: string }>("SELECT id::text AS id FROM memories")).rows.map((r) => r.id);
    ownId = (await memory.store.add(mallory, { kind: "fact", text: "Mallory likes tea." })).id;
    server = await createMemoryServer({ memory, tokens: { [TOKEN]: mallory, [VICTIM_TOKEN]: alice }, bodyLimit: 64 * 1024 });
    base = (await server.listen({ port: 0 })).replace(/\/$/, "");
    baseline = await protectedRowsChecksum(db, VICTIM_TENANTS);
  });
  afterAll(async () => {
    await server?.close();
    if (db) expect(await protectedRowsChecksum(db, VICTIM_TENANTS)).toEqual(baseline);
    await memory?.close();
    await db?.close();
    report(`hostile HTTP (${engine})`, { requests: Object.values(statuses).reduce((a, b) => a + b, 0), statuses });
  });

  const othersUnchanged = async () => expect(await protectedRowsChecksum(db, VICTIM_TENANTS)).toEqual(baseline);

  it("memory routes: hostile ids, queries and bodies", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(hostileId, fc.constantFrom(...victimIds)),
        fc.record({ q: fc.oneof(fc.constant(undefined), hostileText), kind: fc.oneof(fc.constant(undefined), nastyString(12)), status: fc.oneof(fc.constant(undefined), nastyString(12)), limit: fc.oneof(fc.constant(undefined), nastyString(6), fc.integer().map(String)), offset: fc.oneof(fc.constant(undefined), nastyString(6)) }, { requiredKeys: [] }),
        fc.oneof(fc.record({ text: hostileText }), fc.record({ text: hostileText, kind: nastyString(10) }), fc.dictionary(nastyString(8), hostileItemJson, { maxKeys: 3 }), hostileItemJson),
        async (id, query, body) => {
          const qs = Object.entries(query).filter(([, v]) => v !== undefined).map(([k, v]) => `${k}=${encodeURIComponent(v as string)}`).join("&");
          const list = await send("GET", `/api/memories${qs ? `?${qs}` : ""}`);
          expectHandled(list, "list");
          if (list.status === 200) {
            for (const m of (list.json as { memories: Array<{ id: string }> }).memories) expect(victimIds).not.toContain(m.id);
          }
          const one = await send("GET", `/api/memories/${path(id)}`);
          expectHandled(one, "get");
          if (victimIds.includes(id)) expect(one.status).toBe(404);
          const edit = await send("PATCH", `/api/memories/${path(id)}`, { body });
          expectHandled(edit, "edit");
          if (victimIds.includes(id)) expect(edit.status).toBeGreaterThanOrEqual(400);
          // The attacker's own memory: an accepted edit reads back exactly.
          const own = await send("PATCH", `/api/memories/${ownId}`, { body });
          expectHandled(own, "edit own");
          if (own.status === 200 && body && typeof body === "object" && typeof (body as { text?: unknown }).text === "string") {
            const back = await send("GET", `/api/memories/${ownId}`);
            expect((back.json as { memory: { text: string } }).memory.text).toBe((body as { text: string }).text);
          }
          const del = await send("DELETE", `/api/memories/${path(id)}?includePrevious=${encodeURIComponent(String(query.limit ?? "true"))}`);
          expectHandled(del, "delete");
          await othersUnchanged();
        },
      ),
      { numRuns: RUNS },
    );
  }, 300_000);

  it("profile, rules and account routes: hostile bodies, ids, tokens and queries", async () => {
    const ruleIds = (await db.query<{ id: string }>("SELECT id::text AS id FROM procedural_rules")).rows.map((r) => r.id);
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.dictionary(fc.oneof(fc.constantFrom("name", "timezone", "units", "language", "plan", "notes"), nastyString(10)), fc.oneof(hostileText, hostileItemJson), { maxKeys: 4 }), hostileItemJson),
        fc.oneof(hostileId, fc.constantFrom(...ruleIds)),
        fc.oneof(hostileText, fc.constant(undefined)),
        fc.oneof(nastyString(10), fc.integer().map(String)),
        async (patch, ruleId, token, limit) => {
          const before = await send("GET", "/api/profile");
          const res = await send("PATCH", "/api/profile", { body: patch });
          expectHandled(res, "profile");
          const after = await send("GET", "/api/profile");
          if (res.status >= 400) expect(after.json).toEqual(before.json); // a refused patch changed nothing
          expectHandled(await send("GET", `/api/profile/history?field=${encodeURIComponent(String(limit))}&limit=${encodeURIComponent(String(limit))}`), "history");
          expectHandled(await send("GET", `/api/rules?state=${encodeURIComponent(String(limit))}`), "rules");
          for (const action of ["approve", "revoke"]) {
            const r = await send("POST", `/api/rules/${path(ruleId)}/${action}`, { body: {} });
            expectHandled(r, action);
            if (ruleIds.includes(ruleId)) expect(r.status).toBe(404);
          }
          const dr = await send("DELETE", `/api/rules/${path(ruleId)}`);
          expectHandled(dr, "delete rule");
          if (ruleIds.includes(ruleId)) expect(dr.status).toBe(404);
          expectHandled(await send("POST", "/api/delete-all", { body: { token } }), "delete-all");
          expectHandled(await send("GET", `/api/deletions?limit=${encodeURIComponent(String(limit))}`), "deletions");
          await othersUnchanged();
        },
      ),
      { numRuns: RUNS },
    );
  }, 300_000);

  it("malformed requests: raw bodies, content types, oversized bodies, authorization headers", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(nastyString(200), fc.constantFrom("{", "null", "[]", '{"text":', "\u0000", '{"__proto__":{"admin":true}}', '{"constructor":{"prototype":{"x":1}}}'), fc.integer({ min: 65_000, max: 70_000 }).map((n) => JSON.stringify({ text: "x".repeat(n) }))),
        fc.constantFrom("application/json", "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/json; charset=latin1", ""),
        fc.oneof(fc.constant(undefined), fc.constantFrom(`Bearer ${TOKEN}x`, `bearer ${TOKEN}`, `Bearer  ${TOKEN}`, "Bearer", `Basic ${TOKEN}`, "Bearer \u0000"), nastyString(40).map((s) => `Bearer ${s}`)),
        async (raw, contentType, authorization) => {
          // The scheme is case-insensitive and extra spaces are tolerated (RFC 7235): these two are the real token.
          const ok = authorization === undefined || authorization === `bearer ${TOKEN}` || authorization === `Bearer  ${TOKEN}`;
          for (const [method, route] of [["PATCH", `/api/memories/${ownId}`], ["PATCH", "/api/profile"], ["POST", "/api/delete-all"]] as const) {
            let res: Response;
            try {
              res = await send(method, route, { raw, contentType, authorization: authorization ?? undefined });
            } catch (err) {
              // fetch itself refuses some header values (e.g. a NUL): nothing reached the server.
              expect(String(err)).toMatch(/header|Invalid|TypeError/i);
              continue;
            }
            expectHandled(res, `${method} ${route}`);
            if (!ok) expect(res.status).toBe(401);
          }
          await othersUnchanged();
        },
      ),
      { numRuns: RUNS },
    );
    expect(({}) as Record<string, unknown>).not.toHaveProperty("admin"); // no prototype pollution
  }, 300_000);
});
