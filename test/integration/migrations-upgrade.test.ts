import { readFileSync } from "node:fs";
import { join } from "node:path";
import { connectDatabase } from "../../src/db/open.js";
import { migrate } from "../../src/db/migrate.js";
import { loadMigrations, type MigrationFile } from "../../src/db/migrations.js";
import { packageRoot } from "../../src/db/package-root.js";
import type { Database } from "../../src/db/database.js";
import { LocalHashingEmbeddings } from "../../src/embeddings/hashing-embeddings.js";
import { MemoryRepository } from "../../src/store/memory-store.js";
import { dropSchema, testEngines, uniqueSchema } from "../helpers/db.js";
import { schemaSnapshot } from "../helpers/schema-snapshot.js";

/** migrations/released.json: what the last release shipped (scripts/freeze-migrations.mjs). */
const released = JSON.parse(readFileSync(join(packageRoot(), "migrations", "released.json"), "utf8")) as {
  release: string;
  migrations: Record<string, string>;
};
const all = loadMigrations();
const releasedSet: MigrationFile[] = all.filter((m) => m.name in released.migrations);

describe("released migrations", () => {
  it("are frozen: each file still has the bytes it was released with", () => {
    for (const [name, checksum] of Object.entries(released.migrations)) {
      const current = all.find((m) => m.name === name);
      expect({ name, present: current !== undefined }).toEqual({ name, present: true });
      expect({ name, checksum: current?.checksum }).toEqual({ name, checksum });
    }
  });

  it("come first: every migration added since the release is numbered after the released ones", () => {
    const lastReleased = Math.max(...releasedSet.map((m) => m.id));
    expect(releasedSet.map((m) => m.id)).toEqual(all.filter((m) => m.id <= lastReleased).map((m) => m.id));
  });
});

async function openUnmigrated(engine: string): Promise<Database> {
  if (engine === "pglite") return connectDatabase("memory://");
  return connectDatabase(process.env.DATABASE_URL!, { schema: uniqueSchema("lgm_upgrade") });
}

async function closeDropping(db: Database, engine: string): Promise<void> {
  await db.close();
  if (engine === "postgres") await dropSchema(process.env.DATABASE_URL!, db.schema);
}

describe.each(testEngines())(`upgrade from release ${released.release} on %s`, (engine) => {
  let upgraded: Database;
  let fresh: Database;
  const embeddings = new LocalHashingEmbeddings();
  const alice = { tenantId: "acme", userId: "alice" };

  beforeAll(async () => {
    upgraded = await openUnmigrated(engine);
    await migrate(upgraded, releasedSet);
    // Data as the released schema holds it, written with that schema's own columns (frozen, so
    // this SQL stays valid however later migrations change the tables).
    await upgraded.query("INSERT INTO embedding_settings (vector_set, embedder, dims) VALUES ('memories', $1, $2)", [embeddings.embedderId, embeddings.dims]);
    const text = "my daughter's swim meet is on saturday mornings";
    await upgraded.query(
      `INSERT INTO memories (scope, tenant_id, user_id, kind, text, embedding, origin, confidence)
       VALUES ('user', $1, $2, 'fact', $3, $4::real[], 'user_stated', 0.9)`,
      [alice.tenantId, alice.userId, text, await embeddings.embedQuery(text)],
    );
    await migrate(upgraded, all);
    await upgraded.refreshCapabilities();
    fresh = await openUnmigrated(engine);
    await migrate(fresh, all);
  });
  afterAll(async () => {
    await closeDropping(upgraded, engine);
    await closeDropping(fresh, engine);
  });

  it("ends with the same schema as a database migrated from scratch", async () => {
    const [a, b] = [await schemaSnapshot(upgraded), await schemaSnapshot(fresh)];
    expect(a.length).toBeGreaterThan(100);
    expect(a.filter((line) => !b.includes(line))).toEqual([]);
    expect(b.filter((line) => !a.includes(line))).toEqual([]);
  });

  it("records every migration once, with the checksums of the files", async () => {
    const { rows } = await upgraded.query<{ id: number; name: string; checksum: string }>(`SELECT id, name, checksum FROM migrations ORDER BY id`);
    expect(rows).toEqual(all.map((m) => ({ id: m.id, name: m.name, checksum: m.checksum })));
  });

  it("keeps what the released schema stored: the memory is found by today's search", async () => {
    const store = new MemoryRepository(upgraded, { embeddings });
    const [hit] = await store.search(alice, "when is the swim meet?");
    expect(hit?.text).toBe("my daughter's swim meet is on saturday mornings");
    expect(await store.search({ tenantId: "acme", userId: "bob" }, "when is the swim meet?")).toEqual([]);
  });
});
