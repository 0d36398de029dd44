import { randomBytes } from "node:crypto";
import pg from "pg";
import type { Database, Queryable } from "../../src/db/database.js";
import { openDatabase } from "../../src/db/open.js";
import { loadMigrations } from "../../src/db/migrations.js";
import { quoteIdent } from "../../src/db/identifier.js";
import { HumanMessage } from "@langchain/core/messages";
import { MemoryRepository } from "../../src/store/memory-store.js";
import { createLoadMemoryNode } from "../../src/graph/load-memory-node.js";
import { LangGraphStore } from "../../src/store/langgraph-store.js";
import { LocalHashingEmbeddings } from "../../src/embeddings/hashing-embeddings.js";
import { MemoryControls } from "../../src/controls/memory-controls.js";
import { grantMemoryRoles, roleGrantStatements } from "../../src/controls/database-roles.js";
import { RetentionSweep } from "../../src/retention/retention-sweep.js";
import { JobQueue } from "../../src/jobs/job-queue.js";
import { ManualClock } from "../../src/jobs/clock.js";
import { openTestDatabase, dropSchema, uniqueSchema } from "../helpers/db.js";

const URL = process.env.DATABASE_URL;
const asRole = (role: string) => {
  const u = new globalThis.URL(URL!);
  u.username = role;
  u.password = "";
  return u.toString();
};

/** Tables with tenant (and user) columns that carry policies. */
const POLICY_TABLES = [
  "memories",
  "profiles",
  "profile_history",
  "procedural_rules",
  "memory_settings",
  "memory_confirmations",
  "memory_deletion_audit",
  "store_items",
  "store_vectors",
  "memory_jobs",
  "memory_jobs_inbox",
];

const acmeAlice = { tenantId: "acme", userId: "alice" };
const globexAlice = { tenantId: "globex", userId: "alice" }; // same user id, other tenant
const globexCarol = { tenantId: "globex", userId: "carol" };

/** Two tenants' worth of everything, written through the library (as whichever role `db` is). */
async function seedTwoTenants(db: Database) {
  const store = new MemoryRepository(db);
  const controls = new MemoryControls(db, { store });
  for (const scope of [acmeAlice, globexAlice, globexCarol]) {
    const tag = `${scope.tenantId}-${scope.userId}`;
    const m = await store.add(scope, { kind: "fact", text: `Secret fact of ${tag}.` });
    await store.supersede(scope, m.id, { kind: "fact", text: `Newer secret fact of ${tag}.` });
    await controls.profiles.applyPatch(scope, { name: tag }, { kind: "user_edit" });
    await controls.rules.add(scope, { text: `Rule of ${tag}.` });
    await controls.optOut(scope);
    await controls.optIn(scope);
    await controls.requestDeleteAll(scope);
    const doomed = await store.add(scope, { kind: "episode", text: `Doomed ${tag}.` });
    await controls.deleteMemory(scope, doomed.id);
    await new JobQueue(db, { notify: false }).enqueue({ queue: "extract", scope, groupKey: "t", idempotencyKey: `t:${tag}`, payload: { text: `job text of ${tag}` } });
    await new JobQueue(db, { notify: false }).submit({ queue: "extract", scope, groupKey: "s", idempotencyKey: `s:${tag}`, payload: { text: `submitted text of ${tag}` } });
  }
  await store.add({ level: "tenant", tenantId: "acme" }, { kind: "knowledge", text: "Acme office opens at nine." });
  await store.add({ level: "tenant", tenantId: "globex" }, { kind: "knowledge", text: "Globex office opens at ten." });
  await store.add({ level: "global" }, { kind: "knowledge", text: "The year has twelve months." });
  await controls.rules.add({ level: "tenant", tenantId: "acme" }, { text: "Acme tenant rule." });
  await controls.rules.add({ level: "global" }, { text: "Global rule." });
  const embedder = new LocalHashingEmbeddings({ dims: 64 });
  for (const tenantId of ["acme", "globex"]) {
    await new LangGraphStore(db, { tenantId, index: { dims: 64, embeddings: embedder } }).put(["docs"], "d1", { text: `${tenantId} document` });
  }
  return { store, controls };
}

/** Count the rows of `table` a transaction under `scope` sees (raw SQL, no tenant filter of ours). */
async function visible(db: Database, table: string, scope: { tenantId: string; userId?: string | null } | undefined, where = "TRUE"): Promise<number> {
  return db.transaction(async (tx) => (await tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE ${where}`)).rows[0].n, { scope });
}

const describeServer = URL ? describe : describe.skip;

describeServer("row-level security on server Postgres (non-superuser app and worker roles)", () => {
  const suffix = `${process.pid}_${randomBytes(3).toString("hex")}`;
  const appRole = `lgm_app_${suffix}`;
  const workerRole = `lgm_worker_${suffix}`;
  let admin: Database; // the superuser that migrated the schema (owner of the tables)
  let app: Database;
  let worker: Database;
  let su: pg.Client;

  beforeAll(async () => {
    admin = await openTestDatabase("postgres");
    su = new pg.Client({ connectionString: URL });
    await su.connect();
    await su.query(`CREATE ROLE ${appRole} LOGIN NOBYPASSRLS`);
    await su.query(`CREATE ROLE ${workerRole} LOGIN NOBYPASSRLS`);
    await grantMemoryRoles(admin, { app: [appRole], worker: [workerRole] });
    app = await openDatabase(asRole(appRole), { schema: admin.schema, autoMigrate: false });
    worker = await openDatabase(asRole(workerRole), { schema: admin.schema, autoMigrate: false });
  });
  afterAll(async () => {
    await app?.close();
    await worker?.close();
    await admin?.close(); // drops the schema
    for (const role of [appRole, workerRole]) {
      await su.query(`DROP OWNED BY ${role}`).catch(() => undefined);
      await su.query(`DROP ROLE IF EXISTS ${role}`);
    }
    await su.end();
  });

  it("the app role is subject to RLS; the superuser and the owner are not", async () => {
    const active = async (db: Database) => (await db.query<{ a: boolean }>("SELECT row_security_active('memories') AS a")).rows[0].a;
    expect(await active(app)).toBe(true);
    expect(await active(worker)).toBe(true);
    expect(await active(admin)).toBe(false);
    const { rows } = await su.query("SELECT rolsuper, rolbypassrls FROM pg_roles WHERE rolname = $1", [appRole]);
    expect(rows[0]).toEqual({ rolsuper: false, rolbypassrls: false });
  });

  it("everything works through the library as the app role, and a raw select under another tenant's setting returns nothing", async () => {
    await seedTwoTenants(app);
    // The superuser (the owner) sees both tenants.
    expect(await visible(admin, "memories", undefined, "tenant_id = 'acme'")).toBeGreaterThan(0);
    for (const table of POLICY_TABLES) {
      const acmeRows = await visible(admin, table, undefined, "tenant_id = 'acme'");
      expect({ table, acmeRows: acmeRows > 0 }).toEqual({ table, acmeRows: true });
      // Under globex's settings, nothing of acme — whatever the query asks for.
      expect({ table, n: await visible(app, table, globexCarol, "tenant_id = 'acme'") }).toEqual({ table, n: 0 });
      expect({ table, n: await visible(app, table, { tenantId: "globex", userId: null }, "tenant_id = 'acme'") }).toEqual({ table, n: 0 });
      // No scope at all: no tenant's rows.
      expect({ table, n: await visible(app, table, undefined, "tenant_id IS NOT NULL") }).toEqual({ table, n: 0 });
    }
    // Same user id in another tenant: still invisible.
    expect(await visible(app, "memories", globexAlice, "tenant_id = 'acme'")).toBe(0);
    expect(await visible(app, "profiles", globexAlice)).toBe(1);
    // A user sees their own rows plus their tenant's and the global knowledge — never a colleague's.
    expect(await visible(app, "memories", globexCarol, "user_id = 'alice'")).toBe(0);
    expect(await visible(app, "memories", globexCarol)).toBe(2 + 1 + 1);
    expect(await visible(app, "procedural_rules", acmeAlice)).toBe(1 + 1 + 1);

    // The library's reads as the app role return the right rows.
    const store = new MemoryRepository(app);
    const hits = await store.search(globexCarol, "secret fact office months", { include: ["tenant", "global"], minSimilarity: 0 });
    expect(hits.map((h) => h.text).sort()).toEqual(["Globex office opens at ten.", "Newer secret fact of globex-carol.", "The year has twelve months."]);
    expect(await store.markUsed(globexCarol, hits.map((h) => h.id), { include: ["tenant", "global"] })).toBe(3);
    // The load node's one statement (no transaction around it) scopes its own reads: as the app
    // role it gets carol's profile, rules and memories, and nothing of alice's in the same tenant.
    const load = createLoadMemoryNode({ store, search: { include: ["tenant", "global"], minSimilarity: 0 }, markUsed: false });
    const loaded = await load({ messages: [new HumanMessage("secret fact office months")] }, { configurable: { tenant_id: "globex", user_id: "carol" } });
    expect(loaded.profile?.name).toBe("globex-carol");
    expect(loaded.memories.map((m) => m.text).sort()).toEqual(["Globex office opens at ten.", "Newer secret fact of globex-carol.", "The year has twelve months."]);
    // The scope it set ended with its statement: a raw select afterwards sees no tenant's rows.
    expect((await app.query<{ n: number }>("SELECT count(*)::int AS n FROM memories WHERE tenant_id IS NOT NULL")).rows[0].n).toBe(0);
    const controls = new MemoryControls(app, { store });
    const exported = await controls.export(acmeAlice);
    expect(exported.memories.map((m) => m.text)).toEqual(["Secret fact of acme-alice.", "Newer secret fact of acme-alice."]);
    expect((await controls.rules.activeFor(acmeAlice)).map((r) => r.text).sort()).toEqual(["Acme tenant rule.", "Global rule.", "Rule of acme-alice."]);
    expect((await new LangGraphStore(app, { tenantId: "globex" }).search(["docs"])).map((i) => i.value.text)).toEqual(["globex document"]);
    const counts = await controls.deleteAll(acmeAlice, (await controls.requestDeleteAll(acmeAlice)).token);
    // jobs: the queued job and the submitted (not yet folded) inbox row.
    expect(counts).toMatchObject({ memories: 2, profile: 1, rules: 1, jobs: 2 });
    expect((await controls.import(acmeAlice, exported)).memories.imported).toBe(2);
    expect(await visible(admin, "memories", undefined, "tenant_id = 'globex'")).toBe(2 * 2 + 1);
  });

  it("writes outside the transaction's scope are refused or touch nothing; the audit is append-only", async () => {
    const insert = (tx: Queryable, tenant: string, user: string) =>
      tx.query("INSERT INTO memories (scope, tenant_id, user_id, kind, text, embedding) VALUES ('user', $1, $2, 'fact', 'planted', '{1}')", [tenant, user]);
    await expect(app.transaction((tx) => insert(tx, "acme", "alice"), { scope: globexCarol })).rejects.toMatchObject({
      code: "DB_QUERY_FAILED",
      details: { sqlstate: "42501" },
    });
    await expect(app.transaction((tx) => insert(tx, "globex", "alice"), { scope: globexCarol })).rejects.toMatchObject({ details: { sqlstate: "42501" } });
    const before = await visible(admin, "memories", undefined, "tenant_id = 'acme'");
    const touched = await app.transaction(async (tx) => {
      const u = await tx.query("UPDATE memories SET text = 'overwritten' WHERE tenant_id = 'acme'");
      const d = await tx.query("DELETE FROM memories WHERE tenant_id = 'acme'");
      const p = await tx.query("UPDATE profiles SET document = '{}' WHERE tenant_id = 'acme'");
      return u.rowCount + d.rowCount + p.rowCount;
    }, { scope: globexCarol });
    expect(touched).toBe(0);
    expect(await visible(admin, "memories", undefined, "tenant_id = 'acme'")).toBe(before);
    expect(await visible(admin, "memories", undefined, "text = 'overwritten'")).toBe(0);
    // A user transaction cannot delete the tenant's shared knowledge either.
    expect(await app.transaction(async (tx) => (await tx.query("DELETE FROM memories WHERE scope = 'tenant'")).rowCount, { scope: globexCarol })).toBe(0);
    await expect(app.transaction((tx) => tx.query("DELETE FROM memory_deletion_audit"), { scope: globexCarol })).rejects.toMatchObject({ details: { sqlstate: "42501" } });
    await expect(app.transaction((tx) => tx.query("UPDATE memory_deletion_audit SET actor = 'x'"), { scope: globexCarol })).rejects.toMatchObject({ details: { sqlstate: "42501" } });
  });

  it("jobs: the app enqueues without a scope (SECURITY DEFINER) but claims nothing; the worker claims across tenants and writes only in the job's scope", async () => {
    const appJobs = new JobQueue(app, { notify: false });
    await appJobs.enqueue({ queue: "rls", scope: acmeAlice, groupKey: "g", idempotencyKey: "k1", payload: { text: "a" } });
    await appJobs.enqueue({ queue: "rls", scope: globexCarol, groupKey: "g", idempotencyKey: "k1", payload: { text: "c" } });
    expect(await appJobs.claim("rls", "app-worker", { leaseMs: 60_000 })).toBeNull();
    const workerJobs = new JobQueue(worker, { notify: false });
    const first = await workerJobs.claim("rls", "w1", { leaseMs: 60_000 });
    const second = await workerJobs.claim("rls", "w1", { leaseMs: 60_000 });
    expect([first!.scope.tenantId, second!.scope.tenantId].sort()).toEqual(["acme", "globex"]);
    const workerStore = new MemoryRepository(worker);
    // Inside the job's transaction, writing for the job's user works; for anyone else it is refused.
    await workerJobs.completeWith(first!, async (tx) => {
      await tx.query("INSERT INTO memories (scope, tenant_id, user_id, kind, text, embedding) VALUES ('user', $1, $2, 'fact', 'from the worker', '{1}')", [
        first!.scope.tenantId,
        first!.scope.userId,
      ]);
    });
    const other = second!.scope.tenantId === "acme" ? globexCarol : acmeAlice;
    await expect(
      workerJobs.completeWith(second!, (tx) =>
        tx.query("INSERT INTO memories (scope, tenant_id, user_id, kind, text, embedding) VALUES ('user', $1, $2, 'fact', 'cross-tenant', '{1}')", [other.tenantId, other.userId]),
      ),
    ).rejects.toMatchObject({ details: { sqlstate: "42501" } });
    expect(await visible(admin, "memories", undefined, "text = 'cross-tenant'")).toBe(0);
    expect((await workerStore.list(first!.scope)).some((m) => m.text === "from the worker")).toBe(true);
  });

  it("the retention sweep refuses to run as the app role and runs as the owner", async () => {
    const store = new MemoryRepository(app);
    await store.add(acmeAlice, { kind: "episode", text: "Acme episode." });
    await store.add(globexCarol, { kind: "episode", text: "Globex episode." });
    await expect(new RetentionSweep(app).run()).rejects.toMatchObject({ code: "MAINTENANCE_ROLE_REQUIRED" });
    // By 2040 both tenants' episodes are past the TTL: the owner's sweep sees and deletes both.
    const summary = await new RetentionSweep(admin, { clock: new ManualClock(Date.UTC(2040, 0, 1)) }).run();
    expect(summary.expired).toBe(2);
    expect(await visible(admin, "memories", undefined, "kind = 'episode'")).toBe(0);
  });

  it("a non-superuser owner role runs every migration and, RLS not forced, sees every tenant", async () => {
    const ownerRole = `lgm_owner_${suffix}`;
    const schema = uniqueSchema("lgm_rls_owner");
    await su.query(`CREATE ROLE ${ownerRole} LOGIN NOBYPASSRLS`);
    const { rows } = await su.query("SELECT current_database() AS d");
    await su.query(`GRANT CREATE ON DATABASE ${quoteIdent(rows[0].d)} TO ${ownerRole}`);
    let owner: Database | undefined;
    let ownersApp: Database | undefined;
    try {
      owner = await openDatabase(asRole(ownerRole), { schema });
      expect((await owner.query<{ n: number }>("SELECT count(*)::int AS n FROM migrations")).rows[0].n).toBe(loadMigrations().length);
      await grantMemoryRoles(owner, { app: [appRole] });
      ownersApp = await openDatabase(asRole(appRole), { schema, autoMigrate: false });
      const { store } = await seedTwoTenants(ownersApp);
      await store.add(acmeAlice, { kind: "episode", text: "Acme episode." });
      expect(await visible(owner, "memories", undefined, "tenant_id IN ('acme', 'globex')")).toBe(3 * 2 + 2 + 1);
      expect(await visible(ownersApp, "memories", globexCarol, "tenant_id = 'acme'")).toBe(0);
      expect((await new RetentionSweep(owner, { clock: new ManualClock(Date.UTC(2040, 0, 1)) }).run()).expired).toBe(1);
    } finally {
      await ownersApp?.close();
      await owner?.close();
      await dropSchema(URL!, schema);
      await su.query(`REVOKE CREATE ON DATABASE ${quoteIdent(rows[0].d)} FROM ${ownerRole}`);
      await su.query(`DROP OWNED BY ${ownerRole}`).catch(() => undefined);
      await su.query(`DROP ROLE IF EXISTS ${ownerRole}`);
    }
  });

  it("grant statements quote role and schema names", () => {
    const sql = roleGrantStatements('we"ird schema', { app: ["app role"] });
    expect(sql[0]).toBe('GRANT USAGE ON SCHEMA "we""ird schema" TO "app role"');
    expect(() => roleGrantStatements("s", {})).toThrow(/at least one/);
  });
});

describe("row-level security on PGlite", () => {
  let db: Database;
  const role = "lgm_rls_probe";

  beforeAll(async () => {
    db = await openTestDatabase("pglite");
    await db.exec(`CREATE ROLE ${role} NOLOGIN`);
    await grantMemoryRoles(db, { app: [role] });
  });
  afterAll(async () => {
    await db.close();
  });

  it("the library runs as the superuser, so the same policies are inert — until a non-superuser role is in effect", async () => {
    await seedTwoTenants(db);
    expect((await db.query<{ su: boolean }>("SELECT rolsuper AS su FROM pg_roles WHERE rolname = current_user")).rows[0].su).toBe(true);
    expect(await visible(db, "memories", globexCarol, "tenant_id = 'acme'")).toBeGreaterThan(0);
    const asProbe = (scope: { tenantId: string; userId: string }, table: string, where: string) =>
      db.transaction(async (tx) => {
        await tx.exec(`SET LOCAL ROLE ${role}`);
        return (await tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE ${where}`)).rows[0].n;
      }, { scope });
    for (const table of POLICY_TABLES) expect({ table, n: await asProbe(globexCarol, table, "tenant_id = 'acme'") }).toEqual({ table, n: 0 });
    expect(await asProbe(globexCarol, "memories", "TRUE")).toBe(2 + 1 + 1);
  });
});
