import { z } from "zod";
import { invalidInput } from "../errors.js";

/** Is `tz` an IANA time zone this runtime knows (e.g. "Europe/Paris")? */
export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** Is `tag` a well-formed BCP 47 language tag (e.g. "fr", "pt-BR")? */
export function isLanguageTag(tag: string): boolean {
  try {
    return Intl.getCanonicalLocales(tag).length === 1;
  } catch {
    return false;
  }
}

/**
 * The default profile: stable facts worth having in every prompt — who the user is (name,
 * occupation, employer, home city), how to talk to them (language, timezone, units) and their
 * plan. The profile is always injected, so these reach every answer without a search; facts that
 * matter only sometimes stay memories and are retrieved when relevant. Unknown fields are refused
 * (strict), so a typo never becomes a new field. Free-form text belongs in `notes`.
 */
export const DefaultProfileSchema = z.strictObject({
  name: z.string().trim().min(1).max(200).optional(),
  timezone: z.string().refine(isTimeZone, "must be an IANA time zone such as Europe/Paris").optional(),
  units: z.enum(["metric", "imperial"]).optional(),
  language: z.string().refine(isLanguageTag, "must be a BCP 47 language tag such as en or pt-BR").optional(),
  /** Home city (or region): where the user lives now. */
  location: z.string().trim().min(1).max(200).optional(),
  /** What the user does: job title or role, with a short detail ("paediatric nurse (mostly night shifts)"). */
  occupation: z.string().trim().min(1).max(300).optional(),
  /** Who the user works for ("Stripe", "self-employed"). */
  employer: z.string().trim().min(1).max(200).optional(),
  plan: z.string().trim().min(1).max(100).optional(),
  notes: z.string().max(2000).optional(),
});

/**
 * Most important first. When a profile does not fit `budgets.profile`, fields are dropped from the
 * end: free-form notes go first (longest, least structured), then the plan, employer, occupation,
 * home city, units, timezone and language; the name goes last (every reply may address the user).
 */
export const DEFAULT_PROFILE_PRIORITIES = ["name", "language", "timezone", "units", "location", "occupation", "employer", "plan", "notes"] as const;

/** An app's profile: a zod object schema plus the order in which fields may be dropped. */
export interface ProfileSchemaDefinition {
  /** A zod object schema (its keys are the profile's fields). */
  schema: z.ZodObject;
  /** Field names, most important first; fields not listed come after, in document order. */
  priorities?: readonly string[];
}

export interface ResolvedProfileSchema {
  schema: z.ZodObject;
  fields: readonly string[];
  priorities: readonly string[];
}

/** Check an app's schema once (at store construction): it must be a zod object. */
export function resolveProfileSchema(definition?: ProfileSchemaDefinition): ResolvedProfileSchema {
  if (!definition) {
    return { schema: DefaultProfileSchema, fields: Object.keys(DefaultProfileSchema.shape), priorities: DEFAULT_PROFILE_PRIORITIES };
  }
  const schema = definition.schema as unknown;
  if (!(schema instanceof z.ZodObject)) throw invalidInput("profile.schema", "must be a zod object schema (z.object / z.strictObject)");
  const fields = Object.keys(definition.schema.shape);
  const priorities = definition.priorities ?? fields;
  const unknown = priorities.filter((p) => !fields.includes(p));
  if (unknown.length > 0) throw invalidInput("profile.priorities", `names fields the schema does not have: ${unknown.join(", ")}`);
  return { schema: definition.schema, fields, priorities };
}

/**
 * Validate a whole profile document; INVALID_INPUT names every problem (field and message, never
 * the value).
 */
export function validateProfile(schema: ResolvedProfileSchema, document: Record<string, unknown>): Record<string, unknown> {
  const parsed = schema.schema.safeParse(document);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".") || "(profile)"}: ${i.message}`);
    throw invalidInput("profile", `does not match the profile schema — ${problems.join("; ")}`, {
      issues: parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })),
    });
  }
  return parsed.data as Record<string, unknown>;
}
