import type { Database } from "../db/database.js";
import type { PostgresCheckpointer } from "../checkpointer/postgres-checkpointer.js";
import { GET_API_THREAD_SQL, PATCH_API_THREAD_SQL, PUT_API_THREAD_SQL, searchApiThreadsSql, type ApiThreadRow } from "./api-thread-queries.js";

type Metadata = Record<string, unknown>;

/** A thread as the LangGraph API returns it. */
export interface ApiThread {
  thread_id: string;
  metadata: Metadata;
  created_at: string;
  updated_at: string;
  status: "idle";
}

/**
 * The embed server's `ThreadSaver` on our database: the API's thread metadata in `api_threads`,
 * and every thread the checkpointer holds, so a thread an app wrote with `PostgresCheckpointer`
 * directly is listed and readable too. A thread without a recorded `graph_id` (never run through
 * the API) is read with `defaultGraphId`. Like the stock dev server this is the operator's view:
 * it lists every thread, whoever owns it (see docs/deploy.md).
 */
export class ApiThreadRegistry {
  constructor(
    private readonly db: Database,
    private readonly checkpointer: PostgresCheckpointer,
    private readonly defaultGraphId: string,
  ) {}

  /** The thread, or null when neither the registry nor the checkpointer has it. */
  async get(threadId: string): Promise<ApiThread | null> {
    const { rows } = await this.db.query<ApiThreadRow>(GET_API_THREAD_SQL, [threadId]);
    return rows[0] ? this.toThread(rows[0]) : null;
  }

  async set(threadId: string, options: { kind: "put" | "patch"; metadata?: Metadata }): Promise<ApiThread> {
    await this.db.query(options.kind === "put" ? PUT_API_THREAD_SQL : PATCH_API_THREAD_SQL, [threadId, JSON.stringify(options.metadata ?? {})]);
    const thread = await this.get(threadId);
    if (!thread) throw new Error(`thread ${threadId} vanished while it was registered`);
    return thread;
  }

  /** Delete the thread with its checkpoints (the checkpointer's deleteThread clears the registry row too). */
  async delete(threadId: string): Promise<void> {
    await this.checkpointer.deleteThread(threadId);
  }

  async *search(options: { metadata?: Metadata; limit: number; offset: number; sortBy: "created_at" | "updated_at"; sortOrder: "asc" | "desc" }): AsyncGenerator<{ thread: ApiThread; total: number }> {
    const { rows } = await this.db.query<ApiThreadRow & { total: string | number }>(searchApiThreadsSql(options.sortBy, options.sortOrder), [
      JSON.stringify(options.metadata ?? {}),
      options.limit,
      options.offset,
    ]);
    for (const row of rows) yield { thread: this.toThread(row), total: Number(row.total) };
  }

  private toThread(row: ApiThreadRow): ApiThread {
    const metadata = typeof row.metadata === "string" ? (JSON.parse(row.metadata) as Metadata) : row.metadata;
    return {
      thread_id: row.thread_id,
      metadata: { graph_id: this.defaultGraphId, ...metadata },
      created_at: new Date(row.created_at).toISOString(),
      updated_at: new Date(row.updated_at).toISOString(),
      status: "idle",
    };
  }
}
