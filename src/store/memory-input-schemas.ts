/**
 * The typed memory door's input, as zod schemas: ids, kinds, origins, confidences, dates, metadata,
 * texts, search options. {@link parseInput} turns the first zod issue into the door's one error,
 * `INVALID_INPUT` with `details.field` the path of the value (`memories[2].source.threadId`) and
 * a message saying what to fix. Each schema carries its own messages (not zod's defaults), so a
 * caller reads the same words the hand-written checks gave before.
 *
 * Fields are parsed one by one, in the order a write names them, so the first problem reported
 * (and a secret found by the sensitive filter between them) is the same whatever else is wrong.
 */
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { describeValue, invalidInput } from "../errors.js";
import { MEMORY_KINDS, type MemoryKind } from "../state/types.js";
import { checkWellFormed } from "../core/well-formed-text.js";
import { strictJson } from "../core/json.js";
import { sensitiveCategoryIn, sensitiveContent } from "../sensitive/sensitive-content.js";
import type { ResolvedScope } from "../core/scope.js";
import { MEMORY_ORIGINS, type ExportedMemory, type MemoryOrigin, type MemorySearchOptions, type NewMemory } from "./types.js";

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `value` parsed by `schema`, or `INVALID_INPUT` for its first issue: the field is `field` followed
 * by the issue's path (`kinds` + `[1]`), the message the issue's, and a custom issue's `params`
 * go into the error's details (e.g. `{ limit }`).
 *
 * @example
 * parseInput(MemoryKindsSchema, ["fact", 10n], "kinds"); // throws INVALID_INPUT "kinds[1]: must be one of …, got 10n"
 */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, field: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const params = issue.code === "custom" ? (issue.params as Record<string, unknown> | undefined) : undefined;
  throw invalidInput(fieldPath(field, issue.path), issue.message, params);
}

/** `memories` + [1, "source", "threadId"] → `memories[1].source.threadId`. */
export function fieldPath(field: string, path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, key) => (typeof key === "number" ? `${out}[${key}]` : `${out}.${String(key)}`), field);
}

const KINDS_LIST = MEMORY_KINDS.join(", ");
const uuid = (message: string) => z.string({ error: message }).regex(UUID_RE, { error: message });

/** A memory id as reads and deletes take it. */
export const MemoryIdSchema = uuid("must be a memory id (a uuid)");

/** The id a new memory may bring (its own field: `memory.id`). */
export const NewMemoryIdSchema = uuid("must be a uuid");

/** A known memory kind; the message names the kinds and the value given. */
export const MemoryKindSchema = z.enum(MEMORY_KINDS, { error: (issue) => `must be one of ${KINDS_LIST}, got ${describeValue(issue.input)}` });

/** An integer from `min` to `max` (a page size, a result count); the message says the range. */
export function integerInRange(min: number, max: number) {
  const message = `must be an integer from ${min} to ${max}`;
  return z.number({ error: message }).int({ error: message }).min(min, { error: message }).max(max, { error: message });
}

/** Page size of `list`. */
export const ListLimitSchema = integerInRange(1, 10_000);

/** Result count of `nearest`. */
export const NearestLimitSchema = integerInRange(1, 100);

/** Result count of a search. */
export const SearchLimitSchema = integerInRange(1, 1000);

/** A search's query text. */
export const QuerySchema = z.string({ error: "must be a string" });

/** An integer of 0 or more, without zod's 2^53 cap (the door's hand-written checks never refused larger ones). */
const NonNegativeIntegerSchema = z
  .number({ error: "must be a non-negative integer" })
  .refine(Number.isInteger, { error: "must be a non-negative integer" })
  .min(0, { error: "must be a non-negative integer" });

/** A list offset: 0 or more. */
export const OffsetSchema = NonNegativeIntegerSchema;

/** A delay in milliseconds: 0 or more (zod's number refuses NaN and ±Infinity). */
export const DelayMsSchema = z.number({ error: "must be a non-negative number of milliseconds" }).min(0, { error: "must be a non-negative number of milliseconds" });

/** A yes/no switch of a patch (`deactivated`, `archived`). */
export const SwitchSchema = z.boolean({ error: "must be true or false" });

/** A list of values given where one array is expected (`memories`). */
export const ArraySchema = z.array(z.unknown(), { error: "must be an array" });

/** An object argument (a patch, a query): only its being an object is checked here; its fields, one by one. */
export function objectSchema(message: string) {
  return z.custom<Record<string, unknown>>((v) => v !== null && typeof v === "object", { error: message });
}

/** An optional list of kinds (null: every kind). */
export const MemoryKindsSchema = z
  .array(MemoryKindSchema, { error: `must be an array of kinds (${KINDS_LIST})` })
  .nullish()
  .transform((kinds): MemoryKind[] | null => kinds ?? null);

/** A list of memory ids (each checked as {@link MemoryIdSchema} under `id`). */
export const IdListSchema = z.array(z.unknown(), { error: "must be an array of memory ids (uuids)" });

const ORIGINS_MESSAGE = `must be one of ${MEMORY_ORIGINS.join(", ")}`;
/** Where a memory came from (`source.origin`). */
export const MemoryOriginSchema = z.enum(MEMORY_ORIGINS as readonly [MemoryOrigin, ...MemoryOrigin[]], { error: ORIGINS_MESSAGE });

const CONFIDENCE_MESSAGE = "must be a number from 0 to 1";
/** A confidence from 0 to 1 (finite). */
export const ConfidenceSchema = z.number({ error: CONFIDENCE_MESSAGE }).min(0, { error: CONFIDENCE_MESSAGE }).max(1, { error: CONFIDENCE_MESSAGE });

const SHORT_STRING_MESSAGE = "must be a string of at most 1024 characters";
/** A source id (thread, message, run): a string of at most 1024 characters without NUL, or null. */
export const OptionalShortStringSchema = z
  .string({ error: SHORT_STRING_MESSAGE })
  .max(1024, { error: SHORT_STRING_MESSAGE })
  .refine((v) => !v.includes("\0"), { error: SHORT_STRING_MESSAGE })
  .nullish()
  .transform((v) => v ?? null);

const DATE_MESSAGE = "must be a Date or an ISO date string";
/** A Date or an ISO date string, as a valid Date; null when absent. */
export const OptionalDateSchema = z
  .union([z.date({ error: DATE_MESSAGE }), z.string({ error: DATE_MESSAGE }).transform((s) => new Date(s))], { error: DATE_MESSAGE })
  .refine((d) => !Number.isNaN(d.getTime()), { error: DATE_MESSAGE })
  .nullish()
  .transform((d) => d ?? null);

/**
 * Metadata: a plain object. A Date or class instance would pass `typeof "object"` and be stored
 * as its JSON (a string), which no longer reads back as an object.
 */
export const MetadataObjectSchema = z.custom<Record<string, unknown>>(
  (v) => {
    const proto = v && typeof v === "object" ? Object.getPrototypeOf(v) : undefined;
    return Boolean(v) && typeof v === "object" && !Array.isArray(v) && (proto === Object.prototype || proto === null);
  },
  { error: "must be a plain object" },
);

/** Metadata's JSON as stored: jsonb cannot hold U+0000, and at most 64 KiB. */
export const MetadataJsonSchema = z
  .string()
  .refine((json) => !json.includes("\\u0000"), { error: "must not contain NUL characters" })
  .refine((json) => json.length <= 65_536, { error: "is larger than 64 KiB of JSON" });

/** Metadata checked and serialised (NaN and ±Infinity refused, as the profile refuses them). */
export function parseMetadata(v: unknown, field: string): string {
  const object = parseInput(MetadataObjectSchema, v, field);
  return parseInput(MetadataJsonSchema, strictJson(object, field), field);
}

const INCLUDE_MESSAGE = 'must be an array of "tenant" and/or "global"';
/** `include` of a search or mark for a scope of this level: which shared scopes a user's read adds. */
export function includeSchema(level: ResolvedScope["level"]) {
  return z
    .array(z.unknown(), { error: INCLUDE_MESSAGE })
    .optional()
    .transform((values, ctx) => {
      const out: { tenant?: boolean; global?: boolean } = {};
      for (const v of values ?? []) {
        if (v === "tenant" && level === "global") ctx.addIssue({ code: "custom", message: "a global scope cannot include a tenant" });
        else if (v === "tenant") out.tenant = true;
        else if (v === "global") out.global = true;
        else ctx.addIssue({ code: "custom", message: `unknown value ${describeValue(v)}; use "tenant" or "global"` });
        if (ctx.issues.length > 0) return z.NEVER;
      }
      return out;
    });
}

/** `include` checked for the scope (`{}` when absent). */
export function parseInclude(include: MemorySearchOptions["include"], s: ResolvedScope): { tenant?: boolean; global?: boolean } {
  return parseInput(includeSchema(s.level), include, "include");
}

const STANDING_MESSAGE = "must be { kinds: MemoryKind[], limit: number }";
/** `MemorySearchOptions.standing`: known kinds and a limit from 0 to 1000; null when absent or asking for none. */
export const StandingSchema = z
  .custom<{ kinds: unknown[]; limit: unknown }>((v) => typeof v === "object" && v !== null && Array.isArray((v as { kinds?: unknown }).kinds), { error: STANDING_MESSAGE })
  .pipe(
    z.object({
      kinds: z.array(MemoryKindSchema),
      limit: z.number({ error: "must be an integer from 0 to 1000" }).int({ error: "must be an integer from 0 to 1000" }).min(0, { error: "must be an integer from 0 to 1000" }).max(1000, { error: "must be an integer from 0 to 1000" }),
    }),
  )
  .nullish()
  .transform((s) => (!s || s.kinds.length === 0 || s.limit === 0 ? null : { kinds: s.kinds, limit: s.limit }));

/** A memory text: a string, not blank, at most `maxTextChars`, no NUL (then checked well-formed). */
export function memoryTextSchema(maxTextChars: number) {
  return z
    .string({ error: "must be a string" })
    .refine((t) => t.trim().length > 0, { error: "must not be empty" })
    .superRefine((t, ctx) => {
      if (t.length > maxTextChars) {
        ctx.addIssue({ code: "custom", message: `is ${t.length} characters; the limit is ${maxTextChars} (writePolicy.maxTextChars)`, params: { limit: maxTextChars } });
      }
    })
    .refine((t) => !t.includes("\0"), { error: "must not contain NUL characters" });
}

/** A memory's context: null when absent or empty, else a string of at most `4 × maxTextChars`, no NUL. */
export function memoryContextSchema(maxTextChars: number) {
  const limit = maxTextChars * 4;
  return z
    .string({ error: "must be a string or null" })
    .superRefine((c, ctx) => {
      if (c.length > limit) ctx.addIssue({ code: "custom", message: `is ${c.length} characters; the limit is ${limit} (4 × writePolicy.maxTextChars)` });
    })
    .refine((c) => !c.includes("\0"), { error: "must not contain NUL characters" })
    .nullish()
    .transform((c) => (c === undefined || c === "" ? null : c));
}

/** An exported memory's use count. */
export const AccessCountSchema = NonNegativeIntegerSchema;

/** An exported memory's `supersededBy`: a memory id or null. */
export const SupersededBySchema = uuid("must be a memory id (uuid) or null")
  .nullish()
  .transform((v) => v ?? null);

/** A new memory, checked: what an insert writes. */
export interface CheckedMemory {
  id: string;
  kind: MemoryKind;
  text: string;
  context: string | null;
  threadId: string | null;
  messageId: string | null;
  runId: string | null;
  origin: string;
  confidence: number;
  createdAt: Date;
  expiresAt: Date | null;
  /** Metadata as JSON text. */
  metadata: string;
  embedding?: number[];
}

/** An exported memory, checked: what an import writes beyond a new memory's columns. */
export interface CheckedImport {
  base: CheckedMemory;
  updatedAt: Date;
  lastUsedAt: Date | null;
  accessCount: number;
  supersededBy: string | null;
  deactivatedAt: Date | null;
  archivedAt: Date | null;
}

/** What the door's writes are checked against. */
export interface MemoryInputSettings {
  /** `writePolicy.maxTextChars`. */
  maxTextChars: number;
  /** `writePolicy.allowSpecialCategory`. */
  allowSpecialCategory: boolean;
  /** `MemoryRepositoryOptions.allowSensitive`. */
  allowSensitive: boolean;
  /** A new memory's creation time when it names none. */
  now: () => Date;
}

/**
 * The checks of one store's writes: the schemas above, with its limits, plus the secret filter
 * (src/sensitive) on texts, contexts and metadata.
 *
 * @example
 * const input = new MemoryInput({ maxTextChars: 4000, allowSpecialCategory: false, allowSensitive: false, now: () => new Date() });
 * input.checkText("", "patch.text"); // throws INVALID_INPUT "patch.text: must not be empty"
 */
export class MemoryInput {
  private readonly text: ReturnType<typeof memoryTextSchema>;
  private readonly context: ReturnType<typeof memoryContextSchema>;

  constructor(readonly settings: MemoryInputSettings) {
    this.text = memoryTextSchema(settings.maxTextChars);
    this.context = memoryContextSchema(settings.maxTextChars);
  }

  /** A memory text as every write checks it (string, not empty, at most `maxTextChars`, no NUL, well-formed). */
  checkText(text: unknown, field: string): string {
    return checkWellFormed(parseInput(this.text, text, field), field);
  }

  /** A memory context as every write checks it (null when empty). */
  checkContext(context: unknown, field: string): string | null {
    const checked = parseInput(this.context, context, field);
    return checked === null ? null : checkWellFormed(checked, field);
  }

  /**
   * The door's secret filter: `SENSITIVE_CONTENT` for a text, context or metadata value that
   * holds blocking data, unless the store allows it.
   */
  refuseSensitive<T>(value: T, field: string): T {
    if (this.settings.allowSensitive || value === null || value === undefined) return value;
    // Metadata holds machine ids (run, message, tool-call ids): only named formats count there.
    const category = sensitiveCategoryIn(value, { allowSpecialCategory: this.settings.allowSpecialCategory, ignoreHighEntropy: typeof value !== "string" });
    if (category) throw sensitiveContent(field, category);
    return value;
  }

  /** A new memory checked field by field (`field` names it in errors: `memory`, `memories[3]`). */
  validateNew(m: NewMemory, field: string): CheckedMemory {
    if (!m || typeof m !== "object") throw invalidInput(field, "must be an object with kind and text");
    const id = m.id === undefined ? randomUUID() : parseInput(NewMemoryIdSchema, m.id, `${field}.id`);
    const source = m.source ?? {};
    const origin = parseInput(MemoryOriginSchema, source.origin ?? "user_stated", `${field}.source.origin`);
    return {
      id,
      kind: parseInput(MemoryKindSchema, m.kind, `${field}.kind`),
      text: this.refuseSensitive(this.checkText(m.text, `${field}.text`), `${field}.text`),
      context: this.refuseSensitive(this.checkContext(m.context ?? null, `${field}.context`), `${field}.context`),
      threadId: parseInput(OptionalShortStringSchema, source.threadId, `${field}.source.threadId`),
      messageId: parseInput(OptionalShortStringSchema, source.messageId, `${field}.source.messageId`),
      runId: parseInput(OptionalShortStringSchema, source.runId, `${field}.source.runId`),
      origin,
      confidence: parseInput(ConfidenceSchema, m.confidence ?? 1, `${field}.confidence`),
      createdAt: parseInput(OptionalDateSchema, m.createdAt ?? this.settings.now(), `${field}.createdAt`)!,
      expiresAt: parseInput(OptionalDateSchema, m.expiresAt ?? null, `${field}.expiresAt`),
      metadata: parseMetadata(this.refuseSensitive(m.metadata ?? {}, `${field}.metadata`), `${field}.metadata`),
      embedding: m.embedding,
    };
  }

  /** An exported memory checked for import (its id required; dates, counts and links kept). */
  validateImported(m: ExportedMemory, field: string): CheckedImport {
    if (!m || typeof m !== "object") throw invalidInput(field, "must be an exported memory object");
    if (typeof m.id !== "string") throw invalidInput(`${field}.id`, "is required on import");
    const base = this.validateNew(
      {
        id: m.id,
        kind: m.kind,
        text: m.text,
        context: m.context,
        source: { threadId: m.source?.threadId, messageId: m.source?.messageId, runId: m.source?.runId, origin: m.source?.origin ?? "user_stated" },
        confidence: m.confidence,
        createdAt: m.createdAt,
        expiresAt: m.expiresAt,
        metadata: m.metadata ?? {},
      },
      field,
    );
    const accessCount = parseInput(AccessCountSchema, m.accessCount ?? 0, `${field}.accessCount`);
    const supersededBy = parseInput(SupersededBySchema, m.supersededBy, `${field}.supersededBy`);
    return {
      base,
      updatedAt: parseInput(OptionalDateSchema, m.updatedAt ?? base.createdAt, `${field}.updatedAt`)!,
      lastUsedAt: parseInput(OptionalDateSchema, m.lastUsedAt ?? null, `${field}.lastUsedAt`),
      accessCount,
      supersededBy,
      deactivatedAt: parseInput(OptionalDateSchema, m.deactivatedAt ?? null, `${field}.deactivatedAt`),
      archivedAt: parseInput(OptionalDateSchema, m.archivedAt ?? null, `${field}.archivedAt`),
    };
  }
}
