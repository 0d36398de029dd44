import { mkdtempSync, existsSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase, connectDatabase } from "../../src/db/open.js";
import { migrate, listAppliedMigrations } from "../../src/db/migrate.js";
import { loadMigrations } from "../../src/db/migrations.js";
import type { Database } from "../../src/db/database.js";
import { isMemoryError } from "../../src/errors.js";
import { openTestDatabase, testEngines, uniqueSchema, dropSchema } from "../helpers/db.js";

describe.each(testEngines())("Database on %s", (engine) => {
  let db: Database;
  beforeAll(async () => {
    db = await openTestDatabase(engine);
  });
  afterAll(async () => {
    await db.close();
  });

  it("runs parameterised queries with uniform types on both engines", async () => {
    const { rows } = await db.query<{ n: number; j: unknown; b: Uint8Array; r: number[]; t: Date }>(
      "SELECT 9007199254740991::int8 AS n, $1::jsonb AS j, $2::bytea AS b, $3::real[] AS r, now() AS t",
      [JSON.stringify([1, { a: "x" }]), Buffer.from([1, 2, 3]), [0.5, 1.5]],
    );
    expect(rows[0].n).toBe(9007199254740991);
    expect(rows[0].j).toEqual([1, { a: "x" }]);
    expect(Array.from(rows[0].b)).toEqual([1, 2, 3]);
    expect(rows[0].r).toEqual([0.5, 1.5]);
    expect(rows[0].t).toBeInstanceOf(Date);
  });

  it("commits a transaction, rolls it back on throw, and passes the caller's error through", async () => {
    await db.exec("CREATE TABLE IF NOT EXISTS tx_probe (v text)");
    await db.transaction(async (tx) => {
      await tx.query("INSERT INTO tx_probe VALUES ($1)", ["kept"]);
    });
    const boom = new Error("boom");
    await expect(
      db.transaction(async (tx) => {
        await tx.query("INSERT INTO tx_probe VALUES ($1)", ["lost"]);
        throw boom;
      }),
    ).rejects.toBe(boom);
    const { rows } = await db.query<{ v: string }>("SELECT v FROM tx_probe ORDER BY v");
    expect(rows.map((r) => r.v)).toEqual(["kept"]);
  });

  it("sets the scope for the transaction only", async () => {
    const inside = await db.transaction(
      async (tx) => (await tx.query<{ t: string; u: string }>("SELECT current_setting('langgraph_memory.tenant_id', true) AS t, current_setting('langgraph_memory.user_id', true) AS u")).rows[0],
      { scope: { tenantId: "acme", userId: "alice" } },
    );
    expect(inside).toEqual({ t: "acme", u: "alice" });
    const after = await db.transaction(async (tx) => (await tx.query<{ t: string | null }>("SELECT current_setting('langgraph_memory.tenant_id', true) AS t")).rows[0].t);
    expect(after ?? "").toBe("");
  });

  it("runs multi-statement scripts with exec", async () => {
    await db.exec("CREATE TABLE IF NOT EXISTS script_probe (v int); INSERT INTO script_probe VALUES (1); INSERT INTO script_probe VALUES (2);");
    expect((await db.query<{ n: number }>("SELECT count(*)::int AS n FROM script_probe")).rows[0].n).toBe(2);
  });

  it("wraps SQL errors as DB_QUERY_FAILED with the SQLSTATE", async () => {
    await expect(db.query("SELECT * FROM no_such_table")).rejects.toMatchObject({ code: "DB_QUERY_FAILED", details: { sqlstate: "42P01" } });
  });

  it("reports pgvector as a capability (PGlite has it; this server Postgres may not)", () => {
    if (engine === "pglite") expect(db.capabilities.pgvector).toBe(true);
    else expect(typeof db.capabilities.pgvector).toBe("boolean");
    expect(db.capabilities.serverVersion).toMatch(/^\d+/);
  });

  it("migrating again is a no-op", async () => {
    const result = await migrate(db);
    expect(result.applied).toEqual([]);
    expect(result.alreadyApplied).toBe(loadMigrations().length);
  });

  it("refuses a database holding a migration the code does not know", async () => {
    const next = loadMigrations().length + 1;
    await db.query(`INSERT INTO ${db.schemaSql}.migrations (id, name, checksum) VALUES ($1, $2, 'x')`, [next, `${String(next).padStart(4, "0")}_from_the_future`]);
    try {
      await expect(migrate(db)).rejects.toMatchObject({ code: "MIGRATION_UNKNOWN" });
    } finally {
      await db.query(`DELETE FROM ${db.schemaSql}.migrations WHERE id = $1`, [next]);
    }
  });

  it("refuses an applied migration whose file changed", async () => {
    const edited = loadMigrations().map((m, i) => (i === 0 ? { ...m, checksum: "0".repeat(64) } : m));
    await expect(migrate(db, edited)).rejects.toMatchObject({ code: "MIGRATION_CHECKSUM_MISMATCH" });
  });

  it("works in a schema whose name holds a dash, a space and a quote", async () => {
    const schema = `${uniqueSchema("lgm-odd")} sp"q`;
    const odd = engine === "pglite" ? await openDatabase("memory://", { schema }) : await openTestDatabase("postgres", { schema });
    try {
      const applied = await listAppliedMigrations(odd);
      expect(applied.length).toBe(loadMigrations().length);
      const { rows } = await odd.query<{ s: string }>("SELECT current_schema() AS s");
      expect(rows[0].s).toBe(schema);
    } finally {
      await odd.close();
    }
  });
});

const serverUrl = process.env.DATABASE_URL;
(serverUrl ? describe : describe.skip)("server Postgres only", () => {
  it("five concurrent migrators succeed with exactly one applying", async () => {
    const schema = uniqueSchema("lgm_mig");
    const dbs = await Promise.all(Array.from({ length: 5 }, () => connectDatabase(serverUrl, { schema, poolMax: 2 })));
    try {
      const results = await Promise.all(dbs.map((d) => migrate(d)));
      const appliers = results.filter((r) => r.applied.length > 0);
      expect(appliers).toHaveLength(1);
      expect(appliers[0].applied).toEqual(loadMigrations().map((m) => m.name));
      const rows = await listAppliedMigrations(dbs[0]);
      expect(rows.map((r) => r.name)).toEqual(loadMigrations().map((m) => m.name));
    } finally {
      await Promise.all(dbs.map((d) => d.close()));
      await dropSchema(serverUrl!, schema);
    }
  });

  it("an unreachable server is a retryable DB_UNAVAILABLE", async () => {
    const err = await openDatabase("postgres://postgres@127.0.0.1:1/none", { schema: uniqueSchema() }).catch((e) => e);
    expect(isMemoryError(err, "DB_UNAVAILABLE")).toBe(true);
    expect(err.retryable).toBe(true);
  });
});

describe("embedded data folder", () => {
  const dir = mkdtempSync(join(tmpdir(), "lgm-dir-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("creates the folder, persists across reopen, and refuses a second opener in this process", async () => {
    const dataDir = join(dir, "nested", "data");
    const db = await openDatabase(`pglite:${dataDir}`);
    try {
      expect(existsSync(dataDir)).toBe(true);
      await db.exec("CREATE TABLE kept (v int); INSERT INTO kept VALUES (42);");
      await expect(openDatabase(`pglite:${dataDir}`)).rejects.toMatchObject({ code: "DB_OPEN_FAILED" });
    } finally {
      await db.close();
    }
    const again = await openDatabase(`pglite:${dataDir}`);
    try {
      expect((await again.query<{ v: number }>("SELECT v FROM kept")).rows).toEqual([{ v: 42 }]);
    } finally {
      await again.close();
    }
  });

  it("takes over a lock left by a dead process", async () => {
    const dataDir = join(dir, "stale");
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(join(dataDir, "langgraph-memory.lock"), "999999999");
    const db = await openDatabase(`pglite:${dataDir}`);
    await db.close();
  });

  it("an unusable data folder fails at open with DB_OPEN_FAILED", async () => {
    // A path below a regular file can never be created, whoever runs the test (root ignores
    // permission bits, so chmod alone would not prove anything here).
    const file = join(dir, "plain-file");
    writeFileSync(file, "x");
    await expect(openDatabase(`pglite:${join(file, "db")}`)).rejects.toMatchObject({ code: "DB_OPEN_FAILED" });
  });
});
