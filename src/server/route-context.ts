import type { FastifyRequest } from "fastify";
import type { MemoryControls } from "../controls/memory-controls.js";
import type { RetentionSweep } from "../retention/retention-sweep.js";
import { isMemoryError } from "../errors.js";
import type { AuthenticatedUser } from "./authentication.js";
import { notFound } from "./http-errors.js";
import type { ViewerSessions } from "./viewer-sessions.js";

/** What every route module gets. */
export interface RouteContext {
  controls: MemoryControls;
  retention: RetentionSweep;
  sessions: ViewerSessions;
  /** Label recorded as `actor` in the deletion audit for deletions through the API. */
  actor: string;
  /** The authenticated user of the request (set by the authentication hook; never from the URL or body). */
  userOf(request: FastifyRequest): AuthenticatedUser;
}

/** Run `fn`; a NOT_FOUND from the library becomes the one fixed 404 body of this kind of item. */
export async function orNotFound<T>(what: "memory" | "rule" | "profile", fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (isMemoryError(err, "NOT_FOUND")) throw notFound(what);
    throw err;
  }
}
