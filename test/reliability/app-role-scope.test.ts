/**
 * The app role cannot act for another user (issue 17, item 8), on server Postgres with the roles
 * docs/operations.md describes: a non-superuser owner that runs the migrations, an app role and a
 * worker role (row-level security applies to both; it never applies to the owner or a superuser).
 *
 * - Enqueue and submit check their tenant and user arguments against the transaction's scope:
 *   called as the app role for another user, in a transaction scoped to someone else, to the
 *   tenant only, or with no scope, they are refused; nothing reaches the queue, so the worker never
 *   writes the attacker's payload into the victim's memories. The library's own one-statement
 *   enqueue and submit still work, and the worker role still queues for every tenant.
 * - A scope setting set at session level on a pooled connection (or as a role default) never
 *   scopes a later statement.
 * - grantMemoryRoles, run by the owner as the doc says, works.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { HumanMessage } from "@langchain/core/messages";
import { grantMemoryRoles, roleGrantStatements, WORKER_GROUP_ROLE } from "../../src/controls/database-roles.js";
import type { Database, DbScope, Queryable } from "../../src/db/database.js";
import { quoteIdent } from "../../src/db/identifier.js";
import { openDatabase } from "../../src/db/open.js";
import { JobQueue } from "../../src/jobs/job-queue.js";
import { createLoadMemoryNode } from "../../src/graph/load-memory-node.js";
import { MemoryRepository } from "../../src/store/memory-store.js";
import { dropSchema, uniqueSchema } from "../helpers/db.js";
import { report } from "./helpers/sizes.js";

const URL = process.env.DATABASE_URL;
const describeServer = URL ? describe : describe.skip;
const asRole = (role: string) => {
  const u = new globalThis.URL(URL!);
  u.username = role;
  u.password = "";
  return u.toString();
};

const victim = { tenantId: "acme", userId: "bob" };
const attacker = { tenantId: "evil", userId: "mallory" };
const colleague = { tenantId: "acme", userId: "alice" };

/** The raw function calls an attacker with the app role's SQL access would make. */
const RAW_ENQUEUE = `SELECT * FROM memory_jobs_enqueue('extract', $1, $2, 'thread-1', $3, '{"messages":["remember: my bank is evil-bank"]}'::jsonb, 5, 0, 0, NULL, NULL, 'append')`;
const RAW_SUBMIT = `SELECT memory_jobs_submit('extract', $1, $2, 'thread-1', $3, '{"messages":["remember: my bank is evil-bank"]}'::jsonb, 5, 0, 0, NULL, NULL, 'append')`;

describeServer("the app role cannot act for another user (server Postgres, non-superuser roles)", () => {
  const suffix = `${process.pid}_${randomBytes(3).toString("hex")}`;
  const ownerRole = `lgm_owner_${suffix}`;
  const appRole = `lgm_app_${suffix}`;
  const workerRole = `lgm_worker_${suffix}`;
  const schema = uniqueSchema("lgm_app_scope");
  let su: pg.Client;
  let database: string;
  let owner: Database;
  let app: Database;
  let worker: Database;

  beforeAll(async () => {
    su = new pg.Client({ connectionString: URL });
    await su.connect();
    database = (await su.query<{ d: string }>("SELECT current_database() AS d")).rows[0].d;
    // As docs/operations.md: a superuser creates the roles and the worker membership once …
    await su.query(`CREATE ROLE ${ownerRole} LOGIN NOBYPASSRLS`);
    await su.query(`GRANT CREATE ON DATABASE ${quoteIdent(database)} TO ${ownerRole}`);
    await su.query(`CREATE ROLE ${appRole} LOGIN NOBYPASSRLS`);
    await su.query(`CREATE ROLE ${workerRole} LOGIN NOBYPASSRLS`);
    await su.query(`DO $$ BEGIN CREATE ROLE ${WORKER_GROUP_ROLE} NOLOGIN; EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$`);
    await su.query(`GRANT ${WORKER_GROUP_ROLE} TO ${workerRole}`);
    // … the owner migrates and grants (the owner's own statements; grantMemoryRoles itself is
    // tested below).
    owner = await openDatabase(asRole(ownerRole), { schema });
    for (const sql of roleGrantStatements(schema, { app: [appRole, workerRole] })) await owner.exec(sql);
    app = await openDatabase(asRole(appRole), { schema, autoMigrate: false, poolMax: 1 });
    worker = await openDatabase(asRole(workerRole), { schema, autoMigrate: false });
    const store = new MemoryRepository(owner);
    await store.add(victim, { kind: "fact", text: "Bob banks with acme-bank." });
    await store.add(colleague, { kind: "fact", text: "Alice drives a Golf." });
  });
  afterAll(async () => {
    await app?.close();
    await worker?.close();
    await owner?.close();
    await dropSchema(URL!, schema);
    await su.query(`REVOKE CREATE ON DATABASE ${quoteIdent(database)} FROM ${ownerRole}`);
    for (const role of [appRole, workerRole, ownerRole]) {
      await su.query(`DROP OWNED BY ${role}`).catch(() => undefined);
      await su.query(`DROP ROLE IF EXISTS ${role}`);
    }
    await su.end();
  });

  const jobsOf = async (scope: { tenantId: string; userId: string }) => {
    const { rows } = await owner.query<{ jobs: number; inbox: number }>(
      `SELECT (SELECT count(*)::int FROM memory_jobs WHERE tenant_id = $1 AND user_id = $2) AS jobs,
              (SELECT count(*)::int FROM memory_jobs_inbox WHERE tenant_id = $1 AND user_id = $2) AS inbox`,
      [scope.tenantId, scope.userId],
    );
    return rows[0];
  };

  it("enqueue and submit for another user are refused in every scope but the user's own", async () => {
    const inScope = (scope: DbScope | undefined, fn: (tx: Queryable) => Promise<unknown>) => (scope ? app.transaction(fn, { scope }) : fn(app));
    const scopes: Array<[string, DbScope | undefined]> = [
      ["another tenant's user", attacker],
      ["the same tenant's other user", colleague],
      ["the victim's tenant, no user", { tenantId: victim.tenantId }],
      ["no scope", undefined],
    ];
    const queue = new JobQueue(app, { notify: false });
    const job = { queue: "extract", scope: victim, groupKey: "thread-1", payload: { messages: ["remember: my bank is evil-bank"] } };
    const attempts: Array<{ how: string; scope: string; outcome: unknown }> = [];
    let key = 0;
    for (const [label, scope] of scopes) {
      const calls: Array<[string, (tx: Queryable) => Promise<unknown>]> = [
        ["raw memory_jobs_enqueue", (tx) => tx.query(RAW_ENQUEUE, [victim.tenantId, victim.userId, `k${key++}`])],
        ["raw memory_jobs_submit", (tx) => tx.query(RAW_SUBMIT, [victim.tenantId, victim.userId, `k${key++}`])],
      ];
      // The library's own statements inside a transaction scoped to someone else.
      if (scope) {
        calls.push(["JobQueue.enqueue in the transaction", (tx) => queue.enqueue({ ...job, idempotencyKey: `k${key++}` }, { tx })]);
        calls.push(["JobQueue.submit in the transaction", (tx) => queue.submit({ ...job, idempotencyKey: `k${key++}` }, { tx })]);
      }
      for (const [how, call] of calls) {
        const outcome = await inScope(scope, call).then(
          () => "accepted",
          (err: { code?: string; details?: { sqlstate?: string } }) => `${err.code} ${err.details?.sqlstate}`,
        );
        attempts.push({ how, scope: label, outcome });
      }
    }
    const refused = attempts.filter((a) => a.outcome === "DB_QUERY_FAILED 42501").length;
    report("definer calls out of scope", { attempts: attempts.length, refused });
    expect(attempts.filter((a) => a.outcome !== "DB_QUERY_FAILED 42501")).toEqual([]);
    // Nothing reached bob's queue, so a worker has nothing of the attacker's to write for him.
    expect(await jobsOf(victim)).toEqual({ jobs: 0, inbox: 0 });
    const claimer = new JobQueue(worker, { notify: false });
    expect(await claimer.claim("extract", "w1", { leaseMs: 60_000 })).toBeNull();
    expect((await new MemoryRepository(owner).list(victim)).map((m) => m.text)).toEqual(["Bob banks with acme-bank."]);
  });

  it("the library's one-statement enqueue and submit still work as the app role, and the worker role queues for any tenant", async () => {
    const user = { tenantId: "acme", userId: "carol" };
    const queue = new JobQueue(app, { notify: false });
    expect((await queue.enqueue({ queue: "own", scope: user, groupKey: "t", idempotencyKey: "a", payload: { n: 1 } })).outcome).toBe("inserted");
    expect((await queue.submit({ queue: "own", scope: user, groupKey: "t", idempotencyKey: "b", payload: { n: 2 } })).submissionId).toBeGreaterThan(0);
    // In the user's own transaction too.
    await app.transaction((tx) => queue.enqueue({ queue: "own", scope: user, groupKey: "u", idempotencyKey: "c", payload: { n: 3 } }, { tx }), { scope: user });
    expect(await jobsOf(user)).toEqual({ jobs: 2, inbox: 1 });
    // The statement's scope ended with it: a raw select afterwards sees no tenant's rows.
    expect((await app.query<{ n: number }>("SELECT count(*)::int AS n FROM memory_jobs")).rows[0].n).toBe(0);
    // Workers serve every tenant by design: a raw call without a scope is theirs to make.
    await worker.query(RAW_ENQUEUE, ["globex", "dave", "w"]);
    expect(await jobsOf({ tenantId: "globex", userId: "dave" })).toEqual({ jobs: 1, inbox: 0 });
    // The fold (SECURITY DEFINER) moves the app's submitted row into a job for its own user only.
    await new JobQueue(worker, { notify: false }).foldInbox();
    expect(await jobsOf(user)).toEqual({ jobs: 2, inbox: 0 });
  });

  it("a scope setting set at session level never scopes a later statement on the pooled connection", async () => {
    // The app's pool has one connection: every statement below runs on the same one.
    const count = async () => (await app.query<{ n: number }>("SELECT count(*)::int AS n FROM memories WHERE tenant_id = 'acme'")).rows[0].n;
    const leaks: Array<[string, () => Promise<unknown>]> = [
      ["set_config(…, false) in its own statement", () => app.query("SELECT set_config('langgraph_memory.tenant_id', 'acme', false), set_config('langgraph_memory.user_id', 'bob', false)")],
      [
        "set_config(…, false) with the names as parameters",
        () => app.query("SELECT set_config($1, $2, false), set_config($3, $4, false)", ["langgraph_memory.tenant_id", "acme", "langgraph_memory.user_id", "bob"]),
      ],
      ["SET in a script", () => app.exec("SET langgraph_memory.tenant_id = 'acme'; SET LangGraph_Memory.User_Id = 'bob'")],
      [
        "set_config(…, false) inside a committed transaction",
        () => app.transaction((tx) => tx.query("SELECT set_config('langgraph_memory.tenant_id', 'acme', false), set_config('langgraph_memory.user_id', 'bob', false)"), { scope: attacker }),
      ],
      [
        "SET on a dedicated connection",
        () => app.withConnection!((conn) => conn.exec(`SET "langgraph_memory"."tenant_id" = 'acme'; SET langgraph_memory.user_id = 'bob'`)),
      ],
    ];
    const seen: Record<string, number> = {};
    for (const [label, leak] of leaks) {
      await leak();
      seen[label] = await count();
      // Another library statement on the connection: an unscoped read through the store's pool path.
      seen[`${label}, then a raw select of the victim's memories`] = (
        await app.query<{ n: number }>("SELECT count(*)::int AS n FROM memories WHERE tenant_id = $1 AND user_id = $2", [victim.tenantId, victim.userId])
      ).rows[0].n;
    }
    report("session-level scope leaks", { attempts: Object.keys(seen).length, rowsSeen: Object.values(seen).reduce((a, b) => a + b, 0) });
    expect(seen).toEqual(Object.fromEntries(Object.keys(seen).map((k) => [k, 0])));

    // A role default (ALTER ROLE … SET) does not scope new connections either.
    await su.query(`ALTER ROLE ${appRole} SET langgraph_memory.tenant_id = 'acme'`);
    await su.query(`ALTER ROLE ${appRole} SET langgraph_memory.user_id = 'bob'`);
    const fresh = await openDatabase(asRole(appRole), { schema, autoMigrate: false, poolMax: 1 });
    try {
      expect((await fresh.query<{ n: number }>("SELECT count(*)::int AS n FROM memories WHERE tenant_id = 'acme'")).rows[0].n).toBe(0);
    } finally {
      await fresh.close();
      await su.query(`ALTER ROLE ${appRole} RESET ALL`);
    }
  });

  it("the library never leaves a scope on its connection", async () => {
    const store = new MemoryRepository(app);
    const scope = { tenantId: "acme", userId: "erin" };
    await store.add(scope, { kind: "fact", text: "Erin likes green tea." });
    await store.search(scope, "tea", { minSimilarity: 0 });
    const load = createLoadMemoryNode({ store, markUsed: true });
    await load({ messages: [new HumanMessage("what tea do I like?")] }, { configurable: { tenant_id: scope.tenantId, user_id: scope.userId } });
    await new JobQueue(app, { notify: false }).enqueue({ queue: "own", scope, groupKey: "t", idempotencyKey: "e", payload: {} });
    const { rows } = await app.query<{ t: string | null; u: string | null }>(
      "SELECT current_setting('langgraph_memory.tenant_id', true) AS t, current_setting('langgraph_memory.user_id', true) AS u",
    );
    // Empty (as the connection starts) or never set: no scope either way.
    expect([rows[0].t ?? "", rows[0].u ?? ""]).toEqual(["", ""]);
  });

  it("grantMemoryRoles, run by the owner as docs/operations.md says, grants the app and worker roles", async () => {
    await expect(grantMemoryRoles(owner, { app: [appRole], worker: [workerRole] })).resolves.toBeUndefined();
    // A worker role that is not a member yet: the owner may not grant membership, and is told
    // what to run as whom; the table grants were made all the same.
    const newWorker = `lgm_worker2_${suffix}`;
    await su.query(`CREATE ROLE ${newWorker} LOGIN NOBYPASSRLS`);
    try {
      const err = await grantMemoryRoles(owner, { worker: [newWorker] }).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: "MAINTENANCE_ROLE_REQUIRED", details: { missing: [newWorker] } });
      expect((err as Error).message).toContain(`GRANT ${WORKER_GROUP_ROLE} TO "${newWorker}"`);
      expect((await su.query(`SELECT has_table_privilege($1, $2, 'INSERT') AS ok`, [newWorker, `${quoteIdent(schema)}.memories`])).rows[0].ok).toBe(true);
      // Run by a superuser, the same call also grants the membership.
      const suDb = await openDatabase(URL, { schema, autoMigrate: false });
      try {
        await grantMemoryRoles(suDb, { worker: [newWorker] });
      } finally {
        await suDb.close();
      }
      expect((await su.query(`SELECT pg_has_role($1, $2, 'USAGE') AS m`, [newWorker, WORKER_GROUP_ROLE])).rows[0].m).toBe(true);
    } finally {
      await su.query(`DROP OWNED BY ${newWorker}`).catch(() => undefined);
      await su.query(`DROP ROLE IF EXISTS ${newWorker}`);
    }
  });
});
