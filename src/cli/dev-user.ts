import { ErrorCodes, MemoryError } from "../errors.js";
import type { AuthenticatedUser } from "../server/authentication.js";

/** Hosts that keep a server on this machine (`--dev-user` runs only there). */
export const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

/** `--dev-user TENANT:USER` → the user a one-time viewer sign-in link is issued for. */
export function parseDevUser(value: string): AuthenticatedUser {
  const i = value.indexOf(":");
  const tenantId = i > 0 ? value.slice(0, i) : "";
  const userId = i > 0 ? value.slice(i + 1) : "";
  if (!tenantId.trim() || !userId.trim()) throw new MemoryError(ErrorCodes.INVALID_INPUT, "--dev-user: write TENANT:USER, e.g. acme:alice");
  return { tenantId, userId };
}
