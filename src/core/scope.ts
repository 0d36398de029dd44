import type { RunnableConfig } from "@langchain/core/runnables";
import { ErrorCodes, MemoryError, describeValue, invalidInput } from "../errors.js";
import type { MemoryScopeLevel } from "../state/types.js";
import { checkIdText } from "./well-formed-text.js";

/** A user of a tenant: the scope every per-user operation acts for. */
export interface UserScope {
  tenantId: string;
  userId: string;
}

/** The longest tenant, user or thread id (the database stores ids as text; this bounds the indexes). */
export const MAX_SCOPE_ID_CHARS = 256;

/**
 * The tenant of an app with one tenant: what the command line (`chat`, `memories`, `profile`,
 * `rules`, `import-jsonl`, `serve --dev-user`) and the LangGraph `BaseStore` door use when no tenant
 * is named, so they all see the same user.
 */
export const DEFAULT_TENANT_ID = "default";

/**
 * The one rule for an id of a scope (a tenant, user or thread id), wherever it comes from: a
 * string, or a finite number taken as its decimal text (`42` and `"42"` are the same user). Absent
 * (null) when it is undefined, null, empty or only whitespace; INVALID_INPUT naming `field` when it
 * is of another type, longer than {@link MAX_SCOPE_ID_CHARS}, holds a NUL or half a character.
 *
 * @example
 * readScopeId(42, "config.configurable.user_id"); // "42"
 * readScopeId("  ", "scope.userId");              // null
 */
export function readScopeId(value: unknown, field: string): string | null {
  if (value === undefined || value === null) return null;
  let text: string;
  if (typeof value === "string") text = value;
  else if (typeof value === "number" && Number.isFinite(value)) text = String(value);
  else throw invalidInput(field, `must be a non-empty string (or a finite number), got a value of type ${typeof value}`);
  if (text.trim().length === 0) return null;
  if (text.length > MAX_SCOPE_ID_CHARS || text.includes("\0")) throw invalidInput(field, `at most ${MAX_SCOPE_ID_CHARS} characters and no NUL bytes`);
  // "t\uD800" and "t\uDBFF" would both be stored as "t\uFFFD": two tenants as one.
  return checkIdText(text, field);
}

/**
 * A run's thread id (`config.configurable.thread_id`), read as a scope id is — a non-empty string,
 * or a finite number taken as its decimal text — but without the scope ids' length cap (a thread id
 * may be a long key). Null when absent or empty; INVALID_INPUT naming `field` for another type, a
 * NUL or half a character. Every door that takes a thread id from a config reads it here, so a run
 * that one part accepts is never refused by another after its answer is stored.
 *
 * @example
 * readThreadId(41, "config.configurable.thread_id"); // "41"
 */
export function readThreadId(value: unknown, field: string): string | null {
  if (value === undefined || value === null || value === "") return null;
  if (typeof value === "string") return checkIdText(value, field);
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  throw invalidInput(field, `must be a non-empty string (or a finite number), got a value of type ${typeof value}`);
}

/** Where a scope's ids are read from: a typed `{ tenantId, userId }`, or a run's `config.configurable`. */
export type ScopeShape = "scope" | "configurable";

const KEYS: Record<ScopeShape, { tenantId: string; userId: string; field: (key: string) => string }> = {
  scope: { tenantId: "tenantId", userId: "userId", field: (k) => `scope.${k}` },
  configurable: { tenantId: "tenant_id", userId: "user_id", field: (k) => `config.configurable.${k}` },
};

/**
 * The user scope of an operation, by the one rule of {@link readScopeId}: `{ tenantId, userId }`
 * (`shape` "scope", the default) or a run's `config.configurable` with `tenant_id` and `user_id`
 * (`shape` "configurable"). A missing id is SCOPE_REQUIRED naming it (`details.missing`): memory
 * is never read or written for an unknown user, and never for a wider scope.
 *
 * @example
 * parseScope({ tenantId: "acme", userId: "alice" });                    // { tenantId: "acme", userId: "alice" }
 * parseScope({ tenant_id: "acme", user_id: 42 }, "configurable");       // { tenantId: "acme", userId: "42" }
 * parseScope({ tenantId: "acme" });                                     // throws SCOPE_REQUIRED, missing: ["scope.userId"]
 */
export function parseScope(input: unknown, shape: ScopeShape = "scope"): UserScope {
  const keys = KEYS[shape];
  const source = (input !== null && typeof input === "object" ? input : {}) as Record<string, unknown>;
  const tenantId = readScopeId(source[keys.tenantId], keys.field(keys.tenantId));
  const userId = readScopeId(source[keys.userId], keys.field(keys.userId));
  if (tenantId === null || userId === null) {
    const missing = [tenantId === null && keys.field(keys.tenantId), userId === null && keys.field(keys.userId)].filter((m): m is string => m !== false);
    const how =
      shape === "configurable"
        ? `give config.configurable.tenant_id and user_id on every run, e.g. { configurable: { thread_id: "t1", tenant_id: "acme", user_id: "alice" } }`
        : `give { tenantId, userId } (non-empty strings)`;
    throw new MemoryError(ErrorCodes.SCOPE_REQUIRED, `this acts for one user of one tenant: ${how}; missing: ${missing.join(", ")}`, { details: { missing } });
  }
  return { tenantId, userId };
}

/**
 * The user scope of a graph run: {@link parseScope} of `config.configurable`.
 *
 * @example
 * scopeFromConfig({ configurable: { thread_id: "t1", tenant_id: "acme", user_id: "alice" } }); // { tenantId: "acme", userId: "alice" }
 */
export function scopeFromConfig(config: RunnableConfig | undefined): UserScope {
  return parseScope(config?.configurable, "configurable");
}

/**
 * Whose memories an operation touches. A user scope (the default) is one user of one tenant; a
 * tenant scope is knowledge shared by every user of the tenant; global is shared by everyone.
 *
 * @example
 * const alice: MemoryScope = { tenantId: "acme", userId: "alice" };
 * const acme: MemoryScope = { level: "tenant", tenantId: "acme" };
 * const everyone: MemoryScope = { level: "global" };
 */
export type MemoryScope =
  | { level?: "user"; tenantId: string; userId: string }
  | { level: "tenant"; tenantId: string; userId?: undefined }
  | { level: "global"; tenantId?: undefined; userId?: undefined };

/** A validated scope with explicit columns, as stored. */
export interface ResolvedScope {
  level: MemoryScopeLevel;
  tenantId: string | null;
  userId: string | null;
}

/** Validate a scope; a missing or empty tenant/user is SCOPE_REQUIRED, never a wider scope. */
export function resolveScope(scope: unknown): ResolvedScope {
  if (!scope || typeof scope !== "object") {
    throw new MemoryError(ErrorCodes.SCOPE_REQUIRED, "a memory operation needs a scope: { tenantId, userId }, { level: 'tenant', tenantId } or { level: 'global' }");
  }
  const s = scope as { level?: unknown; tenantId?: unknown; userId?: unknown };
  const level = s.level ?? "user";
  if (level === "global") {
    if (s.tenantId !== undefined || s.userId !== undefined) {
      throw new MemoryError(ErrorCodes.INVALID_INPUT, "scope: a global scope takes no tenantId or userId");
    }
    return { level: "global", tenantId: null, userId: null };
  }
  if (level !== "user" && level !== "tenant") {
    throw new MemoryError(ErrorCodes.INVALID_INPUT, `scope.level: must be "user", "tenant" or "global", got ${describeValue(level)}`);
  }
  const tenantId = requireId(s.tenantId, "tenantId");
  if (level === "tenant") {
    if (s.userId !== undefined && s.userId !== null) {
      throw new MemoryError(ErrorCodes.INVALID_INPUT, "scope: a tenant scope takes no userId (drop it, or use a user scope)");
    }
    return { level: "tenant", tenantId, userId: null };
  }
  return { level: "user", tenantId, userId: requireId(s.userId, "userId") };
}

/** One id of the scope by the one rule ({@link readScopeId}); absent is SCOPE_REQUIRED. */
function requireId(value: unknown, name: string): string {
  const id = readScopeId(value, `scope.${name}`);
  if (id === null) throw new MemoryError(ErrorCodes.SCOPE_REQUIRED, `scope.${name} is required (a non-empty string)`, { details: { missing: [`scope.${name}`] } });
  return id;
}

/** A user scope, validated: both ids present (SCOPE_REQUIRED otherwise). Profiles, settings and a user's rules take only this. */
export function resolveUserScope(scope: unknown): { tenantId: string; userId: string } {
  const s = resolveScope(scope);
  if (s.level !== "user") {
    throw new MemoryError(ErrorCodes.SCOPE_REQUIRED, `this operation acts for one user: give { tenantId, userId }, not a ${s.level} scope`);
  }
  return { tenantId: s.tenantId!, userId: s.userId! };
}
