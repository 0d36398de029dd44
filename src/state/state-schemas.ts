/**
 * The shapes of the memory channels (types.ts) as zod schemas, and readers that keep what is well
 * formed and drop the rest. State read from a checkpoint may come from an older version, another
 * writer or a client (a graph's input, the LangGraph API's update-state): what reaches a prompt or
 * a summariser is read through these, so a malformed value is left out instead of crashing the run.
 * The readers return the values they were given (not copies), so extra fields and object identity
 * survive.
 */
import { z } from "zod";
import { MEMORY_KINDS, type ActiveRule, type ProfileDocument, type RetrievedMemory, type SessionSummary } from "./types.js";

const finite = z.number().finite();
const strings = z.array(z.string());

export const SummaryEntitiesSchema = z.object({
  people: strings,
  places: strings,
  numbers: strings,
  dates: strings,
  decisions: strings,
  openTasks: strings,
  references: strings.optional(),
  commitments: strings.optional(),
  closedTasks: strings.optional(),
});

export const FactRecencySchema = z.object({
  generation: z.number().int().nonnegative(),
  lastMentioned: z.record(z.string(), z.number().int().nonnegative()),
});

export const SessionSummarySchema = z.object({
  text: z.string(),
  entities: SummaryEntitiesSchema,
  coversThroughMessageId: z.string().nullable(),
  tokens: finite.nonnegative(),
  updatedAt: z.string().optional(),
  factRecency: FactRecencySchema.optional(),
  seal: z.string().optional(),
});

export const RetrievedMemorySchema = z.object({
  id: z.string(),
  kind: z.enum(MEMORY_KINDS),
  text: z.string(),
  score: finite,
  similarity: finite,
  recency: finite,
  scope: z.enum(["user", "tenant", "global"]),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable().optional(),
  tokens: finite.nonnegative().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});

export const ActiveRuleSchema = z.object({
  id: z.string(),
  text: z.string(),
  priority: finite,
  scope: z.enum(["global", "tenant", "user", "task"]),
  taskType: z.string().nullable().optional(),
});

// Values already checked (state objects are not changed in place: LangGraph's reducers replace them).
const checked = new WeakSet<object>();

function valid(schema: z.ZodType, value: unknown): boolean {
  if (value === null || typeof value !== "object") return false;
  if (checked.has(value)) return true;
  if (!schema.safeParse(value).success) return false;
  checked.add(value);
  return true;
}

/**
 * The rolling summary when it is well formed, else null.
 *
 * @example
 * readSummary({ text: 42 }); // null
 */
export function readSummary(value: unknown): SessionSummary | null {
  return valid(SessionSummarySchema, value) ? (value as SessionSummary) : null;
}

/** The well-formed memories of a list (anything that is not a list: none). */
export function readMemories(value: unknown): RetrievedMemory[] {
  return readList(RetrievedMemorySchema, value) as RetrievedMemory[];
}

/** The well-formed rules of a list. */
export function readRules(value: unknown): ActiveRule[] {
  return readList(ActiveRuleSchema, value) as ActiveRule[];
}

/** A profile document: a plain JSON object, else null. */
export function readProfile(value: unknown): ProfileDocument | null {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as ProfileDocument) : null;
}

function readList(schema: z.ZodType, value: unknown): unknown[] {
  if (!Array.isArray(value)) return [];
  let all = true;
  for (const item of value) if (!valid(schema, item)) all = false;
  return all ? value : value.filter((item) => valid(schema, item));
}
