import { resolve } from "node:path";
import { parseDatabaseUrl, redactUrl } from "../../src/db/database-url.js";
import { quoteIdent, validateSchemaName } from "../../src/db/identifier.js";
import { resolveConfig } from "../../src/config.js";
import { isMemoryError } from "../../src/errors.js";

describe("parseDatabaseUrl", () => {
  it("routes each URL form to its engine", () => {
    expect(parseDatabaseUrl("postgres://u@h/db")).toEqual({ engine: "postgres", url: "postgres://u@h/db" });
    expect(parseDatabaseUrl("postgresql://h/db")).toEqual({ engine: "postgres", url: "postgresql://h/db" });
    expect(parseDatabaseUrl("memory://")).toEqual({ engine: "pglite", dataDir: undefined });
    expect(parseDatabaseUrl("pglite:./data")).toEqual({ engine: "pglite", dataDir: resolve("./data") });
    expect(parseDatabaseUrl("pglite:///tmp/x")).toEqual({ engine: "pglite", dataDir: "/tmp/x" });
    expect(parseDatabaseUrl(undefined)).toEqual({ engine: "pglite", dataDir: resolve(".langgraph-memory") });
  });

  it("rejects anything else with DB_URL_INVALID and never echoes a password", () => {
    try {
      parseDatabaseUrl("mysql://root:hunter2@localhost/db");
      throw new Error("should have thrown");
    } catch (err) {
      expect(isMemoryError(err, "DB_URL_INVALID")).toBe(true);
      expect((err as Error).message).not.toContain("hunter2");
    }
    expect(redactUrl("postgres://a:secret@h/db")).toBe("postgres://a:***@h/db");
  });
});

describe("schema names", () => {
  it("are quoted once, doubling quotes", () => {
    expect(quoteIdent('we-ird"name')).toBe('"we-ird""name"');
  });
  it("refuse empty, NUL and over-long names", () => {
    expect(() => validateSchemaName("")).toThrow(/non-empty/);
    expect(() => validateSchemaName("a\u0000b")).toThrow(/NUL/);
    expect(() => validateSchemaName("x".repeat(64))).toThrow(/63 bytes/);
    expect(validateSchemaName("ok-name")).toBe("ok-name");
  });
});

describe("resolveConfig", () => {
  it("takes explicit options over env over defaults", () => {
    const c = resolveConfig({ schema: "explicit" }, { LANGGRAPH_MEMORY_SCHEMA: "from-env", DATABASE_URL: "memory://" });
    expect(c.schema).toBe("explicit");
    expect(c.databaseUrl).toBe("memory://");
    expect(c.budgets.recentMessages).toBe(6000);
    expect(c.retrieval.topK).toBe(8);
  });
  it("reports every invalid field with CONFIG_INVALID", () => {
    try {
      resolveConfig({ poolMax: -1, retrieval: { topK: 0 } } as never, {});
      throw new Error("should have thrown");
    } catch (err) {
      expect(isMemoryError(err, "CONFIG_INVALID")).toBe(true);
      expect((err as Error).message).toMatch(/poolMax/);
      expect((err as Error).message).toMatch(/retrieval\.topK/);
    }
  });
});
