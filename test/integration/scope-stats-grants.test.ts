/**
 * Migration 0016 adds a table every search reads (memory_scope_stats). An app role granted
 * before the upgrade (grantMemoryRoles, GRANT ... ON ALL TABLES IN SCHEMA) has no privilege on a
 * table created after the grant, so every search would fail 42501 until the grants were re-run:
 * the migration copies the memories table's SELECT grants onto it. Server Postgres only (PGlite
 * has one role).
 */
import pg from "pg";
import { connectDatabase } from "../../src/db/open.js";
import { migrate } from "../../src/db/migrate.js";
import { loadMigrations } from "../../src/db/migrations.js";
import { dropSchema, testEngines, uniqueSchema } from "../helpers/db.js";

const onServer = testEngines().includes("postgres") ? describe : describe.skip;

onServer("migration 0016 and roles granted before it (postgres)", () => {
  const url = process.env.DATABASE_URL!;
  const role = `lgm_stats_reader_${process.pid}`;
  const schema = uniqueSchema("lgm_stats_grants");
  const su = new pg.Client({ connectionString: url });
  beforeAll(async () => {
    await su.connect();
    await su.query(`DROP ROLE IF EXISTS ${role}`);
    await su.query(`CREATE ROLE ${role} NOLOGIN`);
  });
  afterAll(async () => {
    await dropSchema(url, schema);
    await su.query(`DROP ROLE IF EXISTS ${role}`);
    await su.end();
  });

  it("gives a role that could read memories before the upgrade SELECT on the counters, and nobody else", async () => {
    const db = await connectDatabase(url, { schema });
    try {
      const all = loadMigrations();
      await migrate(db, all.filter((m) => m.id < 16));
      await db.query(`GRANT USAGE ON SCHEMA ${db.schemaSql} TO ${role}`);
      await db.query(`GRANT SELECT ON ALL TABLES IN SCHEMA ${db.schemaSql} TO ${role}`);
      await migrate(db, all);
      const can = async (who: string) =>
        (await db.query<{ ok: boolean }>(`SELECT has_table_privilege($1, '${db.schemaSql}.memory_scope_stats', 'SELECT') AS ok`, [who])).rows[0]!.ok;
      expect(await can(role)).toBe(true);
      await su.query(`CREATE ROLE ${role}_other NOLOGIN`);
      try {
        expect(await can(`${role}_other`)).toBe(false);
      } finally {
        await su.query(`DROP ROLE ${role}_other`);
      }
    } finally {
      await db.close();
    }
  });
});
