/** The statements of `bench overhead`: totals read after the timed turns. */

export const JOBS_BY_STATE_SQL = "SELECT state, count(*)::int AS n FROM memory_jobs GROUP BY state";

/** How many usage marks were written (the sum of every memory's access count). */
export const TOTAL_ACCESS_COUNT_SQL = "SELECT coalesce(sum(access_count), 0)::int AS n FROM memories";
