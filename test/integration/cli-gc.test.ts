/**
 * `langgraph-memory gc` — the retention sweep from the command line (cron) — on a temporary
 * embedded database folder: flags change the policy, the progress bar and summary are printed,
 * opted-out users are purged only when asked, and the database shows the effect.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, jest } from "@jest/globals";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { main } from "../../src/cli/main.js";
import { openDatabase } from "../../src/db/open.js";
import type { Database } from "../../src/db/database.js";
import { MemoryRepository } from "../../src/store/memory-store.js";
import { MemoryControls } from "../../src/controls/memory-controls.js";

const DAY = 86_400_000;
const alice = { tenantId: "acme", userId: "alice" };
const bob = { tenantId: "acme", userId: "bob" };

describe("langgraph-memory gc", () => {
  const dir = mkdtempSync(join(tmpdir(), "lgm-cli-gc-"));
  const url = `pglite:${join(dir, "db")}`;
  let out: string[];
  let err: string[];
  const ids: Record<string, string> = {};

  async function withDb<T>(fn: (db: Database) => Promise<T>): Promise<T> {
    const db = await openDatabase(url);
    try {
      return await fn(db);
    } finally {
      await db.close();
    }
  }

  beforeAll(async () => {
    const now = Date.now();
    const ago = (days: number) => new Date(now - days * DAY);
    await withDb(async (db) => {
      const store = new MemoryRepository(db);
      ids.oldEpisode = (await store.add(alice, { kind: "episode", text: "Booked a train to Oslo.", source: { origin: "extracted" }, createdAt: ago(400) })).id;
      ids.pastExpiry = (await store.add(alice, { kind: "fact", text: "Has a cold this week.", expiresAt: ago(1), createdAt: ago(10) })).id;
      ids.unused = (await store.add(alice, { kind: "episode", text: "Mentioned the weather.", source: { origin: "inferred" }, confidence: 0.6, createdAt: ago(60) })).id;
      ids.idle = (await store.add(alice, { kind: "fact", text: "Probably likes jazz.", source: { origin: "inferred" }, confidence: 0.9, createdAt: ago(400) })).id;
      ids.stale = (await store.add(alice, { kind: "fact", text: "Maybe owns a bike.", source: { origin: "inferred" }, confidence: 0.9, createdAt: ago(400) })).id;
      ids.stated = (await store.add(alice, { kind: "fact", text: "Keeps bees on the roof.", createdAt: ago(400) })).id;
      await store.markUsed(alice, [ids.idle], { now: ago(120) });
      await store.markUsed(alice, [ids.stale], { now: ago(300) });
      ids.bobFact = (await store.add(bob, { kind: "fact", text: "Bob lives in Berlin." })).id;
      // A delete-all confirmation issued an hour ago (10-minute lifetime): expired.
      await new MemoryControls(db, { clock: { now: () => ago(1 / 24) } }).requestDeleteAll(alice);
      await new MemoryControls(db).optOut(bob);
    });
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  beforeEach(() => {
    out = [];
    err = [];
    jest.spyOn(console, "log").mockImplementation((...a: unknown[]) => void out.push(`${a.join(" ")}\n`));
    jest.spyOn(console, "error").mockImplementation((...a: unknown[]) => void err.push(`${a.join(" ")}\n`));
    jest.spyOn(process.stderr, "write").mockImplementation(((chunk: unknown) => (err.push(String(chunk)), true)) as typeof process.stderr.write);
  });
  afterEach(() => {
    jest.restoreAllMocks();
  });

  it("runs with the policy the flags set, prints a progress bar and a summary, purges opted-out users only when asked", async () => {
    // A long episode TTL and unused period: the 400-day-old episode is only archived (not
    // deleted), and so are the inferences last used 120 and 300 days ago; the 60-day-old inferred
    // one is kept; the explicit expiry and the decay apply.
    expect(await main(["gc", "--database-url", url, "--episode-ttl-days", "1000", "--unused-days", "100", "--json"])).toBe(0);
    const first = JSON.parse(out.join(""));
    expect(first).toMatchObject({ expired: 1, archivedUnused: 3, decayed: 2, deactivatedLowConfidence: 1, purgedUsers: 0, confirmationsRemoved: 1 });
    await withDb(async (db) => {
      const archived = async (id: string) => (await db.query<{ a: boolean }>("SELECT archived_at IS NOT NULL AS a FROM memories WHERE id = $1", [id])).rows[0].a;
      expect(await archived(ids.oldEpisode)).toBe(true);
      expect(await archived(ids.unused)).toBe(false);
    });
    expect(err.join("")).not.toContain("retention sweep ["); // --json: no bar

    out = [];
    err = [];
    expect(await main(["gc", "--database-url", url, "--purge-opted-out"])).toBe(0);
    const summary = out.join("");
    expect(summary).toMatch(/^retention sweep #\d+ done in \d+\.\d s \(\d+ batches\)\n/);
    expect(summary).toContain("  expired and deleted     1  (past their expiry, or episodes older than 180 days)\n");
    expect(summary).toContain("  archived, unused        1  (extracted episodes and inferred memories unused for 30 days)\n");
    // Decay is a function of the clock (seconds later, the idle memory's ceiling is a hair lower).
    expect(summary).toMatch(/\n  confidence decayed      [01]  \(0 set aside below 0\.3\)\n/);
    expect(summary).toContain("  opted-out users purged  1  (memories 1)\n");
    expect(summary).toMatch(/next run due \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC \(every 24 h\)\n$/);
    const bar = err.join("");
    expect(bar).toContain("retention sweep [------------------------------] 0/5 0%");
    expect(bar).toMatch(/retention sweep \[#+\] 5\/5 100%/);

    await withDb(async (db) => {
      const rows = (await db.query<{ id: string; confidence: number; deactivated: boolean; archived: boolean }>(
        "SELECT id, confidence, deactivated_at IS NOT NULL AS deactivated, archived_at IS NOT NULL AS archived FROM memories WHERE tenant_id = 'acme' AND user_id = 'alice'",
      )).rows;
      const byId = Object.fromEntries(rows.map((r) => [r.id, r]));
      expect(Object.keys(byId).sort()).toEqual([ids.unused, ids.idle, ids.stale, ids.stated].sort());
      expect(byId[ids.unused]).toMatchObject({ archived: true, deactivated: false });
      expect(byId[ids.idle]).toMatchObject({ archived: true, deactivated: false });
      expect(byId[ids.idle].confidence).toBeCloseTo(0.5, 2);
      expect(byId[ids.stale].deactivated).toBe(true);
      expect(byId[ids.stated]).toMatchObject({ confidence: 1, deactivated: false, archived: false });
      expect(Number((await db.query<{ n: number }>("SELECT count(*)::int AS n FROM memories WHERE user_id = 'bob'")).rows[0].n)).toBe(0);
      expect(Number((await db.query<{ n: number }>("SELECT count(*)::int AS n FROM memory_settings WHERE user_id = 'bob' AND opted_out")).rows[0].n)).toBe(1);
      expect(Number((await db.query<{ n: number }>("SELECT count(*)::int AS n FROM memory_confirmations")).rows[0].n)).toBe(0);
      expect(Number((await db.query<{ n: number }>("SELECT count(*)::int AS n FROM retention_runs WHERE status = 'done'")).rows[0].n)).toBe(2);
    });
  }, 60_000);

  it("--last-run prints the last run and when the next is due", async () => {
    expect(await main(["gc", "--database-url", url, "--last-run"])).toBe(0);
    expect(out.join("")).toMatch(/^last run #\d+ done at \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC; next due \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC\n$/);
    out = [];
    expect(await main(["gc", "--database-url", url, "--last-run", "--json"])).toBe(0);
    expect(JSON.parse(out.join(""))).toMatchObject({ status: "done", summary: { purgedUsers: 1 } });
  });

  it("refuses invalid flag values before touching the database", async () => {
    expect(await main(["gc", "--database-url", url, "--min-confidence", "2"])).toBe(1);
    expect(err.join("")).toContain("error INVALID_INPUT: --min-confidence: a number from 0 to 1");
    expect(await main(["gc", "--database-url", url, "--purge-opted-out", "--purge-opted-out-days", "3"])).toBe(1);
    expect(err.join("")).toContain("give --purge-opted-out or --purge-opted-out-days N, not both");
    expect(await main(["gc", "--database-url", url, "--episode-ttl-days", "soon"])).toBe(1);
    expect(err.join("")).toContain("--episode-ttl-days: a positive number of days");
  });
});
