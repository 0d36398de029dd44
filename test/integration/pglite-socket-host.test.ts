/**
 * The owner's side of a shared embedded folder, in one process: PGlite served on a Unix socket by
 * PgliteSocketHost, the owner's own queries through its gate, and `pg` clients on the socket.
 * PGlite has one session, so what must hold is that nobody's statement runs inside somebody
 * else's open transaction or half-sent Parse…Sync exchange.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { PgliteDatabase } from "../../src/db/pglite-database.js";
import { PgDatabase } from "../../src/db/pg-database.js";
import { PgliteSocketHost } from "../../src/db/pglite-socket-host.js";
import { SharedPgliteClient } from "../../src/db/shared-pglite-client.js";
import { type SharedEndpoint, endpointUrl, readEndpoint } from "../../src/db/shared-endpoint.js";

describe("PgliteSocketHost", () => {
  const dir = mkdtempSync(join(tmpdir(), "lgm-host-"));
  let owner: PgliteDatabase;
  let host!: PgliteSocketHost;
  let endpoint: SharedEndpoint;
  const clients: Array<{ close(): Promise<void> }> = [];
  const client = (poolMax = 4) => {
    const db = new PgDatabase({ connectionString: endpointUrl(endpoint), schema: "public", poolMax });
    clients.push(db);
    return db;
  };

  beforeAll(async () => {
    owner = await PgliteDatabase.open({ schema: "public", wrap: (pglite) => (host = new PgliteSocketHost(pglite, dir, "public")).guarded() });
    endpoint = await host.start();
    await owner.exec("CREATE TABLE t (who text, n int)");
  }, 60_000);
  afterAll(async () => {
    for (const c of clients) await c.close().catch(() => undefined);
    await owner.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("publishes a Unix socket in the folder", () => {
    expect(endpoint).toEqual({ pid: process.pid, schema: "public", socketDir: dir, port: 5432 });
    expect(readEndpoint(dir)).toEqual(endpoint);
    expect(existsSync(join(dir, ".s.PGSQL.5432"))).toBe(true);
  });

  it("a client's statement waits for the owner's open transaction and never reads its uncommitted rows", async () => {
    const c = client();
    await c.query("SELECT 1"); // connected before the owner's transaction starts
    let read: Promise<number> | undefined;
    let readDone = false;
    const tx = owner
      .transaction(async (t) => {
        await t.query("INSERT INTO t VALUES ('owner', 1)");
        read = c.query<{ n: number }>("SELECT count(*)::int AS n FROM t WHERE who = 'owner'").then((r) => ((readDone = true), r.rows[0].n));
        // Give the client's statement every chance to slip in between the transaction's statements.
        for (let i = 0; i < 20 && !readDone; i++) await t.query("SELECT pg_sleep(0.01)");
        throw new Error("roll back");
      })
      .catch((e: Error) => e.message);
    expect(await tx).toBe("roll back");
    expect(await read).toBe(0);
  });

  it("the owner's statement waits for a client's open transaction", async () => {
    const conn = await client().pool.connect();
    try {
      await conn.query("BEGIN");
      await conn.query("INSERT INTO t VALUES ('client', 1)");
      const read = owner.query<{ n: number }>("SELECT count(*)::int AS n FROM t WHERE who = 'client'");
      await conn.query("INSERT INTO t VALUES ('client', 2)"); // still its own transaction
      await conn.query("ROLLBACK");
      expect((await read).rows[0].n).toBe(0);
    } finally {
      conn.release();
    }
  });

  it("a client that goes away inside a transaction is rolled back, and the session is free again", async () => {
    const raw = new pg.Client({ connectionString: endpointUrl(endpoint) });
    raw.on("error", () => undefined);
    await raw.connect();
    await raw.query("BEGIN");
    await raw.query("INSERT INTO t VALUES ('gone', 1)");
    (raw as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
    expect((await owner.query<{ n: number }>("SELECT count(*)::int AS n FROM t WHERE who = 'gone'")).rows[0].n).toBe(0);
    expect((await client().query<{ n: number }>("SELECT count(*)::int AS n FROM t WHERE who = 'gone'")).rows[0].n).toBe(0);
  });

  it("keeps each connection's Parse…Sync exchange whole: concurrent queries of different shapes get their own rows", async () => {
    const a = client(4);
    const b = client(4);
    const results = await Promise.all(
      Array.from({ length: 120 }, (_, i) =>
        i % 3 === 0
          ? a.query<{ v: number }>("SELECT $1::int AS v", [i]).then((r) => r.rows[0].v === i)
          : i % 3 === 1
            ? b.query<{ s: string; k: number }>("SELECT $1::text AS s, 7 AS k", [`x${i}`]).then((r) => r.rows[0].s === `x${i}` && r.rows[0].k === 7)
            : owner.query<{ v: number }>("SELECT $1::int + 1 AS v", [i]).then((r) => r.rows[0].v === i + 1),
      ),
    );
    expect(results.filter((ok) => !ok)).toEqual([]);
  });

  it("drops statement names for clients: named prepared statements would collide in the one session", async () => {
    const first = client();
    const second = client();
    await first.query("SELECT 1 AS one", [], { name: "lgm_test_same" });
    // Raw pg: the second connection prepares the same name in the same session, and fails.
    await expect(second.query("SELECT 1 AS one", [], { name: "lgm_test_same" })).rejects.toThrow(/already exists/);
    const shared = new SharedPgliteClient(client(), "public", async () => client());
    await expect(shared.query("SELECT 1 AS one", [], { name: "lgm_test_same" })).resolves.toEqual({ rows: [{ one: 1 }], rowCount: 1 });
    await expect(shared.transaction((tx) => tx.query("SELECT 2 AS two", [], { name: "lgm_test_same" }))).resolves.toEqual({ rows: [{ two: 2 }], rowCount: 1 });
  });

  it("stop() closes the clients' connections and removes the socket and its endpoint file", async () => {
    const c = client();
    await c.query("SELECT 1");
    await host.stop();
    expect(readEndpoint(dir)).toBeUndefined();
    expect(existsSync(join(dir, ".s.PGSQL.5432"))).toBe(false);
    await expect(c.query("SELECT 1")).rejects.toMatchObject({ code: "DB_UNAVAILABLE" });
    expect((await owner.query<{ n: number }>("SELECT 1 AS n")).rows[0].n).toBe(1);
  });
});
