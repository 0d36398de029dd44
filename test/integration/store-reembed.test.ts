import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Database } from "../../src/db/database.js";
import { openDatabase } from "../../src/db/open.js";
import { MemoryRepository } from "../../src/store/memory-store.js";
import { reembedMemories } from "../../src/store/reembed.js";
import { LocalHashingEmbeddings } from "../../src/embeddings/hashing-embeddings.js";
import { spawnSync } from "node:child_process";
import { openTestDatabase, testEngines } from "../helpers/db.js";

describe.each(testEngines())("reembed on %s", (engine) => {
  let db: Database;
  const alice = { tenantId: "acme", userId: "alice" };

  beforeAll(async () => {
    db = await openTestDatabase(engine);
  });
  afterAll(async () => {
    await db.close();
  });

  it("moves every memory to the new embedder and dimension; the old one is then refused", async () => {
    const old = new MemoryRepository(db, { embeddings: new LocalHashingEmbeddings({ dims: 128 }) });
    await old.addMany(alice, Array.from({ length: 25 }, (_, i) => ({ kind: "fact" as const, text: `Fact number ${i} about gardening tomatoes` })));
    const superseded = await old.add({ tenantId: "acme", userId: "bob" }, { kind: "fact", text: "Bob grows basil." });
    await old.supersede({ tenantId: "acme", userId: "bob" }, superseded.id, { kind: "fact", text: "Bob grows mint." });

    const progress: Array<[number, number]> = [];
    const result = await reembedMemories(db, new LocalHashingEmbeddings({ dims: 256 }), { batchSize: 10, onProgress: (d, t) => progress.push([d, t]) });
    expect(result).toMatchObject({ memories: 27, previous: { embedder: "local-hash-v1/128", dims: 128 }, current: { embedder: "local-hash-v1/256", dims: 256 } });
    expect(progress.map(([d]) => d)).toEqual([0, 10, 20, 27]);
    const { rows } = await db.query<{ dims: number; n: number }>("SELECT cardinality(embedding) AS dims, count(*)::int AS n FROM memories GROUP BY 1");
    expect(rows).toEqual([{ dims: 256, n: 27 }]);

    const fresh = new MemoryRepository(db, { embeddings: new LocalHashingEmbeddings({ dims: 256 }) });
    const hits = await fresh.search(alice, "gardening tomatoes number 7");
    expect(hits[0].text).toBe("Fact number 7 about gardening tomatoes");
    await expect(new MemoryRepository(db, { embeddings: new LocalHashingEmbeddings({ dims: 128 }) }).add(alice, { kind: "fact", text: "x" })).rejects.toMatchObject({
      code: "EMBEDDING_DIMENSION_MISMATCH",
    });
  });
});

describe("langgraph-memory reembed (CLI)", () => {
  const dir = mkdtempSync(join(tmpdir(), "lgm-reembed-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("re-embeds with the configured embedder, prints a summary and a progress bar on stderr", async () => {
    const url = `pglite:${join(dir, "db")}`;
    const db = await openDatabase(url);
    await new MemoryRepository(db, { embeddings: new LocalHashingEmbeddings({ dims: 64 }) }).addMany({ tenantId: "t", userId: "u" }, [
      { kind: "fact", text: "one" },
      { kind: "fact", text: "two" },
      { kind: "fact", text: "three" },
    ]);
    await db.close();
    // The real binary entry in a child process: exit code, stdout summary, stderr progress bar.
    const run = spawnSync(process.execPath, ["--import", "tsx", "src/cli/run.ts", "reembed", "--database-url", url, "--embeddings", "local", "--batch", "2"], {
      encoding: "utf8",
      env: { ...process.env, DATABASE_URL: "" },
    });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("re-embedded 3 memories: local-hash-v1/64 (64 dims) → local-hash-v1/512 (512 dims)");
    expect(run.stderr).toMatch(/re-embedding memories \[#+\] 3\/3 100%/);
    const again = await openDatabase(url);
    try {
      const { rows } = await again.query<{ dims: number }>("SELECT dims FROM embedding_settings WHERE vector_set = 'memories'");
      expect(rows).toEqual([{ dims: 512 }]);
    } finally {
      await again.close();
    }
  });
});
