/**
 * The memory viewer in a real browser: Debian's Chromium driven by playwright-core, against the
 * real `langgraph-memory serve` process on an embedded database folder. Phase 1 searches, edits (by
 * keyboard), deletes, reviews a rule, edits the profile, exports and toggles memory; the server is
 * stopped and the database checked with SQL. Phase 2 (a new server, a new one-time link) deletes
 * everything through the confirmation dialog; the database is checked again.
 *
 * Screenshots go to test-artifacts/ (git-ignored); docs/images/viewer-*.png are copies of them.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { openDatabase } from "../../src/db/open.js";
import type { Database } from "../../src/db/database.js";
import { MemoryRepository } from "../../src/store/memory-store.js";
import { ProfileStore } from "../../src/profile/profile-store.js";
import { RuleStore } from "../../src/procedural/rule-store.js";
import { JobQueue, ManualClock } from "../../src/jobs/index.js";

// Browser globals used inside page.evaluate callbacks, which run in Chromium: this project
// compiles without the DOM lib, so they are declared here, for this module only.
declare const document: any;
declare const sessionStorage: any;
declare function getComputedStyle(element: any): any;
type Element = any;
type HTMLElement = any;
type HTMLInputElement = any;

const CHROMIUM = "/usr/bin/chromium";
const CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
const ARTIFACTS = join(process.cwd(), "test-artifacts");
const alice = { tenantId: "acme", userId: "alice" };
const bob = { tenantId: "acme", userId: "bob" };

interface RunningServer {
  child: ChildProcess;
  link: string;
  output: string[];
}

/** Start `langgraph-memory serve --dev-user acme:alice` on a free port; resolve with its one-time link. */
async function startServer(url: string): Promise<RunningServer> {
  const child = spawn(process.execPath, ["--import", "tsx", "src/cli/run.ts", "serve", "--dev-user", "acme:alice", "--port", "0", "--database-url", url], {
    cwd: process.cwd(),
    env: { ...process.env, LANGGRAPH_MEMORY_TOKENS: "", LANGGRAPH_MEMORY_TOKENS_FILE: "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output: string[] = [];
  const link = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not print a sign-in link in 60 s:\n${output.join("")}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output.push(chunk.toString());
      const m = /sign in as acme\/alice: (http:\/\/\S+#login=\S+)/.exec(output.join(""));
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", (c: Buffer) => output.push(c.toString()));
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}:\n${output.join("")}`));
    });
  });
  return { child, link, output };
}

async function stopServer(server: RunningServer): Promise<number | null> {
  if (server.child.exitCode !== null) return server.child.exitCode;
  const exited = new Promise<number | null>((resolve) => server.child.once("exit", (code) => resolve(code)));
  server.child.kill("SIGTERM");
  return exited;
}

/** Visible text below WCAG AA contrast (4.5:1) against its effective background. */
function lowContrastText(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const rgb = (c: string) => (c.match(/[\d.]+/g) ?? []).map(Number);
    const lum = ([r, g, b]: number[]) => {
      const f = (v: number) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
      return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    const background = (el: Element | null): number[] => {
      for (; el; el = el.parentElement) {
        const c = rgb(getComputedStyle(el).backgroundColor);
        if (c.length === 3 || (c.length === 4 && c[3] > 0)) return c.slice(0, 3);
      }
      return [255, 255, 255];
    };
    const problems: string[] = [];
    for (const el of document.querySelectorAll("h1, h2, h3, p, dt, dd, label, button, .badge, summary, span")) {
      if (!(el as HTMLElement).offsetParent || !el.textContent?.trim()) continue;
      const [a, b] = [lum(rgb(getComputedStyle(el).color)), lum(background(el))];
      const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
      if (ratio < 4.5) problems.push(`${el.tagName}.${el.className} ${ratio.toFixed(2)}`);
    }
    return problems;
  });
}

describe("memory viewer in Chromium", () => {
  let dir: string;
  let dbUrl: string;
  let context: BrowserContext;
  let server: RunningServer | undefined;
  const ids: Record<string, string> = {};
  let parisEmbeddingBefore = "";
  const consoleErrors: string[] = [];

  async function withDb<T>(fn: (db: Database) => Promise<T>): Promise<T> {
    const db = await openDatabase(dbUrl);
    try {
      return await fn(db);
    } finally {
      await db.close();
    }
  }
  const count = (db: Database, sql: string, params: unknown[] = []) => db.query<{ n: number }>(sql, params).then((r) => Number(r.rows[0].n));

  beforeAll(async () => {
    expect(existsSync(CHROMIUM)).toBe(true);
    mkdirSync(ARTIFACTS, { recursive: true });
    dir = mkdtempSync(join(tmpdir(), "lgm-viewer-"));
    dbUrl = `pglite:${join(dir, "db")}`;
    await withDb(async (db) => {
      const store = new MemoryRepository(db);
      const lyon = await store.add(alice, { kind: "fact", text: "Lives in Lyon.", source: { threadId: "t1", origin: "extracted" }, confidence: 0.9, createdAt: "2026-01-02T10:00:00.000Z" });
      const { current } = await store.supersede(alice, lyon.id, { kind: "fact", text: "Lives in Paris near the canal.", source: { threadId: "t2", origin: "extracted" }, confidence: 0.95, createdAt: "2026-02-03T10:00:00.000Z" });
      ids.paris = current.id;
      ids.metric = (await store.add(alice, { kind: "preference", text: "Prefers metric units.", createdAt: "2026-01-05T09:30:00.000Z" })).id;
      ids.coffee = (await store.add(alice, { kind: "preference", text: "Likes dark roast coffee in the morning.", source: { threadId: "t3", origin: "extracted" }, confidence: 0.85, createdAt: "2026-02-10T08:00:00.000Z" })).id;
      await store.add(alice, { kind: "entity", text: "Has a dog named Rex.", source: { threadId: "t2", origin: "extracted" }, confidence: 0.9, createdAt: "2026-02-03T10:05:00.000Z" });
      await store.add(alice, { kind: "episode", text: "Asked for a packing list for the Oslo trip.", source: { threadId: "t4", origin: "extracted" }, confidence: 0.8 });
      await store.add(bob, { kind: "fact", text: "Lives in Berlin.", createdAt: "2026-01-03T10:00:00.000Z" });
      const profiles = new ProfileStore(db);
      await profiles.applyPatch(alice, { name: "Alice", units: "metric" }, { kind: "user_edit" });
      await profiles.applyPatch(alice, { timezone: "Europe/Paris" }, { kind: "extraction", threadId: "t2", messageId: "m6" });
      await profiles.applyPatch(bob, { name: "Bob" }, { kind: "user_edit" });
      const rules = new RuleStore(db);
      ids.rule = (await rules.propose(alice, { text: "Answer with diffs, not full files.", source: "feedback", origin: { kind: "extraction", threadId: "t2" } })).id;
      await db.query("INSERT INTO threads (thread_id, tenant_id, user_id) VALUES ('t2', 'acme', 'alice'), ('tb', 'acme', 'bob')");
      // A turn of alice's queued an hour ago, and no worker: the status line says so.
      await new JobQueue(db, { clock: new ManualClock(new Date(Date.now() - 3_600_000)), notify: false }).enqueue({ queue: "memory-extraction", scope: alice, groupKey: "t5", idempotencyKey: "t5:m1", payload: { v: 1 } });
      parisEmbeddingBefore = (await db.query<{ e: string }>("SELECT embedding::text AS e FROM memories WHERE id = $1", [ids.paris])).rows[0].e;
    });
    context = await chromium.launchPersistentContext(join(dir, "chromium-profile"), {
      executablePath: CHROMIUM,
      args: CHROMIUM_ARGS,
      headless: true,
      acceptDownloads: true,
      viewport: { width: 1100, height: 900 },
      locale: "en-GB",
      timezoneId: "Europe/Paris",
    });
  }, 120_000);

  afterAll(async () => {
    if (server) await stopServer(server);
    await context?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function watchConsole(page: Page) {
    // Script errors and CSP/Trusted Types violations; failed requests (the refused profile edit) are expected.
    page.on("console", (m) => {
      if (m.type() === "error" && !m.text().startsWith("Failed to load resource")) consoleErrors.push(m.text());
    });
    page.on("pageerror", (e) => consoleErrors.push(String(e)));
  }

  it("signs in with the one-time link, searches, edits by keyboard, deletes one, reviews a rule, edits the profile, exports", async () => {
    server = await startServer(dbUrl);
    const page = context.pages()[0] ?? (await context.newPage());
    watchConsole(page);
    await page.goto(server.link);
    await expect(page.getByRole("heading", { name: "What the assistant remembers about you" }).isVisible()).resolves.toBe(true);
    await page.getByRole("heading", { name: "Facts (1)" }).waitFor();
    // The one-time code left the address bar; the session token sits in this tab's sessionStorage.
    expect(page.url()).not.toContain("login=");
    expect(await page.evaluate(() => sessionStorage.getItem("langgraph-memory.token"))).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await page.locator("#who-name").textContent()).toBe("Signed in as alice (acme)");

    // Grouped by kind; the replaced wording hides under "earlier versions"; bob's data is not here.
    for (const heading of ["Preferences (2)", "Facts (1)", "People, places and things (1)", "Past events (1)"]) {
      expect(await page.getByRole("heading", { name: heading }).count()).toBe(1);
    }
    const paris = page.locator(`#memory-${ids.paris}`);
    expect(await paris.locator(".memory-text").textContent()).toBe("Lives in Paris near the canal.");
    expect(await paris.locator("details summary").textContent()).toBe("1 earlier version");
    expect(await page.getByText("Lives in Berlin.").count()).toBe(0);
    expect(await page.locator("#profile-view").textContent()).toContain("Europe/Paris");
    // The status line: alice's turn waits, and no worker ever ran on this database.
    expect(await page.locator("#memory-status").textContent()).toBe(
      "1 conversation turn is waiting to be remembered (the oldest for 60 min). No memory worker is running, so nothing new is being remembered — tell whoever runs this app. No memory worker has run yet.",
    );
    await page.screenshot({ path: join(ARTIFACTS, "viewer-list.png"), fullPage: true });

    // Accessibility basics: every control has a label or a name, text meets AA contrast, and the
    // first Tab reaches the skip link, which moves focus to the memories.
    const unlabelled = await page.evaluate(() =>
      [
        ...[...document.querySelectorAll("input, select, textarea")].filter((el) => (el as HTMLInputElement).labels?.length === 0 && !el.getAttribute("aria-label")),
        ...[...document.querySelectorAll("button")].filter((b) => !b.textContent?.trim() && !b.getAttribute("aria-label")),
      ].map((el) => el.outerHTML.slice(0, 80)),
    );
    expect(unlabelled).toEqual([]);
    expect(await lowContrastText(page)).toEqual([]);
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.className)).toBe("skip-link");
    await page.keyboard.press("Enter");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("memories-heading");

    // Search.
    await page.getByLabel("Search memories").fill("metric");
    await page.getByLabel("Search memories").press("Enter");
    await expect(page.locator("#status").filter({ hasText: "1 memory matches “metric”." }).waitFor()).resolves.toBeUndefined();
    expect(await page.locator(".memory-text").allTextContents()).toEqual(["Prefers metric units."]);
    await page.screenshot({ path: join(ARTIFACTS, "viewer-search.png"), fullPage: true });
    await page.getByLabel("Search memories").fill("");
    await page.getByLabel("Search memories").press("Enter");
    await page.locator(`#memory-${ids.coffee}`).waitFor();

    // Edit with the keyboard only: focus moves into the form and back to the Edit button.
    await page.getByRole("button", { name: "Edit memory: Lives in Paris near the canal." }).focus();
    await page.keyboard.press("Enter");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe(`edit-text-${ids.paris}`);
    await page.keyboard.press("Control+A");
    await page.keyboard.type("Lives in Paris, in the 11th arrondissement.");
    await page.screenshot({ path: join(ARTIFACTS, "viewer-edit.png"), fullPage: true });
    await page.keyboard.press("Control+Enter");
    await page.locator("#status").filter({ hasText: "Memory updated." }).waitFor();
    expect(await paris.locator(".memory-text").textContent()).toBe("Lives in Paris, in the 11th arrondissement.");
    expect(await paris.locator(".meta").first().textContent()).toContain("you said so · confidence 100%");
    expect(await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.action)).toBe("edit");

    // Delete one, through its confirmation dialog.
    await page.getByRole("button", { name: "Delete memory: Likes dark roast coffee in the morning." }).click();
    const dialog = page.getByRole("dialog", { name: "Delete this memory?" });
    await dialog.waitFor();
    expect(await dialog.locator("blockquote").textContent()).toBe("Likes dark roast coffee in the morning.");
    await dialog.getByRole("button", { name: "Delete memory" }).click();
    await page.locator("#status").filter({ hasText: "Memory deleted." }).waitFor();
    expect(await page.locator(`#memory-${ids.coffee}`).count()).toBe(0);
    expect(await page.getByRole("heading", { name: "Preferences (1)" }).count()).toBe(1);

    // Approve the proposed rule.
    await page.getByRole("button", { name: "Approve rule: Answer with diffs, not full files." }).click();
    await page.locator("#status").filter({ hasText: "Instruction approved" }).waitFor();
    expect(await page.getByRole("heading", { name: "In use (1)" }).count()).toBe(1);

    // Profile: an invalid value is refused with the field marked; a valid one is saved.
    await page.getByRole("button", { name: "Edit profile" }).click();
    await page.getByLabel("Timezone").fill("Mars/Olympus");
    await page.getByRole("button", { name: "Save profile" }).click();
    await page.locator("#profile-error").filter({ hasText: "timezone: must be an IANA time zone" }).waitFor();
    expect(await page.getByLabel("Timezone").getAttribute("aria-invalid")).toBe("true");
    await page.getByLabel("Timezone").fill("Europe/Berlin");
    await page.getByRole("button", { name: "Save profile" }).click();
    await page.locator("#status").filter({ hasText: "Profile saved." }).waitFor();
    expect(await page.locator("#profile-view").textContent()).toContain("Europe/Berlin — set by you");

    // Export downloads the whole document.
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download my data (JSON)" }).click()]);
    const exported = JSON.parse(readFileSync((await download.path())!, "utf8"));
    expect(download.suggestedFilename()).toMatch(/^memory-export-acme-alice-\d{4}-\d{2}-\d{2}\.json$/);
    expect(exported).toMatchObject({ format: "langgraph-memory/user-export", tenantId: "acme", userId: "alice" });
    expect(exported.memories.map((m: { text: string }) => m.text).sort()).toEqual([
      "Asked for a packing list for the Oslo trip.",
      "Has a dog named Rex.",
      "Lives in Lyon.",
      "Lives in Paris, in the 11th arrondissement.",
      "Prefers metric units.",
    ]);

    // Memory off and on again: the switch says so, the lists hide while off.
    const memorySwitch = page.getByRole("switch");
    await memorySwitch.click();
    await page.locator("#status").filter({ hasText: "Memory is off." }).waitFor();
    expect(await memorySwitch.getAttribute("aria-checked")).toBe("false");
    expect(await page.locator("#memories").isHidden()).toBe(true);
    await memorySwitch.press("Enter");
    await page.locator("#status").filter({ hasText: "Memory is on again." }).waitFor();
    expect(await memorySwitch.getAttribute("aria-checked")).toBe("true");

    // The link was one-time: a new tab with it lands on the sign-in form.
    const second = await context.newPage();
    await second.goto(server.link);
    await second.locator("#alert").filter({ hasText: "already used" }).waitFor();
    expect(await second.getByLabel("Access token").isVisible()).toBe(true);
    await second.close();

    expect(consoleErrors).toEqual([]);
    expect(await stopServer(server)).toBe(0);
    server = undefined;

    await withDb(async (db) => {
      const { rows } = await db.query<{ text: string; origin: string; confidence: number; e: string }>(
        "SELECT text, origin, confidence, embedding::text AS e FROM memories WHERE id = $1",
        [ids.paris],
      );
      expect(rows[0]).toMatchObject({ text: "Lives in Paris, in the 11th arrondissement.", origin: "user_stated", confidence: 1 });
      expect(rows[0].e).not.toBe(parisEmbeddingBefore);
      expect(await count(db, "SELECT count(*)::int AS n FROM memories WHERE id = $1", [ids.coffee])).toBe(0);
      expect(await count(db, "SELECT count(*)::int AS n FROM memories WHERE tenant_id = 'acme' AND user_id = 'alice'")).toBe(5);
      expect(await count(db, "SELECT count(*)::int AS n FROM memory_deletion_audit WHERE user_id = 'alice' AND via = 'controls.deleteMemory' AND item_kind = 'memory' AND item_count = 1")).toBe(1);
      expect((await db.query<{ review_state: string }>("SELECT review_state FROM procedural_rules WHERE id = $1", [ids.rule])).rows[0].review_state).toBe("approved");
      const profile = (await db.query<{ document: string | Record<string, unknown> }>("SELECT document FROM profiles WHERE tenant_id = 'acme' AND user_id = 'alice'")).rows[0].document;
      expect(typeof profile === "string" ? JSON.parse(profile) : profile).toEqual({ name: "Alice", units: "metric", timezone: "Europe/Berlin" });
      expect(await count(db, "SELECT count(*)::int AS n FROM memory_settings WHERE user_id = 'alice' AND opted_out")).toBe(0);
    });
  }, 180_000);

  it("deletes everything after the confirmation dialog; another user's data stays", async () => {
    if (server) await stopServer(server); // left running by a failed first phase
    server = await startServer(dbUrl);
    const page = await context.newPage();
    watchConsole(page);
    await page.emulateMedia({ colorScheme: "dark" });
    await page.goto(server.link);
    await page.getByRole("heading", { name: "Facts (1)" }).waitFor();
    expect(await lowContrastText(page)).toEqual([]);

    // Cancel first (Escape): nothing happens.
    await page.getByRole("button", { name: "Delete everything…" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete everything the assistant remembers about you?" });
    await dialog.waitFor();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("confirm-cancel");
    await page.screenshot({ path: join(ARTIFACTS, "viewer-confirm-dark.png") });
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });
    expect(await page.locator(".memory").count()).toBe(4);

    await page.emulateMedia({ colorScheme: "light" });
    await page.getByRole("button", { name: "Delete everything…" }).click();
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain("4 memories, plus 1 earlier or set-aside version");
    expect(await dialog.textContent()).toContain("It cannot be undone.");
    await page.screenshot({ path: join(ARTIFACTS, "viewer-confirm.png") });
    await dialog.getByRole("button", { name: "Delete everything" }).click();
    await page.locator("#status").filter({ hasText: "Everything was deleted: 5 memories, your profile, 1 instruction, 1 conversation." }).waitFor();
    expect(await page.getByText("Nothing is remembered about you yet.").isVisible()).toBe(true);
    expect(await page.getByText("No profile facts are stored.").isVisible()).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, "viewer-empty.png"), fullPage: true });
    expect(consoleErrors).toEqual([]);
    expect(await stopServer(server)).toBe(0);
    server = undefined;

    await withDb(async (db) => {
      for (const table of ["memories", "profiles", "profile_history", "procedural_rules", "memory_confirmations", "threads"]) {
        expect([table, await count(db, `SELECT count(*)::int AS n FROM ${table} WHERE tenant_id = 'acme' AND user_id = 'alice'`)]).toEqual([table, 0]);
      }
      expect(await count(db, "SELECT count(*)::int AS n FROM memory_deletion_audit WHERE user_id = 'alice' AND via = 'controls.deleteAll' AND item_kind = 'memory' AND item_count = 5")).toBe(1);
      expect(await count(db, "SELECT count(*)::int AS n FROM memories WHERE user_id = 'bob'")).toBe(1);
      expect(await count(db, "SELECT count(*)::int AS n FROM profiles WHERE user_id = 'bob'")).toBe(1);
      expect(await count(db, "SELECT count(*)::int AS n FROM threads WHERE user_id = 'bob'")).toBe(1);
    });
  }, 180_000);
});
