import { resolveScope } from "../../src/core/scope.js";
import { checkWellFormed, isWellFormedText } from "../../src/core/well-formed-text.js";
import { requireRunScope } from "../../src/graph/run-scope.js";
import { checkScope, checkThreadId } from "../../src/sessions/index-session.js";
import { visibleScopeSql } from "../../src/store/memory-queries.js";
import { textsAtPath } from "../../src/store/json-path-text.js";

describe("resolveScope", () => {
  it("defaults to a user scope and makes tenant and global explicit", () => {
    expect(resolveScope({ tenantId: "acme", userId: "alice" })).toEqual({ level: "user", tenantId: "acme", userId: "alice" });
    expect(resolveScope({ level: "tenant", tenantId: "acme" })).toEqual({ level: "tenant", tenantId: "acme", userId: null });
    expect(resolveScope({ level: "global" })).toEqual({ level: "global", tenantId: null, userId: null });
  });

  it("never widens a scope: missing ids are SCOPE_REQUIRED, contradictions INVALID_INPUT", () => {
    expect(() => resolveScope({ tenantId: "acme" })).toThrow(expect.objectContaining({ code: "SCOPE_REQUIRED" }));
    expect(() => resolveScope({ level: "tenant" })).toThrow(expect.objectContaining({ code: "SCOPE_REQUIRED" }));
    expect(() => resolveScope({ level: "tenant", tenantId: "acme", userId: "alice" })).toThrow(expect.objectContaining({ code: "INVALID_INPUT" }));
    expect(() => resolveScope({ level: "global", tenantId: "acme" })).toThrow(expect.objectContaining({ code: "INVALID_INPUT" }));
    expect(() => resolveScope({ level: "everyone" })).toThrow(expect.objectContaining({ code: "INVALID_INPUT" }));
  });

  it("scope SQL carries ids as parameters and never reads other users' rows", () => {
    const params: unknown[] = [];
    const sql = visibleScopeSql(resolveScope({ tenantId: "a'; --", userId: "u" }), params, { tenant: true, global: true });
    expect(params).toEqual(["a'; --", "u"]);
    expect(sql).not.toContain("a'; --");
    expect(sql).toContain("m.user_id = $2");
    expect(sql).toContain("m.user_id IS NULL AND m.scope = 'tenant'");
  });
});

describe("textsAtPath (index field paths)", () => {
  const doc = { title: "T", n: 3, tags: ["a", "b"], chapters: [{ body: "x" }, { body: "y" }], meta: { author: { name: "Ann" } } };
  it.each([
    ["title", ["T"]],
    ["n", ["3"]],
    ["chapters[*].body", ["x", "y"]],
    ["chapters[-1].body", ["y"]],
    ["tags[0]", ["a"]],
    ["meta.author.name", ["Ann"]],
    ["{title,meta.author.name}", ["T", "Ann"]],
    ["missing.path", []],
  ])("%s", (path, expected) => {
    expect(textsAtPath(doc, path)).toEqual(expected);
  });
  it("$ is the whole document as JSON", () => {
    expect(textsAtPath({ a: 1 }, "$")).toEqual([JSON.stringify({ a: 1 }, null, 2)]);
  });
});

describe("well-formed ids (unpaired UTF-16 surrogates would become U+FFFD in the database)", () => {
  it("tells whole characters from halves", () => {
    expect(["", "acme", "😀", "a😀b", "\uD83D\uDE00", "é"].map(isWellFormedText)).toEqual([true, true, true, true, true, true]);
    expect(["\uD800", "a\uDBFF", "\uDC00b", "😀\uDE00", "\uDE00\uD83D"].map(isWellFormedText)).toEqual([false, false, false, false, false]);
  });

  it("every scope boundary refuses a lone surrogate with INVALID_INPUT naming the field, never echoing the value", () => {
    const cases: Array<[() => unknown, string]> = [
      [() => resolveScope({ tenantId: "t\uD800", userId: "u" }), "scope.tenantId"],
      [() => resolveScope({ tenantId: "t", userId: "u\uDBFF" }), "scope.userId"],
      [() => resolveScope({ level: "tenant", tenantId: "\uDC00" }), "scope.tenantId"],
      [() => requireRunScope({ configurable: { thread_id: "th\uD800", tenant_id: "t", user_id: "u" } }), "config.configurable.thread_id"],
      [() => requireRunScope({ configurable: { thread_id: "th", tenant_id: "t\uDFFF", user_id: "u" } }), "config.configurable.tenant_id"],
      [() => checkScope({ tenantId: "t", userId: "u\uD800" }), "scope.userId"],
      [() => checkThreadId("th\uDC00"), "threadId"],
      [() => checkWellFormed("x\uD800", "label"), "label"],
    ];
    for (const [call, field] of cases) {
      expect(call).toThrow(expect.objectContaining({ code: "INVALID_INPUT", details: { field } }));
      try {
        call();
      } catch (err) {
        expect((err as Error).message).toMatch(new RegExp(`^${field.replace(/\./g, "\\.")}: contains an unpaired UTF-16 surrogate`));
      }
    }
    expect(requireRunScope({ configurable: { thread_id: "th😀", tenant_id: "t", user_id: "u" } })).toEqual({ tenantId: "t", userId: "u", threadId: "th😀" });
  });
});
