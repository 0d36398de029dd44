/**
 * What the user controls offer the write path: deletions with an audit row and the confirmed
 * delete-all; `MemoryControls.writeTarget` is one.
 */
import type { ChangeSource } from "../core/change-source.js";
import type { UserScope } from "../core/scope.js";

/**
 * User controls the write path routes deletions through when the app has them: deletions then
 * leave an audit row (without content), and "forget everything" goes to the confirmed delete-all
 * path instead of deleting at once.
 */
export interface ControlsTarget {
  /**
   * Delete these memories of the user (row and embedding) and the fact wherever it is quoted, and
   * audit each deletion without its content; returns how many were deleted. `exceptJobId`: the job
   * doing it (its own payload is left alone); `terms`: what the request names besides, withdrawn too.
   */
  deleteMemories(scope: UserScope, ids: readonly string[], source: ChangeSource, options?: { exceptJobId?: number | null; terms?: readonly string[] }): Promise<number>;
  /**
   * Record a "forget everything about me" request. Never deletes by itself: the app shows the user
   * the delete-all confirmation (a token that expires) and deletes only once it is confirmed.
   */
  requestDeleteAll(scope: UserScope, source: ChangeSource): Promise<void>;
}
