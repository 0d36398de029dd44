import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHash, randomBytes } from "node:crypto";
import type { PGlite } from "@electric-sql/pglite";
import { openDatabase } from "../../src/db/open.js";
import type { Database } from "../../src/db/database.js";
import { loadMigrations } from "../../src/db/migrations.js";
import { saveTemplate, templateKey } from "../../src/db/pglite-template.js";
import { resolveConfig } from "../../src/config.js";
import { schemaSnapshot } from "../helpers/schema-snapshot.js";

/** What a migrated database is made of, read from the catalog (timestamps and per-install keys left out). */
const catalog = (db: Database) =>
  schemaSnapshot(db, { alsoSchemas: ["public"], columnOrder: true, extensions: true, schemaNames: true, migrationRows: true, sealPurposes: true });

async function sealKey(db: Database): Promise<string> {
  const { rows } = await db.query<{ key: Uint8Array }>("SELECT key FROM memory_seal_keys WHERE purpose = 'summary'");
  return Buffer.from(rows[0].key).toString("hex");
}

/** A template whose database holds a marker table, stored under `key`: shows whether an open used it. */
async function markedTemplate(cacheDir: string, key: string, marker: string): Promise<void> {
  const db = await openDatabase("memory://");
  try {
    await db.exec(`CREATE TABLE ${marker} (v int); CHECKPOINT`);
    const pglite = (db as unknown as { pglite: PGlite }).pglite;
    saveTemplate(cacheDir, key, new Uint8Array(await (await pglite.dumpDataDir("none")).arrayBuffer()));
  } finally {
    await db.close();
  }
}

/** A copy of a dump tar whose PG_VERSION file says `version` (same length). */
function withPgVersion(tar: Uint8Array, version: string): Uint8Array {
  const copy = new Uint8Array(tar);
  const text = (from: number, to: number) => Buffer.from(copy.subarray(from, to)).toString("latin1").split("\0")[0];
  for (let offset = 0; offset + 512 <= copy.length; ) {
    const name = text(offset, offset + 100);
    if (!name) break;
    const size = Number.parseInt(text(offset + 124, offset + 136).trim() || "0", 8);
    if (name.replace(/^\/+/, "") === "PG_VERSION") {
      copy.set(Buffer.from(version), offset + 512);
      return copy;
    }
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  throw new Error("no PG_VERSION in the tar");
}

async function hasTable(db: Database, name: string): Promise<boolean> {
  const { rows } = await db.query<{ found: boolean }>("SELECT to_regclass($1) IS NOT NULL AS found", [name]);
  return rows[0].found;
}

describe("embedded databases from the migrated template", () => {
  const previous = process.env.LANGGRAPH_MEMORY_TEMPLATE_DIR;
  const work = mkdtempSync(join(tmpdir(), "lgm-template-"));
  const cacheDir = join(work, "cache");
  const schema = resolveConfig({}).schema;
  const key = templateKey(schema);
  let scratch: Awaited<ReturnType<typeof catalog>>;

  beforeAll(async () => {
    process.env.LANGGRAPH_MEMORY_TEMPLATE_DIR = cacheDir;
    const db = await openDatabase("memory://", { embeddedTemplate: false });
    try {
      scratch = await catalog(db);
    } finally {
      await db.close();
    }
  }, 300_000);
  afterAll(() => {
    if (previous === undefined) delete process.env.LANGGRAPH_MEMORY_TEMPLATE_DIR;
    else process.env.LANGGRAPH_MEMORY_TEMPLATE_DIR = previous;
    rmSync(work, { recursive: true, force: true });
  });

  it("builds the template once, and a database opened from it (memory:// or a new folder) has the schema of one migrated from scratch", async () => {
    expect(scratch.filter((line) => line.startsWith("migration "))).toHaveLength(loadMigrations().length);
    expect(scratch.filter((line) => line.startsWith("extension vector "))).toHaveLength(1);
    expect(scratch.filter((line) => line.startsWith("seal ")).length).toBeGreaterThan(0);

    const first = await openDatabase("memory://");
    const firstKey = await sealKey(first);
    try {
      expect(existsSync(join(cacheDir, `${key}.tar`))).toBe(true);
      expect(await catalog(first)).toEqual(scratch);
      expect(first.capabilities.pgvector).toBe(true);
    } finally {
      await first.close();
    }

    const folder = join(work, "data");
    const fromFolder = await openDatabase(`pglite:${folder}`);
    let folderKey: string;
    try {
      expect(await catalog(fromFolder)).toEqual(scratch);
      folderKey = await sealKey(fromFolder);
      await fromFolder.exec("CREATE TABLE kept_rows (v int); INSERT INTO kept_rows VALUES (7)");
    } finally {
      await fromFolder.close();
    }
    // Reopened, the folder is the same database (the template is not written over it).
    const reopened = await openDatabase(`pglite:${folder}`);
    try {
      expect((await reopened.query("SELECT v FROM kept_rows")).rows).toEqual([{ v: 7 }]);
      expect(await sealKey(reopened)).toBe(folderKey);
    } finally {
      await reopened.close();
    }

    // Per-install secrets are never shared: each copy has its own seal key, and none is the template's.
    const tar = readFileSync(join(cacheDir, `${key}.tar`));
    const raw = await openDatabase("memory://", { loadDataDir: new Blob([tar]) });
    const templateKeyHex = await sealKey(raw);
    await raw.close();
    expect(new Set([firstKey, folderKey, templateKeyHex]).size).toBe(3);
  }, 600_000);

  it("uses a template only under the key of the current migrations and engine, so a stale one is never used", async () => {
    const migrations = loadMigrations();
    const changed = migrations.map((m, i) => (i === migrations.length - 1 ? { ...m, checksum: createHash("sha256").update(`${m.sql}\n-- edited`).digest("hex") } : m));
    const staleKey = templateKey(schema, changed);
    expect(staleKey).not.toBe(key);
    expect(templateKey("other_schema")).not.toBe(key);

    await markedTemplate(cacheDir, staleKey, "stale_marker");
    await markedTemplate(cacheDir, key, "current_marker");
    const db = await openDatabase("memory://");
    try {
      expect(await hasTable(db, "stale_marker")).toBe(false);
      expect(await hasTable(db, "current_marker")).toBe(true); // the current key's template is what opens
    } finally {
      await db.close();
    }
  }, 600_000);

  it("falls back to migrating when the template is corrupt, and replaces a damaged one", async () => {
    // Damaged on disk (truncated): its checksum fails, it is rebuilt.
    await markedTemplate(cacheDir, key, "truncated_marker");
    const tarPath = join(cacheDir, `${key}.tar`);
    writeFileSync(tarPath, readFileSync(tarPath).subarray(0, 1 << 20));
    const rebuilt = await openDatabase("memory://");
    try {
      expect(await hasTable(rebuilt, "truncated_marker")).toBe(false);
      expect(await catalog(rebuilt)).toEqual(scratch);
    } finally {
      await rebuilt.close();
    }
    const rebuiltTar = readFileSync(tarPath);
    expect(rebuiltTar.length).toBeGreaterThan(1 << 20);

    // Garbage that its meta vouches for (as a bad disk or a bug could leave): the open fails, the
    // template is discarded and the database is made from scratch, in memory and in a folder.
    for (const target of ["memory://", `pglite:${join(work, "garbage-folder")}`]) {
      saveTemplate(cacheDir, key, randomBytes(64 * 1024));
      const db = await openDatabase(target);
      try {
        expect(await catalog(db)).toEqual(scratch);
      } finally {
        await db.close();
      }
      expect(readdirSync(cacheDir).filter((f) => f.startsWith(key))).toEqual([]);
    }
    const again = await openDatabase(`pglite:${join(work, "garbage-folder")}`);
    try {
      expect(await catalog(again)).toEqual(scratch);
    } finally {
      await again.close();
    }

    // A well-formed tar that PGlite refuses (files of another Postgres major version).
    saveTemplate(cacheDir, key, withPgVersion(rebuiltTar, "98"));
    const refused = await openDatabase("memory://");
    try {
      expect(await catalog(refused)).toEqual(scratch);
    } finally {
      await refused.close();
    }
    expect(readdirSync(cacheDir).filter((f) => f.startsWith(key))).toEqual([]);
  }, 900_000);

  it("keeps the four most recently used templates in the cache folder", () => {
    const dir = join(work, "prune");
    for (let i = 0; i < 6; i++) saveTemplate(dir, createHash("sha256").update(`k${i}`).digest("hex").slice(0, 32), randomBytes(1024));
    const kept = readdirSync(dir).sort();
    expect(kept.filter((f) => f.endsWith(".json"))).toHaveLength(4);
    expect(kept.filter((f) => f.endsWith(".tar"))).toHaveLength(4);
  });
});
