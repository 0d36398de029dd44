/**
 * zod schemas of what the API accepts. Objects are strict: an unknown field or query parameter is
 * a 400 naming it (a typo never silently does nothing).
 */
import { z } from "zod";
import { MEMORY_KINDS } from "../state/types.js";
import { REVIEW_STATES } from "../procedural/rule-types.js";
import type { MemoryLifecycleStatus } from "../controls/memory-controls.js";

export const MEMORY_STATUSES: readonly MemoryLifecycleStatus[] = ["active", "archived", "superseded", "expired", "inactive"];

/** `a,b` or repeated `?x=a&x=b` → ["a", "b"]. */
function csvOf<T extends string>(values: readonly T[]) {
  return z.preprocess(
    (v) => (v === undefined ? undefined : (Array.isArray(v) ? v : [v]).flatMap((s) => String(s).split(",")).map((s) => s.trim()).filter(Boolean)),
    z.array(z.enum(values as [T, ...T[]])).max(values.length * 2).optional(),
  );
}

const boolString = z.enum(["true", "false"]).transform((v) => v === "true");

export const ListMemoriesQuery = z.strictObject({
  /** Search text: ranked retrieval over active memories, plus every memory whose text contains it. */
  q: z.string().max(1000).optional(),
  kind: csvOf(MEMORY_KINDS),
  /** Statuses to include (default all). */
  status: csvOf(MEMORY_STATUSES),
  limit: z.coerce.number().int().min(1).max(10_000).default(1000),
  offset: z.coerce.number().int().min(0).default(0),
});

export const EditMemoryBody = z
  .strictObject({
    text: z.string().min(1).max(100_000).optional(),
    kind: z.enum(MEMORY_KINDS).optional(),
  })
  .refine((b) => b.text !== undefined || b.kind !== undefined, "give a new text and/or kind");

export const DeleteMemoryQuery = z.strictObject({
  /** Also delete the older versions it replaced (default true). */
  includePrevious: boolString.optional(),
});

export const ProfilePatchBody = z.record(z.string().min(1).max(200), z.unknown());

export const ProfileHistoryQuery = z.strictObject({
  field: z.string().min(1).max(200).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});

export const ListRulesQuery = z.strictObject({ state: csvOf(REVIEW_STATES) });

export const DeleteAllBody = z.strictObject({ token: z.string().min(1).max(200) });

export const OptOutBody = z.strictObject({ purge: z.boolean().optional() }).optional();

export const SessionBody = z.strictObject({ code: z.string().min(1).max(200) });

export const DeletionsQuery = z.strictObject({ limit: z.coerce.number().int().min(1).max(1000).default(100) });

export const EmptyQuery = z.strictObject({});

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Is this a well-formed item id? (A malformed one is answered like an unknown one: 404.) */
export function isUuid(id: unknown): id is string {
  return typeof id === "string" && UUID_RE.test(id);
}
