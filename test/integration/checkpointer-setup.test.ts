import { readFileSync } from "node:fs";
import { emptyCheckpoint } from "@langchain/langgraph-checkpoint";
import { PostgresCheckpointer } from "../../src/checkpointer/postgres-checkpointer.js";
import { LangGraphStore } from "../../src/store/langgraph-store.js";
import { connectDatabase } from "../../src/db/open.js";
import { loadMigrations } from "../../src/db/migrations.js";
import type { Database } from "../../src/db/database.js";
import { dropSchema, testEngines, uniqueSchema, type TestEngine } from "../helpers/db.js";
import { isMemoryError } from "../../src/errors.js";
import { PGLITE_TEMPLATE_PATH } from "../helpers/engines.js";

/** The URL and schema of an empty database on each engine. */
function emptyDatabase(engine: TestEngine): { url: string; schema?: string } {
  return engine === "pglite" ? { url: "memory://" } : { url: process.env.DATABASE_URL!, schema: uniqueSchema("lgm_setup") };
}

async function appliedMigrations(db: Database): Promise<number> {
  const { rows } = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM migrations");
  return rows[0].n;
}

async function roundTrip(checkpointer: PostgresCheckpointer, threadId: string): Promise<string | undefined> {
  const config = { configurable: { thread_id: threadId, checkpoint_ns: "" } };
  const saved = await checkpointer.put(config, { ...emptyCheckpoint(), id: "1ef0000000000001" }, { source: "input", step: -1, parents: {} }, {});
  return (await checkpointer.getTuple(saved))?.checkpoint.id;
}

describe.each(testEngines())("PostgresSaver's names on %s", (engine) => {
  it("setup() (checkpointer and store) creates the tables of an empty database; again (also concurrently) it changes nothing", async () => {
    const { url, schema } = emptyDatabase(engine);
    const db = await connectDatabase(url, { schema });
    const checkpointer = PostgresCheckpointer.fromDatabase(db);
    try {
      // Without setup there are no tables: the read fails instead of answering.
      await expect(checkpointer.getTuple({ configurable: { thread_id: "t0", checkpoint_ns: "" } })).rejects.toThrow();
      // PostgresStore users call setup() on the store too: both at once migrate once.
      const store = new LangGraphStore(db);
      await Promise.all([checkpointer.setup(), store.setup()]);
      expect(await appliedMigrations(db)).toBe(loadMigrations().length);
      expect(await roundTrip(checkpointer, "t1")).toBe("1ef0000000000001");
      await store.put(["docs"], "a", { text: "after setup" });
      expect((await store.get(["docs"], "a"))?.value).toEqual({ text: "after setup" });
      await Promise.all([checkpointer.setup(), checkpointer.setup()]);
      await checkpointer.setup();
      expect(await appliedMigrations(db)).toBe(loadMigrations().length);
      expect((await checkpointer.getTuple({ configurable: { thread_id: "t1", checkpoint_ns: "" } }))?.checkpoint.id).toBe("1ef0000000000001");
    } finally {
      await checkpointer.close();
      await db.close();
      if (schema) await dropSchema(url, schema);
    }
  }, 120_000);

  it("fromConnString opens (and migrates) as fromUrl does, and the setup() PostgresSaver users call after it is harmless", async () => {
    const { url, schema } = emptyDatabase(engine);
    // The migrated template saves PGlite a second migration run (the first test made one).
    const loadDataDir = engine === "pglite" ? new Blob([readFileSync(PGLITE_TEMPLATE_PATH)]) : undefined;
    const checkpointer = await PostgresCheckpointer.fromConnString(url, { schema, loadDataDir });
    try {
      await checkpointer.setup();
      expect(await appliedMigrations(checkpointer.db)).toBe(loadMigrations().length);
      expect(await roundTrip(checkpointer, "t2")).toBe("1ef0000000000001");
    } finally {
      await checkpointer.close();
      if (schema) await dropSchema(url, schema);
    }
  }, 120_000);

  it("fromConnString fails as fromUrl does: an unreachable server is DB_UNAVAILABLE", async () => {
    const err = await PostgresCheckpointer.fromConnString("postgres://postgres@127.0.0.1:1/none").catch((e) => e);
    expect(isMemoryError(err, "DB_UNAVAILABLE")).toBe(true);
  });
});
