import type { Queryable } from "../db/database.js";
import type { UserScope } from "../core/scope.js";
import { isSessionMemory } from "../sessions/session-metadata.js";
import { withdrawalOf, type Withdrawal, type WithdrawnStatement } from "../sessions/withdrawal.js";
import { WITHDRAWN_MEMORIES_SQL } from "./forget-queries.js";

/**
 * The withdrawal of some of the user's memories, read in the caller's transaction: each memory's
 * text (replaced by `replacedBy` when it is being edited or superseded) and id. A past-session
 * memory contributes its id only: it is the summary of a whole conversation, and every name in it
 * as a cue would strip unrelated sentences from every other summary.
 *
 * @example
 * const w = await withdrawalForMemories(tx, alice, [id]);
 */
export async function withdrawalForMemories(tx: Queryable, scope: UserScope, ids: readonly string[], options: { replacedBy?: string | null; terms?: readonly string[] } = {}): Promise<Withdrawal> {
  if (ids.length === 0) return withdrawalOf([], options.terms ?? []);
  const { rows } = await tx.query<{ id: string; kind: string; text: string; metadata: Record<string, unknown> | string }>(
    WITHDRAWN_MEMORIES_SQL,
    [scope.tenantId, scope.userId, [...ids]],
  );
  const statements: WithdrawnStatement[] = [];
  const sessionIds: string[] = [];
  for (const r of rows) {
    const metadata = typeof r.metadata === "string" ? (JSON.parse(r.metadata) as Record<string, unknown>) : r.metadata;
    if (isSessionMemory({ kind: r.kind, metadata })) sessionIds.push(r.id);
    else statements.push({ id: r.id, text: r.text, replacedBy: options.replacedBy ?? null });
  }
  const w = withdrawalOf(statements, options.terms ?? []);
  return { ...w, ids: [...w.ids, ...sessionIds] };
}
