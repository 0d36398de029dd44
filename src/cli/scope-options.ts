import { DEFAULT_TENANT_ID, readScopeId, type UserScope } from "../core/scope.js";
import { ErrorCodes, MemoryError } from "../errors.js";

/** `--tenant T --user U`: whose memory a command acts on (one parser for every command). */
export const SCOPE_OPTIONS = {
  tenant: { type: "string" },
  user: { type: "string" },
} as const;

/** The line every command's help uses for the two options. */
export const SCOPE_HELP = `  --user U       whose memory (required)
  --tenant T     their tenant (default "${DEFAULT_TENANT_ID}", the same for every command)`;

/**
 * The user named by --user (required: SCOPE_REQUIRED) of --tenant, or of the default tenant
 * ({@link DEFAULT_TENANT_ID}) when none is given — the same default for every command, so
 * `chat --user alice` and `memories list --user alice` are one user.
 */
export function requireUser(values: { tenant?: string; user?: string }, what = "whose memory to act on"): UserScope {
  const userId = readScopeId(values.user, "--user");
  if (userId === null) throw new MemoryError(ErrorCodes.SCOPE_REQUIRED, `--user U is required: ${what} (--tenant T too unless it is "${DEFAULT_TENANT_ID}")`);
  return { tenantId: readScopeId(values.tenant, "--tenant") ?? DEFAULT_TENANT_ID, userId };
}

/**
 * `USER` or `TENANT:USER` (the first colon splits), as `serve --dev-user` takes it: the user of the
 * default tenant, or of the one named.
 */
export function parseUserSpec(value: string, option: string): UserScope {
  const i = value.indexOf(":");
  const tenant = i >= 0 ? value.slice(0, i) : undefined;
  const user = i >= 0 ? value.slice(i + 1) : value;
  if (readScopeId(user, option) === null || (tenant !== undefined && readScopeId(tenant, option) === null)) {
    throw new MemoryError(ErrorCodes.INVALID_INPUT, `${option}: write USER or TENANT:USER, e.g. alice or acme:alice`);
  }
  return requireUser({ tenant, user });
}

/**
 * The options that name `scope` on a command line, for hints: `--user U`, and `--tenant T` unless
 * it is the default tenant.
 */
export function scopeArgs(scope: UserScope): string {
  return `--user ${shellWord(scope.userId)}${scope.tenantId === DEFAULT_TENANT_ID ? "" : ` --tenant ${shellWord(scope.tenantId)}`}`;
}

// An id as one word a shell reads back unchanged (quoted only when it needs to be).
function shellWord(s: string): string {
  return /^[\w.@%+=:,/-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
