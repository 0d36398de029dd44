/**
 * One rule for a scope's ids (issue 20, item 2): every door that takes a tenant and a user reads
 * them by `readScopeId`, so a value either passes all of them, as the same id, or none.
 */
import { MAX_SCOPE_ID_CHARS, parseScope, readScopeId, readThreadId, resolveUserScope, scopeFromConfig } from "../../src/core/scope.js";
import { threadIdFromConfig } from "../../src/extraction/node/run-config.js";
import { requireRunScope } from "../../src/graph/run-scope.js";
import { requireUserScope } from "../../src/extraction/write/write-run.js";
import { checkScope } from "../../src/sessions/index-session.js";
import { ownerOfConfigurable } from "../../src/threads/thread-owner.js";

/** Every scope door, given one user id: the id it keeps, or the error code it throws. */
function everyDoor(userId: unknown): Record<string, string> {
  const outcome = (f: () => { userId: string | null }): string => {
    try {
      return `id ${JSON.stringify(f().userId)}`;
    } catch (err) {
      return (err as { code?: string }).code ?? String(err);
    }
  };
  const configurable = { thread_id: "t1", tenant_id: "acme", user_id: userId };
  const scope = { tenantId: "acme", userId };
  return {
    parseScope: outcome(() => parseScope(scope)),
    parseScopeConfigurable: outcome(() => parseScope(configurable, "configurable")),
    scopeFromConfig: outcome(() => scopeFromConfig({ configurable })),
    requireRunScope: outcome(() => requireRunScope({ configurable })),
    requireUserScope: outcome(() => requireUserScope(scope)),
    checkScope: outcome(() => checkScope(scope)),
    resolveUserScope: outcome(() => resolveUserScope(scope)),
    // The checkpointer's owner of a thread: an absent id is an unscoped call (null), not an error.
    ownerOfConfigurable: outcome(() => {
      const owner = ownerOfConfigurable(configurable);
      if (owner.userId === null) throw Object.assign(new Error("absent"), { code: "SCOPE_REQUIRED" });
      return owner;
    }),
  };
}

describe("readScopeId: the one rule for a tenant or user id", () => {
  it("takes a string as written and a finite number as its decimal text", () => {
    expect(readScopeId("alice", "f")).toBe("alice");
    expect(readScopeId(42, "f")).toBe("42");
    expect(readScopeId(" spaced ", "f")).toBe(" spaced ");
  });

  it("counts undefined, null, empty and whitespace as absent", () => {
    expect([undefined, null, "", "   ", "\t\n"].map((v) => readScopeId(v, "f"))).toEqual([null, null, null, null, null]);
  });

  it("refuses another type, an overlong id, a NUL or half a character with INVALID_INPUT naming the field", () => {
    for (const bad of [true, {}, ["a"], Number.NaN, Number.POSITIVE_INFINITY, "x".repeat(MAX_SCOPE_ID_CHARS + 1), "a\0b", "t\uD800"]) {
      expect(() => readScopeId(bad, "scope.userId")).toThrow(expect.objectContaining({ code: "INVALID_INPUT", details: expect.objectContaining({ field: "scope.userId" }) }));
    }
    expect(readScopeId("x".repeat(MAX_SCOPE_ID_CHARS), "f")).toHaveLength(MAX_SCOPE_ID_CHARS);
  });
});

describe("parseScope", () => {
  it("reads { tenantId, userId } or config.configurable's tenant_id and user_id", () => {
    expect(parseScope({ tenantId: "acme", userId: "alice" })).toEqual({ tenantId: "acme", userId: "alice" });
    expect(parseScope({ tenant_id: "acme", user_id: 42, thread_id: "t" }, "configurable")).toEqual({ tenantId: "acme", userId: "42" });
  });

  it("names every missing id, in the caller's own keys", () => {
    expect(() => parseScope({})).toThrow(expect.objectContaining({ code: "SCOPE_REQUIRED", details: { missing: ["scope.tenantId", "scope.userId"] } }));
    expect(() => parseScope(undefined, "configurable")).toThrow(
      expect.objectContaining({ code: "SCOPE_REQUIRED", details: { missing: ["config.configurable.tenant_id", "config.configurable.user_id"] } }),
    );
    expect(() => parseScope({ tenant_id: "acme", user_id: " " }, "configurable")).toThrow(expect.objectContaining({ message: expect.stringMatching(/missing: config\.configurable\.user_id$/) }));
  });
});

describe("every scope door agrees", () => {
  it.each([
    ["a string", "alice"],
    ["a number (once accepted by requireRunScope and refused by scopeFromConfig)", 42],
    ["whitespace", "  "],
    ["a boolean", true],
    ["an overlong id", "u".repeat(MAX_SCOPE_ID_CHARS + 1)],
    ["half a character", "u\uDBFF"],
  ])("%s", (_what, userId) => {
    const outcomes = Object.values(everyDoor(userId));
    expect(new Set(outcomes).size).toBe(1);
  });

  it("and 42 is the user \"42\" at every door", () => {
    expect(new Set(Object.values(everyDoor(42)))).toEqual(new Set(['id "42"']));
  });
});

/** Every door that reads a run's thread id: the id it keeps, or the error code it throws. */
function everyThreadDoor(threadId: unknown): Record<string, string> {
  const outcome = (f: () => string): string => {
    try {
      return `id ${JSON.stringify(f())}`;
    } catch (err) {
      return (err as { code?: string }).code ?? String(err);
    }
  };
  const config = { configurable: { thread_id: threadId, tenant_id: "acme", user_id: "alice" } };
  return {
    readThreadId: outcome(() => readThreadId(threadId, "config.configurable.thread_id") ?? (() => { throw { code: "SCOPE_REQUIRED" }; })()),
    requireRunScope: outcome(() => requireRunScope(config).threadId),
    // The extraction nodes' reader: a run the load node accepted must not be refused after its answer is stored.
    threadIdFromConfig: outcome(() => threadIdFromConfig(config)),
  };
}

describe("a run's thread id", () => {
  it("is a string as written, or a finite number as its decimal text, at every door", () => {
    expect(new Set(Object.values(everyThreadDoor("t1")))).toEqual(new Set(['id "t1"']));
    expect(new Set(Object.values(everyThreadDoor(41)))).toEqual(new Set(['id "41"']));
    expect(readThreadId("x".repeat(MAX_SCOPE_ID_CHARS * 4), "f")).toHaveLength(MAX_SCOPE_ID_CHARS * 4);
  });

  it.each([
    ["absent", undefined],
    ["empty", ""],
    ["a boolean", true],
    ["an object", {}],
    ["NaN", Number.NaN],
    ["a NUL", "t\u0000x"],
    ["half a character", "t\uD800"],
    ["a leading byte-order mark", "\uFEFFt"],
  ])("%s: every door gives the same answer", (_what, threadId) => {
    const outcomes = everyThreadDoor(threadId);
    expect(new Set(Object.values(outcomes)).size).toBe(1);
    expect(Object.values(outcomes)[0]).toMatch(/^(SCOPE_REQUIRED|INVALID_INPUT)$/);
  });

  it("refuses a NUL with INVALID_INPUT naming the field (Postgres text cannot hold it)", () => {
    expect(() => readThreadId("a\u0000b", "config.configurable.thread_id")).toThrow(
      expect.objectContaining({ code: "INVALID_INPUT", details: expect.objectContaining({ field: "config.configurable.thread_id" }), message: expect.stringMatching(/NUL/) }),
    );
  });
});
