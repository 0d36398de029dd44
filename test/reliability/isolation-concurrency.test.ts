/**
 * Isolation under concurrency, on server Postgres with row-level security: the library connects
 * as a non-superuser app role (NOBYPASSRLS, created for this run) while two tenants — with the
 * same user ids and identical memory texts — write and search at the same time through every
 * read path (hybrid search, the load-memory node, list, get, nearest, export, inspect, the
 * BaseStore door), interleaved with raw SQL that "forgot" its tenant predicate (RLS must hold it)
 * and unscoped queries on the same pool (a scope must never outlive its transaction).
 * Expected: zero cross-tenant rows over thousands of queries; a query without a scope is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { HumanMessage } from "@langchain/core/messages";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { MemoryControls } from "../../src/controls/memory-controls.js";
import { grantMemoryRoles } from "../../src/controls/database-roles.js";
import type { Database } from "../../src/db/database.js";
import { openDatabase } from "../../src/db/open.js";
import { createLoadMemoryNode } from "../../src/graph/load-memory-node.js";
import { scopeFromConfig } from "../../src/core/scope.js";
import { LangGraphStore } from "../../src/store/langgraph-store.js";
import { MemoryRepository } from "../../src/store/memory-store.js";
import { openTestDatabase } from "../helpers/db.js";
import { report, size } from "./helpers/sizes.js";

const URL = process.env.DATABASE_URL;
const describeServer = URL ? describe : describe.skip;
const ROUNDS = size(30, 60); // per worker; ~9 queries each (default ≈ 2,200 queries, full ≈ 4,500)
const WORKERS_PER_TENANT = 4;
const TENANTS = ["acme", "globex"] as const;
const USERS = ["alice", "bob"] as const; // the same user ids in both tenants
const TEXTS = ["Prefers metric units.", "Lives in Berlin.", "Works on the Atlas project.", "Has a dog named Rex.", "Loves sushi and ramen."];

describeServer("isolation under concurrency (server Postgres, row-level security, non-superuser app role)", () => {
  const role = `lgm_iso_app_${process.pid}_${randomBytes(3).toString("hex")}`;
  let admin: Database;
  let app: Database;
  let su: pg.Client;

  beforeAll(async () => {
    admin = await openTestDatabase("postgres");
    su = new pg.Client({ connectionString: URL });
    await su.connect();
    await su.query(`CREATE ROLE ${role} LOGIN NOBYPASSRLS`);
    await grantMemoryRoles(admin, { app: [role] });
    const u = new globalThis.URL(URL!);
    u.username = role;
    u.password = "";
    app = await openDatabase(u.toString(), { schema: admin.schema, autoMigrate: false, poolMax: 12 });
  });
  afterAll(async () => {
    await app?.close();
    await admin?.close();
    await su.query(`DROP OWNED BY ${role}`).catch(() => undefined);
    await su.query(`DROP ROLE IF EXISTS ${role}`);
    await su.end();
  });

  it("the app role is subject to RLS (not superuser, no BYPASSRLS)", async () => {
    expect((await app.query<{ a: boolean }>("SELECT row_security_active('memories') AS a")).rows[0].a).toBe(true);
    const { rows } = await su.query("SELECT rolsuper, rolbypassrls FROM pg_roles WHERE rolname = $1", [role]);
    expect(rows[0]).toEqual({ rolsuper: false, rolbypassrls: false });
  });

  it(`two tenants with identical memories, ${TENANTS.length * WORKERS_PER_TENANT} concurrent workers: zero cross-tenant results`, async () => {
    const store = new MemoryRepository(app);
    const controls = new MemoryControls(app, { store });
    const load = createLoadMemoryNode({ store });
    const leaks: string[] = [];
    const counts = { queries: 0, rowsChecked: 0, refused: 0 };
    const check = (tenantId: string, where: string, rows: Array<{ tenantId?: string | null; tenant_id?: string | null; userId?: string | null; metadata?: Record<string, unknown> }>, userId?: string) => {
      counts.queries++;
      for (const r of rows) {
        counts.rowsChecked++;
        const t = r.tenantId ?? r.tenant_id ?? null;
        if (t !== null && t !== tenantId) leaks.push(`${where}: ${tenantId} saw a row of ${t}`);
        if (r.metadata && r.metadata.tenant !== undefined && r.metadata.tenant !== tenantId) leaks.push(`${where}: ${tenantId} saw metadata of ${String(r.metadata.tenant)}`);
        if (userId && r.userId && r.userId !== userId) leaks.push(`${where}: ${tenantId}/${userId} saw user ${r.userId}`);
      }
    };
    /** Rows that carry only ids (the load node's memories, inspect): their owner, read as the superuser. */
    const checkIds = async (tenantId: string, where: string, ids: string[]) => {
      if (ids.length === 0) return check(tenantId, where, []);
      const { rows } = await admin.query<{ tenant_id: string | null }>("SELECT tenant_id FROM memories WHERE id = ANY($1::uuid[])", [ids]);
      if (rows.length !== ids.length) leaks.push(`${where}: ${ids.length - rows.length} ids not found`);
      check(tenantId, where, rows);
    };
    // Seed the same texts for both tenants (and their shared knowledge), as the app role.
    for (const tenantId of TENANTS) {
      for (const userId of USERS) await store.addMany({ tenantId, userId }, TEXTS.map((text) => ({ kind: "fact" as const, text, metadata: { tenant: tenantId } })));
      await store.add({ level: "tenant", tenantId }, { kind: "knowledge", text: "The office opens at nine.", metadata: { tenant: tenantId } });
      await new LangGraphStore(app, { tenantId }).put(["docs", "handbook"], "opening", { text: "The office opens at nine.", tenant: tenantId });
    }

    const worker = async (tenantId: string, w: number) => {
      const items = new LangGraphStore(app, { tenantId });
      for (let round = 0; round < ROUNDS; round++) {
        const userId = USERS[(w + round) % USERS.length];
        const scope = { tenantId, userId };
        const text = `${TEXTS[round % TEXTS.length]} (round ${round})`;
        // Writes: identical text in both tenants at the same moment.
        const added = await store.add(scope, { kind: "fact", text, metadata: { tenant: tenantId } });
        check(tenantId, "add", [added], userId);
        check(tenantId, "search", await store.search(scope, text, { include: ["tenant", "global"], minSimilarity: 0 }), undefined);
        const loaded = await load({ messages: [new HumanMessage(text)] }, { configurable: { tenant_id: tenantId, user_id: userId, thread_id: `t-${tenantId}-${userId}-${w}` } });
        await checkIds(tenantId, "load_memory", loaded.memories.map((m) => m.id));
        check(tenantId, "list", await store.list(scope, { limit: 20 }), userId);
        const got = await store.get(scope, added.id);
        check(tenantId, "get", got ? [got] : [], userId);
        check(tenantId, "nearest", (await store.nearest(scope, { kind: "fact", text })).map((n) => n.memory), userId);
        check(tenantId, "items.search", (await items.search(["docs"], { filter: {} })).map((i) => ({ tenantId: String(i.value.tenant) })));
        // A query that forgot its tenant predicate: RLS returns only this tenant's (and global) rows.
        const raw = await app.transaction((tx) => tx.query<{ tenant_id: string | null }>("SELECT tenant_id FROM memories"), { scope });
        check(tenantId, "raw select under scope", raw.rows);
        // The same pool, no scope: nothing of any tenant (the scope did not outlive its transaction).
        const unscoped = await app.query<{ tenant_id: string | null }>("SELECT tenant_id FROM memories WHERE tenant_id IS NOT NULL");
        counts.queries++;
        if (unscoped.rows.length > 0) leaks.push(`unscoped query on the pool saw ${unscoped.rows.length} tenant rows`);
        if (round % 10 === 0) {
          const inspected = await controls.inspect(scope);
          await checkIds(tenantId, "inspect", inspected.memories.map((m) => m.id));
          const exported = await controls.export(scope);
          check(tenantId, "export", exported.memories, userId);
          // A victim id through the other tenant's scope: NOT_FOUND, nothing changed.
          const other = TENANTS.find((t) => t !== tenantId)!;
          const { rows } = await admin.query<{ id: string }>("SELECT id FROM memories WHERE tenant_id = $1 AND user_id = $2 LIMIT 1", [other, userId]);
          await expect(controls.getMemory(scope, rows[0].id)).rejects.toMatchObject({ code: "NOT_FOUND" });
          expect(await store.delete(scope, rows[0].id)).toBe(false);
          counts.queries += 2;
        }
      }
    };
    const started = performance.now();
    await Promise.all(TENANTS.flatMap((t) => Array.from({ length: WORKERS_PER_TENANT }, (_, w) => worker(t, w))));
    const seconds = (performance.now() - started) / 1000;

    // No scope: refused by the library, and RLS shows nothing to raw SQL.
    for (const call of [
      () => store.search(undefined as never, "units"),
      () => store.list({ tenantId: "acme" } as never),
      () => store.add({ tenantId: "", userId: "alice" }, { kind: "fact", text: "x" }),
      () => controls.export({ userId: "alice" } as never),
      () => load({ messages: [new HumanMessage("units?")] }, { configurable: { thread_id: "t" } }),
      async () => scopeFromConfig({ configurable: { tenant_id: "acme" } }),
    ]) {
      await expect(call()).rejects.toMatchObject({ code: "SCOPE_REQUIRED" });
      counts.refused++;
    }
    expect((await app.query<{ n: number }>("SELECT count(*)::int AS n FROM memories WHERE tenant_id IS NOT NULL")).rows[0].n).toBe(0);
    expect((await app.query<{ n: number }>("SELECT count(*)::int AS n FROM store_items")).rows[0].n).toBe(0);

    // Everything written landed in its own tenant: per tenant and user, the same count.
    const { rows } = await admin.query<{ tenant_id: string; n: number }>("SELECT tenant_id, count(*)::int AS n FROM memories WHERE metadata->>'tenant' <> tenant_id GROUP BY 1");
    expect(rows).toEqual([]);
    expect(leaks.slice(0, 10)).toEqual([]);
    report("isolation under concurrency", { workers: TENANTS.length * WORKERS_PER_TENANT, rounds: ROUNDS, queries: counts.queries, rowsChecked: counts.rowsChecked, crossTenantRows: leaks.length, unscopedRefused: counts.refused, seconds: Math.round(seconds * 10) / 10 });
  }, 600_000);
});
