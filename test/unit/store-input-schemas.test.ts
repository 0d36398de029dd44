import { describe, expect, it } from "@jest/globals";
import { isMemoryError } from "../../src/errors.js";
import {
  ArraySchema,
  DelayMsSchema,
  ListLimitSchema,
  MemoryInput,
  NearestLimitSchema,
  OffsetSchema,
  QuerySchema,
  SearchLimitSchema,
  SwitchSchema,
  objectSchema,
  MemoryKindsSchema,
  OptionalDateSchema,
  StandingSchema,
  fieldPath,
  parseInclude,
  parseInput,
  parseMetadata,
} from "../../src/store/memory-input-schemas.js";

/** The error a parse throws: code, field and message (or "no error"). */
function refusal(fn: () => unknown): { code: string; field: unknown; message: string; details: Record<string, unknown> } | "no error" {
  try {
    fn();
    return "no error";
  } catch (err) {
    if (!isMemoryError(err)) throw err;
    return { code: err.code, field: (err.details as { field?: unknown }).field, message: err.message, details: err.details as Record<string, unknown> };
  }
}

const input = new MemoryInput({ maxTextChars: 20, allowSpecialCategory: false, allowSensitive: false, now: () => new Date("2026-01-01T00:00:00Z") });
const user = { level: "user" as const, tenantId: "acme", userId: "alice" };
const global = { level: "global" as const, tenantId: null, userId: null };

describe("memory input schemas: a zod issue becomes INVALID_INPUT naming the field's path", () => {
  it("fieldPath joins indexes as [i] and keys as .key", () => {
    expect(fieldPath("memories", [1, "source", "threadId"])).toBe("memories[1].source.threadId");
    expect(fieldPath("kinds", [])).toBe("kinds");
  });

  it("an element of a list is named by its index, with the value given", () => {
    expect(refusal(() => parseInput(MemoryKindsSchema, ["fact", 10n], "kinds"))).toMatchObject({
      code: "INVALID_INPUT",
      field: "kinds[1]",
      message: expect.stringMatching(/^kinds\[1\]: must be one of preference, .* got 10n$/),
    });
    expect(refusal(() => parseInput(MemoryKindsSchema, "fact", "kinds"))).toMatchObject({ code: "INVALID_INPUT", field: "kinds", message: expect.stringContaining("must be an array of kinds") });
    expect(parseInput(MemoryKindsSchema, undefined, "kinds")).toBeNull();
  });

  it("a nested field of a new memory is named from the memory's own field", () => {
    expect(refusal(() => input.validateNew({ kind: "fact", text: "ok", source: { threadId: "x".repeat(2000) } }, "memories[3]"))).toMatchObject({
      code: "INVALID_INPUT",
      field: "memories[3].source.threadId",
      message: "memories[3].source.threadId: must be a string of at most 1024 characters",
    });
    expect(refusal(() => input.validateNew({ kind: "fact", text: "ok", confidence: 2 }, "memory"))).toMatchObject({ field: "memory.confidence", message: "memory.confidence: must be a number from 0 to 1" });
    expect(refusal(() => input.validateNew({ kind: "fact", text: "ok", id: "nope" }, "memory"))).toMatchObject({ field: "memory.id", message: "memory.id: must be a uuid" });
  });

  it("a custom issue's params become the error's details (the text limit)", () => {
    expect(refusal(() => input.checkText("a".repeat(21), "patch.text"))).toMatchObject({
      code: "INVALID_INPUT",
      field: "patch.text",
      message: "patch.text: is 21 characters; the limit is 20 (writePolicy.maxTextChars)",
      details: { field: "patch.text", limit: 20 },
    });
    expect(refusal(() => input.checkText("   ", "text"))).toMatchObject({ field: "text", message: "text: must not be empty" });
    expect(input.checkContext("", "context")).toBeNull();
  });

  it("standing: the shape is named as standing, its kinds by index and its limit as standing.limit", () => {
    expect(refusal(() => parseInput(StandingSchema, { kinds: "fact", limit: 1 }, "standing"))).toMatchObject({ field: "standing", message: "standing: must be { kinds: MemoryKind[], limit: number }" });
    expect(refusal(() => parseInput(StandingSchema, { kinds: ["fact", "nope"], limit: 1 }, "standing"))).toMatchObject({ field: "standing.kinds[1]" });
    expect(refusal(() => parseInput(StandingSchema, { kinds: ["fact"], limit: 1.5 }, "standing"))).toMatchObject({ field: "standing.limit", message: "standing.limit: must be an integer from 0 to 1000" });
    expect(parseInput(StandingSchema, { kinds: ["fact"], limit: 0 }, "standing")).toBeNull();
    expect(parseInput(StandingSchema, { kinds: ["fact"], limit: 3 }, "standing")).toEqual({ kinds: ["fact"], limit: 3 });
  });

  it("include stays named include (not include[i]) and knows the scope", () => {
    expect(refusal(() => parseInclude(["tenant", "other"] as never, user))).toMatchObject({ field: "include", message: 'include: unknown value "other"; use "tenant" or "global"' });
    expect(refusal(() => parseInclude(["tenant"], global))).toMatchObject({ field: "include", message: "include: a global scope cannot include a tenant" });
    expect(parseInclude(undefined, user)).toEqual({});
    expect(parseInclude(["tenant", "global"], user)).toEqual({ tenant: true, global: true });
  });

  it("dates and metadata: what is refused, and what passes through", () => {
    expect(refusal(() => parseInput(OptionalDateSchema, "not a date", "memory.expiresAt"))).toMatchObject({ field: "memory.expiresAt", message: "memory.expiresAt: must be a Date or an ISO date string" });
    expect(parseInput(OptionalDateSchema, "2026-02-03T00:00:00Z", "d")).toEqual(new Date("2026-02-03T00:00:00Z"));
    expect(parseInput(OptionalDateSchema, undefined, "d")).toBeNull();
    expect(refusal(() => parseMetadata(new Date(0), "patch.metadata"))).toMatchObject({ field: "patch.metadata", message: "patch.metadata: must be a plain object" });
    expect(refusal(() => parseMetadata({ a: "x".repeat(70_000) }, "memory.metadata"))).toMatchObject({ field: "memory.metadata", message: "memory.metadata: is larger than 64 KiB of JSON" });
    expect(parseMetadata({ a: 1 }, "m")).toBe('{"a":1}');
  });

  it("an import names its own fields", () => {
    const base = { id: "5b0c8a2e-1d3c-4c1a-9a55-2f0c3d7a9e11", kind: "fact", text: "ok" } as never;
    expect(refusal(() => input.validateImported({ ...(base as object), accessCount: -1 } as never, "memories[0]"))).toMatchObject({ field: "memories[0].accessCount", message: "memories[0].accessCount: must be a non-negative integer" });
    expect(refusal(() => input.validateImported({ ...(base as object), supersededBy: "x" } as never, "memories[0]"))).toMatchObject({ field: "memories[0].supersededBy" });
    expect(input.validateImported(base, "memories[0]")).toMatchObject({ accessCount: 0, supersededBy: null, lastUsedAt: null });
  });

  it("counts, offsets, delays, switches, arrays and objects: the range in the message, the value refused whatever its type", () => {
    for (const [schema, max] of [[ListLimitSchema, 10_000], [NearestLimitSchema, 100], [SearchLimitSchema, 1000]] as const) {
      for (const bad of [0, max + 1, 2.5, Number.NaN, Number.POSITIVE_INFINITY, "5", null, 10n]) {
        expect(refusal(() => parseInput(schema, bad, "limit"))).toMatchObject({ code: "INVALID_INPUT", field: "limit", message: `limit: must be an integer from 1 to ${max}` });
      }
      expect(parseInput(schema, 1, "limit")).toBe(1);
      expect(parseInput(schema, max, "limit")).toBe(max);
    }
    for (const bad of [-1, 0.5, "0", Number.NaN]) expect(refusal(() => parseInput(OffsetSchema, bad, "offset"))).toMatchObject({ field: "offset", message: "offset: must be a non-negative integer" });
    expect(parseInput(OffsetSchema, 0, "offset")).toBe(0);
    // As the hand-written check before it: any integer, with no 2^53 cap.
    expect(parseInput(OffsetSchema, 2 ** 60, "offset")).toBe(2 ** 60);
    for (const bad of [-1, Number.POSITIVE_INFINITY, Number.NaN, "10"]) {
      expect(refusal(() => parseInput(DelayMsSchema, bad, "usageFlushMs"))).toMatchObject({ field: "usageFlushMs", message: "usageFlushMs: must be a non-negative number of milliseconds" });
    }
    expect(parseInput(DelayMsSchema, 2.5, "usageFlushMs")).toBe(2.5);
    for (const bad of ["true", 1, null]) expect(refusal(() => parseInput(SwitchSchema, bad, "patch.archived"))).toMatchObject({ message: "patch.archived: must be true or false" });
    expect(refusal(() => parseInput(ArraySchema, { 0: "a" }, "memories"))).toMatchObject({ message: "memories: must be an array" });
    expect(refusal(() => parseInput(objectSchema("must be an object"), null, "patch"))).toMatchObject({ message: "patch: must be an object" });
    expect(refusal(() => parseInput(objectSchema("must be an object"), "x", "patch"))).toMatchObject({ message: "patch: must be an object" });
    expect(refusal(() => parseInput(QuerySchema, 42, "query"))).toMatchObject({ message: "query: must be a string" });
  });
});
