/** The statements of applying an add (`apply-add.ts`). */

/** When job `$1` was created: queued work older than this pass's own turns is rewritten too. */
export const JOB_CREATED_AT_SQL = "SELECT created_at AS at FROM memory_jobs WHERE id = $1";
