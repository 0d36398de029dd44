/**
 * Faults of the embedded engine's disk: a read-only data folder and a full disk. Expected: a clear
 * `DB_OPEN_FAILED` at open (naming the folder and what to check) or, when the disk fills while
 * open, a typed error per write with reads still working — and nothing corrupted: the folder
 * opens again (elsewhere or once space is back) with every row intact.
 *
 * Read-only and full disks are made with real mounts (a read-only bind mount; a small tmpfs),
 * which needs root and mount rights — as in CI's container. Without them the read-only case
 * falls back to `chmod` (non-root) or to a data path that is a file, and the full-disk cases are
 * skipped with a printed reason.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync, openSync, writeSync, closeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../../src/db/open.js";
import type { Database } from "../../src/db/database.js";
import { MemoryRepository } from "../../src/store/memory-store.js";
import { report } from "./helpers/sizes.js";

const scope = { tenantId: "disk-co", userId: "alice" };

function canMount(): boolean {
  if (process.getuid?.() !== 0) return false;
  const probe = mkdtempSync(join(tmpdir(), "lgm-mount-probe-"));
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", probe], { stdio: "ignore" });
    execFileSync("umount", [probe], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}
const MOUNT = canMount();
if (!MOUNT) console.warn("[reliability] disk faults: no mount rights here — read-only uses a fallback, full-disk cases are skipped");

/** SHA-256 of every file under `dir` (path → hash), to prove a failed open changed nothing. */
function fingerprint(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out[p.slice(dir.length)] = createHash("sha256").update(readFileSync(p)).digest("hex");
    }
  };
  walk(dir);
  return out;
}

async function seed(dataDir: string, n: number): Promise<string[]> {
  const db = await openDatabase(`pglite:${dataDir}`);
  try {
    const store = new MemoryRepository(db);
    const added = await store.addMany(scope, Array.from({ length: n }, (_, i) => ({ kind: "fact" as const, text: `disk fact ${i}` })));
    return added.map((m) => m.id);
  } finally {
    await db.close();
  }
}

async function storedTexts(dataDir: string): Promise<string[]> {
  const db = await openDatabase(`pglite:${dataDir}`);
  try {
    return (await new MemoryRepository(db).list(scope, { limit: 10_000 })).map((m) => m.text).sort();
  } finally {
    await db.close();
  }
}

const mounts: string[] = [];
const mount = (args: string[], target: string) => {
  execFileSync("mount", [...args, target], { stdio: "ignore" });
  mounts.push(target);
};
const umount = (target: string) => {
  // Lazy: a PGlite whose start-up failed keeps its files open until the process exits (it cannot
  // be closed), which keeps a plain umount busy.
  execFileSync("umount", ["-l", target], { stdio: "ignore" });
  mounts.splice(mounts.indexOf(target), 1);
};

describe("disk faults of the embedded engine", () => {
  const dir = mkdtempSync(join(tmpdir(), "lgm-disk-"));
  const figures: Record<string, unknown> = {};
  beforeAll(() => {
    mkdirSync(dir, { recursive: true });
  });
  afterAll(() => {
    for (const m of [...mounts].reverse()) execFileSync("umount", ["-l", m], { stdio: "ignore" });
    try {
      chmodSync(dir, 0o755);
    } catch {
      // already gone
    }
    rmSync(dir, { recursive: true, force: true });
    report("embedded disk faults", figures);
  });

  it("a read-only data folder: DB_OPEN_FAILED at open naming the folder; the files are unchanged and the data opens again", async () => {
    const dataDir = join(dir, "ro-source");
    const ids = await seed(dataDir, 5);
    const before = fingerprint(dataDir);
    let readOnlyDir: string;
    let mechanism: string;
    if (MOUNT) {
      readOnlyDir = join(dir, "ro-view");
      mkdirSync(readOnlyDir);
      mount(["--bind", dataDir], readOnlyDir);
      execFileSync("mount", ["-o", "remount,bind,ro", readOnlyDir], { stdio: "ignore" });
      mechanism = "read-only bind mount";
    } else if (process.getuid?.() !== 0) {
      readOnlyDir = dataDir;
      execFileSync("chmod", ["-R", "a-w", dataDir]);
      mechanism = "chmod a-w";
    } else {
      readOnlyDir = join(dir, "not-a-folder");
      writeFileSync(readOnlyDir, "a file where the data folder should be");
      mechanism = "a file in place of the folder";
    }
    const err = await openDatabase(`pglite:${readOnlyDir}`).then(
      (db: Database) => db.close().then(() => null),
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ name: "MemoryError", code: "DB_OPEN_FAILED" });
    expect((err as Error).message).toContain(readOnlyDir);
    expect((err as Error).message).toMatch(/writable|read-only|not a directory/i);
    expect((err as Error).message).not.toMatch(/undefined/);
    if (MOUNT) umount(readOnlyDir);
    else if (process.getuid?.() !== 0) execFileSync("chmod", ["-R", "u+w", dataDir]);
    expect(fingerprint(dataDir)).toEqual(before);
    expect(await storedTexts(dataDir)).toEqual(ids.map((_, i) => `disk fact ${i}`).sort());
    figures.readOnly = mechanism;
  }, 60_000);

  (MOUNT ? it : it.skip)("a read-only subfolder (base/) inside a writable data folder: DB_OPEN_FAILED, nothing corrupted", async () => {
    const dataDir = join(dir, "ro-base");
    await seed(dataDir, 3);
    const before = fingerprint(dataDir);
    mount(["--bind", join(dataDir, "base")], join(dataDir, "base"));
    execFileSync("mount", ["-o", "remount,bind,ro", join(dataDir, "base")], { stdio: "ignore" });
    const err = await openDatabase(`pglite:${dataDir}`).then(
      (db: Database) => db.close().then(() => null),
      (e: unknown) => e,
    );
    umount(join(dataDir, "base"));
    expect(err).toMatchObject({ name: "MemoryError", code: "DB_OPEN_FAILED" });
    expect((err as Error).message).toContain(dataDir);
    // Postgres's start-up writes its control file and WAL (and drops its relcache init file)
    // before it finds base/ read-only, so files differ; what matters is that the data is whole.
    expect(fingerprint(dataDir)["/PG_VERSION"]).toBe(before["/PG_VERSION"]);
    expect(await storedTexts(dataDir)).toEqual(["disk fact 0", "disk fact 1", "disk fact 2"]);
  }, 60_000);

  (MOUNT ? it : it.skip)("a disk too small for a new database: DB_OPEN_FAILED that says so; with space, the same folder opens", async () => {
    const disk = join(dir, "tiny");
    mkdirSync(disk);
    mount(["-t", "tmpfs", "-o", "size=12m", "tmpfs"], disk);
    const dataDir = join(disk, "data");
    const err = await openDatabase(`pglite:${dataDir}`).then(
      (db: Database) => db.close().then(() => null),
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ name: "MemoryError", code: "DB_OPEN_FAILED" });
    expect((err as Error).message).toContain(dataDir);
    // A clear cause, not "undefined": the driver's errno must be turned into words.
    expect((err as Error).message).not.toMatch(/undefined/);
    expect((err as Error).message).toMatch(/space|ENOSPC/i);
    execFileSync("mount", ["-o", "remount,size=96m", disk], { stdio: "ignore" });
    const db = await openDatabase(`pglite:${dataDir}`);
    try {
      await new MemoryRepository(db).add(scope, { kind: "fact", text: "written once there was space" });
    } finally {
      await db.close();
    }
    expect(await storedTexts(dataDir)).toEqual(["written once there was space"]);
    umount(disk);
  }, 90_000);

  (MOUNT ? it : it.skip)("the disk fills while open: each write fails with a typed error, reads work, and after freeing space every row is intact", async () => {
    const disk = join(dir, "filling");
    mkdirSync(disk);
    mount(["-t", "tmpfs", "-o", "size=72m", "tmpfs"], disk);
    const dataDir = join(disk, "data");
    await seed(dataDir, 20);
    const db = await openDatabase(`pglite:${dataDir}`);
    const store = new MemoryRepository(db);
    let failedWrites = 0;
    try {
      // Fill the disk to the last byte.
      const fd = openSync(join(disk, "filler"), "w");
      const chunk = Buffer.alloc(1 << 20);
      try {
        for (;;) writeSync(fd, chunk);
      } catch (e) {
        expect((e as NodeJS.ErrnoException).code).toBe("ENOSPC");
      } finally {
        closeSync(fd);
      }
      for (let i = 0; i < 5; i++) {
        const err = await store.add(scope, { kind: "fact", text: `while full ${i} ${"x".repeat(3000)}` }).then(
          () => null,
          (e: unknown) => e,
        );
        if (err) {
          failedWrites++;
          expect(err).toMatchObject({ name: "MemoryError", code: "DB_QUERY_FAILED", details: { sqlstate: "53100" } });
        }
      }
      expect(failedWrites).toBeGreaterThan(0);
      expect((await store.list(scope, { limit: 100 })).filter((m) => m.text.startsWith("disk fact")).length).toBe(20);
    } finally {
      await db.close();
    }
    // Reopening on the full disk: either it opens (reads need no space) or it says why it cannot.
    const reopened = await openDatabase(`pglite:${dataDir}`).then(
      async (d: Database) => {
        await d.close();
        return "opened";
      },
      (e: unknown) => e,
    );
    if (reopened !== "opened") expect(reopened).toMatchObject({ code: "DB_OPEN_FAILED" });
    rmSync(join(disk, "filler"));
    const texts = await storedTexts(dataDir);
    expect(texts.filter((t) => t.startsWith("disk fact")).length).toBe(20);
    expect(texts.filter((t) => t.startsWith("while full")).length).toBe(5 - failedWrites);
    const db2 = await openDatabase(`pglite:${dataDir}`);
    try {
      await new MemoryRepository(db2).add(scope, { kind: "fact", text: "after space came back" });
    } finally {
      await db2.close();
    }
    umount(disk);
    figures.fullDisk = { failedWritesWhileFull: failedWrites, reopenedWhileFull: reopened === "opened", rowsIntact: 20 };
  }, 120_000);
});
