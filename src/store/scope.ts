import { ErrorCodes, MemoryError, describeValue } from "../errors.js";
import type { DbScope } from "../db/database.js";
import type { MemoryScopeLevel } from "../state/types.js";
import { readScopeId } from "../core/scope.js";

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

/** One id of the scope by the one rule (`readScopeId` in core/scope.ts); absent is SCOPE_REQUIRED. */
function requireId(value: unknown, name: string): string {
  const id = readScopeId(value, `scope.${name}`);
  if (id === null) throw new MemoryError(ErrorCodes.SCOPE_REQUIRED, `scope.${name} is required (a non-empty string)`, { details: { missing: [`scope.${name}`] } });
  return id;
}

/** The transaction scope row-level security reads (global operations carry none). */
export function dbScopeOf(scope: ResolvedScope): DbScope | undefined {
  return scope.tenantId === null ? undefined : { tenantId: scope.tenantId, userId: scope.userId };
}

/** A user scope, validated: both ids present (SCOPE_REQUIRED otherwise). Profiles, settings and a user's rules take only this. */
export function resolveUserScope(scope: unknown): { tenantId: string; userId: string } {
  const s = resolveScope(scope);
  if (s.level !== "user") {
    throw new MemoryError(ErrorCodes.SCOPE_REQUIRED, `this operation acts for one user: give { tenantId, userId }, not a ${s.level} scope`);
  }
  return { tenantId: s.tenantId!, userId: s.userId! };
}
