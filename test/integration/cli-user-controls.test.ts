/**
 * `langgraph-memory memories | profile | rules` on the embedded default: a temporary PGlite
 * folder, each command run in-process through `main()` (which opens and closes the folder, as the
 * binary does).
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, jest } from "@jest/globals";
import { PassThrough } from "node:stream";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { main } from "../../src/cli/main.js";
import { confirmByTyping } from "../../src/cli/confirm.js";
import { formatTable } from "../../src/cli/format-table.js";
import { openDatabase } from "../../src/db/open.js";
import type { Database } from "../../src/db/database.js";
import { MemoryRepository } from "../../src/store/memory-store.js";
import { ProfileStore } from "../../src/profile/profile-store.js";
import { RuleStore } from "../../src/procedural/rule-store.js";

const alice = { tenantId: "acme", userId: "alice" };
const bob = { tenantId: "acme", userId: "bob" };

describe("langgraph-memory memories / profile / rules", () => {
  const dir = mkdtempSync(join(tmpdir(), "lgm-cli-controls-"));
  const url = `pglite:${join(dir, "db")}`;
  const as = (user = alice) => ["--tenant", user.tenantId, "--user", user.userId, "--database-url", url];
  let out: string[];
  let err: string[];
  let ids: Record<string, string>;

  async function withDb<T>(fn: (db: Database) => Promise<T>): Promise<T> {
    const db = await openDatabase(url);
    try {
      return await fn(db);
    } finally {
      await db.close();
    }
  }
  const count = (db: Database, sql: string) => db.query<{ n: number }>(sql).then((r) => Number(r.rows[0].n));
  const stdout = () => out.join("");

  async function reseed() {
    ids = await withDb(async (db) => {
      await db.exec("DELETE FROM memories; DELETE FROM profiles; DELETE FROM profile_history; DELETE FROM procedural_rules; DELETE FROM memory_settings; DELETE FROM memory_deletion_audit; DELETE FROM memory_confirmations; DELETE FROM threads;");
      const store = new MemoryRepository(db);
      const lyon = await store.add(alice, { kind: "fact", text: "Lives in Lyon.", source: { threadId: "t1", origin: "extracted" }, confidence: 0.9, createdAt: "2026-01-02T10:00:00.000Z" });
      const { current: paris } = await store.supersede(alice, lyon.id, { kind: "fact", text: "Lives in Paris near the canal.", source: { threadId: "t2", messageId: "m5", origin: "extracted" }, confidence: 0.95, createdAt: "2026-02-03T10:00:00.000Z" });
      const metric = await store.add(alice, { kind: "preference", text: "Prefers metric units.", createdAt: "2026-01-05T09:30:00.000Z" });
      const bell = await store.add(alice, { kind: "episode", text: "Rang the \u0007bell\u001b[2J twice.", source: { threadId: "t4", origin: "extracted" }, confidence: 0.8, createdAt: "2026-01-06T09:30:00.000Z" });
      const bobFact = await store.add(bob, { kind: "fact", text: "Bob lives in Berlin.", createdAt: "2026-01-03T10:00:00.000Z" });
      const profiles = new ProfileStore(db);
      await profiles.applyPatch(alice, { name: "Alice", units: "metric" }, { kind: "user_edit" });
      await profiles.applyPatch(alice, { timezone: "Europe/Paris" }, { kind: "extraction", threadId: "t2", messageId: "m6" });
      const rules = new RuleStore(db);
      const rule = await rules.propose(alice, { text: "Answer with diffs, not full files.", source: "feedback", origin: { kind: "extraction", threadId: "t2" } });
      const approved = await rules.add(alice, { text: "Use metric units in examples.", source: "manual" });
      const bobRule = await rules.propose(bob, { text: "Use British spelling.", source: "feedback", origin: { kind: "extraction", threadId: "tb" } });
      await db.query("INSERT INTO threads (thread_id, tenant_id, user_id) VALUES ('t2', 'acme', 'alice'), ('tb', 'acme', 'bob')");
      return { lyon: lyon.id, paris: paris.id, metric: metric.id, bell: bell.id, bobFact: bobFact.id, rule: rule.id, approved: approved.id, bobRule: bobRule.id };
    });
  }

  beforeAll(reseed, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  beforeEach(() => {
    out = [];
    err = [];
    jest.spyOn(console, "log").mockImplementation((...a: unknown[]) => void out.push(`${a.join(" ")}\n`));
    jest.spyOn(console, "error").mockImplementation((...a: unknown[]) => void err.push(`${a.join(" ")}\n`));
    jest.spyOn(process.stdout, "write").mockImplementation(((chunk: unknown) => (out.push(String(chunk)), true)) as typeof process.stdout.write);
    jest.spyOn(process.stderr, "write").mockImplementation(((chunk: unknown) => (err.push(String(chunk)), true)) as typeof process.stderr.write);
  });
  afterEach(() => {
    jest.restoreAllMocks();
  });

  describe("memories", () => {
    it("list: a table of active memories by default, --all with status, --kind, --json", async () => {
      expect(await main(["memories", "list", ...as()])).toBe(0);
      const lines = stdout().trimEnd().split("\n");
      expect(lines[0].replace(/ +/g, " ")).toBe("ID KIND ORIGIN CONF CREATED THREAD TEXT");
      expect(lines.slice(1, 4).map((l) => l.slice(0, 36))).toEqual([ids.paris, ids.bell, ids.metric]);
      expect(stdout()).toContain(`${ids.paris}  fact        extracted    0.95  2026-02-03  t2      Lives in Paris near the canal.`);
      expect(stdout()).toContain("3 memories (1 replaced, expired or set aside not shown; --all shows them)");
      // Control characters in stored text never reach the terminal.
      expect(stdout()).toContain("Rang the  bell [2J twice.");
      expect(stdout()).not.toMatch(/[\u0007\u001b]/);
      expect(stdout()).not.toContain("Berlin");

      out = [];
      expect(await main(["memories", "list", ...as(), "--all", "--kind", "fact"])).toBe(0);
      expect(stdout()).toContain(`${ids.lyon}  fact  superseded  extracted  0.90  2026-01-02  t1      Lives in Lyon.`);
      expect(stdout()).toContain("\n2 memories\n");

      out = [];
      expect(await main(["memories", "list", ...as(), "--json"])).toBe(0);
      const json = JSON.parse(stdout());
      expect(json).toMatchObject({ tenantId: "acme", userId: "alice", optedOut: false, total: 3 });
      expect(json.memories[0]).toMatchObject({ id: ids.paris, kind: "fact", status: "active", origin: "extracted", confidence: 0.95, source: { threadId: "t2", messageId: "m5" }, supersedes: [ids.lyon] });

      expect(await main(["memories", "list", ...as(), "--kind", "secrets"])).toBe(1);
      expect(err.join("")).toContain('error INVALID_INPUT: --kind: "secrets" is not a kind');
    });

    it("list --search: ranked hits with a score, then text matches", async () => {
      expect(await main(["memories", "list", ...as(), "--search", "metric units"])).toBe(0);
      expect(stdout().split("\n")[0]).toContain("SCORE");
      expect(stdout().split("\n")[1]).toMatch(new RegExp(`^${ids.metric}  preference  user_stated  1\\.00  0\\.\\d{3}  `));
      out = [];
      expect(await main(["memories", "list", ...as(), "--search", "lyon", "--all", "--json"])).toBe(0);
      expect(JSON.parse(stdout()).memories.map((m: { id: string; score: number | null }) => [m.id, m.score])).toEqual([[ids.lyon, null]]);
      out = [];
      expect(await main(["memories", "list", ...as(), "--search", "berlin"])).toBe(0);
      expect(stdout()).toBe('no memory of acme/alice matches "berlin"\n');
    });

    it("show: fields, source and versions; another user's id is NOT_FOUND", async () => {
      expect(await main(["memories", "show", ids.paris, ...as()])).toBe(0);
      expect(stdout()).toContain("status       active\n");
      expect(stdout()).toContain("origin       extracted (confidence 0.95)\n");
      expect(stdout()).toContain("source       thread t2, message m5\n");
      expect(stdout()).toContain(`replaces     ${ids.lyon}\n`);
      expect(stdout()).toContain(`earlier versions (1):\nID                                    CREATED           TEXT\n${ids.lyon}  2026-01-02 10:00  Lives in Lyon.`);
      out = [];
      expect(await main(["memories", "show", ids.lyon, ...as(), "--json"])).toBe(0);
      expect(JSON.parse(stdout())).toMatchObject({ memory: { id: ids.lyon, status: "superseded", supersededBy: ids.paris }, previousVersions: [], newerVersions: [{ id: ids.paris }] });
      expect(await main(["memories", "show", ids.bobFact, ...as()])).toBe(1);
      expect(err.join("")).toContain(`error NOT_FOUND: no memory ${ids.bobFact} for this user`);
      expect(await main(["memories", "show", ...as()])).toBe(1);
      expect(err.join("")).toContain("memories show takes exactly one memory ID");
    });

    it("edit: new text is re-embedded and user-stated; kind changes; another user's id is refused", async () => {
      const before = await withDb((db) => db.query<{ e: string }>("SELECT embedding::text AS e FROM memories WHERE id = $1", [ids.metric]).then((r) => r.rows[0].e));
      expect(await main(["memories", "edit", ids.metric, ...as(), "--text", "Prefers metric units, except for body height."])).toBe(0);
      expect(stdout()).toBe(`updated ${ids.metric} (preference, now user-stated): Prefers metric units, except for body height.\n`);
      out = [];
      expect(await main(["memories", "edit", ids.bell, ...as(), "--kind", "fact", "--json"])).toBe(0);
      expect(JSON.parse(stdout()).memory).toMatchObject({ id: ids.bell, kind: "fact", origin: "user_stated", confidence: 1 });
      await withDb(async (db) => {
        const row = (await db.query<{ text: string; e: string }>("SELECT text, embedding::text AS e FROM memories WHERE id = $1", [ids.metric])).rows[0];
        expect(row.text).toBe("Prefers metric units, except for body height.");
        expect(row.e).not.toBe(before);
      });
      expect(await main(["memories", "edit", ids.bobFact, ...as(), "--text", "Hacked."])).toBe(1);
      expect(err.join("")).toContain("error NOT_FOUND");
      expect(await main(["memories", "edit", ids.metric, ...as()])).toBe(1);
      expect(err.join("")).toContain("give --text TEXT and/or --kind K");
      await withDb(async (db) => expect((await db.query<{ text: string }>("SELECT text FROM memories WHERE id = $1", [ids.bobFact])).rows[0].text).toBe("Bob lives in Berlin."));
      await reseed();
    }, 60_000);

    it("delete: with earlier versions by default, --only-this keeps them", async () => {
      expect(await main(["memories", "delete", ids.paris, ...as(), "--only-this"])).toBe(0);
      expect(stdout()).toBe("deleted 1 memory\n");
      out = [];
      expect(await main(["memories", "delete", ids.lyon, ...as(), "--json"])).toBe(0);
      expect(JSON.parse(stdout())).toEqual({ deleted: 1 });
      expect(await main(["memories", "delete", ids.lyon, ...as()])).toBe(1);
      expect(await main(["memories", "delete", ids.bobFact, ...as()])).toBe(1);
      await withDb(async (db) => {
        expect(await count(db, "SELECT count(*)::int AS n FROM memories WHERE tenant_id = 'acme' AND user_id = 'alice' AND kind = 'fact'")).toBe(0);
        expect(await count(db, "SELECT count(*)::int AS n FROM memories WHERE user_id = 'bob'")).toBe(1);
        expect(await count(db, "SELECT count(*)::int AS n FROM memory_deletion_audit WHERE via = 'controls.deleteMemory' AND actor = 'cli'")).toBe(2);
      });
      await reseed();
      expect(await main(["memories", "delete", ids.paris, ...as()])).toBe(0);
      expect(stdout()).toContain("deleted 2 memories (the memory and 1 earlier version)");
      await reseed();
    }, 60_000);

    it("export: JSON to stdout or to a file", async () => {
      expect(await main(["memories", "export", ...as()])).toBe(0);
      const doc = JSON.parse(stdout());
      expect(doc).toMatchObject({ format: "langgraph-memory/user-export", tenantId: "acme", userId: "alice" });
      expect(doc.memories).toHaveLength(4);
      expect(doc.rules).toHaveLength(2);
      const file = join(dir, "alice.json");
      expect(await main(["memories", "export", ...as(), "--output", file])).toBe(0);
      expect(JSON.parse(readFileSync(file, "utf8"))).toMatchObject({ memories: doc.memories, rules: doc.rules });
      expect(err.join("")).toContain(`exported 4 memories, the profile, 2 rules and 1 thread of acme/alice to ${file}`);
      // The threads forget-all deletes are in the export: the user's own, never another user's.
      expect(doc.threads).toEqual([{ threadId: "t2", createdAt: expect.any(String), updatedAt: expect.any(String), checkpoints: 0, messages: [] }]);
      err = [];
      expect(await main(["memories", "export", ...as(bob), "--output", join(dir, "bob.json")])).toBe(0);
      expect(err.join("")).toContain(`exported 1 memory, no profile, 1 rule and 1 thread of acme/bob to ${join(dir, "bob.json")}`);
    });

    it("forget-all: refuses without a terminal unless --yes; on a terminal the user id must be typed", async () => {
      expect(await main(["memories", "forget-all", ...as()])).toBe(1);
      expect(err.join("")).toContain("refusing to delete everything without confirmation: stdin is not a terminal; pass --yes to confirm");

      const realStdin = Object.getOwnPropertyDescriptor(process, "stdin")!;
      const typeIn = async (answer: string) => {
        const input = Object.assign(new PassThrough(), { isTTY: true });
        Object.defineProperty(process, "stdin", { configurable: true, get: () => input });
        try {
          const done = main(["memories", "forget-all", ...as()]);
          // The prompt goes to stderr; answer once it is shown.
          while (!err.join("").includes('Type "alice" to confirm')) await new Promise((r) => setTimeout(r, 20));
          input.write(`${answer}\n`);
          return await done;
        } finally {
          Object.defineProperty(process, "stdin", realStdin);
        }
      };
      expect(await typeIn("yes")).toBe(1);
      expect(err.join("")).toContain("Delete 4 memories, the profile, 2 rules, queued jobs and conversation threads of acme/alice? This cannot be undone.");
      expect(err.join("")).toContain("cancelled; nothing was deleted");
      await withDb(async (db) => expect(await count(db, "SELECT count(*)::int AS n FROM memories WHERE tenant_id = 'acme' AND user_id = 'alice'")).toBe(4));

      err = [];
      expect(await typeIn("alice")).toBe(0);
      expect(stdout()).toContain("deleted everything of acme/alice: memories 4, profile 1, profileHistory 3, rules 2, jobs 0, threads 1, confirmations 0");
      await reseed();

      out = [];
      expect(await main(["memories", "forget-all", ...as(), "--yes", "--json"])).toBe(0);
      expect(JSON.parse(stdout()).deleted).toMatchObject({ memories: 4, profile: 1, rules: 2, threads: 1 });
      await withDb(async (db) => {
        for (const table of ["memories", "profiles", "profile_history", "procedural_rules", "threads"]) {
          expect([table, await count(db, `SELECT count(*)::int AS n FROM ${table} WHERE tenant_id = 'acme' AND user_id = 'alice'`)]).toEqual([table, 0]);
        }
        for (const table of ["memories", "procedural_rules", "threads"]) {
          expect([table, await count(db, `SELECT count(*)::int AS n FROM ${table} WHERE tenant_id = 'acme' AND user_id = 'bob'`)]).toEqual([table, 1]);
        }
        expect(await count(db, "SELECT count(*)::int AS n FROM memory_deletion_audit WHERE via = 'controls.deleteAll' AND actor = 'cli' AND user_id = 'alice'")).toBeGreaterThan(0);
      });
      await reseed();
    }, 90_000);

    it("needs --user; prints usage without a subcommand; a bad option names the help command that works after install", async () => {
      expect(await main(["memories", "list", "--tenant", "acme", "--database-url", url])).toBe(1);
      expect(err.join("")).toContain('error SCOPE_REQUIRED: --user U is required: whose memory to act on (--tenant T too unless it is "default")');
      expect(await main(["memories", "list", ...as(), "--tenat", "x"])).toBe(2);
      expect(err.join("")).toContain("Run `npx langgraph-memory memories --help`.");
      expect(await main(["memories"])).toBe(2);
      expect(stdout()).toContain("usage: langgraph-memory memories <subcommand>");
      expect(await main(["memories", "purge", ...as()])).toBe(1);
      expect(err.join("")).toContain('unknown subcommand "purge" of memories');
    });
  });

  describe("one tenant default", () => {
    const carol = { tenantId: "default", userId: "carol" };

    it("memories, profile, rules, export and chat all use the tenant \"default\" when none is named", async () => {
      const id = await withDb(async (db) => (await new MemoryRepository(db).add(carol, { kind: "fact", text: "Carol keeps bees." })).id);
      const asCarol = ["--user", "carol", "--database-url", url];
      expect(await main(["memories", "list", ...asCarol, "--json"])).toBe(0);
      expect(JSON.parse(stdout())).toMatchObject({ tenantId: "default", userId: "carol", total: 1, memories: [{ id, text: "Carol keeps bees." }] });
      out = [];
      expect(await main(["memories", "list", ...asCarol, "--tenant", "acme"])).toBe(0);
      expect(stdout()).toBe("no active memories for acme/carol\n");
      out = [];
      expect(await main(["profile", "show", ...asCarol])).toBe(0);
      expect(stdout()).toBe("no profile for default/carol\n");
      out = [];
      expect(await main(["rules", "list", ...asCarol])).toBe(0);
      expect(stdout()).toBe("no rules for default/carol\n");
      out = [];
      expect(await main(["memories", "export", ...asCarol])).toBe(0);
      expect(JSON.parse(stdout())).toMatchObject({ tenantId: "default", userId: "carol", memories: [{ id }] });

      // chat, on the same default: the memory is carol's there too, and the hint to continue works after install.
      out = [];
      const realStdin = Object.getOwnPropertyDescriptor(process, "stdin")!;
      const input = new PassThrough();
      Object.defineProperty(process, "stdin", { configurable: true, get: () => input });
      try {
        input.end("/memories\n/exit\n");
        expect(await main(["chat", ...asCarol, "--thread", "carol-1"])).toBe(0);
      } finally {
        Object.defineProperty(process, "stdin", realStdin);
      }
      expect(stdout()).toContain("langgraph-memory chat · default/carol · thread carol-1");
      expect(stdout()).toContain(`1 active memory:\n  ${id}  [fact] Carol keeps bees.`);
      expect(stdout()).toContain("bye — continue later with: npx langgraph-memory chat --user carol --thread carol-1\n");
      await withDb((db) => db.query("DELETE FROM memories WHERE user_id = 'carol'"));
    }, 60_000);
  });

  describe("opt-out / opt-in", () => {
    it("opt-out stops reading and writing and keeps what is stored; opt-in brings it back", async () => {
      expect(await main(["memories", "opt-out", ...as()])).toBe(0);
      expect(stdout()).toContain("acme/alice opted out of memory: nothing is read or written for them from now on, and their queued jobs were dropped\n");
      expect(stdout()).toContain("what is stored is kept; delete it with `npx langgraph-memory memories forget-all --user alice --tenant acme`\n");
      expect(stdout()).toContain("opt back in with `npx langgraph-memory memories opt-in --user alice --tenant acme`\n");
      await withDb(async (db) => {
        expect(await count(db, "SELECT count(*)::int AS n FROM memory_settings WHERE tenant_id = 'acme' AND user_id = 'alice' AND opted_out")).toBe(1);
        expect(await count(db, "SELECT count(*)::int AS n FROM memories WHERE tenant_id = 'acme' AND user_id = 'alice'")).toBe(4);
      });
      out = [];
      expect(await main(["memories", "opt-out", ...as(), "--json"])).toBe(0);
      expect(JSON.parse(stdout())).toEqual({ tenantId: "acme", userId: "alice", optedOut: true, changed: false, purged: null });
      out = [];
      expect(await main(["memories", "list", ...as()])).toBe(0);
      expect(stdout()).toContain("acme/alice has opted out of memory: nothing is read (opt back in with `npx langgraph-memory memories opt-in --user alice --tenant acme`");
      expect(await main(["memories", "export", ...as()])).toBe(1);
      expect(err.join("")).toContain("error OPTED_OUT");
      expect(await main(["profile", "set", ...as(), "plan=pro"])).toBe(1);
      expect(await main(["memories", "opt-out", ...as(), "--yes"])).toBe(1);
      expect(err.join("")).toContain("--yes confirms --purge");
      // Another user is untouched.
      out = [];
      expect(await main(["memories", "list", ...as(bob), "--json"])).toBe(0);
      expect(JSON.parse(stdout())).toMatchObject({ optedOut: false, total: 1 });

      out = [];
      expect(await main(["memories", "opt-in", ...as()])).toBe(0);
      expect(stdout()).toBe("acme/alice opted back in: memory is read and written again (nothing deleted comes back)\n");
      out = [];
      expect(await main(["memories", "opt-in", ...as(), "--json"])).toBe(0);
      expect(JSON.parse(stdout())).toEqual({ tenantId: "acme", userId: "alice", optedOut: false, changed: false });
      out = [];
      expect(await main(["memories", "list", ...as(), "--json"])).toBe(0);
      expect(JSON.parse(stdout())).toMatchObject({ optedOut: false, total: 3 });
    }, 60_000);

    it("opt-out --purge deletes everything too, after the same confirmation as forget-all", async () => {
      expect(await main(["memories", "opt-out", ...as(), "--purge"])).toBe(1);
      expect(err.join("")).toContain("refusing to delete everything without confirmation: stdin is not a terminal; pass --yes to confirm");
      await withDb(async (db) => expect(await count(db, "SELECT count(*)::int AS n FROM memory_settings WHERE user_id = 'alice' AND opted_out")).toBe(0));
      expect(await main(["memories", "opt-out", ...as(), "--purge", "--yes"])).toBe(0);
      expect(stdout()).toContain("deleted everything stored: memories 4, profile 1, profileHistory 3, rules 2, jobs 0, threads 1, confirmations 0, storeItems 0\n");
      await withDb(async (db) => {
        expect(await count(db, "SELECT count(*)::int AS n FROM memories WHERE tenant_id = 'acme' AND user_id = 'alice'")).toBe(0);
        expect(await count(db, "SELECT count(*)::int AS n FROM memory_settings WHERE tenant_id = 'acme' AND user_id = 'alice' AND opted_out")).toBe(1);
        expect(await count(db, "SELECT count(*)::int AS n FROM memories WHERE user_id = 'bob'")).toBe(1);
        expect(await count(db, "SELECT count(*)::int AS n FROM memory_deletion_audit WHERE via = 'controls.optOut' AND actor = 'cli'")).toBeGreaterThan(0);
      });
      await reseed();
    }, 60_000);
  });

  describe("profile", () => {
    it("show: a table of fields with who set them; --json", async () => {
      expect(await main(["profile", "show", ...as()])).toBe(0);
      const lines = stdout().trimEnd().split("\n");
      expect(lines[0]).toMatch(/^FIELD +SET BY +AT +VALUE$/);
      expect(lines.slice(1).map((l) => l.replace(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}/, "<time>").replace(/ +/g, " "))).toEqual([
        "name user_edit <time> Alice",
        "timezone extraction (thread t2) <time> Europe/Paris",
        "units user_edit <time> metric",
      ]);
      out = [];
      expect(await main(["profile", "show", ...as(), "--json"])).toBe(0);
      expect(JSON.parse(stdout())).toMatchObject({ optedOut: false, profile: { document: { name: "Alice", units: "metric", timezone: "Europe/Paris" }, sources: { timezone: { kind: "extraction", threadId: "t2" } } } });
      out = [];
      expect(await main(["profile", "show", ...as(bob)])).toBe(0);
      expect(stdout()).toBe("no profile for acme/bob\n");
    });

    it("set: FIELD=VALUE, FIELD:=JSON, --unset, --patch; invalid values change nothing", async () => {
      expect(await main(["profile", "set", ...as(), "timezone=Europe/Berlin", "language=fr", "--unset", "units"])).toBe(0);
      expect(stdout()).toBe("changed language, timezone, units for acme/alice\n");
      out = [];
      expect(await main(["profile", "set", ...as(), "--patch", '{"plan":"pro"}', "notes:=\"likes trains\"", "--json"])).toBe(0);
      expect(JSON.parse(stdout())).toEqual({ changed: ["notes", "plan"], document: { name: "Alice", timezone: "Europe/Berlin", language: "fr", plan: "pro", notes: "likes trains" } });
      out = [];
      expect(await main(["profile", "set", ...as(), "plan=pro"])).toBe(0);
      expect(stdout()).toBe("nothing changed (the profile already had these values)\n");

      expect(await main(["profile", "set", ...as(), "timezone=Mars/Olympus"])).toBe(1);
      expect(err.join("")).toContain("error INVALID_INPUT: profile: does not match the profile schema — timezone: must be an IANA time zone");
      expect(await main(["profile", "set", ...as(), "units:=metric"])).toBe(1);
      expect(err.join("")).toContain("units:=…: not valid JSON (use units=… for a string)");
      expect(await main(["profile", "set", ...as()])).toBe(1);
      await withDb(async (db) => {
        const doc = (await db.query<{ document: unknown }>("SELECT document FROM profiles WHERE tenant_id = 'acme' AND user_id = 'alice'")).rows[0].document;
        expect(typeof doc === "string" ? JSON.parse(doc) : doc).toEqual({ name: "Alice", timezone: "Europe/Berlin", language: "fr", plan: "pro", notes: "likes trains" });
        // 7 edits; the two entries of the units value the user removed (set, then unset) are
        // withdrawn with it (docs/controls.md, "Forgetting").
        expect(await count(db, "SELECT count(*)::int AS n FROM profile_history WHERE tenant_id = 'acme' AND user_id = 'alice' AND source_kind = 'user_edit'")).toBe(5);
      });
      await reseed();
    }, 60_000);
  });

  describe("rules", () => {
    it("list, approve, revoke; another user's rule is NOT_FOUND", async () => {
      expect(await main(["rules", "list", ...as()])).toBe(0);
      const lines = stdout().trimEnd().split("\n");
      expect(lines[0]).toMatch(/^ID +STATE +SOURCE +PRIORITY +ACTIVE +CREATED +TEXT$/);
      expect(lines.slice(1).map((l) => l.replace(/\d{4}-\d{2}-\d{2}/, "<date>").replace(/ +/g, " "))).toEqual([
        `${ids.rule} proposed feedback 0 yes <date> Answer with diffs, not full files.`,
        `${ids.approved} approved manual 0 yes <date> Use metric units in examples.`,
      ]);
      out = [];
      expect(await main(["rules", "list", ...as(), "--state", "approved", "--json"])).toBe(0);
      expect(JSON.parse(stdout()).rules.map((r: { id: string }) => r.id)).toEqual([ids.approved]);

      out = [];
      expect(await main(["rules", "approve", ids.rule, ...as()])).toBe(0);
      expect(stdout()).toBe(`approved ${ids.rule}: Answer with diffs, not full files.\n`);
      out = [];
      expect(await main(["rules", "revoke", ids.approved, ...as(), "--json"])).toBe(0);
      expect(JSON.parse(stdout()).rule).toMatchObject({ id: ids.approved, state: "revoked", reviewedBy: "cli" });
      expect(await main(["rules", "approve", ids.bobRule, ...as()])).toBe(1);
      expect(err.join("")).toContain(`error NOT_FOUND: no rule ${ids.bobRule} for this owner`);
      expect(await main(["rules", "list", ...as(), "--state", "maybe"])).toBe(1);
      await withDb(async (db) => {
        const states = (await db.query<{ id: string; review_state: string }>("SELECT id, review_state FROM procedural_rules ORDER BY id")).rows;
        expect(Object.fromEntries(states.map((r) => [r.id, r.review_state]))).toEqual({ [ids.rule]: "approved", [ids.approved]: "revoked", [ids.bobRule]: "proposed" });
      });
      await reseed();
    }, 60_000);
  });

  describe("helpers", () => {
    it("confirmByTyping: confirmed only by the exact word, declined otherwise, no-tty without a terminal", async () => {
      const ask = async (answer: string, tty = true) => {
        const input = Object.assign(new PassThrough(), { isTTY: tty });
        const output = new PassThrough();
        const shown: string[] = [];
        output.on("data", (c) => shown.push(String(c)));
        const result = confirmByTyping("Delete everything of acme/alice?", "alice", { input, output });
        input.write(`${answer}\n`);
        return { result: await result, shown: shown.join("") };
      };
      expect(await ask("alice")).toEqual({ result: "confirmed", shown: 'Delete everything of acme/alice?\nType "alice" to confirm (anything else cancels): ' });
      expect((await ask("  alice  ")).result).toBe("confirmed");
      expect((await ask("Alice")).result).toBe("declined");
      expect((await ask("")).result).toBe("declined");
      expect((await ask("alice", false)).result).toBe("no-tty");
    });

    it("formatTable: aligned columns; the text column is cut to the width", () => {
      expect(formatTable(["ID", "TEXT"], [["a", "short"], ["bbb", "a much longer text that will not fit"]], { maxWidth: 20 })).toBe(
        ["ID   TEXT", "a    short", "bbb  a much longer…"].join("\n"),
      );
    });
  });
});
