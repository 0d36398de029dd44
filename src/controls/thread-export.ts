/**
 * The user's conversation threads in their export: delete-all removes them, so the export is the
 * user's one copy of what they said. Read through a checkpointer's public `list`, so any
 * `BaseCheckpointSaver` the controls delete threads with is exported the same way.
 */
import { isBaseMessage, type StoredMessage } from "@langchain/core/messages";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import type { Database } from "../db/database.js";
import type { UserScope } from "../core/scope.js";
import { USER_THREADS_FOR_EXPORT_SQL } from "./thread-export-queries.js";

/** One conversation thread of the user, as exported. */
export interface ExportedThread {
  threadId: string;
  /** When the thread was first and last stored (null when another checkpointer holds it). */
  createdAt: string | null;
  updatedAt: string | null;
  /** Checkpoints of the thread's root namespace that were read. */
  checkpoints: number;
  /**
   * Every message the root namespace's `messages` channel held, oldest first, each once (by id, in
   * its latest form) — also the older ones the summarization node later removed from the state —
   * as LangChain's stored-message JSON (`mapStoredMessagesToChatMessages` reads them back).
   */
  messages: StoredMessage[];
}

/**
 * Every thread recorded as the user's, with its messages read through `saver` (scoped to the user,
 * so a thread of anyone else is never read).
 */
export async function exportUserThreads(db: Database, saver: BaseCheckpointSaver, s: UserScope): Promise<ExportedThread[]> {
  const { rows } = await db.transaction(
    (tx) => tx.query<{ thread_id: string; created_at: Date | string | null; updated_at: Date | string | null }>(USER_THREADS_FOR_EXPORT_SQL, [s.tenantId, s.userId]),
    { scope: s },
  );
  const threads: ExportedThread[] = [];
  for (const r of rows) {
    const tuples = [];
    for await (const t of saver.list({ configurable: { thread_id: r.thread_id, checkpoint_ns: "", tenant_id: s.tenantId, user_id: s.userId } })) tuples.push(t);
    // Oldest first: a message keeps the place it first appeared in and the form it last had.
    const messages = new Map<string, StoredMessage>();
    for (const t of tuples.reverse()) {
      const channel = t.checkpoint.channel_values?.messages;
      if (!Array.isArray(channel)) continue;
      for (const m of channel) {
        const stored = isBaseMessage(m) ? m.toDict() : (m as StoredMessage);
        messages.set(isBaseMessage(m) && m.id ? `id:${m.id}` : `json:${JSON.stringify(stored)}`, stored);
      }
    }
    threads.push({ threadId: r.thread_id, createdAt: isoOrNull(r.created_at), updatedAt: isoOrNull(r.updated_at), checkpoints: tuples.length, messages: [...messages.values()] });
  }
  return threads;
}

const isoOrNull = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
