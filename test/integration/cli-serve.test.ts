/**
 * `langgraph-memory serve`: refuses to start without a way to authenticate (or with a dev login on
 * a public address), and, as a real process on an embedded database folder, serves the API to the
 * users its configured tokens name until SIGTERM.
 */
import { afterAll, afterEach, beforeEach, describe, expect, it, jest } from "@jest/globals";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { main } from "../../src/cli/main.js";
import { TokenTable } from "../../src/server/authentication.js";
import { openDatabase } from "../../src/db/open.js";
import { MemoryRepository } from "../../src/store/memory-store.js";

const TOKEN = "alice-serve-token-0123456789";

describe("langgraph-memory serve", () => {
  const dir = mkdtempSync(join(tmpdir(), "lgm-cli-serve-"));
  const saved = { tokens: process.env.LANGGRAPH_MEMORY_TOKENS, file: process.env.LANGGRAPH_MEMORY_TOKENS_FILE };
  let err: string[];
  let out: string[];
  beforeEach(() => {
    delete process.env.LANGGRAPH_MEMORY_TOKENS;
    delete process.env.LANGGRAPH_MEMORY_TOKENS_FILE;
    out = [];
    err = [];
    jest.spyOn(console, "log").mockImplementation((...a: unknown[]) => void out.push(a.join(" ")));
    jest.spyOn(console, "error").mockImplementation((...a: unknown[]) => void err.push(a.join(" ")));
  });
  afterEach(() => {
    jest.restoreAllMocks();
    for (const [name, value] of [["LANGGRAPH_MEMORY_TOKENS", saved.tokens], ["LANGGRAPH_MEMORY_TOKENS_FILE", saved.file]] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("refuses to start without tokens or --dev-user, and refuses --dev-user off loopback", async () => {
    expect(await main(["serve", "--database-url", "memory://"])).toBe(2);
    expect(err.join("\n")).toContain("refusing to start: no access tokens are configured");
    expect(err.join("\n")).toContain("--dev-user TENANT:USER");
    expect(await main(["serve", "--dev-user", "acme:alice", "--host", "0.0.0.0", "--database-url", "memory://"])).toBe(2);
    expect(err.join("\n")).toContain("only runs on a loopback host");
    // USER alone is the user of the default tenant, as in every command; an empty part is refused.
    expect(await main(["serve", "--dev-user", "alice", "--host", "0.0.0.0", "--database-url", "memory://"])).toBe(2);
    expect(await main(["serve", "--dev-user", "acme:", "--database-url", "memory://"])).toBe(1);
    expect(err.join("\n")).toContain("--dev-user: write USER or TENANT:USER, e.g. alice or acme:alice");
  });

  it("rejects a broken token configuration without echoing the tokens", async () => {
    process.env.LANGGRAPH_MEMORY_TOKENS = '{"secret-token-value-1234": {"tenantId": "acme"}}';
    expect(await main(["serve", "--database-url", "memory://"])).toBe(1);
    const message = err.join("\n");
    expect(message).toContain("error CONFIG_INVALID: LANGGRAPH_MEMORY_TOKENS: invalid token configuration — token #1.userId");
    expect(message).not.toContain("secret-token-value");
    process.env.LANGGRAPH_MEMORY_TOKENS = "not json";
    expect(await main(["serve", "--database-url", "memory://"])).toBe(1);
    expect(err.join("\n")).toContain("LANGGRAPH_MEMORY_TOKENS is not valid JSON");
    expect(await main(["serve", "--tokens-file", join(dir, "missing.json"), "--database-url", "memory://"])).toBe(1);
    expect(err.join("\n")).toContain(`cannot read the token file ${join(dir, "missing.json")}: ENOENT`);
  });

  it("reads tokens from a file (a file wins over the environment variable)", () => {
    const file = join(dir, "tokens.json");
    writeFileSync(file, JSON.stringify({ [TOKEN]: { tenantId: "acme", userId: "alice" }, short: { tenantId: "acme", userId: "bob" } }));
    const table = TokenTable.fromConfig({ file, env: { LANGGRAPH_MEMORY_TOKENS: '{"other-token-123456789": {"tenantId": "x", "userId": "y"}}' } })!;
    expect(table.size).toBe(2);
    expect(table.weakTokens).toBe(1);
    expect(table.lookup(TOKEN)).toEqual({ tenantId: "acme", userId: "alice" });
    expect(table.lookup("other-token-123456789")).toBeNull();
    expect(TokenTable.fromConfig({ env: { LANGGRAPH_MEMORY_TOKENS_FILE: file } })!.lookup("short")).toEqual({ tenantId: "acme", userId: "bob" });
    expect(TokenTable.fromConfig({ env: {} })).toBeNull();
  });

  it("serves the API for the configured tokens' users until SIGTERM", async () => {
    const url = `pglite:${join(dir, "db")}`;
    const db = await openDatabase(url);
    await new MemoryRepository(db).add({ tenantId: "acme", userId: "alice" }, { kind: "preference", text: "Prefers metric units." });
    await new MemoryRepository(db).add({ tenantId: "acme", userId: "bob" }, { kind: "fact", text: "Bob lives in Berlin." });
    await db.close();

    const child = spawn(process.execPath, ["--import", "tsx", "src/cli/run.ts", "serve", "--port", "0", "--no-viewer", "--log", "--database-url", url], {
      cwd: process.cwd(),
      env: { ...process.env, LANGGRAPH_MEMORY_TOKENS: JSON.stringify({ [TOKEN]: { tenantId: "acme", userId: "alice" }, tok123: { tenantId: "acme", userId: "bob" } }) },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const stdout: string[] = [];
    const stderr: string[] = [];
    child.stderr.on("data", (c: Buffer) => stderr.push(c.toString()));
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    try {
      const base = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no URL in 60 s: ${stdout.join("")} ${stderr.join("")}`)), 60_000);
        child.stdout.on("data", (c: Buffer) => {
          stdout.push(c.toString());
          // With --log, Fastify's "listening" line may come between the two lines.
          const m = /langgraph-memory: API on (http:\/\/127\.0\.0\.1:\d+\/) \(/.exec(stdout.join(""));
          if (m && stdout.join("").includes("2 access tokens configured\n")) {
            clearTimeout(timer);
            resolve(m[1]);
          }
        });
        void exited.then((code) => reject(new Error(`serve exited with ${code}: ${stderr.join("")}`)));
      });
      expect(stdout.join("")).toContain("2 access tokens configured");
      expect(stderr.join("")).toContain("warning: 1 configured token is shorter than 16 characters");

      const me = await fetch(`${base}api/memories?q=metric`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(me.status).toBe(200);
      expect(((await me.json()) as { memories: Array<{ text: string }> }).memories.map((m) => m.text)).toEqual(["Prefers metric units."]);
      const bob = await fetch(`${base}api/memories`, { headers: { authorization: "Bearer tok123" } });
      expect(((await bob.json()) as { memories: Array<{ text: string }> }).memories.map((m) => m.text)).toEqual(["Bob lives in Berlin."]);
      expect((await fetch(`${base}api/memories`, { headers: { authorization: "Bearer tok124" } })).status).toBe(401);
      expect((await fetch(base)).status).toBe(404); // --no-viewer
      // The request log has paths, never query strings (search text is user content).
      await new Promise((r) => setTimeout(r, 100));
      expect(stdout.join("")).toContain('"url":"/api/memories"');
      expect(stdout.join("")).not.toContain("metric");
    } finally {
      child.kill("SIGTERM");
    }
    expect(await exited).toBe(0);
    expect(stdout.join("")).toContain("langgraph-memory: stopping");
  }, 90_000);
});
